#!/usr/bin/env bash
# The soak test (docs/reliability.md, "Soak"): does the server's memory stay flat while thousands
# of rooms play for a long time? Not part of CI.
#
#   scripts/soak.sh [seconds] [rooms] [threshold-percent] [csv]
#
# seconds: how long the rooms play (default 600); rooms: rooms played at once (default 2000, two
# connections each); threshold-percent: the most the server's resident memory may grow from the
# middle third of the run to the last (default 10); csv: where the samples go (default a new file
# in /tmp). SOAK_THINK_MS (default 1000) is each player's pause before each move, SOAK_WARMUP
# (default 60) the seconds left out of the summary at the start. SOAK_BOTS (default 2, the server's
# own default) is the server's --bots: its built-in pool, a process of its own; while the run lasts,
# scripts/soak_bot_rooms.py keeps SOAK_BOT_ROOMS (default 20) rooms of those bots playing (3-player
# plane battle, a new room when one ends), so that the default server is soaked with its pool at
# work. SOAK_BOTS=0 gives the earlier soak of people's rooms alone.
#
# It builds the release programs, starts a server (SOAK_BOTS built-in bots, a fresh database in a
# temporary folder, a free port, and the per-connection limits raised as in docs/performance.md so
# that one load generator may hold thousands of connections from one address), and runs
# `skirmish-bench load` against it: `rooms` rooms of 2-player plane battle played by `random`
# players at a person's pace. At 1 s a move a match (18 rounds) outlasts a 10-minute run (none
# ended in 600 s), so every room plays for the whole run and the room count stays where it
# started (the CSV's rooms_playing column shows it). Every 5 s it samples the server's VmRSS (/proc/<pid>/status), the rooms
# by state and the open connections (the `skirmish_rooms` and `skirmish_connections` gauges of
# /metrics) into the CSV. At the end it prints, for the first, middle and last thirds of the
# samples after the warm-up, the median and peak RSS, and the growth of the median from the first
# and from the middle third to the last; it exits 1 when the growth from the middle to the last
# third is over the threshold (and 2 when the run itself failed: the server died, or the load
# reported no moves).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
rooms=${2:-2000}
threshold=${3:-10}
csv=${4:-$(mktemp /tmp/skirmish-soak-XXXXXX.csv)}
think_ms=${SOAK_THINK_MS:-1000}
warmup=${SOAK_WARMUP:-60}
bots=${SOAK_BOTS:-2}
bot_rooms=${SOAK_BOT_ROOMS:-20}
interval=5
for n in "$seconds" "$rooms" "$threshold" "$think_ms" "$warmup" "$bots" "$bot_rooms"; do
    [[ $n =~ ^[0-9]+([.][0-9]+)?$ ]] || { echo "usage: scripts/soak.sh [seconds] [rooms] [threshold-percent] [csv]; not a number: $n" >&2; exit 2; }
done

cargo build --release --quiet -p skirmish-server -p skirmish-bots -p skirmish-bench
bin=${CARGO_TARGET_DIR:-target}/release

# Two connections per room in each process, and a few files of their own.
ulimit -n "$(ulimit -Hn)"
if [ "$(ulimit -n)" != unlimited ] && [ $((rooms * 2 + 100)) -gt "$(ulimit -n)" ]; then
    echo "soak: $rooms rooms need $((rooms * 2 + 100)) open files per process; the limit is $(ulimit -n)" >&2
    exit 2
fi

dir=$(mktemp -d)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
server=
sampler=
driver=
cleanup() {
    [ -n "$driver" ] && kill "$driver" 2>/dev/null || true
    [ -n "$sampler" ] && kill "$sampler" 2>/dev/null || true
    [ -n "$server" ] && kill "$server" 2>/dev/null || true
    rm -rf "$dir"
}
trap cleanup EXIT

"$bin/skirmish-server" --port "$port" --bots "$bots" --database "$dir/soak.db" --log warn \
    --messages-per-second 1000000 --message-burst 1000000 --connections-per-address 100000 \
    --upgrades-per-address 100000 --http-connections-per-address 100000 --rooms-per-address 1000000 \
    2> "$dir/server.log" &
server=$!
until curl -fsS "http://127.0.0.1:$port/metrics" > /dev/null 2>&1; do
    kill -0 "$server" 2>/dev/null || { echo "soak: the server did not start" >&2; cat "$dir/server.log" >&2; exit 2; }
    sleep 0.2
done

# One sample every $interval s: seconds since the server started, VmRSS in KiB, rooms waiting,
# playing and finished (summed over games), open connections.
echo "seconds,rss_kib,rooms_waiting,rooms_playing,rooms_finished,connections" > "$csv"
(
    start=$(date +%s.%N)
    while kill -0 "$server" 2>/dev/null; do
        rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$server/status" 2>/dev/null || true)
        metrics=$(curl -fsS --max-time 4 "http://127.0.0.1:$port/metrics" 2>/dev/null || true)
        counts=$(awk '
            /^skirmish_rooms\{/ {
                if ($0 ~ /state="waiting"/) w += $NF
                if ($0 ~ /state="playing"/) p += $NF
                if ($0 ~ /state="finished"/) f += $NF
            }
            /^skirmish_connections / { c = $NF }
            END { printf "%d,%d,%d,%d", w, p, f, c }' <<< "$metrics")
        now=$(date +%s.%N)
        [ -n "$rss" ] && echo "$(awk -v a="$start" -v b="$now" 'BEGIN { printf "%.1f", b - a }'),$rss,$counts" >> "$csv"
        sleep "$interval"
    done
) &
sampler=$!

if [ "$bots" -gt 0 ] && [ "$bot_rooms" -gt 0 ]; then
    python3 scripts/soak_bot_rooms.py "ws://127.0.0.1:$port/ws" "$bot_rooms" "$seconds" > "$dir/bot_rooms.txt" 2>&1 &
    driver=$!
fi

echo "soak: $rooms rooms of plane2 for $seconds s at $think_ms ms a move; server pid $server, port $port; samples in $csv" >&2
"$bin/skirmish-bench" --log warn load --url "ws://127.0.0.1:$port/ws" --server-pid "$server" \
    --game plane2 --rooms "$rooms" --seconds "$seconds" --warmup-seconds 0 --think-ms "$think_ms" \
    --mode game --json > "$dir/load.json"
if ! kill -0 "$server" 2>/dev/null; then
    echo "soak: the server died during the run" >&2
    cat "$dir/server.log" >&2
    exit 2
fi
kill "$sampler" 2>/dev/null || true
wait "$sampler" 2>/dev/null || true
sampler=
if [ -n "$driver" ]; then
    wait "$driver" || echo "soak: the bot-room driver failed" >&2
    driver=
    cat "$dir/bot_rooms.txt"
fi

python3 - "$csv" "$dir/load.json" "$warmup" "$threshold" "$rooms" <<'PY'
import csv, json, statistics, sys

path, load_path, warmup, threshold, rooms = sys.argv[1:]
warmup, threshold, rooms = float(warmup), float(threshold), int(rooms)
rows = [{k: float(v) for k, v in r.items()} for r in csv.DictReader(open(path))]
load = json.load(open(load_path))["game_run"]

print(f"load: {load['seconds']:.0f} s measured, {load['connections_held']} connections held, "
      f"{load['round_trips']} moves ({load['round_trips_per_second']:.0f}/s), "
      f"round trip p50 {load['latency_ms']['p50']:.1f} ms p99 {load['latency_ms']['p99']:.1f} ms, "
      f"{load['matches_finished']} matches finished, {load['errors']} errors {load['error_kinds']}")

after = [r for r in rows if r["seconds"] >= warmup]
if len(after) < 6:
    print(f"soak: only {len(after)} samples after the {warmup:.0f} s warm-up; run longer", file=sys.stderr)
    sys.exit(2)
playing = [r["rooms_playing"] for r in after]
conns = [r["connections"] for r in after]
print(f"samples: {len(rows)} in all, {len(after)} after the {warmup:.0f} s warm-up, every {rows[1]['seconds'] - rows[0]['seconds']:.0f} s")
print(f"rooms playing after the warm-up: min {min(playing):.0f}, median {statistics.median(playing):.0f}, "
      f"max {max(playing):.0f} (of {rooms}); finished at the end {after[-1]['rooms_finished']:.0f}; "
      f"connections min {min(conns):.0f}, max {max(conns):.0f}")

n = len(after)
thirds = {"first": after[: n // 3], "middle": after[n // 3 : 2 * n // 3], "last": after[2 * n // 3 :]}
medians = {}
for name, part in thirds.items():
    rss = [r["rss_kib"] / 1024 for r in part]
    medians[name] = statistics.median(rss)
    print(f"RSS {name:6} third ({part[0]['seconds']:6.0f} s to {part[-1]['seconds']:6.0f} s, {len(rss):3} samples): "
          f"median {medians[name]:8.1f} MiB, max {max(rss):8.1f} MiB")
first_to_last = medians["last"] / medians["first"]
middle_to_last = medians["last"] / medians["middle"]
print(f"RSS growth (medians): first to last third x{first_to_last:.3f}, middle to last third x{middle_to_last:.3f} "
      f"(threshold x{1 + threshold / 100:.3f})")
if load["round_trips"] == 0:
    print("soak: FAILED: no move was played", file=sys.stderr)
    sys.exit(2)
if middle_to_last > 1 + threshold / 100:
    print(f"soak: FAILED: RSS grew {100 * (middle_to_last - 1):.1f}% from the middle to the last third", file=sys.stderr)
    sys.exit(1)
print("soak: passed")
PY
