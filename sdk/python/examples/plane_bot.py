#!/usr/bin/env python3
"""Plane battle with the Skirmish SDK: random legal deployments, and shots that finish off hit planes.

    pip install ./sdk/python
    python sdk/python/examples/plane_bot.py --url ws://127.0.0.1:8080/ws --name pybot

Rules: docs/rules.md, plane battle. Cells are column letter + row from 1 at the top (A1 is the top
left); a plane is 10 cells (head, five wings, body, three tail cells) and a shot at its head downs it.
"""

import random

from skirmish import Turn, command_line, messages

# The plane facing up, as (row, col) offsets from its head.
SHAPE_UP = [(0, 0), (1, -2), (1, -1), (1, 0), (1, 1), (1, 2), (2, 0), (3, -1), (3, 0), (3, 1)]
FACINGS = ["up", "right", "down", "left"]


def rotate(facing, dr, dc):
    """An up-facing offset turned to ``facing``."""
    return {"up": (dr, dc), "right": (dc, -dr), "down": (-dr, -dc), "left": (-dc, dr)}[facing]


def cell_name(row, col):
    return f"{chr(ord('A') + col)}{row + 1}"


def parse_cell(name):
    return int(name[1:]) - 1, ord(name[0]) - ord("A")


def plane_cells(head, facing, side):
    """The 10 cells of a plane, or None when it does not fit on the board."""
    cells = []
    for dr, dc in SHAPE_UP:
        r, c = rotate(facing, dr, dc)
        r, c = head[0] + r, head[1] + c
        if not (0 <= r < side and 0 <= c < side):
            return None
        cells.append((r, c))
    return cells


def board_side(view):
    return 7 if view["config"]["variant"] == "classic" else 9


def random_deployment(side, count):
    """``count`` random planes that fit and do not overlap."""
    while True:
        planes, taken = [], set()
        for _ in range(count):
            head = (random.randrange(side), random.randrange(side))
            facing = random.choice(FACINGS)
            cells = plane_cells(head, facing, side)
            if cells is None or taken & set(cells):
                break
            taken |= set(cells)
            planes.append({"head": cell_name(*head), "facing": facing})
        if len(planes) == count:
            return planes


def shot(view, me):
    """A cell not yet public on an opponent still in the round: next to a hit when there is one."""
    side = board_side(view)
    near_hits, anywhere = [], []
    for board in view["boards"]:
        if board["seat"] == me or not board["playing"] or board["knocked_out"]:
            continue
        public = {parse_cell(s["cell"]) for s in board["shots"]}
        for plane in board["downed"]:
            public |= set(plane_cells(parse_cell(plane["head"]), plane["facing"], side))
        hits = {parse_cell(s["cell"]) for s in board["shots"] if s["result"] == "hit"}
        for r in range(side):
            for c in range(side):
                if (r, c) in public:
                    continue
                anywhere.append((board["seat"], cell_name(r, c)))
                if any(abs(r - hr) + abs(c - hc) == 1 for hr, hc in hits):
                    near_hits.append((board["seat"], cell_name(r, c)))
    return random.choice(near_hits or anywhere)


def play(turn: Turn):
    view, phase = turn.view, turn.view["phase"]
    if phase["phase"] == "deploy" and turn.seat not in phase["ready"]:
        count = 1 if view["config"]["variant"] == "classic" else 2
        return messages.plane_deploy(random_deployment(board_side(view), count))
    if phase["phase"] == "attack" and phase["attacker"] == turn.seat:
        target, cell = shot(view, turn.seat)
        return messages.plane_fire(target, cell)
    return None


if __name__ == "__main__":
    command_line({"plane": play}, strategy="python-plane", description=__doc__.splitlines()[0]).run_forever()
