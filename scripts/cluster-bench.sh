#!/usr/bin/env bash
# The cluster benchmark (issue 20, docs/cluster.md): starts a 3-node cluster on this machine with
# scripts/cluster.sh (nats-server with JetStream, PostgreSQL, HAProxy), then loads it with
# `skirmish-bench load` three ways, one after the other, each on the same cluster:
#   (a) one node: every seat of every room connects to node1 (rooms and players on one node, no
#       bus hop; nodes 2 and 3 idle in the cluster);
#   (t) three nodes, each room's players together: `--url node1,node2,node3 --spread rooms`,
#       every seat of room i on node i (mod 3): the control for (b), with the rooms and their
#       journals spread over three nodes as in (b), but no move crossing the bus;
#   (b) three nodes, spread: `--url node1,node2,node3`, so the seats of room i connect to nodes
#       i, i+1 (mod 3): a room's players are on different nodes, and every move of a player not
#       on the room's node crosses the bus (to the room and back);
#   (c) through HAProxy: every connection to the load balancer, which gives it to the node with
#       the fewest connections.
# Each twice: flat out (each player moves as soon as it may: moves a second and CPU, with latency
# bound by throughput, Little's law, docs/performance.md), then paced (each player waits
# --think-ms before each move, so that the load is well under what the machine carries and a round
# trip is the path's own time, not a queue's). For each run: moves a second, round trip p50/p99,
# errors, the CPU of the nodes, nats-server, PostgreSQL and HAProxy over the measured window
# (`--watch`), the bus's messages a move (nats-server's counters over the whole run, over moves a
# second times warm-up plus window: an estimate), and whether every node still answered /healthz
# afterwards; then, paced, p50 of (b) minus p50 of (t), the added latency of a bus hop (and p50
# of (b) minus p50 of (a), which also holds the difference between one node's journal writer and
# three's: every event waits for its PostgreSQL commit).
#
#   nice -n 19 scripts/cluster-bench.sh [--seconds 10] [--warmup 2] [--rooms 100] [--game gomoku]
#                                       [--think-ms 50] [--dir DIR] [--keep]
#
# The nodes run with the load's raised limits and --grace-ms 2000 (rooms a run leaves behind close
# quickly); no bot pool; HAProxy lets the load's one address hold every connection. The reports
# stay in DIR (default target/cluster-bench) as a.json, b.json, c.json, a-paced.json, ...
# --keep leaves the cluster running afterwards.
# The ports are scripts/cluster.sh's (CLUSTER_*_PORT): stop any other cluster.sh cluster first.
# Builds the release server and load generator unless SKIRMISH_BIN and SKIRMISH_BENCH_BIN are set.
# Not part of .ci/run: it needs the whole machine for a minute and its figures are noisy.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"

seconds=10
warmup=2
rooms=100
game=gomoku
think=50
dir="$root/target/cluster-bench"
keep=false
while [ "$#" -gt 0 ]; do
    case "$1" in
        --seconds) seconds="${2:?}"; shift 2 ;;
        --warmup) warmup="${2:?}"; shift 2 ;;
        --rooms) rooms="${2:?}"; shift 2 ;;
        --game) game="${2:?}"; shift 2 ;;
        --think-ms) think="${2:?}"; shift 2 ;;
        --dir) dir="${2:?}"; shift 2 ;;
        --keep) keep=true; shift ;;
        -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
        *) echo "cluster-bench.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
say() { echo "== cluster-bench.sh: $*" >&2; }

release="${CARGO_TARGET_DIR:-$root/target}/release"
if [ -z "${SKIRMISH_BIN:-}" ] || [ -z "${SKIRMISH_BENCH_BIN:-}" ]; then
    say "building the release server and load generator"
    cargo build --release --quiet --locked -p skirmish-server -p skirmish-bench
fi
export SKIRMISH_BIN="${SKIRMISH_BIN:-$release/skirmish-server}"
bench="${SKIRMISH_BENCH_BIN:-$release/skirmish-bench}"

# The load's limits (docs/performance.md): people may send as fast as they like.
export SKIRMISH_MESSAGES_PER_SECOND=1000000 SKIRMISH_MESSAGE_BURST=1000000
export CLUSTER_BOTS=0 CLUSTER_NODE_ARGS="--grace-ms 2000 ${CLUSTER_NODE_ARGS:-}"
# Every load connection comes from 127.0.0.1: HAProxy's per-address limit must hold them all.
export SKIRMISH_LB_CONNECTIONS_PER_ADDRESS=1000000 SKIRMISH_LB_REQUESTS_PER_10S=1000000
cluster=(scripts/cluster.sh)
"${cluster[@]}" start --nodes 3 --dir "$dir"
if ! $keep; then
    trap '"${cluster[@]}" stop --dir "$dir"' EXIT
fi
# shellcheck source=/dev/null
source "$dir/cluster.env"

pid() { head -n 1 "$dir/pids/$1.pid"; }
# A process and its children, as PID+PID+... (PostgreSQL's backends, HAProxy's worker).
family() {
    local parent="$1" list="$1" child
    for child in $(ps -o pid= --ppid "$parent"); do list="$list+$child"; done
    echo "$list"
}
nodes_url() {
    local k list=()
    for k in $(seq "$CLUSTER_NODES"); do list+=("ws://127.0.0.1:$((CLUSTER_NODE_PORT + k - 1))/ws"); done
    (IFS=,; echo "${list[*]}")
}
varz() { curl -fsS "http://127.0.0.1:$CLUSTER_NATS_MONITOR_PORT/varz"; }

# run NAME URLS THINK_MS [OPTION...]: one load run, its report in DIR/NAME.json, the bus's counters around it
# in DIR/NAME.varz-{before,after}.json, and the nodes that did not answer /healthz after it in
# DIR/NAME.health.
run() {
    local name="$1" urls="$2" think_ms="$3" watch k
    shift 3
    watch="node1=$(pid node1),node2=$(pid node2),node3=$(pid node3),nats=$(pid nats)"
    watch="$watch,postgres=$(family "$(pid postgres)"),haproxy=$(family "$(pid haproxy)")"
    say "($name) --url $urls"
    varz >"$dir/$name.varz-before.json"
    "$bench" --log warn load --mode game --game "$game" --rooms "$rooms" --seconds "$seconds" \
        --warmup-seconds "$warmup" --think-ms "$think_ms" --url "$urls" --watch "$watch" "$@" --json >"$dir/$name.json"
    varz >"$dir/$name.varz-after.json"
    : >"$dir/$name.health"
    for k in $(seq "$CLUSTER_NODES"); do
        curl -fsS --max-time 2 -o /dev/null "http://127.0.0.1:$((CLUSTER_NODE_PORT + k - 1))/healthz" ||
            echo "node$k" >>"$dir/$name.health"
    done
    # Rooms left by this run close (grace 2 s, then the seat forfeits) before the next.
    sleep 4
}

# The paced runs first: the bus hop's latency is the figure the others cannot give.
run a-paced "ws://127.0.0.1:$CLUSTER_NODE_PORT/ws" "$think"
if [ "$CLUSTER_MODE" = cluster ]; then
    run t-paced "$(nodes_url)" "$think" --spread rooms
    run b-paced "$(nodes_url)" "$think"
    run c-paced "ws://127.0.0.1:$CLUSTER_LB_PORT/ws" "$think"
fi
run a "ws://127.0.0.1:$CLUSTER_NODE_PORT/ws" 0
if [ "$CLUSTER_MODE" = cluster ]; then
    run b "$(nodes_url)" 0
    run c "ws://127.0.0.1:$CLUSTER_LB_PORT/ws" 0
else
    say "$SKIRMISH_BIN has no --cluster: (b) and (c) need rooms shared between nodes; only (a) ran"
fi

python3 - "$dir" "$warmup" "$think" <<'EOF'
import json, os, sys

folder, warmup, think = sys.argv[1], float(sys.argv[2]), sys.argv[3]
names = {
    "a-paced": f"(a) one node (node1 only), paced {think} ms",
    "t-paced": f"(t) 3 nodes, rooms spread, paced {think} ms",
    "b-paced": f"(b) 3 nodes, seats spread, paced {think} ms",
    "c-paced": f"(c) through HAProxy, paced {think} ms",
    "a": "(a) one node (node1 only), flat out",
    "b": "(b) 3 nodes, seats spread, flat out",
    "c": "(c) through HAProxy, flat out",
}
rows, p50, sound = [], {}, {}
for key, label in names.items():
    path = os.path.join(folder, key + ".json")
    if not os.path.exists(path):
        continue
    report = json.load(open(path))
    game = report["game_run"]
    groups = {g["name"]: g for g in game["watched"]}
    moves = game["round_trips"]
    nodes_cpu = sum(g["cpu_seconds"] for n, g in groups.items() if n.startswith("node"))
    before = json.load(open(os.path.join(folder, key + ".varz-before.json")))
    after = json.load(open(os.path.join(folder, key + ".varz-after.json")))
    moves_in_run = game["round_trips_per_second"] * (warmup + game["seconds"])
    per_move = lambda k: (after[k] - before[k]) / moves_in_run if moves_in_run else float("nan")
    p50[key] = game["latency_ms"]["p50"]
    unhealthy = open(os.path.join(folder, key + ".health")).read().split()
    # A run counts when moves came back and every node still answered afterwards (errors such
    # as no_such_room, a join retried, do not spoil it).
    sound[key] = moves > 0 and not unhealthy and "connect" not in game["error_kinds"]
    rows.append([
        label,
        f"{game['round_trips_per_second']:,.0f}",
        f"{game['latency_ms']['p50']:.2f}",
        f"{game['latency_ms']['p99']:.2f}",
        str(game["errors"]),
        f"{1e6 * nodes_cpu / moves:.0f}" if moves else "-",
        "/".join(f"{groups[n]['cores_busy']:.2f}" for n in ("node1", "node2", "node3")),
        f"{groups['nats']['cores_busy']:.2f}",
        f"{groups['postgres']['cores_busy']:.2f}",
        f"{groups['haproxy']['cores_busy']:.2f}",
        f"{per_move('in_msgs'):.1f}/{per_move('out_msgs'):.1f}",
        "not " + ",".join(unhealthy) if unhealthy else "all",
    ])
    load = report["load_average"]
header = ["run", "moves/s", "p50 ms", "p99 ms", "errors", "nodes CPU µs/move",
          "node1/2/3 cores", "nats cores", "postgres cores", "haproxy cores", "bus msgs in/out per move",
          "healthy after"]
widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
print(f"{report['rooms']} rooms of {report['game']}, {report['cores']} cores, load average at the last run's start "
      f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
for row in [header] + rows:
    print(" | ".join(str(c).ljust(w) for c, w in zip(row, widths)))
for control, what in (("t-paced", "added latency of a bus hop: p50 of (b) minus p50 of (t), paced"),
                      ("a-paced", "p50 of (b) minus p50 of (a), paced")):
    if sound.get(control) and sound.get("b-paced"):
        print(f"{what}: {p50['b-paced'] - p50[control]:+.3f} ms")
    elif control in p50 and "b-paced" in p50:
        print(f"{what}: not measured (a run played no move, or a node stopped answering)")
errors = {k: json.load(open(os.path.join(folder, k + ".json")))["game_run"]["error_kinds"] for k in p50}
for k, e in errors.items():
    if e:
        print(f"({k}) errors: {e}")
EOF
