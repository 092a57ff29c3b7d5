#!/usr/bin/env python3
"""Junqi with the Skirmish SDK: a fixed legal layout, then one-step moves, attacks first.

    pip install ./sdk/python
    python sdk/python/examples/junqi_bot.py --url ws://127.0.0.1:8080/ws --name pybot

Rules: docs/rules.md, junqi. Posts are a row letter A (top, seat 1's back row) to L (bottom, seat
0's back row) and a column 0 to 4. This bot only steps to a neighbouring post along a road or a
camp's diagonal (never along a railway), which is always legal: flags and landmines never move,
nothing leaves a headquarters, and no piece attacks one in a camp.
"""

import random

from skirmish import Turn, command_line, messages

# Field marshal, general, 2 major generals, ... in the owner's frame, front row (G) first, camps
# skipped: the flag (l) in a headquarters (L3), landmines (j) in the back rows, bombs (k) not in front.
LAYOUT = "abccddeeffggghhhiiijjkklj"
ROWS = "ABCDEFGHIJKL"
CAMPS = {"C1", "C3", "D2", "E1", "E3", "H1", "H3", "I2", "J1", "J3"}
HEADQUARTERS = {"A1", "A3", "L1", "L3"}
IMMOVABLE = {"flag", "landmine"}


def name(r, c):
    return ROWS[r] + str(c)


def links():
    """Each post's neighbours by a road: left, right, up, down (no road across the front between
    rows F and G but at columns 0, 2 and 4), and a camp's four diagonals."""
    out = {name(r, c): set() for r in range(12) for c in range(5)}

    def link(a, b):
        out[a].add(b)
        out[b].add(a)

    for r in range(12):
        for c in range(5):
            if c < 4:
                link(name(r, c), name(r, c + 1))
            if r < 11 and not (r == 5 and c in (1, 3)):
                link(name(r, c), name(r + 1, c))
    for camp in CAMPS:
        r, c = ROWS.index(camp[0]), int(camp[1])
        for dr in (-1, 1):
            for dc in (-1, 1):
                link(camp, name(r + dr, c + dc))
    return out


LINKS = links()


def play(turn: Turn):
    view = turn.view
    if view["phase"] == "deploying":
        return messages.junqi_deploy(LAYOUT) if view.get("layout") is None else None
    if view["phase"] != "battle" or view.get("to_move") != turn.seat:
        return None
    pieces = {p["post"]: p for p in view["pieces"]}
    attacks, steps = [], []
    for post, piece in pieces.items():
        if piece["owner"] != turn.seat or piece.get("rank") in IMMOVABLE or post in HEADQUARTERS:
            continue
        for to in sorted(LINKS[post]):
            other = pieces.get(to)
            if other is None:
                steps.append((post, to))
            elif other["owner"] != turn.seat and to not in CAMPS:
                attacks.append((post, to))
    if not attacks and not steps:
        return messages.resign("junqi", "no piece can move")
    frm, to = random.choice(attacks or steps)
    return messages.junqi_move(frm, to)


if __name__ == "__main__":
    command_line({"junqi": play}, strategy="python-junqi", description=__doc__.splitlines()[0]).run_forever()
