"""A bot's connection to a Skirmish server: hello, turns, refusals, resume and reconnects.

:class:`Bot` connects a WebSocket to the server's ``/ws``, says ``hello`` with the bot's offer (and
its account token, for a bot account), keeps the ``resume`` token of the ``welcome``, and calls the
author's function for the game on every ``your_turn``, sending what it returns as an ``act``. When
the connection drops it reconnects with exponential backoff and jitter, and resumes (the server
gives a bot account's seats back to its token, an anonymous bot's to its resume token).

A refused ``act`` asks the author's function again once for the same turn, with the refusal in
:attr:`Turn.refused`; a function that raises forfeits the seat with the cause ``engine_failure``
and the exception as the detail (the tournaments count forfeits by cause). A ``hello`` refused for
good (``bad_token``, ``name_taken``, ...) raises :class:`Refused`; a newer connection of the same
account (close code 4009) raises :class:`Replaced`: neither is retried.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import itertools
import json
import logging
import os
import random
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from . import messages
from .messages import END_KINDS, FATAL_HELLO_CODES, Action

log = logging.getLogger("skirmish")

#: WebSocket close code: a newer connection of the same player or bot account took this one's seats
#: (``CLOSE_REPLACED`` in the protocol crate).
CLOSE_REPLACED = 4009

#: The first reconnect waits about this long, in seconds; each failure doubles it.
BACKOFF_BASE_S = 0.25
#: The longest wait between reconnects, in seconds: under the tournaments' default grace period
#: (10 s, ``grace_ms`` in docs/tournaments.md), so that a bot whose server comes back keeps its
#: seats.
BACKOFF_CAP_S = 8.0
#: The largest frame the client reads, in bytes: the server's own limit (1 MiB, protocol/README.md).
MAX_FRAME_BYTES = 1 << 20
#: Times a refused action is asked for again in the same turn.
RETRIES_PER_TURN = 1
#: The longest forfeit detail sent, in characters.
MAX_DETAIL_CHARS = 200


class Refused(Exception):
    """The server refused the ``hello`` for a reason no retry mends (``code``: ``bad_token``, ``name_taken``, ...)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class Replaced(Exception):
    """A newer connection of the same bot account (or player) took the seats (close code 4009)."""


@dataclass
class Turn:
    """One ``your_turn``, as the author's function sees it.

    ``view`` is the seat's whole view (``GameView`` in server.json: tagged by ``game``);
    ``deadline_ms`` the milliseconds left (``None``: no clock); ``strategy`` and ``think_ms`` what
    the server said when it seated the bot (the strategy to play, a time budget per move);
    ``refused`` the ``error`` that refused this turn's previous answer, when asked again.
    """

    room: str
    seat: int
    game: str
    view: dict[str, Any]
    deadline_ms: int | None = None
    strategy: str | None = None
    think_ms: int | None = None
    refused: messages.Error | None = None


@dataclass(frozen=True)
class Decision:
    """An action with what the bot thought choosing it: return one from the author's function
    instead of the bare action to send ``info`` with the ``act`` (:class:`messages.BotInfo`: score,
    depth, nodes, the expected line, and a belief per game). The server keeps it sealed, shown to no
    one (not even this bot) until the match and its deal are over; the replay then shows it. An
    ``info`` over :data:`messages.MAX_INFO_BYTES` is left out (with a warning) and the action sent
    alone, since the server would refuse the whole ``act``."""

    action: Action
    info: messages.BotInfo | None = None


#: The author's function for a game: a turn in, an action (or a :class:`Decision`) out, or ``None``
#: to do nothing; plain or ``async``.
PlayFn = Callable[[Turn], "Action | Decision | None | Awaitable[Action | Decision | None]"]


def info_that_fits(info: messages.BotInfo | None) -> messages.BotInfo | None:
    """``info`` if it takes at most :data:`messages.MAX_INFO_BYTES` as compact JSON (the server's
    measure), else ``None``."""
    if info is None:
        return None
    size = len(json.dumps(info, separators=(",", ":"), ensure_ascii=False).encode())
    if size > messages.MAX_INFO_BYTES:
        log.warning("an info of %d bytes is over %d: the action goes without it", size, messages.MAX_INFO_BYTES)
        return None
    return info


def backoff_delay(attempt: int, *, base: float = BACKOFF_BASE_S, cap: float = BACKOFF_CAP_S, rng: random.Random | None = None) -> float:
    """Seconds to wait before reconnect number ``attempt`` (0 for the first): exponential backoff
    with "equal jitter" (half of ``min(cap, base * 2**attempt)`` plus a uniform random part of the
    other half; Marc Brooker, "Exponential Backoff And Jitter", AWS Architecture Blog, 2015), so
    that many bots dropped at once do not come back in step, and none waits less than half."""
    ceiling = min(cap, base * 2 ** min(attempt, 32))
    return ceiling / 2 + (rng or random).uniform(0, ceiling / 2)


@dataclass
class _Seat:
    """What the client keeps about one seat it holds."""

    strategy: str | None = None
    think_ms: int | None = None
    turn: int = 0
    retries: int = 0
    req: int | None = None


@dataclass
class Bot:
    """A bot: connects, plays, reconnects. ``play`` maps each game it plays (``"gomoku"``,
    ``"plane"``, ``"junqi"``, ``"tic_tac_toe"``) to the author's function; ``strategy`` is the
    strategy name it offers for each (``strategies`` overrides it per game, strongest first).

    ``token`` is the bot account's token (``skirmish-bots account register``), and ``name`` must
    then be the account's name; ``key`` is the operator's key for anonymous bots on a server with
    ``--bot-key``. ``once`` ends :meth:`run` after the first game the bot plays is over.
    ``on_message`` sees every message the server sends. ``hello_fields`` adds fields to ``hello``
    that this SDK has no argument for (a field a newer server reads). ``move_ms`` collects, per
    game, how long each answer took from ``your_turn`` to ``act``, in milliseconds.
    """

    url: str
    name: str
    play: Mapping[str, PlayFn]
    strategy: str = "python"
    strategies: Mapping[str, list[str]] | None = None
    token: str | None = None
    key: str | None = None
    version: str | None = None
    once: bool = False
    on_message: Callable[[dict[str, Any]], None] | None = None
    hello_fields: Mapping[str, Any] | None = None
    backoff_base: float = BACKOFF_BASE_S
    backoff_cap: float = BACKOFF_CAP_S
    max_reconnects: int | None = None
    resume: str | None = None
    player: str | None = None
    games_over: int = 0
    move_ms: dict[str, list[float]] = field(default_factory=dict)
    _seats: dict[tuple[str, int], _Seat] = field(default_factory=dict)
    _acts: dict[int, tuple[Turn, dict[str, Any], int]] = field(default_factory=dict)
    _req: itertools.count = field(default_factory=lambda: itertools.count(1))
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)

    def offer(self) -> messages.BotOffer:
        """The ``bot`` field of ``hello``: every game of ``play`` with its strategies."""
        games = {g: list((self.strategies or {}).get(g, [self.strategy])) for g in self.play}
        offer: messages.BotOffer = {"games": games}
        if self.version is not None:
            offer["version"] = self.version
        return offer

    def hello(self) -> messages.Hello:
        """The ``hello`` this bot says: its name, offer, token or key, and resume token once it has one."""
        return messages.hello(
            self.name, bot=self.offer(), token=self.token, key=self.key, resume=self.resume, **(self.hello_fields or {})
        )

    def run_forever(self) -> None:
        """Runs :meth:`run` in a new event loop until it returns or raises."""
        asyncio.run(self.run())

    async def run(self) -> None:
        """Plays until ``once`` is done, or for ever, reconnecting after every drop.

        Raises :class:`Refused` for a ``hello`` refused for good, :class:`Replaced` when a newer
        connection took over, and ``ConnectionError`` after ``max_reconnects`` failed attempts in a row.
        """
        attempt = 0
        while True:
            welcomed = False
            try:
                async with connect(self.url, max_size=MAX_FRAME_BYTES, open_timeout=10) as ws:
                    welcomed = await self._hello(ws)
                    attempt = 0
                    if await self._serve(ws):
                        return
            except ConnectionClosed as e:
                if e.rcvd is not None and e.rcvd.code == CLOSE_REPLACED:
                    raise Replaced(e.rcvd.reason or "replaced by a newer connection") from e
                log.warning("connection closed (%s); reconnecting", e)
            except (OSError, TimeoutError, InvalidHandshake) as e:
                log.warning("cannot connect to %s (%s); retrying", self.url, e)
            except InvalidURI:
                raise
            finally:
                for task in list(self._tasks):
                    task.cancel()
                self._tasks.clear()
                self._acts.clear()
            if not welcomed:
                attempt += 1
                if self.max_reconnects is not None and attempt > self.max_reconnects:
                    raise ConnectionError(f"no connection to {self.url} after {attempt} attempts")
            delay = backoff_delay(max(attempt - 1, 0), base=self.backoff_base, cap=self.backoff_cap)
            await asyncio.sleep(delay)

    async def _hello(self, ws: ClientConnection) -> bool:
        """Says ``hello`` and reads up to its ``welcome``; ``True`` once welcomed."""
        await ws.send(json.dumps(self.hello()))
        while True:
            msg = json.loads(await ws.recv())
            if msg.get("type") == "welcome":
                self.resume, self.player = msg["resume"], msg["player"]
                log.info("welcomed as %s (%s), seats %s", msg["name"], msg["player"], msg["seats"])
                return True
            if msg.get("type") == "error":
                code, text = msg.get("code", ""), msg.get("message", "")
                if code == "bad_resume":
                    # An unknown token: the server goes on with a new player; the seats are gone.
                    log.info("resume token not known (%s); going on as a new player", text)
                    self.resume = None
                    continue
                if code in FATAL_HELLO_CODES:
                    raise Refused(code, text)
                raise ConnectionError(f"hello refused: {code}: {text}")

    async def _serve(self, ws: ClientConnection) -> bool:
        """Reads messages until the connection ends; ``True`` when ``once`` is done."""
        async for text in ws:
            msg = json.loads(text)
            if self.on_message is not None:
                self.on_message(msg)
            kind = msg.get("type")
            if kind == "seated":
                self._seats[(msg["room"], msg["seat"])] = _Seat(msg.get("strategy"), msg.get("think_ms"))
            elif kind == "your_turn":
                self._your_turn(ws, msg)
            elif kind == "error":
                self._refused(ws, msg)
            elif kind == "event" and msg["event"].get("kind") in END_KINDS:
                if self._game_over(msg["room"]):
                    await ws.close()
                    return True
            elif kind == "room_closed":
                log.info("room %s closed: %s", msg["room"], msg.get("code"))
                self._forget(msg["room"])
        return False

    def _your_turn(self, ws: ClientConnection, msg: dict[str, Any], refused: messages.Error | None = None) -> None:
        view = msg.get("view")
        if not view:
            return
        seat = self._seats.setdefault((msg["room"], msg["seat"]), _Seat())
        if refused is None:
            seat.turn += 1
            seat.retries = 0
        turn = Turn(
            room=msg["room"], seat=msg["seat"], game=view["game"], view=view, deadline_ms=msg.get("deadline_ms"),
            strategy=seat.strategy, think_ms=seat.think_ms, refused=refused,
        )
        task = asyncio.create_task(self._think(ws, turn, seat.turn, msg))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _think(self, ws: ClientConnection, turn: Turn, number: int, msg: dict[str, Any]) -> None:
        play = self.play.get(turn.game)
        started = time.monotonic()
        try:
            if play is None:
                raise LookupError(f"this bot has no function for {turn.game}")
            if inspect.iscoroutinefunction(play):
                action = await play(turn)
            else:
                # In a thread, so that a long think does not stop the connection's pings.
                action = await asyncio.to_thread(play, turn)
                if inspect.isawaitable(action):
                    action = await action
        except asyncio.CancelledError:
            raise
        except Exception as e:  # the author's code failed: the seat forfeits, saying why
            log.exception("the %s function failed in room %s seat %s", turn.game, turn.room, turn.seat)
            detail = f"{type(e).__name__}: {e}"[:MAX_DETAIL_CHARS]
            await self._send(ws, messages.forfeit(turn.room, seat=turn.seat, detail=detail))
            return
        seat = self._seats.get((turn.room, turn.seat))
        if action is None or seat is None or seat.turn != number:
            return  # nothing to do, or a newer turn came for this seat while thinking
        self.move_ms.setdefault(turn.game, []).append((time.monotonic() - started) * 1000)
        req = next(self._req)
        # Only the seat's latest act can still be refused usefully: one entry per seat.
        if seat.req is not None:
            self._acts.pop(seat.req, None)
        seat.req = req
        self._acts[req] = (turn, msg, number)
        info = None
        if isinstance(action, Decision):
            action, info = action.action, info_that_fits(action.info)
        await self._send(ws, messages.act(turn.room, action, seat=turn.seat, info=info, req=req))

    def _refused(self, ws: ClientConnection, msg: dict[str, Any]) -> None:
        req = msg.get("req")
        pending = self._acts.pop(req, None) if req is not None else None
        if pending is None:
            log.warning("refused: %s: %s", msg.get("code"), msg.get("message"))
            return
        turn, your_turn, number = pending
        log.warning("room %s seat %s: action refused: %s: %s", turn.room, turn.seat, msg.get("code"), msg.get("message"))
        seat = self._seats.get((turn.room, turn.seat))
        if seat is None or seat.turn != number or seat.retries >= RETRIES_PER_TURN or msg.get("code") == "not_your_turn":
            return
        seat.retries += 1
        self._your_turn(ws, your_turn, refused=msg)  # type: ignore[arg-type]

    def _game_over(self, room: str) -> bool:
        """Counts a game that ended in ``room``; ``True`` when ``once`` is done."""
        if not any(r == room for r, _ in self._seats):
            return False
        self.games_over += 1
        log.info("game over in room %s", room)
        self._forget(room)
        return self.once

    def _forget(self, room: str) -> None:
        for key in [k for k in self._seats if k[0] == room]:
            seat = self._seats.pop(key)
            if seat.req is not None:
                self._acts.pop(seat.req, None)

    @staticmethod
    async def _send(ws: ClientConnection, msg: Mapping[str, Any]) -> None:
        try:
            await ws.send(json.dumps(msg))
        except ConnectionClosed:
            pass  # the reader sees the close and reconnects


def command_line(
    play: Mapping[str, PlayFn], *, strategy: str, description: str | None = None, argv: list[str] | None = None
) -> Bot:
    """A :class:`Bot` from the command line and the environment, as the examples and the arena start bots:
    ``--url`` (``SKIRMISH_URL``, default ``ws://127.0.0.1:8080/ws``), ``--name`` (``SKIRMISH_BOT_NAME``,
    default ``pybot``), ``--token`` (``SKIRMISH_BOT_TOKEN``), ``--key`` (``SKIRMISH_BOT_KEY``),
    ``--strategy`` (default ``strategy``), ``--version``, ``--once``. Also sets up logging
    (``--log-level``, default ``INFO``, to stderr)."""
    env = os.environ.get
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--url", default=env("SKIRMISH_URL", "ws://127.0.0.1:8080/ws"), help="the server's WebSocket URL")
    parser.add_argument("--name", default=env("SKIRMISH_BOT_NAME", "pybot"), help="the bot's name (its account's, with --token)")
    parser.add_argument("--token", default=env("SKIRMISH_BOT_TOKEN"), help="the bot account's token")
    parser.add_argument("--key", default=env("SKIRMISH_BOT_KEY"), help="the operator's key for anonymous bots (--bot-key)")
    parser.add_argument("--strategy", default=strategy, help="the strategy name the bot offers")
    parser.add_argument("--version", default=env("SKIRMISH_BOT_VERSION"), help="the bot's version, shown to tournaments")
    parser.add_argument("--once", action="store_true", help="exit after the first game is over")
    parser.add_argument("--log-level", default="INFO", help="DEBUG, INFO, WARNING, ...")
    args = parser.parse_args(argv)
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    return Bot(
        url=args.url, name=args.name, play=play, strategy=args.strategy, token=args.token, key=args.key,
        version=args.version, once=args.once,
    )
