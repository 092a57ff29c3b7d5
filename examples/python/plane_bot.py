#!/usr/bin/env python3
"""A Skirmish bot in Python: plays plane battle (docs/rules.md, plane battle) with random legal moves.

It shows everything a bot in another language needs: connect a WebSocket to /ws, say `hello` with a
bot offer, wait for `your_turn`, answer with `act`, and keep going until the match ends. The server
hands the bot seats (a room's owner adds it with `add_bot`, or "start with bots" picks it); one bot
connection may hold many seats at once.

    python3 -m pip install -r requirements.txt
    python3 plane_bot.py --url ws://127.0.0.1:8080/ws --name pybot [--once]

The protocol is described in protocol/README.md, with JSON Schemas in protocol/schema/.
"""

import argparse
import json
import random
import sys

from websockets.sync.client import connect

# The plane facing up, as (row, col) offsets from its head: head, five wings, body, three tail
# cells (docs/rules.md, plane battle).
SHAPE_UP = [(0, 0), (1, -2), (1, -1), (1, 0), (1, 1), (1, 2), (2, 0), (3, -1), (3, 0), (3, 1)]
FACINGS = ["up", "right", "down", "left"]
STRATEGY = "python-random"


def rotate(facing, dr, dc):
    """An up-facing offset turned to `facing`."""
    return {"up": (dr, dc), "right": (dc, -dr), "down": (-dr, -dc), "left": (-dc, dr)}[facing]


def cell_name(row, col):
    """Cells are column letter + row number from 1 at the top: A1 is row 0, col 0."""
    return f"{chr(ord('A') + col)}{row + 1}"


def parse_cell(name):
    return int(name[1:]) - 1, ord(name[0]) - ord("A")


def plane_cells(head, facing, side):
    """The 10 cells of a plane, or None when it does not fit on the board."""
    row, col = head
    cells = []
    for dr, dc in SHAPE_UP:
        r, c = rotate(facing, dr, dc)
        r, c = row + r, col + c
        if not (0 <= r < side and 0 <= c < side):
            return None
        cells.append((r, c))
    return cells


def random_deployment(variant):
    """Random non-overlapping planes: one on `classic` 7x7, two on `double` 9x9."""
    side, count = (7, 1) if variant == "classic" else (9, 2)
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


def random_shot(view, me):
    """A random cell whose content is not yet public, on a random opponent still in the round."""
    side = 7 if view["config"]["variant"] == "classic" else 9
    choices = []
    for board in view["boards"]:
        if board["seat"] == me or not board["playing"] or board["knocked_out"]:
            continue
        public = {parse_cell(shot["cell"]) for shot in board["shots"]}
        for plane in board["downed"]:
            public |= set(plane_cells(parse_cell(plane["head"]), plane["facing"], side))
        for r in range(side):
            for c in range(side):
                if (r, c) not in public:
                    choices.append((board["seat"], cell_name(r, c)))
    return random.choice(choices)


def decide(view, seat):
    """The action for `seat` in its own view, or None when it has nothing to do."""
    phase = view["phase"]  # {"phase": "deploy", "ready": [...]}, {"phase": "attack", "attacker": 1} or {"phase": "over"}
    if phase["phase"] == "deploy" and seat not in phase["ready"]:
        return {"game": "plane", "kind": "deploy", "planes": random_deployment(view["config"]["variant"])}
    if phase["phase"] == "attack" and phase["attacker"] == seat:
        target, cell = random_shot(view, seat)
        return {"game": "plane", "kind": "fire", "target": target, "cell": cell}
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="ws://127.0.0.1:8080/ws", help="the server's WebSocket URL")
    parser.add_argument("--name", default="pybot", help="the bot's display name")
    parser.add_argument("--once", action="store_true", help="exit after the first match ends")
    args = parser.parse_args()

    with connect(args.url) as ws:
        hello = {"type": "hello", "protocol": 1, "name": args.name, "bot": {"games": {"plane": [STRATEGY]}}}
        ws.send(json.dumps(hello))
        for text in ws:
            msg = json.loads(text)
            kind = msg["type"]
            if kind == "welcome":
                print(f"welcomed as {msg['player']}", flush=True)
            elif kind == "your_turn" and msg["view"]["game"] == "plane":
                action = decide(msg["view"], msg["seat"])
                if action is not None:
                    ws.send(json.dumps({"type": "act", "room": msg["room"], "seat": msg["seat"], "action": action}))
            elif kind == "error":
                print(f"refused: {msg['code']}: {msg['message']}", file=sys.stderr, flush=True)
            elif kind == "event" and msg["event"].get("kind") == "match_ended":
                outcome = msg["event"]["outcome"]
                print(f"match over: winner seat {outcome['winner']}, totals {outcome['totals']}", flush=True)
                if args.once:
                    return


if __name__ == "__main__":
    main()
