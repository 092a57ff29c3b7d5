#!/usr/bin/env bash
# The tournament benchmark (docs/tournaments.md, "Benchmark"): how many matches per minute a
# tournament of `random` bots completes on this machine, and the server's memory meanwhile.
#
#   scripts/tournament-bench.sh [game] [bots] [parallel] [sets]
#
# game: plane (2-player, 18 rounds; default), plane3 (3-player), gomoku or junqi. It builds the
# release programs, starts a server (no built-in bots, a fresh database in a temporary folder) and
# one bot program with `bots` connections offering `random`, runs a round robin with `parallel`
# matches at once and `sets` sets per pairing (the server lets bots send up to 100,000 frames a
# second: `random` answers at once, faster than the default 1,000 a bot connection may), samples the server's resident memory (VmRSS) every
# 0.5 s, and prints matches, seconds, matches per minute, and the memory's median and peak.
# Not part of CI.
set -euo pipefail
cd "$(dirname "$0")/.."
game=${1:-plane}
bots=${2:-8}
parallel=${3:-16}
sets=${4:-2}
cargo build --release --quiet -p skirmish-server -p skirmish-bots
# The server makes tournaments only with a key; the server and `skirmish-bots tournament` both read it here.
SKIRMISH_TOURNAMENT_KEY=$(python3 -c 'import secrets; print(secrets.token_hex(16))')
export SKIRMISH_TOURNAMENT_KEY
dir=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
target/release/skirmish-server --port "$port" --bots 0 --database "$dir/bench.db" --log warn \
    --connections-per-address 1024 --upgrades-per-address 1024 --bot-messages-per-second 100000 &
server=$!
trap 'kill $server $pool 2>/dev/null || true; rm -rf "$dir"' EXIT
sleep 1
target/release/skirmish-bots play --url "ws://127.0.0.1:$port/ws" --name r --count "$bots" \
    --strategies random --log warn &
pool=$!
until [ "$(curl -fsS "http://127.0.0.1:$port/api/bots" | grep -o '"name"' | wc -l)" -ge "$bots" ]; do sleep 0.2; done
case "$game" in
    plane) args=(--game plane --players 2 --rounds 18) ;;
    plane3) args=(--game plane --players 3 --rounds 18) ;;
    gomoku) args=(--game gomoku) ;;
    junqi) args=(--game junqi) ;;
    *) echo "unknown game $game" >&2; exit 2 ;;
esac
(while kill -0 "$server" 2>/dev/null; do
    awk '/VmRSS/ {print $2}' "/proc/$server/status" 2>/dev/null || true
    sleep 0.5
done) > "$dir/rss.txt" &
sampler=$!
start=$(date +%s.%N)
target/release/skirmish-bots tournament --server "http://127.0.0.1:$port" "${args[@]}" \
    --parallel "$parallel" --games-per-pairing "$sets" --seed 1 --json --log warn > "$dir/standings.json"
end=$(date +%s.%N)
kill $sampler 2>/dev/null || true
matches=$(python3 -c "import json,sys; print(json.load(open('$dir/standings.json'))['matches'])")
python3 - "$matches" "$start" "$end" "$dir/rss.txt" "$game" "$bots" "$parallel" <<'PY'
import statistics, sys
matches, start, end, rss_file, game, bots, parallel = sys.argv[1:]
seconds = float(end) - float(start)
rss = sorted(int(x) for x in open(rss_file).read().split() if x.isdigit())
print(f"game {game}, {bots} random bots, {parallel} matches at once")
print(f"{matches} matches in {seconds:.1f} s: {int(matches) / seconds * 60:.0f} matches per minute")
print(f"server RSS: median {statistics.median(rss) / 1024:.1f} MiB, peak {rss[-1] / 1024:.1f} MiB ({len(rss)} samples)")
PY
