#!/usr/bin/env python3
"""Keeps ROOMS rooms of the server's built-in bots playing until SECONDS have passed.

    scripts/soak_bot_rooms.py URL ROOMS SECONDS

Used by scripts/soak.sh (docs/reliability.md, "Soak") so that a soak of the default server puts its
built-in bot pool to work: issue 16 found that 20 rooms of built-in bots took the server from 20 MiB
to 470 MiB while the pool lived inside it. Each room is a 3-player plane battle (the default game
settings) whose owner does not sit and starts it at once, so the pool fills every seat. A room
that finishes is replaced by a new one. Rooms are spread over several owners (connections), since
the server limits the rooms one player may keep open. Prints one line at the end: rooms started,
finished and errors seen. Needs Python's websockets (examples/python/requirements.txt).
"""

import json
import sys
import time

from websockets.sync.client import connect

ROOMS_PER_OWNER = 4


class Owner:
    """One connection that owns up to ROOMS_PER_OWNER rooms of bots."""

    def __init__(self, url, index):
        self.ws = connect(url, max_size=None)
        self.req = 0
        self.send({"type": "hello", "protocol": 1, "name": f"soak-{index}"})
        self.expect("welcome")
        self.playing = set()
        self.started = 0
        self.finished = 0
        self.errors = []

    def send(self, msg):
        self.req += 1
        msg["req"] = self.req
        self.ws.send(json.dumps(msg))
        return self.req

    def expect(self, kind):
        while True:
            msg = json.loads(self.ws.recv(timeout=30))
            if msg["type"] == kind:
                return msg
            if msg["type"] == "error":
                raise RuntimeError(msg)

    def top_up(self):
        while len(self.playing) < ROOMS_PER_OWNER:
            self.send({"type": "create_room", "sit": False, "config": {"game": {"game": "plane"}}})
            room = self.expect("room_created")["room"]
            self.send({"type": "start", "room": room})
            self.playing.add(room)
            self.started += 1

    def drain(self, seconds):
        """Reads what the server sends for `seconds`, noting rooms that finish."""
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            try:
                msg = json.loads(self.ws.recv(timeout=left))
            except TimeoutError:
                return
            if msg["type"] == "error":
                self.errors.append(msg.get("code"))
            elif msg["type"] == "rooms":
                for room in msg["rooms"]:
                    if room["id"] in self.playing and room["status"] == "finished":
                        self.playing.discard(room["id"])
                        self.finished += 1
                        # The owner watched; like a person closing the page, it goes.
                        self.send({"type": "leave_room", "room": room["id"]})


def main():
    url, rooms, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    owners = [Owner(url, i) for i in range((rooms + ROOMS_PER_OWNER - 1) // ROOMS_PER_OWNER)]
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for owner in owners:
            owner.top_up()
            owner.send({"type": "list_rooms"})
        for owner in owners:
            owner.drain(2.0 / len(owners))
    started = sum(o.started for o in owners)
    finished = sum(o.finished for o in owners)
    errors = [e for o in owners for e in o.errors]
    print(f"bot rooms: {started} started, {finished} finished, {len(errors)} errors {sorted(set(errors))}")


if __name__ == "__main__":
    main()
