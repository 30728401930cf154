#!/usr/bin/env python3
"""Labels the positions of `libro match --record` games of shatranj with Fairy-Stockfish's
search score, for the network trainer (`crates/chess/examples/nnue.rs`).

    scripts/label-positions.py NODES K/N OUT RECORDS...     # STEP=2 labels every other ply

Each position from ply 8 on is set as `position startpos moves ...`, read back as the
engine's FEN (`d`), and searched to NODES nodes; each line written is {"fen", "cp" (for the
side to move; mates as +-3000), "best", "result" (the side to move's score in its game)}.
K/N labels every N-th game from the K-th, so N processes share the work. A promotion the
records write without its letter (`h7h8`) is given the one the engine reads.

A benchmark tool, not a test: it needs the Fairy-Stockfish that scripts/strength.sh builds.
Self-play records of one engine against itself hold each game twice (colours swapped, the
same moves): label those with N = 2 and keep one half."""

import json
import os
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent / "target/fsf/fairy-stockfish/src/stockfish"
FIRST_PLY = 8
MATE = 3000


class Engine:
    def __init__(self):
        self.proc = subprocess.Popen(
            [str(ENGINE)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.until("uciok")
        for option in ("UCI_Variant value shatranj", "Threads value 1", "Hash value 16"):
            self.send("setoption name " + option)
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
        for letter in "qfm":
            if plies_of(engine.fen_after(moves[:read] + [moves[read] + letter])) == read + 1:
                moves[read] += letter
                break
        else:
            return None
    return None


def main():
    nodes = int(sys.argv[1])
    k, n = map(int, sys.argv[2].split("/"))
    out = open(sys.argv[3], "w")
    step = int(os.environ.get("STEP", "1"))
    engine = Engine()
    game = 0
    for name in sys.argv[4:]:
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
