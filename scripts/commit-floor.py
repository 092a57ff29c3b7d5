#!/usr/bin/env python3
"""The floor a durable move stands on (issue 17): the time of one synced commit on this disk.

docs/reliability.md promises that no event of a move reaches a player before the move's journal
entry is synced. So at one room, where no group commit can share the sync, a move's round trip is
at least a minimal room's round trip plus one synced commit. This script times that commit the way
the server makes it (SQLite, WAL, synchronous=FULL, one small row per transaction) and, for
comparison, a bare write plus fsync, in a scratch directory on the disk the server's database uses
by default (the working directory), and prints the median, p10 and p90 of each in microseconds.

    scripts/commit-floor.py [--commits N] [--dir DIR]

Run it on a quiet machine; it writes a few MB and removes them.
"""

import argparse
import os
import sqlite3
import statistics
import tempfile
import time


def quantiles(samples):
    """Median, p10 and p90 of `samples` (seconds), in microseconds."""
    deciles = statistics.quantiles(samples, n=10)
    return statistics.median(samples) * 1e6, deciles[0] * 1e6, deciles[-1] * 1e6


def sqlite_commits(path, n):
    """Seconds per transaction of one 200-byte row, WAL, synchronous=FULL."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("CREATE TABLE log (room TEXT, n INTEGER, body TEXT)")
    row = "x" * 200
    times = []
    for i in range(n):
        t = time.perf_counter()
        db.execute("BEGIN")
        db.execute("INSERT INTO log VALUES (?, ?, ?)", ("room", i, row))
        db.execute("COMMIT")
        times.append(time.perf_counter() - t)
    db.close()
    return times


def bare_fsyncs(path, n):
    """Seconds per 200-byte append followed by fsync."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    row = b"x" * 200
    times = []
    for _ in range(n):
        t = time.perf_counter()
        os.write(fd, row)
        os.fsync(fd)
        times.append(time.perf_counter() - t)
    os.close(fd)
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=2000)
    parser.add_argument("--dir", default=".")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir, prefix="commit-floor-") as scratch:
        for name, run in (
            ("sqlite commit (WAL, synchronous=FULL)", lambda: sqlite_commits(os.path.join(scratch, "db"), args.commits)),
            ("bare write + fsync", lambda: bare_fsyncs(os.path.join(scratch, "raw"), args.commits)),
        ):
            p50, p10, p90 = quantiles(run())
            print(f"{name:40} median {p50:7.1f} us   p10 {p10:7.1f}   p90 {p90:7.1f}   ({args.commits} commits)")


if __name__ == "__main__":
    main()
