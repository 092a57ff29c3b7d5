#!/usr/bin/env bash
# A Skirmish cluster on this machine (issue 20, docs/cluster.md "Running a cluster"): the same
# shape as docker-compose.cluster.yml, from Debian's packages, every part on its own loopback port.
#
#   scripts/cluster.sh start [--nodes N] [--dir DIR]   start N nodes (default 3) and what they need
#   scripts/cluster.sh status [--dir DIR]              what runs, and whether it answers
#   scripts/cluster.sh stop [--dir DIR] [--clean]      stop everything `start` started (nodes first,
#                                                      with SIGTERM: they hand their rooms over);
#                                                      --clean also removes DIR
#   scripts/cluster.sh kill-node K [--dir DIR]         kill -9 node K and its bot pool (the pool is
#                                                      in a process group of its own): a crash
#   scripts/cluster.sh restart-node K [--dir DIR]      stop node K with SIGTERM (if it runs) and
#                                                      start it again, same port and node id
#   scripts/cluster.sh restart-bus [--dir DIR]         stop nats-server (if it runs) and start it
#                                                      again on its port with its store (DIR/nats)
#   scripts/cluster.sh restart-database [--dir DIR]    the same for PostgreSQL (DIR/postgres)
#
# A node that loses the bus stops itself and starts again by itself once the bus answers (no
# supervisor needed); a node whose database fails keeps its connections and is back by itself
# (docs/cluster.md, "What each outage does").
#
# What `start` runs, each process's pid in DIR/pids, its log in DIR/logs:
#   - nats-server with JetStream (the bus and the directory), its store in DIR/nats;
#   - a throwaway PostgreSQL cluster (initdb in DIR/postgres, trust authentication on loopback,
#     as the `postgres` user when run as root), database `skirmish`, user `skirmish`;
#   - N nodes, `skirmish-server --cluster nats://... --node-id nodeK --database postgres://...`;
#   - HAProxy in front (deploy/haproxy.cfg and DIR/haproxy-nodes.cfg), passing WebSockets.
# DIR (default target/cluster) keeps the data between a `stop` and the next `start`.
# Installs nats-server, haproxy and postgresql with apt-get when missing (as root or with sudo).
#
# Environment:
#   SKIRMISH_BIN                 the server (default ${CARGO_TARGET_DIR:-target}/release/skirmish-server;
#                                build it with `cargo build --release -p skirmish-server`)
#   CLUSTER_NATS_PORT            4222, and CLUSTER_NATS_MONITOR_PORT 8222 (nats-server's HTTP /healthz)
#   CLUSTER_PG_PORT              54329
#   CLUSTER_NODE_PORT            8081: node K listens on CLUSTER_NODE_PORT + K - 1
#   CLUSTER_LB_PORT              8080
#   CLUSTER_BOTS                 built-in bot connections of node1 (default 2; the other nodes have
#                                none: a bot connected to any node can be seated anywhere)
#   CLUSTER_NODE_ARGS            more options for every node, e.g. "--grace-ms 5000"; every
#                                SKIRMISH_* variable of the environment reaches the nodes too, so
#                                export the admin key and other settings BEFORE `start`
#                                (SKIRMISH_ADMIN_KEY=... scripts/cluster.sh start); they are read
#                                again by restart-node from the environment of that command
#   SKIRMISH_LB_*                HAProxy's per-client limits (deploy/haproxy.cfg)
# A server without `--cluster` (before issue 20's nodes) is started without it: independent
# servers on one PostgreSQL behind HAProxy, and `start` says so.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"

say() { echo "== cluster.sh: $*" >&2; }
die() { say "$*"; exit 1; }

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }

command="${1:-}"
[ -n "$command" ] || usage
shift
nodes=3
dir="$root/target/cluster"
clean=false
node_arg=""
case "$command" in
    kill-node | restart-node)
        node_arg="${1:-}"
        [[ "$node_arg" =~ ^[1-9][0-9]*$ ]] || die "$command needs a node number K (1, 2, ...)"
        shift
        ;;
esac
while [ "$#" -gt 0 ]; do
    case "$1" in
        --nodes) nodes="${2:?--nodes N}"; shift 2 ;;
        --dir) dir="${2:?--dir DIR}"; shift 2 ;;
        --clean) clean=true; shift ;;
        -h | --help) usage ;;
        *) die "unknown option $1 (see $0 --help)" ;;
    esac
done
[[ "$nodes" =~ ^[1-9][0-9]*$ ]] || die "--nodes wants a number of nodes, 1 or more, not $nodes"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
pids="$dir/pids"
logs="$dir/logs"
settings="$dir/cluster.env"

# --- processes ------------------------------------------------------------------------------------

# The pid in DIR/pids/NAME.pid when that process is alive, else nothing.
pid_of() {
    local file="$pids/$1.pid" pid
    [ -f "$file" ] || return 1
    pid="$(head -n 1 "$file")"
    [[ "$pid" =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null && echo "$pid"
}

# Runs "$@" in a session of its own (so that a stop reaches its children: a node's bot pool),
# its output in DIR/logs/NAME.log, and records its pid.
spawn() {
    local name="$1"
    shift
    setsid "$@" >>"$logs/$name.log" 2>&1 </dev/null &
    echo "$!" >"$pids/$name.pid"
}

# Sends SIGNAL to the session NAME leads, waits up to SECONDS for it to end, then SIGKILLs what is left.
stop_process() {
    local name="$1" signal="$2" seconds="$3" pid
    pid="$(pid_of "$name")" || { rm -f "$pids/$name.pid"; return 0; }
    kill "-$signal" -- "-$pid" 2>/dev/null || kill "-$signal" "$pid" 2>/dev/null || true
    for _ in $(seq $((seconds * 10))); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
        say "$name still running after SIG$signal: SIGKILL"
        kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
    fi
    rm -f "$pids/$name.pid"
}

# Whether something accepts TCP connections on 127.0.0.1:PORT.
listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# Waits up to SECONDS for COMMAND... to succeed while the process NAME (DIR/pids/NAME.pid) lives;
# else shows LOG's end and fails.
wait_for() {
    local what="$1" seconds="$2" log="$3" until
    shift 3
    until=$((SECONDS + seconds))
    while [ "$SECONDS" -lt "$until" ]; do
        "$@" >/dev/null 2>&1 && return 0
        if ! pid_of "$what" >/dev/null; then
            say "$what exited; the end of $log:"
            tail -n 20 "$log" >&2 || true
            return 1
        fi
        sleep 0.1
    done
    say "$what did not come up within ${seconds}s; the end of $log:"
    tail -n 20 "$log" >&2 || true
    return 1
}

# --- settings -------------------------------------------------------------------------------------

# What `start` chose, kept in DIR/cluster.env for the other commands (and scripts/cluster-bench.sh).
load_settings() {
    [ -f "$settings" ] || die "no cluster in $dir (scripts/cluster.sh start --dir $dir)"
    # shellcheck source=/dev/null
    source "$settings"
}

save_settings() {
    {
        echo "# Written by scripts/cluster.sh start; read by its other commands."
        local name
        for name in CLUSTER_NODES CLUSTER_BIN CLUSTER_NATS_PORT CLUSTER_NATS_MONITOR_PORT \
            CLUSTER_PG_PORT CLUSTER_NODE_PORT CLUSTER_LB_PORT CLUSTER_BOTS CLUSTER_NODE_ARGS \
            CLUSTER_BUS CLUSTER_DATABASE CLUSTER_MODE CLUSTER_PG_BIN; do
            printf '%s=%q\n' "$name" "${!name}"
        done
    } >"$settings"
}

node_port() { echo $((CLUSTER_NODE_PORT + $1 - 1)); }

# --- packages -------------------------------------------------------------------------------------

install_missing() {
    declare -A files=(
        [nats-server]=/usr/sbin/nats-server
        [haproxy]=/usr/sbin/haproxy
        # From postgresql-common, which comes with the server's binaries (/usr/lib/postgresql/*/bin).
        [postgresql]=/usr/bin/pg_ctlcluster
    )
    local missing=() package sudo=()
    for package in nats-server haproxy postgresql; do
        [ -x "${files[$package]}" ] || missing+=("$package")
    done
    [ "${#missing[@]}" -eq 0 ] && return 0
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null || die "missing Debian packages ${missing[*]}, and neither root nor sudo to install them"
        sudo=(sudo)
    fi
    say "installing Debian packages: ${missing[*]}"
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
    # Debian's packages start their own system services; this script runs its own instances.
}

# Debian's PostgreSQL binaries: the newest /usr/lib/postgresql/<version>/bin with initdb.
pg_bin() {
    local bin
    bin="$(printf '%s\n' /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"
    [ -x "$bin/initdb" ] || die "no initdb under /usr/lib/postgresql (apt-get install postgresql)"
    echo "$bin"
}

# Runs a PostgreSQL program as the `postgres` user when root (PostgreSQL refuses to run as root).
as_pg() {
    local program="$CLUSTER_PG_BIN/$1"
    shift
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$program" "$@"
    else
        "$program" "$@"
    fi
}

# --- the parts ------------------------------------------------------------------------------------

start_nats() {
    pid_of nats >/dev/null && return 0
    mkdir -p "$dir/nats"
    spawn nats nats-server --jetstream --store_dir "$dir/nats" --addr 127.0.0.1 \
        --port "$CLUSTER_NATS_PORT" --http_port "$CLUSTER_NATS_MONITOR_PORT" --server_name skirmish-bus
    # /healthz answers 200 once the server and JetStream are up.
    wait_for nats 20 "$logs/nats.log" \
        curl -fsS --max-time 2 "http://127.0.0.1:$CLUSTER_NATS_MONITOR_PORT/healthz"
}

start_postgres() {
    local data="$dir/postgres/data"
    pid_of postgres >/dev/null && return 0
    mkdir -p "$dir/postgres"
    if [ "$(id -u)" -eq 0 ]; then
        chown postgres: "$dir/postgres"
        runuser -u postgres -- test -w "$dir/postgres" ||
            die "the postgres user cannot write $dir/postgres (a parent folder closed to it?): choose another --dir"
    fi
    if [ ! -f "$data/PG_VERSION" ]; then
        as_pg initdb --auth=trust --username=skirmish --encoding=UTF8 -D "$data" >"$logs/initdb.log"
    fi
    # pg_ctl waits until the server takes connections; it writes DIR/postgres/data/postmaster.pid.
    # The defaults a deployment has: every commit flushed to the disk (docs/cluster.md, Storage).
    as_pg pg_ctl -D "$data" -l "$dir/postgres/postgres.log" -w -t 30 \
        -o "-h 127.0.0.1 -p $CLUSTER_PG_PORT -k $dir/postgres -c fsync=on -c synchronous_commit=on -c max_connections=100" \
        start >/dev/null || { tail -n 20 "$dir/postgres/postgres.log" >&2; die "PostgreSQL did not start"; }
    head -n 1 "$data/postmaster.pid" >"$pids/postgres.pid"
    if ! as_pg psql -h 127.0.0.1 -p "$CLUSTER_PG_PORT" -U skirmish -d postgres -tAc \
        "SELECT 1 FROM pg_database WHERE datname = 'skirmish'" | grep -q 1; then
        as_pg createdb -h 127.0.0.1 -p "$CLUSTER_PG_PORT" -U skirmish skirmish
    fi
}

start_node() {
    local k="$1" port bots=0 args=()
    pid_of "node$k" >/dev/null && return 0
    port="$(node_port "$k")"
    listening "$port" && die "port $port (node$k) is taken: set CLUSTER_NODE_PORT"
    [ "$k" -eq 1 ] && bots="$CLUSTER_BOTS"
    if [ "$CLUSTER_MODE" = cluster ]; then
        args+=(--cluster "$CLUSTER_BUS" --node-id "node$k")
    fi
    # shellcheck disable=SC2206 # CLUSTER_NODE_ARGS is a list of options, split on spaces.
    args+=($CLUSTER_NODE_ARGS)
    # Behind HAProxy every client comes from 127.0.0.1: the per-address limits are HAProxy's
    # (deploy/haproxy.cfg), so the nodes' own are raised unless the environment sets them.
    SKIRMISH_CONNECTIONS_PER_ADDRESS="${SKIRMISH_CONNECTIONS_PER_ADDRESS:-100000}" \
        SKIRMISH_UPGRADES_PER_ADDRESS="${SKIRMISH_UPGRADES_PER_ADDRESS:-100000}" \
        SKIRMISH_HTTP_CONNECTIONS_PER_ADDRESS="${SKIRMISH_HTTP_CONNECTIONS_PER_ADDRESS:-100000}" \
        SKIRMISH_REQUESTS_PER_ADDRESS="${SKIRMISH_REQUESTS_PER_ADDRESS:-100000}" \
        SKIRMISH_ROOMS_PER_ADDRESS="${SKIRMISH_ROOMS_PER_ADDRESS:-100000}" \
        spawn "node$k" "$CLUSTER_BIN" --addr 127.0.0.1 --port "$port" --bots "$bots" \
        --database "$CLUSTER_DATABASE" --web-root "$root/web-client" "${args[@]}"
}

wait_node() {
    local k="$1"
    wait_for "node$k" 60 "$logs/node$k.log" curl -fsS --max-time 2 "http://127.0.0.1:$(node_port "$k")/healthz"
}

write_haproxy_nodes() {
    local k
    {
        echo "# Written by scripts/cluster.sh start: the nodes on their loopback ports, behind"
        echo "# deploy/haproxy.cfg (the same checks as deploy/nodes.cfg, for docker-compose.cluster.yml)."
        echo "backend nodes"
        echo "    balance leastconn"
        echo "    option httpchk"
        echo "    http-check send meth GET uri /healthz"
        echo "    http-check expect status 200"
        echo "    default-server check inter 1s fall 2 rise 2"
        for k in $(seq "$CLUSTER_NODES"); do
            echo "    server node$k 127.0.0.1:$(node_port "$k")"
        done
    } >"$dir/haproxy-nodes.cfg"
}

haproxy_files() { echo -f "$root/deploy/haproxy.cfg" -f "$dir/haproxy-nodes.cfg"; }

start_haproxy() {
    pid_of haproxy >/dev/null && return 0
    write_haproxy_nodes
    export SKIRMISH_LB_BIND="127.0.0.1:$CLUSTER_LB_PORT"
    # shellcheck disable=SC2046 # two -f options
    haproxy -q -c $(haproxy_files) || die "HAProxy's configuration is not valid (haproxy -c)"
    # -W: the master process stays in front (the pid recorded), a worker serves.
    # shellcheck disable=SC2046
    spawn haproxy haproxy -W $(haproxy_files)
    wait_for haproxy 20 "$logs/haproxy.log" curl -fsS --max-time 2 "http://127.0.0.1:$CLUSTER_LB_PORT/healthz"
}

urls() {
    local k
    echo "  load balancer  http://127.0.0.1:$CLUSTER_LB_PORT/   ws://127.0.0.1:$CLUSTER_LB_PORT/ws"
    for k in $(seq "$CLUSTER_NODES"); do
        echo "  node$k          http://127.0.0.1:$(node_port "$k")/   ws://127.0.0.1:$(node_port "$k")/ws"
    done
    echo "  bus            $CLUSTER_BUS (JetStream; monitoring http://127.0.0.1:$CLUSTER_NATS_MONITOR_PORT/jsz)"
    echo "  PostgreSQL     $CLUSTER_DATABASE"
    echo "  logs           $logs"
}

# --- commands -------------------------------------------------------------------------------------

# The EXIT trap of a `start` that has not finished.
stop_after_failed_start() {
    local rc=$?
    if [ "$rc" -ne 0 ]; then
        say "start failed: stopping what it started"
        cmd_stop
    fi
}

cmd_start() {
    if [ -f "$settings" ]; then
        # shellcheck source=/dev/null
        source "$settings"
        local running=()
        for name in nats postgres haproxy $(seq -f node%g "$CLUSTER_NODES"); do
            pid_of "$name" >/dev/null && running+=("$name")
        done
        [ "${#running[@]}" -eq 0 ] || die "already running in $dir: ${running[*]} (scripts/cluster.sh stop --dir $dir)"
    fi
    CLUSTER_NODES="$nodes"
    CLUSTER_BIN="${SKIRMISH_BIN:-${CARGO_TARGET_DIR:-$root/target}/release/skirmish-server}"
    CLUSTER_NATS_PORT="${CLUSTER_NATS_PORT:-4222}"
    CLUSTER_NATS_MONITOR_PORT="${CLUSTER_NATS_MONITOR_PORT:-8222}"
    CLUSTER_PG_PORT="${CLUSTER_PG_PORT:-54329}"
    CLUSTER_NODE_PORT="${CLUSTER_NODE_PORT:-8081}"
    CLUSTER_LB_PORT="${CLUSTER_LB_PORT:-8080}"
    CLUSTER_BOTS="${CLUSTER_BOTS:-2}"
    CLUSTER_NODE_ARGS="${CLUSTER_NODE_ARGS:-}"
    CLUSTER_BUS="nats://127.0.0.1:$CLUSTER_NATS_PORT"
    CLUSTER_DATABASE="postgres://skirmish@127.0.0.1:$CLUSTER_PG_PORT/skirmish"
    [ -x "$CLUSTER_BIN" ] || die "no server at $CLUSTER_BIN: cargo build --release -p skirmish-server, or set SKIRMISH_BIN"
    CLUSTER_BIN="$(cd "$(dirname "$CLUSTER_BIN")" && pwd)/$(basename "$CLUSTER_BIN")"
    if "$CLUSTER_BIN" --help | grep -q -- '--cluster'; then
        CLUSTER_MODE=cluster
    else
        CLUSTER_MODE=independent
        say "$CLUSTER_BIN has no --cluster: starting independent servers on one PostgreSQL (a room" \
            "is then playable only by connections to the node that holds it)"
    fi
    if [ "$CLUSTER_BOTS" != 0 ] && [ ! -x "$(dirname "$CLUSTER_BIN")/skirmish-bots" ] && ! command -v skirmish-bots >/dev/null; then
        say "no skirmish-bots beside $CLUSTER_BIN: node1 starts without its bot pool (CLUSTER_BOTS=0)"
        CLUSTER_BOTS=0
    fi
    local port name k
    for port in "$CLUSTER_NATS_PORT:CLUSTER_NATS_PORT" "$CLUSTER_NATS_MONITOR_PORT:CLUSTER_NATS_MONITOR_PORT" \
        "$CLUSTER_PG_PORT:CLUSTER_PG_PORT" "$CLUSTER_LB_PORT:CLUSTER_LB_PORT"; do
        listening "${port%%:*}" && die "port ${port%%:*} is taken: set ${port#*:}"
    done
    for k in $(seq "$CLUSTER_NODES"); do
        listening "$(node_port "$k")" && die "port $(node_port "$k") (node$k) is taken: set CLUSTER_NODE_PORT"
    done
    install_missing
    CLUSTER_PG_BIN="$(pg_bin)"
    mkdir -p "$pids" "$logs"
    save_settings
    # A part that does not come up: stop what did, and leave the ports free.
    trap stop_after_failed_start EXIT
    say "starting in $dir: nats-server (JetStream), PostgreSQL, $CLUSTER_NODES node(s), HAProxy"
    start_nats
    start_postgres
    # The first node alone, then the others: the first one runs the database's migrations.
    start_node 1
    wait_node 1
    for k in $(seq 2 "$CLUSTER_NODES"); do
        start_node "$k"
    done
    for k in $(seq 2 "$CLUSTER_NODES"); do
        wait_node "$k"
    done
    start_haproxy
    trap - EXIT
    say "up ($CLUSTER_MODE):"
    urls
}

cmd_stop() {
    [ -f "$settings" ] || { say "nothing to stop in $dir"; return 0; }
    load_settings
    local k
    # Nodes first, all at once, with SIGTERM: each hands its rooms over and writes its journal.
    for k in $(seq "$CLUSTER_NODES"); do
        if pid="$(pid_of "node$k")"; then kill -TERM -- "-$pid" 2>/dev/null || true; fi
    done
    # Up to 30 s for all of them together, then SIGKILL to what is left.
    local until=$((SECONDS + 30)) left
    while [ "$SECONDS" -lt "$until" ]; do
        left=0
        for k in $(seq "$CLUSTER_NODES"); do pid_of "node$k" >/dev/null && left=1; done
        [ "$left" -eq 0 ] && break
        sleep 0.2
    done
    for k in $(seq "$CLUSTER_NODES"); do
        stop_process "node$k" TERM 0
    done
    stop_process haproxy TERM 10
    stop_process nats TERM 10
    if [ -f "$dir/postgres/data/postmaster.pid" ]; then
        as_pg pg_ctl -D "$dir/postgres/data" -m fast -w -t 30 stop >/dev/null || stop_process postgres QUIT 5
    fi
    rm -f "$pids/postgres.pid"
    say "stopped"
    if $clean; then
        rm -rf "$dir"
        say "removed $dir"
    fi
}

cmd_status() {
    load_settings
    local name pid state k health
    echo "cluster in $dir ($CLUSTER_MODE, $CLUSTER_NODES node(s)):"
    for name in nats postgres $(seq -f node%g "$CLUSTER_NODES") haproxy; do
        if pid="$(pid_of "$name")"; then state="running (pid $pid)"; else state="not running"; fi
        health=""
        case "$name" in
            nats) health="$(curl -fsS --max-time 2 "http://127.0.0.1:$CLUSTER_NATS_MONITOR_PORT/healthz" 2>/dev/null || echo unreachable)" ;;
            postgres) health="$(as_pg pg_isready -h 127.0.0.1 -p "$CLUSTER_PG_PORT" -U skirmish -d skirmish 2>&1 || true)" ;;
            node*) k="${name#node}"
                health="GET /healthz: $(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "http://127.0.0.1:$(node_port "$k")/healthz" || true)" ;;
            haproxy) health="GET /healthz through it: $(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "http://127.0.0.1:$CLUSTER_LB_PORT/healthz" || true)" ;;
        esac
        printf '  %-9s %-24s %s\n' "$name" "$state" "$health"
    done
    urls
}

check_node_number() {
    [ "$node_arg" -le "$CLUSTER_NODES" ] || die "there are $CLUSTER_NODES nodes: no node$node_arg"
}

cmd_kill_node() {
    load_settings
    check_node_number
    local pid
    pid="$(pid_of "node$node_arg")" || die "node$node_arg is not running"
    # The node and its bot pool, as a crash of its machine would: the pool runs in a process
    # group of its own (the server stops it on a clean stop), so it is killed by its own group.
    local child
    for child in $(pgrep -P "$pid" || true); do
        kill -KILL -- "-$child" 2>/dev/null || kill -KILL "$child" 2>/dev/null || true
    done
    kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid"
    rm -f "$pids/node$node_arg.pid"
    say "node$node_arg (pid $pid) killed with SIGKILL"
}

cmd_restart_node() {
    load_settings
    check_node_number
    stop_process "node$node_arg" TERM 30
    start_node "$node_arg"
    wait_node "$node_arg"
    say "node$node_arg up again on http://127.0.0.1:$(node_port "$node_arg")/"
}

cmd_restart_bus() {
    load_settings
    stop_process nats TERM 10
    start_nats
    say "nats-server up again on $CLUSTER_BUS, its store in $dir/nats"
}

cmd_restart_database() {
    load_settings
    if [ -f "$dir/postgres/data/postmaster.pid" ]; then
        as_pg pg_ctl -D "$dir/postgres/data" -m fast -w -t 30 stop >/dev/null || stop_process postgres QUIT 5
    fi
    rm -f "$pids/postgres.pid"
    start_postgres
    say "PostgreSQL up again on $CLUSTER_DATABASE, its data in $dir/postgres"
}

case "$command" in
    start) cmd_start ;;
    stop) cmd_stop ;;
    status) cmd_status ;;
    kill-node) cmd_kill_node ;;
    restart-node) cmd_restart_node ;;
    restart-bus) cmd_restart_bus ;;
    restart-database) cmd_restart_database ;;
    -h | --help | help) usage ;;
    *) die "unknown command $command (start, stop, status, kill-node K, restart-node K)" ;;
esac
