"""The bot client against a scripted WebSocket server: what it does with each answer it can get.

The real server is in server/tests/python_sdk.rs (whole games, a resume after kill -9, the arena);
here a small server in this process plays the parts that are hard to make a real one play on cue:
an unknown resume token, a refused token, a connection replaced by a newer one, a refused move.
"""

import asyncio
import json
import logging
import unittest

from websockets.asyncio.server import serve

from skirmish import Bot, Decision, Refused, Replaced, messages

# The client's warnings (a refused move, a drop) are expected here; they would interleave with
# the test runner's report.
logging.getLogger("skirmish").addHandler(logging.NullHandler())
logging.getLogger("skirmish").propagate = False

ROOM = "5f0c1c5e-8f7e-4a3b-9a59-0d1c2b3a4f5e"
VIEW = {"game": "tic_tac_toe", "viewer": {"seat": 0}, "cells": [None] * 9, "to_move": 0}


def welcome(resume="r" * 64, seats=()):
    return {"type": "welcome", "protocol": 1, "player": "p", "name": "pybot", "resume": resume, "seats": list(seats)}


class Scripted:
    """A server whose connections run ``script(ws, number)`` in turn; records every hello."""

    def __init__(self, script):
        self.script, self.hellos, self.connections = script, [], 0

    async def handler(self, ws):
        self.connections += 1
        hello = json.loads(await ws.recv())
        self.hellos.append(hello)
        await self.script(ws, self.connections)

    async def __aenter__(self):
        self.server = await serve(self.handler, "127.0.0.1", 0)
        port = next(iter(self.server.sockets)).getsockname()[1]
        self.url = f"ws://127.0.0.1:{port}/ws"
        return self

    async def __aexit__(self, *exc):
        self.server.close()
        await self.server.wait_closed()


def bot(url, play=None, **kw):
    return Bot(url=url, name="pybot", play={"tic_tac_toe": play or (lambda t: None)}, backoff_base=0.01, backoff_cap=0.05, **kw)


class Client(unittest.IsolatedAsyncioTestCase):
    async def test_it_resumes_with_its_token_and_drops_an_unknown_one(self):
        async def script(ws, n):
            if n == 1:
                await ws.send(json.dumps(welcome("first")))
                await ws.close()  # a drop: the bot comes back with "first"
            elif n == 2:
                await ws.send(json.dumps({"type": "error", "code": "bad_resume", "message": "unknown resume token"}))
                await ws.send(json.dumps(welcome("second")))
                await ws.close()
            else:
                await ws.send(json.dumps(welcome("third")))
                await ws.send(json.dumps({"type": "seated", "room": ROOM, "seat": 0}))
                await ws.send(json.dumps({"type": "event", "room": ROOM, "seq": 1, "event": {"game": "tic_tac_toe", "kind": "ended", "outcome": {}}}))
                await ws.wait_closed()

        async with Scripted(script) as server:
            b = bot(server.url, once=True, version="2.1", hello_fields={"turn_view": True})
            await asyncio.wait_for(b.run(), 10)
        self.assertEqual([h.get("resume") for h in server.hellos], [None, "first", "second"])
        self.assertEqual(server.hellos[0]["bot"], {"games": {"tic_tac_toe": ["python"]}, "version": "2.1"})
        self.assertEqual((server.hellos[0]["name"], server.hellos[0]["protocol"], server.hellos[0]["turn_view"]), ("pybot", 1, True))
        self.assertEqual((b.resume, b.games_over), ("third", 1))

    async def test_a_refused_token_is_not_retried(self):
        async def script(ws, n):
            await ws.send(json.dumps({"type": "error", "code": "bad_token", "message": "not a token of this server"}))
            await ws.close(1008)

        async with Scripted(script) as server:
            with self.assertRaises(Refused) as refused:
                await asyncio.wait_for(bot(server.url, token="t" * 64).run(), 10)
        self.assertEqual(refused.exception.code, "bad_token")
        self.assertEqual(server.connections, 1)
        self.assertEqual(server.hellos[0]["token"], "t" * 64)

    async def test_a_replaced_connection_is_not_retried(self):
        async def script(ws, n):
            await ws.send(json.dumps(welcome()))
            await ws.close(4009, "replaced by a newer connection")

        async with Scripted(script) as server:
            with self.assertRaises(Replaced):
                await asyncio.wait_for(bot(server.url).run(), 10)
        self.assertEqual(server.connections, 1)

    async def test_a_refused_move_is_asked_again_once_with_the_refusal(self):
        turns, acts = [], []

        def play(turn):
            turns.append(turn.refused)
            return messages.tic_tac_toe_place(4 if turn.refused is None else 0)

        async def script(ws, n):
            await ws.send(json.dumps(welcome()))
            await ws.send(json.dumps({"type": "seated", "room": ROOM, "seat": 0}))
            await ws.send(json.dumps({"type": "your_turn", "room": ROOM, "seat": 0, "view": VIEW}))
            for _ in range(2):  # both answers refused: the second is not asked again
                act = json.loads(await ws.recv())
                acts.append(act)
                await ws.send(json.dumps({"type": "error", "req": act["req"], "code": "cell_taken", "message": "no"}))
            await asyncio.sleep(0.2)
            await ws.send(json.dumps({"type": "event", "room": ROOM, "seq": 2, "event": {"game": "tic_tac_toe", "kind": "ended", "outcome": {}}}))
            await ws.wait_closed()

        async with Scripted(script) as server:
            await asyncio.wait_for(bot(server.url, play, once=True).run(), 10)
        self.assertEqual([a["action"]["cell"] for a in acts], [4, 0])
        self.assertEqual([t and t["code"] for t in turns], [None, "cell_taken"])
        self.assertTrue(all(a["seat"] == 0 and a["room"] == ROOM for a in acts))

    async def test_a_decision_sends_its_info_with_the_act_unless_it_is_too_large(self):
        acts = []
        infos = [{"score": 7, "pv": ["4"]}, {"pv": ["0"] * 2000}]

        def play(turn):
            return Decision(messages.tic_tac_toe_place(4 if turn.refused is None else 0), info=infos[len(acts)])

        async def script(ws, n):
            await ws.send(json.dumps(welcome()))
            await ws.send(json.dumps({"type": "seated", "room": ROOM, "seat": 0}))
            await ws.send(json.dumps({"type": "your_turn", "room": ROOM, "seat": 0, "view": VIEW}))
            acts.append(json.loads(await ws.recv()))
            await ws.send(json.dumps({"type": "error", "req": acts[0]["req"], "code": "cell_taken", "message": "no"}))
            acts.append(json.loads(await ws.recv()))
            await ws.send(json.dumps({"type": "event", "room": ROOM, "seq": 2, "event": {"game": "tic_tac_toe", "kind": "ended", "outcome": {}}}))
            await ws.wait_closed()

        async with Scripted(script) as server:
            await asyncio.wait_for(bot(server.url, play, once=True).run(), 10)
        self.assertEqual((acts[0]["action"]["cell"], acts[0]["info"]), (4, {"score": 7, "pv": ["4"]}))
        # Over 4 KiB: the action goes alone rather than be refused whole.
        self.assertEqual(acts[1]["action"]["cell"], 0)
        self.assertNotIn("info", acts[1])

    async def test_a_function_that_raises_forfeits_the_seat_saying_why(self):
        sent = []

        def play(turn):
            raise ValueError("no idea")

        async def script(ws, n):
            if n > 1:  # ends the run: a refusal for good
                await ws.send(json.dumps({"type": "error", "code": "bad_name", "message": "enough"}))
                return
            await ws.send(json.dumps(welcome()))
            await ws.send(json.dumps({"type": "your_turn", "room": ROOM, "seat": 0, "view": VIEW}))
            sent.append(json.loads(await ws.recv()))
            await ws.close()

        async with Scripted(script) as server:
            with self.assertRaises(Refused):
                await asyncio.wait_for(bot(server.url, play).run(), 10)
        self.assertEqual(sent[0]["type"], "forfeit")
        self.assertEqual((sent[0]["cause"], sent[0]["detail"]), ("engine_failure", "ValueError: no idea"))


if __name__ == "__main__":
    unittest.main()
