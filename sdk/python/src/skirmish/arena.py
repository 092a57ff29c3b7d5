"""Try a bot: play it against the built-in bots on a throwaway local server, and print a report.

    python -m skirmish.arena --game gomoku --games 10 -- python my_bot.py

starts ``skirmish-server`` on a free port of 127.0.0.1 with a temporary database and a random admin
key, registers a bot account for your bot and one per built-in opponent (the accounts API,
docs/tournaments.md), starts the opponents (``skirmish-bots play`` with their tokens) and your
command with ``SKIRMISH_URL``, ``SKIRMISH_BOT_NAME`` and ``SKIRMISH_BOT_TOKEN`` in its
environment (the SDK's :func:`skirmish.command_line` reads them; a bot in another language reads
them itself), plays a round-robin tournament of your bot against each opponent through
``/api/tournaments``, and prints: games, W-D-L and the score with its 95% Wilson interval per
opponent, your bot's forfeits by cause, and its time per move (from each ``your_turn`` to its
``act``, timed by a relay between your bot and the server). Everything it started is stopped, and
the temporary directory (the server's database and every program's log) removed unless ``--keep``.

The programs are looked for in ``--server-bin``/``--bots-bin`` (``SKIRMISH_SERVER_BIN``,
``SKIRMISH_BOTS_BIN``), else in ``$CARGO_TARGET_DIR`` and the repository's ``target/``, release
before debug (``cargo build --release -p skirmish-server -p skirmish-bots``), else on ``PATH``.
Exit status: 0 when the tournament finished, 1 when it could not be played.
"""

import argparse
import asyncio
import json
import math
import os
import pathlib
import re
import secrets
import shutil
import signal
import sys
import tempfile
import time
import urllib.error
import urllib.request
from typing import Any

from .relay import TimingRelay
from .report import FORFEIT_CAUSES, Report, Row, wilson

#: The built-in opponent per game when none is given: the "medium" level of bots/README.md ("Levels").
DEFAULT_OPPONENTS = {"plane": "seed-cv", "gomoku": "pattern-search-medium", "junqi": "seed-rules", "tic_tac_toe": "seed-junior"}
#: Seconds to wait for the server to listen and for every bot to connect.
START_TIMEOUT_S = 60.0
#: Seconds between two looks at a running tournament.
POLL_S = 0.5
#: The account name of the bot under test.
CHALLENGER = "challenger"


class ArenaError(Exception):
    """The arena could not play: a program missing, a server or bot that did not start, a refused request."""


def find_program(name: str, given: str | None) -> pathlib.Path:
    """The path of ``skirmish-server`` or ``skirmish-bots`` (see the module's doc for where it looks)."""
    if given:
        path = pathlib.Path(given)
        if not path.is_file():
            raise ArenaError(f"{given}: no such program")
        return path
    roots = []
    if os.environ.get("CARGO_TARGET_DIR"):
        roots.append(pathlib.Path(os.environ["CARGO_TARGET_DIR"]))
    roots.append(pathlib.Path.cwd() / "target")
    # Run from the source tree (sdk/python/src/skirmish): the repository's target/.
    roots.append(pathlib.Path(__file__).resolve().parents[4] / "target")
    for root in roots:
        for profile in ("release", "debug"):
            if (root / profile / name).is_file():
                return root / profile / name
    on_path = shutil.which(name)
    if on_path:
        return pathlib.Path(on_path)
    raise ArenaError(
        f"cannot find {name}: build it (cargo build --release -p skirmish-server -p skirmish-bots) "
        f"or give its path (--server-bin, --bots-bin)"
    )


class Http:
    """The server's HTTP API with the admin key (which is also the tournament key here)."""

    def __init__(self, base: str, key: str) -> None:
        self.base, self.key = base, key

    def call(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Authorization", f"Bearer {self.key}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return json.loads(response.read() or b"null")
        except urllib.error.HTTPError as e:
            text = e.read().decode(errors="replace")
            raise ArenaError(f"{method} {path}: {e.code} {text}") from None

    async def __call__(self, method: str, path: str, body: Any = None) -> Any:
        return await asyncio.to_thread(self.call, method, path, body)


class Arena:
    """One run: the programs it started, and the report it makes."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.dir = pathlib.Path(tempfile.mkdtemp(prefix="skirmish-arena-"))
        self.key = secrets.token_hex(32)
        self.processes: list[asyncio.subprocess.Process] = []
        self.bot: asyncio.subprocess.Process | None = None
        self.relay: TimingRelay | None = None

    def say(self, text: str) -> None:
        if not self.args.quiet:
            print(f"arena: {text}", file=sys.stderr, flush=True)

    async def spawn(self, name: str, argv: list[str], env: dict[str, str] | None = None) -> asyncio.subprocess.Process:
        """Starts a program with its output in ``<dir>/<name>.log``, in a process group of its own."""
        log = open(self.dir / f"{name}.log", "wb")
        process = await asyncio.create_subprocess_exec(
            *argv, stdout=log, stderr=asyncio.subprocess.STDOUT, stdin=asyncio.subprocess.DEVNULL,
            env={**os.environ, **(env or {})}, start_new_session=True,
        )
        log.close()
        self.processes.append(process)
        return process

    def log_tail(self, name: str, lines: int = 20) -> str:
        path = self.dir / f"{name}.log"
        text = path.read_text(errors="replace") if path.exists() else ""
        return "\n".join(text.splitlines()[-lines:])

    async def start_server(self) -> str:
        """Starts the server on a free port; its HTTP base URL."""
        server = find_program("skirmish-server", self.args.server_bin)
        process = await self.spawn("server", [
            str(server), "--port", "0", "--bots", "0", "--database", str(self.dir / "arena.db"),
            "--admin-key", self.key, "--tournament-key", self.key, "--log", "info",
        ])
        deadline = time.monotonic() + START_TIMEOUT_S
        pattern = re.compile(r"listening: open (https?)://(\S+?)/")
        while time.monotonic() < deadline:
            found = pattern.search(re.sub(r"\x1b\[[0-9;]*m", "", self.log_tail("server", 50)))
            if found:
                return f"{found[1]}://{found[2]}"
            if process.returncode is not None:
                break
            await asyncio.sleep(0.1)
        raise ArenaError(f"the server did not start:\n{self.log_tail('server')}")

    async def play(self) -> Report:
        args = self.args
        base = await self.start_server()
        ws = base.replace("http", "ws", 1) + "/ws"
        http = Http(base, self.key)
        self.say(f"server at {base} (data in {self.dir})")

        bots_bin = find_program("skirmish-bots", args.bots_bin)
        opponents = args.opponent or [DEFAULT_OPPONENTS[args.game]]
        accounts = {}
        for strategy in opponents:
            name = f"builtin-{strategy}"[:32]
            token = (await http("POST", "/api/accounts", {"name": name}))["token"]
            accounts[strategy] = name
            await self.spawn(name, [
                str(bots_bin), "play", "--url", ws, "--name", name, "--token", token,
                "--strategies", strategy, "--think-ms", str(args.think_ms),
            ])
        token = (await http("POST", "/api/accounts", {"name": CHALLENGER}))["token"]
        self.relay = TimingRelay(ws)
        await self.relay.start()
        self.bot = await self.spawn("bot", args.command, env={
            "SKIRMISH_URL": self.relay.url, "SKIRMISH_BOT_NAME": CHALLENGER, "SKIRMISH_BOT_TOKEN": token,
        })
        strategy = await self.wait_for_bots(http, set(accounts.values()))
        challenger = f"{CHALLENGER}/{strategy}"
        self.say(f"your bot plays as {challenger}")

        players = args.players if args.game == "plane" else 2
        groups = [opponents[i:i + players - 1] for i in range(0, len(opponents), players - 1)]
        if any(len(g) != players - 1 for g in groups):
            raise ArenaError(f"{players}-player matches take the opponents {players - 1} at a time: give a multiple")
        rows = []
        for group in groups:
            rows.append(await self.tournament(http, strategy, [(accounts[s], s) for s in group], players))
        return Report(game=args.game, bot=challenger, rows=rows, move_ms=list(self.relay.move_ms))

    async def wait_for_bots(self, http: Http, opponents: set[str]) -> str:
        """Waits until every account bot is connected; the strategy your bot offers for the game."""
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            bots = {b["name"]: b for b in await http("GET", "/api/bots") if b.get("account")}
            mine = bots.get(CHALLENGER)
            if mine is not None and opponents <= set(bots):
                offered = mine["offer"]["games"].get(self.args.game) or []
                if not offered:
                    raise ArenaError(f"your bot does not offer {self.args.game}: it offers {mine['offer']['games']}")
                return offered[0]
            if self.bot is not None and self.bot.returncode is not None:
                raise ArenaError(f"your bot exited with {self.bot.returncode}:\n{self.log_tail('bot')}")
            await asyncio.sleep(0.2)
        raise ArenaError(f"your bot did not connect within {START_TIMEOUT_S:.0f} s:\n{self.log_tail('bot')}")

    async def tournament(self, http: Http, strategy: str, group: list[tuple[str, str]], players: int) -> Row:
        """Plays your bot against one group of opponents; its row of the report."""
        args = self.args
        orders = math.factorial(players)  # a set is every seat order (docs/tournaments.md, "Balance")
        game: dict[str, Any] = {"game": args.game}
        if args.game == "plane":
            game.update(players=players, format={"rounds": args.rounds})
        config: dict[str, Any] = {
            "name": f"arena: {strategy} v {', '.join(s for _, s in group)}",
            "game": game,
            "entrants": [{"bot": CHALLENGER, "strategy": strategy}] + [{"bot": a, "strategy": s} for a, s in group],
            "games_per_pairing": max(1, math.ceil(args.games / orders)),
            "parallel": args.parallel,
        }
        if args.move_ms is not None:
            config["clock"] = {"move_ms": args.move_ms, "deploy_ms": max(args.move_ms, 1000)}
        if args.seed is not None:
            config["seed"] = args.seed
        status = await http("POST", "/api/tournaments", config)
        tid = status["id"]
        opponent = " + ".join(s for _, s in group)
        while status["state"] == "running":
            self.say(f"{opponent}: {status['finished']}/{status['total']} games")
            if self.bot is not None and self.bot.returncode is not None:
                self.say(f"your bot exited with {self.bot.returncode}; its games are forfeited")
            await asyncio.sleep(POLL_S)
            status = await http("GET", f"/api/tournaments/{tid}")
        standings = await http("GET", f"/api/tournaments/{tid}/standings")
        mine = next(r for r in standings["table"] if r["entrant"] == 0)
        row = Row(
            opponent=opponent, tournament=tid, games=mine["matches"], wins=mine["wins"], draws=mine["draws"],
            losses=mine["losses"], score=mine["score"], points=mine["points"],
            forfeits_by={c: mine["forfeits_by"].get(c, 0) for c in FORFEIT_CAUSES},
        )
        row.low, row.high = wilson(row.score, row.games)
        for match in status["schedule"]:
            forfeit = (match.get("result") or {}).get("forfeit")
            if forfeit and match["seats"][forfeit["seat"]] == 0:
                row.forfeit_details.append(f"match {match['index']}: {forfeit['reason']}: {forfeit.get('detail') or ''}".rstrip(": "))
        return row

    async def stop(self) -> None:
        """Stops every program (SIGTERM, then SIGKILL after 5 s) and the relay; removes the directory unless kept."""
        for process in reversed(self.processes):
            if process.returncode is None:
                try:
                    os.killpg(process.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        for process in self.processes:
            try:
                await asyncio.wait_for(process.wait(), 5)
            except TimeoutError:
                try:
                    os.killpg(process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                await process.wait()
        if self.relay is not None:
            await self.relay.stop()
        if self.args.keep:
            self.say(f"kept {self.dir} (arena.db, server.log, bot.log, ...)")
        else:
            shutil.rmtree(self.dir, ignore_errors=True)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m skirmish.arena",
        description="Play your bot against Skirmish's built-in bots on a throwaway local server and print a report.",
        epilog="Example: python -m skirmish.arena --game gomoku --games 10 -- python my_bot.py",
    )
    parser.add_argument("--game", required=True, choices=sorted(DEFAULT_OPPONENTS))
    parser.add_argument("--games", type=int, default=10, help="games against each opponent, rounded up to whole sets of seat orders (default 10)")
    parser.add_argument("--opponent", action="append", metavar="STRATEGY", help="a built-in strategy to play (repeatable; default: the game's medium level, bots/README.md)")
    parser.add_argument("--players", type=int, choices=(2, 3), default=2, help="plane battle: players per match (3 takes the opponents two at a time)")
    parser.add_argument("--rounds", type=int, default=18, help="plane battle: rounds per match (default 18)")
    parser.add_argument("--think-ms", type=int, default=200, help="the built-in bots' time per move, in milliseconds (default 200)")
    parser.add_argument("--move-ms", type=int, help="the clock per move, in milliseconds (default: the tournament's, 5000)")
    parser.add_argument("--parallel", type=int, default=2, help="games played at once (default 2)")
    parser.add_argument("--seed", type=int, help="the tournament's seed (default: random)")
    parser.add_argument("--server-bin", default=os.environ.get("SKIRMISH_SERVER_BIN"), help="the skirmish-server program")
    parser.add_argument("--bots-bin", default=os.environ.get("SKIRMISH_BOTS_BIN"), help="the skirmish-bots program")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory (database and logs)")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- and the command that runs your bot")
    args = parser.parse_args(argv)
    if args.command and args.command[0] == "--":
        args.command = args.command[1:]
    if not args.command:
        parser.error("give the command that runs your bot after --")
    if args.games < 1:
        parser.error("--games must be at least 1")
    return args


async def run(args: argparse.Namespace) -> Report:
    """Plays the arena that ``args`` describe; its report. Raises :class:`ArenaError`."""
    arena = Arena(args)
    try:
        return await arena.play()
    finally:
        await arena.stop()


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        report = asyncio.run(run(args))
    except ArenaError as e:
        print(f"arena: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    print(json.dumps(report.as_json(), indent=2) if args.json else report.text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
