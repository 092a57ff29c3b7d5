#!/usr/bin/env bash
# The README's test command: installs what the tests need and is missing, then runs every test.
#
#   scripts/test.sh                  install what is missing, check the compose files, then
#                                    cargo test --workspace --locked --no-fail-fast
#   scripts/test.sh ARGS...          the same set-up, then cargo test --locked ARGS...
#                                    (e.g. scripts/test.sh -p skirmish-bots --test piskvork)
#   scripts/test.sh --install-only   the set-up alone
#
# For a machine of the project's kind: Debian, run as root or with sudo, the Rust toolchain (cargo)
# present, Debian's archive, PyPI, npm's registry and crates.io reachable. What it installs, each
# only when missing:
#   - Debian's chromium and chromium-driver (the browser tests, server/tests/browser.rs) with
#     fonts-noto-cjk (the Chinese pages laid out and screenshotted with the glyphs players' phones
#     have, not empty boxes of another width), and
#     docker-compose (checks docker-compose.yml; no Docker engine is needed), and postgresql (the
#     tests start their own throwaway cluster with its initdb and postgres, server/tests/common/
#     postgres.rs; the cluster the package makes is not used), and nats-server (the cluster tests
#     start their own with JetStream, server/tests/common/cluster.rs), and haproxy (the load
#     balancer's configuration, deploy/haproxy.cfg, under the real one: bench/tests/load_balancer.rs),
#     and python3-pip when python3 has no pip;
#   - Python's websockets (examples/python/requirements.txt; server/tests/python_bot.rs), and the
#     Python SDK with its test dependencies (pip install './sdk/python[test]': websockets and
#     jsonschema; server/tests/python_sdk.rs runs the SDK from the source tree);
#   - Debian's nodejs and npm when no `npm` is on PATH (the machine's own Node is used when
#     there is one), then the AsyncAPI document's validator, @asyncapi/parser (npm, into
#     target/tools), exported as ASYNCAPI_TOOLS (protocol/tests/asyncapi.rs);
#   - the gomoku engine pbrain-figrid 1.2.0 from crates.io into target/tools/bin
#     (bots/tests/piskvork.rs), exported as PBRAIN_FIGRID.
# When everything is there it installs nothing and asks no registry (apt-get update included).
# --no-fail-fast: a failing test binary does not hide the results of the binaries after it; any
# failure still fails the command.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"

install_only=false
if [ "${1:-}" = "--install-only" ]; then
    install_only=true
    shift
fi

say() { echo "== test.sh: $*" >&2; }

# --- Debian packages ------------------------------------------------------------------------------
# Each package with a file that shows it is there.
declare -A apt_files=(
    [chromium]=/usr/bin/chromium
    [chromium-driver]=/usr/bin/chromedriver
    [fonts-noto-cjk]=/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc
    [docker-compose]=/usr/bin/docker-compose
    # From postgresql-common, which comes with the server's binaries (/usr/lib/postgresql/*/bin).
    [postgresql]=/usr/bin/pg_ctlcluster
    [nats-server]=/usr/sbin/nats-server
    [haproxy]=/usr/sbin/haproxy
)
missing=()
for package in chromium chromium-driver fonts-noto-cjk docker-compose postgresql nats-server haproxy; do
    [ -e "${apt_files[$package]}" ] || missing+=("$package")
done
# Node for the AsyncAPI validator: the machine's own when it has one, else Debian's.
command -v npm >/dev/null || missing+=(nodejs npm)
# pip for the Python packages below, when the machine's python3 has none.
python3 -m pip --version >/dev/null 2>&1 || missing+=(python3-pip)
if [ "${#missing[@]}" -gt 0 ]; then
    if [ "$(id -u)" -eq 0 ]; then
        sudo=()
    elif command -v sudo >/dev/null; then
        sudo=(sudo)
    else
        say "missing Debian packages ${missing[*]}, and neither root nor sudo to install them" && exit 1
    fi
    say "installing Debian packages: ${missing[*]}"
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        "${missing[@]}"
else
    say "Debian packages present: chromium, chromium-driver, fonts-noto-cjk, docker-compose, postgresql, nats-server, haproxy, npm"
fi

# --- Python packages ------------------------------------------------------------------------------
python_ok() {
    python3 - <<'EOF' 2>/dev/null
import websockets.sync.client, websockets.version as v
major = int(v.version.split(".")[0])
assert 13 <= major < 16, v.version  # examples/python/requirements.txt: websockets>=13,<16
EOF
}
if python_ok; then
    say "Python package present: websockets"
else
    say "installing Python packages: examples/python/requirements.txt"
    pip=(python3 -m pip install --quiet --disable-pip-version-check -r examples/python/requirements.txt)
    "${pip[@]}" || "${pip[@]}" --user || "${pip[@]}" --break-system-packages
    python_ok || { say "websockets still cannot be imported by python3" && exit 1; }
fi

# The Python SDK (sdk/python) and its test dependencies; the tests run the SDK from the source
# tree, so an older installed copy does no harm, but its dependencies must be there.
sdk_ok() {
    python3 - <<'EOF' 2>/dev/null
import importlib.metadata as m
import jsonschema, skirmish, websockets.asyncio.client
assert int(m.version("jsonschema").split(".")[0]) == 4, m.version("jsonschema")  # sdk/python/pyproject.toml: >=4.18,<5
EOF
}
if sdk_ok; then
    say "Python SDK present: skirmish, jsonschema"
else
    say "installing the Python SDK: pip install ./sdk/python[test]"
    pip=(python3 -m pip install --quiet --disable-pip-version-check "./sdk/python[test]")
    "${pip[@]}" || "${pip[@]}" --user || "${pip[@]}" --break-system-packages
    sdk_ok || { say "the Python SDK or jsonschema still cannot be imported by python3" && exit 1; }
fi

# --- the AsyncAPI validator -----------------------------------------------------------------------
tools="$root/target/tools"
asyncapi_parser_version=3.6.6
mkdir -p "$tools"
if grep -qs "\"version\": \"$asyncapi_parser_version\"" "$tools/node_modules/@asyncapi/parser/package.json"; then
    say "@asyncapi/parser $asyncapi_parser_version present: $tools"
else
    say "installing @asyncapi/parser $asyncapi_parser_version into $tools (npm)"
    [ -f "$tools/package.json" ] || echo '{"private": true}' > "$tools/package.json"
    npm install --prefix "$tools" --no-audit --no-fund --silent "@asyncapi/parser@$asyncapi_parser_version"
fi
export ASYNCAPI_TOOLS="$tools"

# --- the outside gomoku engine --------------------------------------------------------------------
figrid="$tools/bin/pbrain-figrid"
if [ -x "$figrid" ] && grep -q '^"figrid-board 1\.2\.0 ' "$tools/.crates.toml" 2>/dev/null; then
    say "pbrain-figrid present: $figrid"
else
    say "installing pbrain-figrid (crate figrid-board 1.2.0) into $tools"
    cargo install figrid-board --version 1.2.0 --features embed-weights --locked --root "$tools"
fi
export PBRAIN_FIGRID="$figrid"

# --- docker-compose.yml ---------------------------------------------------------------------------
say "docker-compose.yml and docker-compose.cluster.yml are valid (docker-compose config; no Docker engine needed)"
docker-compose config --quiet
docker-compose -f docker-compose.cluster.yml config --quiet

if $install_only; then
    say "set-up done (--install-only)"
    exit 0
fi

# --- the tests ------------------------------------------------------------------------------------
if [ "$#" -eq 0 ]; then
    set -- --workspace --no-fail-fast
fi
say "cargo test --locked $*"
exec cargo test --locked "$@"
