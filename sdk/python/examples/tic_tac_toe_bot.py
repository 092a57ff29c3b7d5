#!/usr/bin/env python3
"""Tic-tac-toe with the Skirmish SDK: win if it can, block if it must, else centre, corners, edges.

    pip install ./sdk/python
    python sdk/python/examples/tic_tac_toe_bot.py --url ws://127.0.0.1:8080/ws --name pybot

Rules: docs/rules.md, tic-tac-toe. Cells are 0 to 8, row by row from the top left.
"""

from skirmish import Turn, command_line, messages

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
PREFERENCE = [4, 0, 2, 6, 8, 1, 3, 5, 7]


def completing(cells, seat):
    """A free cell that completes a line of ``seat``'s, if any."""
    for line in LINES:
        marks = [cells[i] for i in line]
        if marks.count(seat) == 2 and marks.count(None) == 1:
            return line[marks.index(None)]
    return None


def play(turn: Turn):
    view = turn.view
    if view.get("to_move") != turn.seat:
        return None
    cells = view["cells"]
    other = 1 - turn.seat
    for choice in (completing(cells, turn.seat), completing(cells, other)):
        if choice is not None:
            return messages.tic_tac_toe_place(choice)
    return messages.tic_tac_toe_place(next(i for i in PREFERENCE if cells[i] is None))


if __name__ == "__main__":
    command_line({"tic_tac_toe": play}, strategy="python-tic-tac-toe", description=__doc__.splitlines()[0]).run_forever()
