# Lists, with GNU Backgammon, every legal play of random positions and non-double rolls,
# as the positions they lead to (gnubg Position IDs, the mover still the player on roll).
# Run: gnubg -t -q -p gnubg_moves.py > gnubg_moves.txt   (gnubg 1.07.001, Debian 12)
# Each output line: POSITION_ID DIE DIE RESULT_ID ... (results sorted; a roll with no play
# lists the position itself).
import random

random.seed(19)
gnubg.command("set evaluation chequerplay evaluation plies 0")
gnubg.command("new game")


def random_board():
    while True:
        me = [0] * 25
        them = [0] * 25
        for side, other in ((me, them), (them, me)):
            for _ in range(15):
                r = random.random()
                if r < 0.1:
                    continue  # borne off
                if r < 0.2:
                    side[24] += 1  # on the bar
                    continue
                p = random.randrange(24)
                if other[23 - p] > 0:
                    continue  # the other side holds it: this checker is off
                side[p] += 1
        if sum(me) > 0 and sum(them) > 0:
            return (tuple(them), tuple(me))


def apply(board, pairs):
    them, me = list(board[0]), list(board[1])
    hits = 0
    for f, t in pairs:
        me[f - 1] -= 1
        if t > 0:
            me[t - 1] += 1
            if them[24 - t] == 1:
                them[24 - t] = 0
                them[24] += 1
                hits += 1
    return (tuple(them), tuple(me)), hits


for _ in range(600):
    board = random_board()
    pid = gnubg.positionid(board)
    d1, d2 = random.sample(range(1, 7), 2)
    gnubg.command("set board %s" % pid)
    gnubg.command("set dice %d %d" % (d1, d2))
    try:
        moves = [m["move"] for m in gnubg.hint(10000)["hint"]]
    except Exception:
        moves = []
    results = set()
    for m in moves:
        after, hits = apply(board, gnubg.parsemove(m))
        assert hits == m.count("*"), (pid, d1, d2, m)
        results.add(gnubg.positionid(after))
    if not results:
        results.add(pid)
    print(pid, d1, d2, " ".join(sorted(results)))
