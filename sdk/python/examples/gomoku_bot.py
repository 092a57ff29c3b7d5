#!/usr/bin/env python3
"""Gomoku with the Skirmish SDK: one look ahead, scoring each point by the lines it makes and blocks.

    pip install ./sdk/python
    python sdk/python/examples/gomoku_bot.py --url ws://127.0.0.1:8080/ws --name pybot

Rules: docs/rules.md, gomoku. Points are column letter + row from 1 at the bottom (a1 is the bottom
left; h8 the centre of 15x15). Black (seat 0) moves first; under renju the view lists black's
forbidden points, which this bot never plays.

Each stone goes out as a ``Decision`` with what the bot thought (``info``): the chosen point's score
and a rough evaluation. The server keeps it sealed until the game is over; the replay then shows it
as an evaluation graph.
"""

import math

from skirmish import Decision, Turn, command_line, messages

DIRECTIONS = [(1, 0), (0, 1), (1, 1), (1, -1)]


def point_name(x, y):
    return f"{chr(ord('a') + x)}{y + 1}"


def parse_point(name):
    return ord(name[0]) - ord("a"), int(name[1:]) - 1


def run(board, size, x, y, colour):
    """The longest line of ``colour`` through (x, y) if a stone of it stood there, and its open ends."""
    best = (0, 0)
    for dx, dy in DIRECTIONS:
        length, open_ends = 1, 0
        for sign in (1, -1):
            cx, cy = x + sign * dx, y + sign * dy
            while 0 <= cx < size and 0 <= cy < size and board.get((cx, cy)) == colour:
                length += 1
                cx, cy = cx + sign * dx, cy + sign * dy
            if 0 <= cx < size and 0 <= cy < size and (cx, cy) not in board:
                open_ends += 1
        best = max(best, (length, open_ends))
    return best


def score(board, size, x, y, mine, theirs):
    """Five wins outright; blocking a five comes next; then open fours, and so on."""
    own, block = run(board, size, x, y, mine), run(board, size, x, y, theirs)
    value = 0
    for (length, ends), weight in ((own, 1.2), (block, 1.0)):
        if length >= 5:
            value += 10_000_000 * weight
        elif ends > 0:
            value += weight * (10 ** length) * ends
    return value


def play(turn: Turn):
    view = turn.view
    if view.get("to_move") != turn.seat:
        return None
    size = view["size"]
    mine = "black" if turn.seat == 0 else "white"
    theirs = "white" if mine == "black" else "black"
    board = {parse_point(m["point"]): m["stone"] for m in view["moves"]}
    forbidden = {parse_point(p) for p in view.get("forbidden", [])} if mine == "black" else set()
    if not board:
        centre = point_name(size // 2, size // 2)
        return Decision(messages.gomoku_place(centre), info={"pv": [centre], "belief": {"game": "gomoku", "eval": 0}})
    candidates = {
        (x + dx, y + dy)
        for (x, y) in board
        for dx in range(-2, 3)
        for dy in range(-2, 3)
        if 0 <= x + dx < size and 0 <= y + dy < size
    }
    candidates -= set(board) | forbidden
    if not candidates:
        candidates = {(x, y) for x in range(size) for y in range(size)} - set(board) - forbidden
    if not candidates:
        return messages.resign("gomoku", "no point left to play")
    scored = {p: score(board, size, p[0], p[1], mine, theirs) for p in sorted(candidates)}
    (x, y), value = max(scored.items(), key=lambda item: item[1])
    return Decision(
        messages.gomoku_place(point_name(x, y)),
        info={"score": round(value), "nodes": len(scored), "depth": 1, "pv": [point_name(x, y)],
              "belief": {"game": "gomoku", "eval": evaluation(value)}},
    )


def evaluation(value):
    """A rough expected result (-1000 lost to 1000 won) from the best point's score: an open two
    (about 10^2.5) is even, a five (10^7) all but won."""
    return max(-1000, min(1000, round(1000 * math.tanh((math.log10(1 + value) - 2.5) / 2.5))))


if __name__ == "__main__":
    command_line({"gomoku": play}, strategy="python-gomoku", description=__doc__.splitlines()[0]).run_forever()
