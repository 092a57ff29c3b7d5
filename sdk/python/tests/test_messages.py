"""The SDK's messages against the protocol's JSON Schemas (protocol/schema/client.json, server.json).

- every message a builder makes validates against client.json (the ``jsonschema`` library), and
  a wrong one does not (so the check is real);
- every message type of both schemas has a TypedDict in ``skirmish.messages``, and none other;
  each TypedDict's keys are properties of its schema, and it requires what the schema requires.

Run from the repository: ``python3 -m unittest discover -s sdk/python/tests`` (with the SDK and
``jsonschema`` installed: ``pip install './sdk/python[test]'``). ``SKIRMISH_SCHEMA_DIR`` points at
another copy of protocol/schema.
"""

import json
import os
import pathlib
import random
import typing
import unittest

import jsonschema

from skirmish import Bot, backoff_delay, messages

SCHEMA_DIR = pathlib.Path(
    os.environ.get("SKIRMISH_SCHEMA_DIR", pathlib.Path(__file__).resolve().parents[3] / "protocol" / "schema")
)
ROOM = "5f0c1c5e-8f7e-4a3b-9a59-0d1c2b3a4f5e"


def load(name):
    return json.loads((SCHEMA_DIR / name).read_text())


def variants(schema):
    """Each message type's schema, by its ``type`` constant."""
    return {v["properties"]["type"]["const"]: v for v in schema["oneOf"]}


def properties(schema, defs):
    """A variant's properties and required keys, through a ``$ref`` (a flattened struct) if it has one."""
    props, required = dict(schema.get("properties", {})), set(schema.get("required", []))
    if "$ref" in schema:
        target = defs[schema["$ref"].removeprefix("#/$defs/")]
        more, more_required = properties(target, defs)
        props.update(more)
        required |= more_required
    return props, required


def built_messages():
    """One of every message the SDK builds, with every optional field that has a builder argument."""
    bot = Bot(url="ws://x/ws", name="pybot", play={"gomoku": lambda t: None, "junqi": lambda t: None}, version="1.0")
    bot.resume = "ab" * 32
    actions = [
        messages.plane_deploy([{"head": "C1", "facing": "up"}, {"head": "F6", "facing": "left"}]),
        messages.plane_fire(1, "E5"),
        messages.gomoku_place("h8"),
        messages.gomoku_place("s19"),
        messages.junqi_deploy("abccddeeffggghhhiiijjkklj"),
        messages.junqi_move("G0", "F0"),
        messages.tic_tac_toe_place(4),
        messages.resign("gomoku", "lost anyway"),
        messages.resign("junqi"),
        messages.resign("tic_tac_toe"),
    ]
    return [
        bot.hello(),
        messages.hello("Ann"),
        messages.hello("alpha", bot={"games": {"plane": ["bayes"]}}, token="f" * 64, key="k", resume="r", turn_view=True, req=1),
        *[messages.act(ROOM, a, seat=1, req=7) for a in actions],
        messages.act(ROOM, messages.gomoku_place("a1")),
        messages.act(ROOM, messages.gomoku_place("h8"), info={"score": 12, "depth": 3, "nodes": 900, "pv": ["h8", "h9"], "belief": {"game": "gomoku", "eval": -250}}),
        messages.act(ROOM, messages.plane_fire(1, "E5"), info={"belief": {"game": "plane", "boards": [{"seat": 1, "cells": [0, 1000] * 24 + [500]}]}}),
        messages.act(ROOM, messages.junqi_move("G0", "F0"), info={"belief": {"game": "junqi", "pieces": [{"post": "A1", "rank": "field_marshal", "chance": 400}]}}),
        messages.forfeit(ROOM, seat=0, detail="engine crashed"),
        messages.offer(ROOM, "draw"),
        messages.offer(ROOM, "takeback", seat=1),
        messages.answer(ROOM, "takeback", True, seat=0, req=3),
        messages.chat(ROOM, "gg"),
        messages.list_rooms(req=2),
        messages.list_bots(),
        messages.ping(req=9),
        messages.create_room({"name": "Friday", "game": {"game": "gomoku"}}, sit=True),
        messages.join_room(ROOM, seat=1),
        messages.leave_room(ROOM),
        messages.spectate(ROOM),
        messages.add_bot(ROOM, strategy="threat-search"),
        messages.add_bot(ROOM, seat=1, level="hard"),
        messages.quick_match("junqi", name="Ann"),
        messages.start(ROOM),
    ]


class Messages(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.client = load("client.json")
        cls.server = load("server.json")
        # With the formats checked: `uuid` (room ids), `uint8` and the like are not checked.
        cls.validator = jsonschema.Draft202012Validator(
            cls.client, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
        )

    def test_every_built_message_validates_against_the_client_schema(self):
        built = built_messages()
        kinds = {m["type"] for m in built}
        self.assertEqual(kinds, set(variants(self.client)), "a builder for every client message")
        for msg in built:
            errors = list(self.validator.iter_errors(msg))
            self.assertEqual(errors, [], f"{msg} does not validate: {[e.message for e in errors]}")

    def test_wrong_messages_do_not_validate(self):
        for wrong in [
            {**messages.act(ROOM, messages.gomoku_place("h8")), "room": "not-a-uuid"},
            messages.act(ROOM, {"game": "chess", "kind": "place", "point": "h8"}),
            messages.act(ROOM, messages.junqi_deploy("abc")),
            messages.act(ROOM, messages.gomoku_place("h")),
            {**messages.hello("Ann"), "protocol": "one"},
            {"type": "dance"},
        ]:
            self.assertFalse(self.validator.is_valid(wrong), wrong)

    def test_every_message_type_has_a_typed_dict_that_matches_its_schema(self):
        for schema, typed in ((self.client, messages.CLIENT_MESSAGES), (self.server, messages.SERVER_MESSAGES)):
            found = variants(schema)
            self.assertEqual(set(typed), set(found), f"{schema['title']}: the message types")
            frame = schema.get("properties", {})  # client.json: `req`, on every client message
            for kind, cls in typed.items():
                props, required = properties(found[kind], schema["$defs"])
                props = {**frame, **props}
                hints = typing.get_type_hints(cls)
                self.assertLessEqual(set(hints), set(props), f"{kind}: keys the schema does not have")
                if cls.__total__ or cls.__required_keys__:
                    self.assertEqual(set(cls.__required_keys__), required, f"{kind}: required keys")
                type_hint = hints["type"]
                self.assertEqual(typing.get_args(type_hint), (kind,), f"{kind}: its `type`")

    def test_the_info_types_have_the_schema_keys(self):
        defs = self.client["$defs"]
        for typed, name in [(messages.BotInfo, "BotInfo"), (messages.BoardOdds, "BoardOdds"), (messages.RankGuess, "RankGuess")]:
            props, required = properties(defs[name], defs)
            self.assertEqual(set(typing.get_type_hints(typed)), set(props), name)
            self.assertEqual(set(typed.__required_keys__), required, name)
        beliefs = {v["properties"]["game"]["const"]: v for v in defs["Belief"]["oneOf"]}
        for typed in typing.get_args(messages.Belief):
            game = typing.get_args(typing.get_type_hints(typed)["game"])[0]
            self.assertEqual(set(typing.get_type_hints(typed)), set(beliefs[game]["properties"]), game)

    def test_the_fatal_hello_codes_are_codes(self):
        codes = {v["const"] for v in self.server["$defs"]["ErrorCode"]["anyOf"] if "const" in v}
        self.assertLessEqual(set(messages.FATAL_HELLO_CODES), codes)

    def test_the_end_kinds_are_event_kinds(self):
        kinds = set()
        for name, schema in self.server["$defs"].items():
            if name.startswith("Event"):
                kinds |= {v["properties"]["kind"]["const"] for v in schema.get("oneOf", [])}
        self.assertLessEqual(set(messages.END_KINDS), kinds)


class Backoff(unittest.TestCase):
    def test_the_delay_doubles_up_to_the_cap_with_jitter_in_its_upper_half(self):
        rng = random.Random(1)
        for attempt in range(12):
            ceiling = min(8.0, 0.25 * 2**attempt)
            delays = [backoff_delay(attempt, rng=rng) for _ in range(200)]
            self.assertTrue(all(ceiling / 2 <= d <= ceiling for d in delays), (attempt, min(delays), max(delays)))
            self.assertGreater(len(set(delays)), 150, "jittered")


if __name__ == "__main__":
    unittest.main()
