#!/usr/bin/env python3
# A small CAAI junqi engine for the adapter's tests: it keeps the board in its own frame (its
# side at the bottom, rows G-L), plays a random one-step move, and checks that everything it is
# told fits that board; anything that does not is written to `complaint` and it exits with 7.
import os, random, sys
DIR = os.path.dirname(os.path.abspath(__file__))
open(os.path.join(DIR, "pid"), "w").write(str(os.getpid()))
log = open(os.path.join(DIR, "input.log"), "a")
rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
LAYOUT = "abccddeeffggghhhiiijjkklj"
SLOTS = "G0 G1 G2 G3 G4 H0 H2 H4 I0 I1 I3 I4 J0 J2 J4 K0 K1 K2 K3 K4 L0 L1 L2 L3 L4".split()
CAMPS = {"C1", "C3", "D2", "E1", "E3", "H1", "H3", "I2", "J1", "J3"}
HQ = {"A1", "A3", "L1", "L3"}
ROWS = "ABCDEFGHIJKL"
def name(r, c): return ROWS[r] + str(c)
def turned(p): return name(11 - ROWS.index(p[0]), 4 - int(p[1]))
LINKS = {name(r, c): set() for r in range(12) for c in range(5)}
def link(a, b):
    LINKS[a].add(b); LINKS[b].add(a)
for r in range(12):
    for c in range(5):
        if c < 4: link(name(r, c), name(r, c + 1))
        if r < 11 and not (r == 5 and c in (1, 3)): link(name(r, c), name(r + 1, c))
for camp in CAMPS:
    r, c = ROWS.index(camp[0]), int(camp[1])
    for dr in (-1, 1):
        for dc in (-1, 1):
            link(camp, name(r + dr, c + dc))
board = {}
for slot, rank in zip(SLOTS, LAYOUT):
    board[slot] = ("me", rank)
    board[turned(slot)] = ("enemy", None)
state = {"first": None, "gos": 0, "mine": None}
def complain(text):
    open(os.path.join(DIR, "complaint"), "a").write(text + "\n")
    sys.stderr.write("complaint: " + text + "\n")
    sys.exit(7)
def say(text):
    sys.stdout.write(text + "\n"); sys.stdout.flush()
def check_post(p, line):
    if len(p) != 2 or p[0] not in ROWS or p[1] not in "01234": complain("not a post in " + line)
def check_flag(flag, line):
    if flag == "00": return
    check_post(flag, line)
    if flag not in ("A1", "A3") or board.get(flag, (None,))[0] != "enemy":
        complain("the enemy flag is not at " + flag + " in my frame: " + line)
def apply(mover, frm, to, r, line):
    piece = board.get(frm)
    if piece is None or piece[0] != mover: complain(f"no {mover} piece on {frm}: {line}")
    target = board.get(to)
    if target is not None and target[0] == mover: complain(f"{mover} moves onto its own piece at {to}: {line}")
    if (target is None) != (r == 3): complain(f"result {r} for a move to {'an empty' if target is None else 'an occupied'} post: {line}")
    del board[frm]
    if r in (1, 3): board[to] = piece
    elif r == 2: del board[to]
def my_moves():
    moves = []
    for frm, (owner, rank) in board.items():
        if owner != "me" or rank in "jl" or frm in HQ: continue
        for to in sorted(LINKS[frm]):
            target = board.get(to)
            if target is None or (target[0] == "enemy" and to not in CAMPS):
                moves.append(frm + to)
    return sorted(moves)
for line in sys.stdin:
    line = line.strip()
    log.write(line + "\n"); log.flush()
    words = line.split()
    if not words: continue
    cmd = words[0]
    if cmd == "INFO":
        say("NAME testengine")
    elif cmd == "START":
        if len(words) != 4 or words[1] not in ("0", "1"): complain("bad START: " + line)
        state["first"] = words[1]
        say("ARRAY " + LAYOUT)
    elif cmd == "GO":
        if len(words) != 4 or len(words[1]) != 4: complain("bad GO: " + line)
        if state["mine"] is not None: complain("GO before the RESULT of my move: " + line)
        state["gos"] += 1
        if words[1] == "0000":
            if state["first"] != "0" or state["gos"] != 1: complain("GO 0000 but I do not move first: " + line)
        else:
            if state["first"] == "0" and state["gos"] == 1: complain("a move in the first GO when I move first: " + line)
            frm, to = words[1][:2], words[1][2:]
            check_post(frm, line); check_post(to, line)
            apply("enemy", frm, to, int(words[2]), line)
            check_flag(words[3], line)
        moves = my_moves()
        if not moves: complain("no move to play: " + line)
        state["mine"] = rng.choice(moves)
        say("BESTMOVE " + state["mine"])
    elif cmd == "RESULT":
        if len(words) != 3 or state["mine"] is None: complain("bad RESULT: " + line)
        apply("me", state["mine"][:2], state["mine"][2:], int(words[1]), line)
        check_flag(words[2], line)
        state["mine"] = None
    elif cmd == "END":
        sys.exit(0)
    else:
        complain("unknown command: " + line)
