#!/usr/bin/env python3
"""Paired runs of the peers' duel: two or more server builds, run after run, alternating.

A before/after comparison on a shared machine (issue 17): the spread from one run of a build to
the next is often wider than a change's effect, so each build is run several times, in turns
(A, B, A, B, ...), each time on a fresh server, and the medians are compared. The workload is the
shared peer harness's "ping-pong duel" (scripts/peers.sh says what it is and sets it up: run
`scripts/peers.sh --setup-only` once first). Not part of CI.

    scripts/peers-pair.py [--rooms R] [--seconds S] [--runs N] [--axum] NAME=BINARY ...

e.g.  scripts/peers-pair.py --rooms 1000 --runs 4 before=/tmp/a/skirmish-server after=target/release/skirmish-server --axum

Each NAME=BINARY is a skirmish-server binary, started as the harness starts Skirmish
(systems/skirmish/run.sh: no built-in bots, a fresh SQLite file, message limits raised) with the
per-address limits raised as scripts/peers.sh raises them. --axum adds the harness's minimal axum
room (systems/rust-axum) to every turn, for ratios. R = 1 measures 5,000 moves' round trips;
larger R measures S seconds after a 3 s warm-up. Printed per system: the median moves/s, p50 and
p99 of a move's round trip, and the server's CPU per move (CPU seconds of the measured window over
the moves in it), each run's moves/s, and each median's ratio to the first system's.

Environment: PEERS_DIR, the harness (default ../shared/peers beside the repository).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PEERS = Path(os.environ.get("PEERS_DIR", ROOT.parent / "shared" / "peers"))
SKIRMISH_PORT = 9411
AXUM_PORT = 9412
# As scripts/peers.sh: one load generator opens every connection from 127.0.0.1.
LIMITS = {
    "SKIRMISH_ROOMS_PER_ADDRESS": "1000000",
    "SKIRMISH_UPGRADES_PER_ADDRESS": "100000",
    "SKIRMISH_HTTP_CONNECTIONS_PER_ADDRESS": "100000",
    "SKIRMISH_REQUESTS_PER_ADDRESS": "100000",
}


def start(binary):
    """Starts one system; returns its process, the loadgen adapter and the URL."""
    if binary is None:
        server = PEERS / "systems" / "rust-axum" / "target" / "release" / "duel-axum"
        process = subprocess.Popen(
            [str(server), "--port", str(AXUM_PORT)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        return process, "json-ws", f"ws://127.0.0.1:{AXUM_PORT}/ws"
    env = dict(os.environ, SKIRMISH_BIN=str(binary), **LIMITS)
    process = subprocess.Popen(
        ["sh", "systems/skirmish/run.sh", str(SKIRMISH_PORT)],
        cwd=PEERS,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return process, "systems/skirmish/adapter.js", f"ws://127.0.0.1:{SKIRMISH_PORT}/ws"


def run_once(binary, rooms, seconds, out):
    """One run on a fresh server: (moves/s, p50 µs, p99 µs, server CPU µs per move), or None."""
    process, adapter, url = start(binary)
    try:
        time.sleep(1)
        command = ["node", "loadgen.js", "--adapter", adapter, "--url", url, "--rooms", str(rooms)]
        if rooms == 1:
            command += ["--moves", "5000"]
        else:
            command += ["--warmup", "3", "--duration", str(seconds)]
        command += ["--server-pid", str(process.pid), "--out", out]
        subprocess.run(command, cwd=PEERS, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=300)
    finally:
        process.terminate()
        process.wait()
    with open(out) as f:
        result = json.load(f)
    if not result.get("ok"):
        print(f"  a run failed: {result.get('reason')}", file=sys.stderr)
        return None
    moves_per_s = result.get("movesPerSec") or 0
    latency = result["latency"]
    if rooms == 1:
        cpu = result["server"]["cpuSecTotal"] / max(latency["count"], 1) * 1e6
    else:
        cpu = result["server"]["cpuSecWindow"] / max(moves_per_s * seconds, 1) * 1e6
    return moves_per_s, latency["p50"], latency["p99"], cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rooms", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--runs", type=int, default=4)
    parser.add_argument("--axum", action="store_true", help="add the minimal axum room to every turn")
    parser.add_argument("builds", nargs="+", metavar="NAME=BINARY")
    args = parser.parse_args()
    systems = []
    for build in args.builds:
        name, sep, binary = build.partition("=")
        if not sep or not Path(binary).is_file():
            parser.error(f"{build!r} is not NAME=BINARY with an existing binary")
        systems.append((name, Path(binary).resolve()))
    if args.axum:
        systems.append(("axum", None))
    if not (PEERS / "node_modules").is_dir():
        parser.error(f"the harness at {PEERS} is not set up: run scripts/peers.sh --setup-only")
    results = {name: [] for name, _ in systems}
    with tempfile.TemporaryDirectory() as tmp:
        out = str(Path(tmp) / "run.json")
        for turn in range(args.runs):
            for name, binary in systems:
                figures = run_once(binary, args.rooms, args.seconds, out)
                if figures:
                    results[name].append(figures)
                    print(f"turn {turn + 1}: {name} {figures[0]:.0f} moves/s, {figures[3]:.1f} µs CPU per move", file=sys.stderr)
    first = None
    print(f"R = {args.rooms}, {args.runs} runs each, alternating (medians)")
    for name, _ in systems:
        runs = results[name]
        if not runs:
            print(f"{name}: every run failed")
            continue
        medians = [statistics.median(run[i] for run in runs) for i in range(4)]
        first = first or medians
        print(
            f"{name}: moves/s {medians[0]:.0f} ({medians[0] / first[0]:.2f}x)  p50 {medians[1]:.0f} µs  "
            f"p99 {medians[2]:.0f} µs  server CPU per move {medians[3]:.1f} µs ({medians[3] / first[3]:.2f}x)  "
            f"runs: {[round(run[0]) for run in runs]}"
        )


if __name__ == "__main__":
    main()
