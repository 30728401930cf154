#!/usr/bin/env python3
"""Labels the positions of `libro match --record` games with Fairy-Stockfish's search score,
for the network trainer (`crates/chess/examples/nnue.rs`).

    scripts/label-positions.py NODES K/N OUT RECORDS... [--step 2] [--variant acedrex]

`--variant` is Fairy-Stockfish's name of the game (shatranj by default); one it does not know
itself (acedrex, forcado, short assize) is read from `--variant-path`, the `variants.ini` of
../shared/anchors (or ANCHORS=DIR) by default. `--step 2` labels every other ply (default: the environment's
STEP, else 1).

Each position from ply 8 on is set as `position startpos moves ...`, read back as the
engine's FEN (`d`), and searched to NODES nodes; each line written is {"fen", "cp" (for the
side to move; mates as +-3000), "best", "result" (the side to move's score in its game)}.
K/N labels every N-th game from the K-th, so N processes share the work. A promotion the
records write without its letter (`h7h8`) is given the one the engine reads, and so is a move
the engine writes as a piece's promotion (acedrex's fers moving first: `d1c2+`).

A benchmark tool, not a test: it needs the Fairy-Stockfish that scripts/strength.sh builds.
Self-play records of one engine against itself hold each game twice (colours swapped, the
same moves): label those with N = 2 and keep one half."""

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Where scripts/strength.sh and train-network.sh build it: under CARGO_TARGET_DIR if set.
ENGINE = Path(os.environ.get("CARGO_TARGET_DIR") or ROOT / "target") / "fsf/fairy-stockfish/src/stockfish"
# ../shared/anchors beside this checkout, or ANCHORS=DIR (as scripts/strength.sh and candidate.sh take it).
VARIANTS = Path(os.environ.get("ANCHORS") or ROOT.parent / "shared/anchors") / "variants.ini"
FIRST_PLY = 8
MATE = 3000


class Engine:
    def __init__(self, variant, variant_path):
        self.proc = subprocess.Popen(
            [str(ENGINE)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.until("uciok")
        options = ["Threads value 1", "Hash value 16"]
        if variant_path is not None:
            options.insert(0, f"VariantPath value {variant_path}")
        for option in options:
            self.send("setoption name " + option)
        self.send("isready")
        self.until("readyok")
        self.send("setoption name UCI_Variant value " + variant)
        self.send("isready")
        self.until("readyok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, prefix):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit("Fairy-Stockfish ended")
            if line.startswith(prefix):
                return line

    def fen_after(self, moves):
        self.send("position startpos moves " + " ".join(moves))
        self.send("d")
        fen = self.until("Fen:").split(maxsplit=1)[1].strip()
        self.send("isready")
        self.until("readyok")
        return fen

    def score(self, nodes):
        """The last score of a search of `nodes` nodes (for the side to move) and its move."""
        self.send(f"go nodes {nodes}")
        score = None
        while not (line := self.proc.stdout.readline()).startswith("bestmove"):
            words = line.split()
            if "score" in words:
                i = words.index("score")
                kind, value = words[i + 1], int(words[i + 2])
                score = value if kind == "cp" else (MATE if value > 0 else -MATE)
        return score, line.split()[1]


def plies_of(fen):
    fields = fen.split()
    return 2 * (int(fields[-1]) - 1) + (fields[1] == "b")


def fen_at(engine, moves, ply):
    """The FEN after `ply` plies, mending promotions written without their letter (the
    engine then stops reading the moves early); None if they cannot be mended."""
    for _ in range(4):
        fen = engine.fen_after(moves[:ply])
        read = plies_of(fen)
        if read == ply:
            return fen
        for letter in ("q", "f", "m", "+"):
            if plies_of(engine.fen_after(moves[:read] + [moves[read] + letter])) == read + 1:
                moves[read] += letter
                break
        else:
            return None
    return None


def arguments():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("nodes", type=int, help="Fairy-Stockfish's nodes a position")
    p.add_argument("share", help="K/N: every N-th game from the K-th")
    p.add_argument("out", help="the labels' file (JSON lines), overwritten")
    p.add_argument("records", nargs="+", help="`libro match --record` files")
    p.add_argument("--step", type=int, default=int(os.environ.get("STEP", "1")))
    p.add_argument("--variant", default="shatranj")
    p.add_argument("--variant-path", type=Path, default=None)
    args = p.parse_args()
    k, n = map(int, args.share.split("/"))
    if not 0 <= k < n:
        p.error(f"share {args.share}: K must be 0 to N-1")
    if args.variant_path is None and args.variant != "shatranj":
        args.variant_path = VARIANTS
    if args.variant_path is not None and not args.variant_path.is_file():
        p.error(f"no variants file at {args.variant_path}")
    return args, k, n


def main():
    args, k, n = arguments()
    nodes, step = args.nodes, args.step
    out = open(args.out, "w")
    engine = Engine(args.variant, args.variant_path)
    game = 0
    for name in args.records:
        for line in open(name):
            game += 1
            if game % n != k:
                continue
            record = json.loads(line)
            if not record.get("result"):
                continue
            moves = [p["move"] for p in record["plies"]]
            scores = [s["score"] for s in record["result"]["seats"]]
            engine.send("ucinewgame")
            for ply in range(FIRST_PLY, len(moves), step):
                fen = fen_at(engine, moves, ply)
                if fen is None:
                    break
                score, best = engine.score(nodes)
                if score is not None:
                    row = {"fen": fen, "cp": score, "best": best, "result": scores[ply % 2]}
                    out.write(json.dumps(row) + "\n")
            out.flush()
    engine.send("quit")


if __name__ == "__main__":
    main()
