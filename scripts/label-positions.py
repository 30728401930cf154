#!/usr/bin/env python3
"""Labels the positions of `libro match --record` games (shatranj) with Fairy-Stockfish's
search score, for the network trainer (`crates/chess/examples/nnue.rs`).

    scripts/label-positions.py NODES K/N OUT RECORDS...     # STEP=2 labels every other ply

Each position from ply 8 on is set as `position startpos moves ...`, read back as the
engine's FEN (`d`), and searched to NODES nodes; the line written is {"fen", "cp" (for the
side to move; mates as +-3000), "best", "result" (the side to move's score in its game)}.
K/N labels every N-th game from the K-th, so N processes share the work. A promotion the
records write without its letter (`h7h8`) is given the one the engine reads. A benchmark
tool, not a test: it needs the Fairy-Stockfish that scripts/strength.sh builds.
Self-play records of one engine against itself hold each game twice (colours swapped, the
same moves): label those with N = 2 and keep one half."""
import json, subprocess, sys
nodes = int(sys.argv[1]); k, n = map(int, sys.argv[2].split("/")); out = open(sys.argv[3], "w"); files = sys.argv[4:]
eng = subprocess.Popen([str(__import__("pathlib").Path(__file__).resolve().parent.parent / "target/fsf/fairy-stockfish/src/stockfish")], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(l): eng.stdin.write(l + "\n"); eng.stdin.flush()
def until(p):
    while True:
        l = eng.stdout.readline()
        if not l: sys.exit("engine died")
        if l.startswith(p): return l
send("uci"); until("uciok")
for o in ("UCI_Variant value shatranj", "Threads value 1", "Hash value 16"): send("setoption name " + o)
send("isready"); until("readyok")
def fen_of(moves):
    send("position startpos moves " + " ".join(moves)); send("d")
    f = until("Fen:").split(maxsplit=1)[1].strip(); send("isready"); until("readyok"); return f
g = 0
for fn in files:
    for line in open(fn):
        g += 1
        if g % n != k: continue
        d = json.loads(line); moves = [p["move"] for p in d["plies"]]
        scores = [s["score"] for s in d["result"]["seats"]] if d.get("result") else None
        if scores is None: continue
        send("ucinewgame")
        for ply in range(8, len(moves), int(__import__("os").environ.get("STEP", "1"))):
            ok = False
            for _ in range(4):
                fen = fen_of(moves[:ply]); parts = fen.split()
                read = 2 * (int(parts[-1]) - 1) + (parts[1] == "b")
                if read == ply: ok = True; break
                for letter in "qfm":
                    f2 = fen_of(moves[:read] + [moves[read] + letter]).split()
                    if 2 * (int(f2[-1]) - 1) + (f2[1] == "b") == read + 1:
                        moves[read] += letter; break
                else:
                    break
            if not ok: break
            send(f"go nodes {nodes}")
            sc = None
            while not (info := eng.stdout.readline()).startswith("bestmove"):
                w = info.split()
                if "score" in w:
                    i = w.index("score"); kind, v = w[i + 1], int(w[i + 2])
                    sc = v if kind == "cp" else (3000 if v > 0 else -3000)
            best = info.split()[1]
            if sc is None: continue
            stm = ply % 2
            out.write(json.dumps({"fen": fen, "cp": sc, "best": best, "result": scores[stm]}) + "\n")
        out.flush()
send("quit")
