"""A WebSocket relay that times a bot's answers: the arena puts it between the author's bot and the server.

Every frame passes through unchanged, both ways. For each ``your_turn`` the server sends, the relay
notes the time; when the bot's next ``act`` for that room and seat goes by, it records the
milliseconds in between, so the arena reports time per move for a bot in any language, measured
on the bot's own machine without the network to a distant server.
"""

import asyncio
import json
import time
from dataclasses import dataclass, field

from websockets.asyncio.client import connect
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

#: The largest frame relayed, in bytes: the server's own limit (1 MiB, protocol/README.md).
MAX_FRAME_BYTES = 1 << 20


@dataclass
class TimingRelay:
    """Relays ``ws://127.0.0.1:<port>/`` (:attr:`url` once started) to ``upstream``; :attr:`move_ms`
    holds every answer's time in milliseconds, in the order played."""

    upstream: str
    move_ms: list[float] = field(default_factory=list)
    _server: Server | None = None
    _waiting: dict[tuple[str, int], float] = field(default_factory=dict)

    @property
    def url(self) -> str:
        """The relay's WebSocket URL, for the bot."""
        assert self._server is not None, "the relay is started"
        host, port = next(iter(self._server.sockets)).getsockname()[:2]
        return f"ws://{host}:{port}/ws"

    async def start(self) -> None:
        """Listens on a free port of 127.0.0.1."""
        self._server = await serve(self._relay, "127.0.0.1", 0, max_size=MAX_FRAME_BYTES, ping_interval=None)

    async def stop(self) -> None:
        """Closes the listener and every relayed connection."""
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    async def _relay(self, bot: ServerConnection) -> None:
        try:
            async with connect(self.upstream, max_size=MAX_FRAME_BYTES, ping_interval=None) as server:
                down = asyncio.create_task(self._pump(server, bot, self._from_server))
                up = asyncio.create_task(self._pump(bot, server, self._from_bot))
                done, pending = await asyncio.wait({down, up}, return_when=asyncio.FIRST_COMPLETED)
                for task in pending:
                    task.cancel()
                # Pass the closing side's code on (4009 "replaced" matters to the bot).
                for task in done:
                    code, reason = task.result()
                    await server.close(code, reason)
                    await bot.close(code, reason)
        except (OSError, ConnectionClosed):
            await bot.close(1011, "the server cannot be reached")

    @staticmethod
    async def _pump(source, sink, note) -> tuple[int, str]:
        """Copies frames from ``source`` to ``sink`` until ``source`` closes; its close code and reason."""
        try:
            async for frame in source:
                if isinstance(frame, str):
                    note(frame)
                await sink.send(frame)
        except ConnectionClosed:
            pass
        code = source.close_code
        if code is None or not 1000 <= code < 5000 or code in (1005, 1006, 1015):
            return 1000, ""  # codes that cannot be sent on (no code, abnormal closure, TLS failure)
        return code, source.close_reason or ""

    def _from_server(self, text: str) -> None:
        if '"your_turn"' not in text:
            return
        msg = json.loads(text)
        if msg.get("type") == "your_turn":
            self._waiting[(msg["room"], msg["seat"])] = time.monotonic()

    def _from_bot(self, text: str) -> None:
        if '"act"' not in text:
            return
        try:
            msg = json.loads(text)
        except ValueError:
            return
        if not isinstance(msg, dict) or msg.get("type") != "act":
            return
        room, seat = msg.get("room"), msg.get("seat")
        if seat is None:  # a bot with one seat in the room may leave its seat out
            keys = [k for k in self._waiting if k[0] == room]
            key = keys[0] if len(keys) == 1 else None
        else:
            key = (room, seat)
        started = self._waiting.pop(key, None) if key is not None else None
        if started is not None:
            self.move_ms.append((time.monotonic() - started) * 1000)
