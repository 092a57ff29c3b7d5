"""Skirmish's Python SDK: write a bot for a Skirmish server.

- :mod:`skirmish.messages`: every protocol message as a ``TypedDict``, and builders for what a
  client sends (checked against the protocol's JSON Schemas by the SDK's tests).
- :mod:`skirmish.client`: :class:`Bot`, a connection that says hello, plays the author's function
  on every turn, and reconnects and resumes after a drop; a function may return a
  :class:`Decision` to send what it thought (``info``) with its action.
- :mod:`skirmish.arena`: ``python -m skirmish.arena``, which plays a bot against the built-in bots
  on a throwaway local server and prints a report.

A whole bot::

    from skirmish import Turn, command_line, messages

    def play(turn: Turn):
        taken = {m["point"] for m in turn.view["moves"]}
        size = turn.view["size"]
        free = [f"{chr(97 + x)}{y + 1}" for x in range(size) for y in range(size)]
        return messages.gomoku_place(next(p for p in free if p not in taken))

    command_line({"gomoku": play}, strategy="first-free").run_forever()
"""

from . import messages
from .client import Bot, Decision, Refused, Replaced, Turn, backoff_delay, command_line

__all__ = ["Bot", "Decision", "Refused", "Replaced", "Turn", "backoff_delay", "command_line", "messages"]
