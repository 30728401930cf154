#!/usr/bin/env python3
"""Labels positions of `libro match --record` games with a UCI engine's search score, for
the Texel example's `--scores` (labels less noisy than one result for a whole game).

    scripts/engine-scores.py shatranj games.jsonl scores.jsonl --depth 10 --every 6

Each `--every`-th position from ply `--skip` on is set as `position startpos moves …` and
searched to `--depth`; the line written is {"game": n, "ply": i, "cp": v}, `n` counting the
records' lines from 0 and `v` from the first seat's view (mates as +-3000). `--part k/n`
labels every n-th game from the k-th, so n processes share the work. The engine defaults to
the Fairy-Stockfish that scripts/strength.sh builds; `--variants-ini FILE` gives it the
definitions of variants it does not know (acedrex, forcado, short assize). Only for
rulesets whose seats alternate (two seats, no passes).

A UCI engine silently stops reading a `position` at a move it does not know, and records
write moves in libro's notation, which leaves out the promotion letter UCI wants (`h7h8`,
not `h7h8q`) and the mark of the acedrex fers' first leap (`d1d3`, not `d1d3+`). So every
position is checked by the engine's `d` (its FEN's side to move and move number); a move
the engine stopped at is given the letter it reads, and a position it still does not reach
is left out, counted on stderr."""
import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
ap.add_argument("variant", help="the engine's UCI_Variant")
ap.add_argument("records", help="libro match --record JSON lines")
ap.add_argument("out", help="scores, JSON lines")
ap.add_argument("--every", type=int, default=6)
ap.add_argument("--skip", type=int, default=10)
ap.add_argument("--depth", type=int, default=10)
ap.add_argument("--engine", default=str(ROOT / "target/fsf/fairy-stockfish/src/stockfish"))
ap.add_argument("--variants-ini", help="a variants.ini for the engine's VariantPath")
ap.add_argument("--part", default="0/1", help="k/n: this process's share of the games")
a = ap.parse_args()
k, n = map(int, a.part.split("/"))

engine = subprocess.Popen([a.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def send(line):
    engine.stdin.write(line + "\n")
    engine.stdin.flush()


def read_until(prefix):
    while True:
        line = engine.stdout.readline()
        if not line:
            raise SystemExit(f"{a.engine} stopped")
        if line.startswith(prefix):
            return line


send("uci")
read_until("uciok")
if a.variants_ini:
    send(f"setoption name VariantPath value {a.variants_ini}")
send(f"setoption name UCI_Variant value {a.variant}")
send("setoption name Threads value 1")
send("setoption name Hash value 16")
send("isready")
read_until("readyok")


def plies_read():
    """How many plies from the start the engine's position is (by its `d` FEN's side to move
    and move number: games from the start position, White first)."""
    send("d")
    fen = read_until("Fen:").split()[1:]
    send("isready")
    read_until("readyok")
    return 2 * (int(fen[-1]) - 1) + (fen[1] == "b")


def set_position(moves, ply):
    """Sets the engine's position `ply` plies into `moves`, giving a promotion the letter the
    engine reads (kept in `moves` for the game's later positions); False if it cannot."""
    while True:
        send("position startpos moves " + " ".join(moves[:ply]))
        read = plies_read()
        if read == ply:
            return True
        start = " ".join(["position startpos moves"] + moves[:read])
        # A promotion's piece letter, or `+`: Fairy-Stockfish's mark of the acedrex fers'
        # first leap (`d1d3+`).
        for letter in "abcdefghijklmnopqrstuvwxyz+":
            send(f"{start} {moves[read]}{letter}")
            if plies_read() == read + 1:
                moves[read] += letter
                break
        else:
            return False


unread = 0
with open(a.records) as records, open(a.out, "w") as out:
    for game, line in enumerate(records):
        if game % n != k:
            continue
        moves = [p["move"] for p in json.loads(line)["plies"]]
        send("ucinewgame")
        for ply in range(a.skip, len(moves), a.every):
            if not set_position(moves, ply):
                unread += 1
                continue
            send(f"go depth {a.depth}")
            score = None
            while not (info := engine.stdout.readline()).startswith("bestmove"):
                words = info.split()
                if words[:1] == ["info"] and "score" in words:
                    kind, value = words[words.index("score") + 1 : words.index("score") + 3]
                    if kind == "cp":
                        score = int(value)
                    elif kind == "mate":
                        score = 3000 if int(value) > 0 else -3000
            if score is None:
                continue
            # The engine scores for the side to move; the second seat moves at odd plies.
            out.write(json.dumps({"game": game, "ply": ply, "cp": -score if ply % 2 else score}) + "\n")
        out.flush()
send("quit")
if unread:
    print(f"{unread} positions left out: the engine did not read every move to them", file=sys.stderr)
