"""The arena's report: results against each opponent with an interval, forfeits by cause, time per move."""

import math
import statistics
from dataclasses import asdict, dataclass, field
from typing import Any

#: The normal quantile of a two-sided 95% interval.
Z_95 = 1.959963984540054
#: Forfeit causes as the tournament standings count them (``forfeits_by``, docs/tournaments.md).
FORFEIT_CAUSES = ("timed_out", "disconnected", "absent", "engine_failure", "other")


def wilson(score: float, games: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval (E. B. Wilson, "Probable inference, the law of succession, and
    statistical inference", JASA 22, 1927) of a share ``score / games``, draws counted as half a
    win; ``(0, 1)`` for no games. Unlike the normal approximation it stays inside [0, 1] and is
    not empty at 0 or ``games`` wins."""
    if games <= 0:
        return 0.0, 1.0
    p = score / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Row:
    """The author's bot against one opponent (or, for 3-player plane battle, one pair of them)."""

    opponent: str
    tournament: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    score: float = 0.0
    low: float = 0.0
    high: float = 1.0
    points: float = 0.0
    forfeits_by: dict[str, int] = field(default_factory=dict)
    forfeit_details: list[str] = field(default_factory=list)


@dataclass
class Report:
    """Everything the arena measured. ``move_ms`` is every answer's time, your_turn to act."""

    game: str
    bot: str
    rows: list[Row]
    move_ms: list[float]

    def total(self) -> Row:
        """Every row summed, with its own interval."""
        total = Row(opponent="all", tournament="")
        for row in self.rows:
            for name in ("games", "wins", "draws", "losses", "score", "points"):
                setattr(total, name, getattr(total, name) + getattr(row, name))
            for cause, n in row.forfeits_by.items():
                total.forfeits_by[cause] = total.forfeits_by.get(cause, 0) + n
            total.forfeit_details += row.forfeit_details
        total.low, total.high = wilson(total.score, total.games)
        return total

    def timing(self) -> dict[str, float]:
        """Count, median, mean, 95th percentile and maximum of the answer times, in milliseconds."""
        times = sorted(self.move_ms)
        if not times:
            return {"moves": 0}
        p95 = times[min(len(times) - 1, math.ceil(0.95 * len(times)) - 1)]
        return {
            "moves": len(times),
            "median_ms": statistics.median(times),
            "mean_ms": statistics.fmean(times),
            "p95_ms": p95,
            "max_ms": times[-1],
        }

    def as_json(self) -> dict[str, Any]:
        """The report as JSON: ``game``, ``bot``, ``rows``, ``total`` and ``time_per_move``."""
        return {
            "game": self.game,
            "bot": self.bot,
            "rows": [asdict(r) for r in self.rows],
            "total": asdict(self.total()),
            "time_per_move": self.timing(),
        }

    def text(self) -> str:
        """The report for people."""
        lines = [f"{self.game}: {self.bot} against the built-in bots", ""]
        header = f"{'opponent':<28} {'games':>5} {'W-D-L':>10} {'score':>7}  95% interval (Wilson)"
        lines += [header, "-" * len(header)]
        for row in [*self.rows, self.total()] if len(self.rows) > 1 else self.rows:
            share = row.score / row.games if row.games else 0.0
            wdl = f"{row.wins}-{row.draws}-{row.losses}"
            lines.append(
                f"{row.opponent:<28} {row.games:>5} {wdl:>10} {share:>7.1%}  [{row.low:.1%}, {row.high:.1%}]"
            )
        total = self.total()
        lines.append("")
        causes = ", ".join(f"{c} {total.forfeits_by.get(c, 0)}" for c in FORFEIT_CAUSES)
        lines.append(f"forfeits of your bot by cause: {causes}")
        for detail in total.forfeit_details[:5]:
            lines.append(f"  {detail}")
        t = self.timing()
        if t["moves"]:
            lines.append(
                f"time per move (your_turn to act, {t['moves']} moves): median {t['median_ms']:.1f} ms, "
                f"mean {t['mean_ms']:.1f} ms, 95th percentile {t['p95_ms']:.1f} ms, max {t['max_ms']:.1f} ms"
            )
        else:
            lines.append("time per move: your bot sent no move")
        return "\n".join(lines)
