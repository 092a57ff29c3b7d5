#!/usr/bin/env bash
# Skirmish against peer servers (issue 17): sets up and runs the shared peer harness, the
# "ping-pong duel" (R rooms of two clients alternating random moves on a 15x15 board) played
# against each system one after the other, with a wait for a quiet machine before each
# measurement (the harness's README says how it measures). Not part of CI: a run takes about
# three minutes per system and needs an otherwise idle machine to mean anything.
#
#   scripts/peers.sh [bench.js options...]
#
# e.g.  scripts/peers.sh                                   # the default systems, R = 1, 100, 1000, 5000
#       scripts/peers.sh --setup-only                      # build and install, measure nothing
#       scripts/peers.sh --rooms 100,1000 --duration 20    # fewer room counts
#       scripts/peers.sh --systems skirmish --rooms 100 --duration 5 --warmup 2 --tag smoke
#
# Every option goes to the harness's bench.js as it is (--systems, --rooms, --duration, --warmup,
# --no-latency, --quiet-wait, --tag, ...; the last of a repeated option wins). --systems defaults
# to rust-echo,rust-axum,colyseus,colyseus-nopatch,skirmish; --tag X (results kept apart from
# untagged ones) is passed to report.js too.
#
# Environment:
#   PEERS_DIR     the harness (default: ../shared/peers beside the repository). Nothing of it is
#                 copied here; its results go to $PEERS_DIR/results, its servers' logs to
#                 /tmp/peers-bench-logs.
#   SKIRMISH_BIN  the skirmish-server binary to measure; by default this script builds the release
#                 server (cargo build --release -p skirmish-server, into $CARGO_TARGET_DIR or
#                 target/) and measures that. Set it to compare another build; nothing is built then.
#
# What it does, in order:
#   1. builds Skirmish's release server (unless SKIRMISH_BIN is given);
#   2. `npm install` in the harness, and in each selected peer's folder, when its node_modules is
#      missing (`--legacy-peer-deps` for Colyseus, as the harness's README says: its meta-package
#      lists a transport that pulls uWebSockets.js from GitHub); `cargo build --release` of
#      systems/rust-axum when a rust-* system is selected (into its own target/, where the
#      harness's systems.json expects the binary);
#   3. raises the open-files limit to the hard limit (R = 5000 is 10,000 sockets in each process);
#   4. runs `node bench.js --systems ... [options]` with SKIRMISH_BIN set, then `node report.js`.
#
# Skirmish is started by the harness's systems/skirmish/run.sh, which raises the message rate and
# connections per address but not the other per-address limits. One load generator opens every
# connection from 127.0.0.1, so the script raises those too through their environment variables,
# as docs/performance.md's "How to reproduce" does with flags: WebSockets not yet past `hello`
# (--upgrades-per-address, default 8), HTTP connections (--http-connections-per-address, 64) and
# open rooms (--rooms-per-address, 32). The defaults stay for real use. Without them the harness
# cannot measure today's server: on 2026-11-24 its R = 100 run connected 13 rooms of 100 (the
# others' WebSocket upgrades got HTTP 429) and stopped there.
#
# --setup-only (read by this script, not passed on): steps 1 and 2 only, so that the builds and
# installs are done before a quiet machine is found for the run.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"

say() { echo "== peers.sh: $*" >&2; }
die() { say "$*" && exit 1; }

case "${1:-}" in
    -h | --help)
        sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
        exit 0
        ;;
esac

peers=${PEERS_DIR:-$root/../shared/peers}
[ -f "$peers/bench.js" ] && [ -f "$peers/systems.json" ] ||
    die "no peer harness at $peers (bench.js and systems.json); set PEERS_DIR to where it is"
peers=$(cd "$peers" && pwd)
command -v node >/dev/null || die "node (Node.js 20) is needed to run the harness"
command -v npm >/dev/null || die "npm is needed to install the harness's packages"

# The options that this script reads as well as passing them on.
setup_only=false
args=()
for arg in "$@"; do
    if [ "$arg" = --setup-only ]; then setup_only=true; else args+=("$arg"); fi
done
set -- ${args[@]+"${args[@]}"}
systems=rust-echo,rust-axum,colyseus,colyseus-nopatch,skirmish
tag=
for ((i = 0; i < ${#args[@]}; i++)); do
    case "${args[i]}" in
        --systems) systems=${args[i + 1]:?--systems needs a value} ;;
        --tag) tag=${args[i + 1]:?--tag needs a value} ;;
    esac
done
[[ " $* " == *" --systems "* ]] || set -- --systems "$systems" "$@"
IFS=, read -r -a selected <<<"$systems"
for system in "${selected[@]}"; do
    node -e 'const s = require(process.argv[1]); process.exit(s[process.argv[2]] ? 0 : 1)' \
        "$peers/systems.json" "$system" ||
        die "unknown system '$system': $peers/systems.json has $(node -e \
            'console.log(Object.keys(require(process.argv[1])).filter((k) => !k.startsWith("_")).join(", "))' \
            "$peers/systems.json")"
done
wants() { [[ ",$systems," == *",$1,"* ]]; }
wants_prefix() { [[ ",$systems" == *",$1"* ]]; }

# --- 1. Skirmish's server -------------------------------------------------------------------------
if wants_prefix skirmish; then
    if [ -n "${SKIRMISH_BIN:-}" ]; then
        [ -x "$SKIRMISH_BIN" ] || die "SKIRMISH_BIN=$SKIRMISH_BIN is not an executable file"
        SKIRMISH_BIN=$(cd "$(dirname "$SKIRMISH_BIN")" && pwd)/$(basename "$SKIRMISH_BIN")
        say "measuring the server at SKIRMISH_BIN=$SKIRMISH_BIN (not building)"
    else
        say "building Skirmish's release server"
        cargo build --release --locked --quiet -p skirmish-server
        target=${CARGO_TARGET_DIR:-target}
        SKIRMISH_BIN=$(cd "$target/release" && pwd)/skirmish-server
    fi
    export SKIRMISH_BIN
    export SKIRMISH_UPGRADES_PER_ADDRESS=100000 SKIRMISH_HTTP_CONNECTIONS_PER_ADDRESS=100000 \
        SKIRMISH_ROOMS_PER_ADDRESS=1000000
fi

# --- 2. the harness and the peers -----------------------------------------------------------------
# npm install in $1 (relative to the harness) with the options after it, unless already done.
npm_install() {
    local dir=$peers/$1
    shift
    if [ -f "$dir/node_modules/.package-lock.json" ]; then
        say "npm packages present in ${dir#"$peers"/}"
    else
        say "npm install${*:+ $*} in ${dir#"$peers"/}"
        (cd "$dir" && npm install --no-audit --no-fund "$@")
    fi
}
npm_install .
wants colyseus || wants colyseus-nopatch && npm_install systems/colyseus --legacy-peer-deps
wants colyseus-0.18 && npm_install systems/colyseus-0.18 --legacy-peer-deps
wants node-ws && npm_install systems/node-ws
wants boardgameio && npm_install systems/boardgameio
if wants_prefix rust-; then
    say "building systems/rust-axum (release)"
    # Its own target/: systems.json starts ./target/release/duel-axum from that folder.
    (cd "$peers/systems/rust-axum" && env -u CARGO_TARGET_DIR cargo build --release --quiet)
fi

if $setup_only; then
    say "set-up done (--setup-only)${SKIRMISH_BIN:+; SKIRMISH_BIN=$SKIRMISH_BIN}"
    exit 0
fi

# --- 3, 4. the run --------------------------------------------------------------------------------
ulimit -n "$(ulimit -Hn)"
say "node bench.js $* (open files: $(ulimit -n))"
(cd "$peers" && node bench.js "$@")
say "node report.js${tag:+ --tag $tag} (results in $peers/results)"
(cd "$peers" && node report.js ${tag:+--tag "$tag"})
