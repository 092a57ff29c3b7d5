//! The `pattern-search` strategy, built the way the strongest classical gomoku engines are
//! (Rapfi, Embryo, Yixin as their authors describe them): per-point, per-direction line patterns
//! kept incrementally ([`board`]) from lookup tables ([`line`](mod@line)), a fitted evaluation summed from
//! them ([`eval`]), a VCF solver and a VCT search with their own tables ([`vcf`](mod@vcf),
//! [`vct`](mod@vct)), and a principal variation search
//! ([`search`]) with a transposition table ([`tt`]) under a clock ([`time`](mod@time)).
//!
//! One move, in order: a five; the block of the opponent's five; the first four of its own VCF
//! (up to [`vcf::ROOT_DEPTH`] fours); the first threat of its own VCT (up to [`vct::ROOT_DEPTH`]
//! fours and threes); then every candidate after which the opponent has a VCF is dropped (when
//! another is left) and the rest searched deeper and deeper, in [`SEARCH_SHARE`] of the think
//! time; then the chosen stone is checked for a VCT of the opponent's, and a stone refuted
//! leaves the list and the search goes on with the rest, best first as the search left them,
//! deepening until the hard limit (up to [`MAX_REFUTED`] times). Under renju, black never
//! plays a point `Board::forbidden` forbids: the search leaves out the points the pattern
//! check forbids (a superset), and the root checks every candidate with the rules engine.

pub mod bits;
pub mod board;
pub mod eval;
pub mod fit;
pub mod line;
pub mod search;
pub mod time;
pub mod tt;
pub mod vcf;
pub mod vct;

use rand::RngCore;
use skirmish_games::gomoku::{Action, Point, Rule, View};

use super::{Budget, GomokuStrategy, SearchStats};
use board::{BLACK, Position, side_of};
use eval::{WIN, Weights};
use line::C_FIVE;
use search::{Limits, Searcher};
use time::Clock;
use vcf::Outcome;

/// Transposition table size, in MiB.
pub const TT_MIB: usize = 16;
/// VCF nodes for the root's own win, per second of think time (at least [`MIN_VCF_NODES`]).
pub const VCF_NODES_PER_SECOND: u64 = 400_000;
/// VCF nodes for the opponent's win after each root candidate, per second of think time (at
/// least [`MIN_VCF_NODES`] / 4).
pub const DEFENCE_NODES_PER_SECOND: u64 = 40_000;
/// VCT nodes for the root's own win, per second of think time (at least [`MIN_VCT_NODES`];
/// a small share of the think time at the engine's speed, bots/README.md "Gomoku benchmark").
/// Like every root threat check it also stops at the decision's hard limit.
pub const VCT_NODES_PER_SECOND: u64 = 60_000;
/// The least VCT budget of a root check, in nodes.
pub const MIN_VCT_NODES: u64 = 5_000;
/// The least VCF budget of a root check, in nodes (node- or depth-limited play uses it too).
pub const MIN_VCF_NODES: u64 = 20_000;
/// VCT nodes for the check of the chosen move against the opponent's VCT, per second of think
/// time (at least [`MIN_VCT_NODES`]; in the games lost against figrid's codebook build and
/// `threat-search`, the stones that walked into a VCT of 2 to 13 threats let the solver prove it
/// in 5,000 to 60,000 nodes; like every root check it also stops at the decision's hard limit).
pub const VERIFY_NODES_PER_SECOND: u64 = 200_000;
/// Share of the think time the main search gets before its move is checked (the rest is for
/// the check and, when it refutes the move, the search of the others).
pub const SEARCH_SHARE: f64 = 0.85;
/// Chosen stones the VCT check may refute in one decision before the search's word is taken
/// (of the lost games' openings in `tests/pattern_search_vct.rs`, one needs 9 refuted before a
/// safe stone comes up under the search's late-move reductions; 12 leaves room, and the
/// decision's hard limit bounds the time they take).
pub const MAX_REFUTED: usize = 12;
/// Share of the think time after which the defence checks stop (the rest stay unchecked).
pub const DEFENCE_SHARE: f64 = 0.35;

/// How strong a [`PatternSearch`] plays: its search stops at whichever limit comes first.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Level {
    /// Deepest iteration, in plies.
    pub max_depth: u32,
    /// Main-search nodes a move (`None`: no limit).
    pub node_limit: Option<u64>,
    /// Share of `Budget::think` it uses as its own think time (1.0: all of it).
    pub time_share: f64,
    /// Whether it ignores the clock (then deterministic: node and depth limits alone).
    pub ignore_clock: bool,
    /// Chosen stones its check for the opponent's VCT may refute in one decision (0: no check;
    /// the search then has the whole think time).
    pub refutations: usize,
}

impl Level {
    /// Full strength: the whole budget.
    pub const FULL: Level = Level {
        max_depth: 60,
        node_limit: None,
        time_share: 1.0,
        ignore_clock: false,
        refutations: MAX_REFUTED,
    };
    /// A proposed "easy": two plies (its own move and the reply), VCF threats still seen, its
    /// stone not checked against the opponent's VCT.
    pub const EASY: Level = Level {
        max_depth: 2,
        node_limit: Some(3_000),
        time_share: 0.2,
        ignore_clock: false,
        refutations: 0,
    };
    /// A proposed "medium": six plies at most, 60,000 nodes a move, 30% of the budget.
    pub const MEDIUM: Level = Level {
        max_depth: 6,
        node_limit: Some(60_000),
        time_share: 0.3,
        ignore_clock: false,
        refutations: MAX_REFUTED,
    };
}

/// What the last decision thought, for a bot's "info" line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Thought {
    /// Score of the chosen move for the mover, in centipawns (400 multiply the odds of winning
    /// by 10; see [`eval`]); a forced win in `n` plies is `eval::WIN - n` (30,000 - n), a
    /// forced loss the negative.
    pub score: i32,
    /// The last completed iteration's depth, in plies (0 when a five, a block or a VCF decided).
    pub depth: u32,
    /// Nodes visited: main search plus VCF.
    pub nodes: u64,
    /// The principal variation from the chosen move, alternating sides.
    pub pv: Vec<Point>,
}

/// The pattern-search player.
pub struct PatternSearch {
    level: Level,
    weights: &'static Weights,
    searcher: Option<Searcher>,
    stats: Option<SearchStats>,
    thought: Option<Thought>,
    /// Whether the last decision's thought was given as its `info` already.
    told: bool,
}

impl Default for PatternSearch {
    fn default() -> Self {
        PatternSearch::new()
    }
}

impl PatternSearch {
    /// Full strength, using each move's time budget.
    pub fn new() -> PatternSearch {
        PatternSearch::with_level(Level::FULL)
    }

    /// A player at `level`. The first one made in a process builds the pattern tables
    /// ([`line::build_all`], a fraction of a second) and the fitted values, so that its first
    /// move's clock does not pay for them.
    pub fn with_level(level: Level) -> PatternSearch {
        PatternSearch::with_weights(level, Weights::fitted())
    }

    /// A player at `level` evaluating with `weights` instead of the checked-in ones (a fit's
    /// output, measured before it is checked in).
    pub fn with_weights(level: Level, weights: &'static Weights) -> PatternSearch {
        line::build_all();
        PatternSearch {
            level,
            weights,
            searcher: None,
            stats: None,
            thought: None,
            told: false,
        }
    }

    /// A player that searches `nodes` main-search nodes a move whatever the clock says
    /// (deterministic, for tests).
    pub fn with_node_limit(nodes: u64) -> PatternSearch {
        PatternSearch::with_level(Level {
            node_limit: Some(nodes),
            ignore_clock: true,
            ..Level::FULL
        })
    }

    /// The last decision's score for the mover, in centipawns (see [`Thought::score`]).
    pub fn score(&self) -> Option<i32> {
        self.thought.as_ref().map(|t| t.score)
    }

    /// The last decision's depth, in plies.
    pub fn depth(&self) -> Option<u32> {
        self.thought.as_ref().map(|t| t.depth)
    }

    /// The last decision's nodes.
    pub fn nodes(&self) -> Option<u64> {
        self.thought.as_ref().map(|t| t.nodes)
    }

    /// The last decision's principal variation, from its move.
    pub fn pv(&self) -> Option<&[Point]> {
        self.thought.as_ref().map(|t| t.pv.as_slice())
    }

    /// Everything the last decision thought.
    pub fn thought(&self) -> Option<&Thought> {
        self.thought.as_ref()
    }

    fn choose(&mut self, view: &View, budget: Budget) -> Option<Point> {
        let think = (!self.level.ignore_clock).then(|| budget.think.mul_f64(self.level.time_share));
        let clock = Clock::new(think);
        let me = side_of(view.stone_to_move()?);
        let board = view.board();
        let size = board.size();
        if board.stones() == 0 {
            self.finish(&clock, 0, 0, Vec::new(), 0);
            return Some(Point::new(size / 2, size / 2));
        }
        let mut pos = Position::new(&board, view.rule, me);
        let searcher = self
            .searcher
            .get_or_insert_with(|| Searcher::new(TT_MIB, self.weights));
        searcher.set_deadline(clock.deadline());
        let nodes_before = searcher.nodes();
        let renju_black = view.rule == Rule::Renju && me == BLACK;
        let legal = |pos: &Position, i: usize| !renju_black || board.forbidden(pos.point(i)).is_none();
        let seconds = think.map_or(1.0, |t| t.as_secs_f64().clamp(0.01, 60.0));
        let scaled = |per_second: u64, least: u64| ((per_second as f64 * seconds) as u64).max(least);

        let mut cands = Vec::new();
        Searcher::candidates(&pos, &mut cands, false);
        let mut root: Vec<usize> = cands
            .iter()
            .map(|&(i, _)| i)
            .filter(|&i| legal(&pos, i))
            .collect();
        if root.is_empty() {
            // Nothing the threat rules keep is legal (a lost position): any legal point.
            root = pos
                .points()
                .iter()
                .copied()
                .filter(|&i| pos.is_empty(i) && legal(&pos, i))
                .collect();
        }
        let first = *root.first()?;
        let o = me ^ 1;
        let nodes_now = |s: &Searcher| s.nodes() - nodes_before;
        // A five of its own comes before the block of the opponent's (the candidates are only
        // the blocks when the opponent has a five to make).
        if pos.has(me, C_FIVE) > 0
            && let Some(five) = vcf::find(&pos, me, C_FIVE, None)
        {
            let nodes = nodes_now(searcher);
            self.finish(&clock, WIN - 1, 0, vec![pos.point(five)], nodes);
            return Some(pos.point(five));
        }
        // A five, or the block of the opponent's.
        if pos.combo(me, first) == C_FIVE || pos.has(o, C_FIVE) > 0 {
            let score = if pos.combo(me, first) == C_FIVE {
                WIN - 1
            } else if pos.has(o, C_FIVE) > 1 {
                -(WIN - 2)
            } else {
                0
            };
            let nodes = nodes_now(searcher);
            self.finish(&clock, score, 0, vec![pos.point(first)], nodes);
            return Some(pos.point(first));
        }
        // Our own VCF, then our own VCT: a forced win found is played at once.
        let mut line = Vec::new();
        let vcf_nodes = scaled(VCF_NODES_PER_SECOND, MIN_VCF_NODES);
        let vct_nodes = scaled(VCT_NODES_PER_SECOND, MIN_VCT_NODES);
        for by_threes in [false, true] {
            let outcome = if by_threes {
                searcher
                    .vct()
                    .solve(&mut pos, vct::ROOT_DEPTH, vct_nodes, &mut line)
            } else {
                searcher
                    .vcf()
                    .solve(&mut pos, vcf::ROOT_DEPTH, vcf_nodes, &mut line)
            };
            if outcome == Outcome::Win && line.first().is_some_and(|&i| root.contains(&i)) {
                let nodes = nodes_now(searcher);
                let pv: Vec<Point> = line.iter().map(|&i| pos.point(i)).collect();
                let mv = pv[0];
                self.finish(&clock, WIN - line.len() as i32, 0, pv, nodes);
                return Some(mv);
            }
        }
        // Defence: drop the candidates after which the opponent has a VCF. (Keeping only the
        // candidates proved to stop the opponent's VCT as well measured weaker: 49.1% against
        // `threat-search` at 200 ms a move over the 54-game set, against 67.6% without.)
        let defence_nodes = scaled(DEFENCE_NODES_PER_SECOND, MIN_VCF_NODES / 4);
        let mut safe = Vec::new();
        let mut sharp = false;
        for &i in &root {
            if clock.past(DEFENCE_SHARE) {
                safe.push(i);
                continue;
            }
            pos.make(i);
            let theirs = searcher
                .vcf()
                .solve(&mut pos, vcf::ROOT_DEPTH, defence_nodes, &mut line);
            pos.unmake();
            if theirs == Outcome::Win {
                sharp = true;
            } else {
                safe.push(i);
            }
        }
        if safe.is_empty() {
            safe = root.clone();
        }
        sharp |= pos.has(o, line::C_F4) > 0;
        let limits = Limits {
            max_depth: self.level.max_depth,
            node_limit: self.level.node_limit.unwrap_or(u64::MAX),
        };
        // The main search, then its move checked for a VCT of the opponent's: a refuted move
        // leaves the list and the search goes on with the rest (its table keeps what it read).
        let verify_nodes = scaled(VERIFY_NODES_PER_SECOND, MIN_VCT_NODES);
        let mut refuted = 0;
        let search_clock = if self.level.refutations > 0 {
            clock.share(SEARCH_SHARE)
        } else {
            clock
        };
        let mut report = searcher.iterate(&mut pos, &safe, limits, search_clock, sharp);
        let mut best = report.best.unwrap_or(safe[0]);
        while refuted < self.level.refutations && safe.len() > 1 && !clock.hard_stop() {
            pos.make(best);
            let theirs = searcher
                .vct()
                .solve(&mut pos, vct::ROOT_DEPTH, verify_nodes, &mut line);
            pos.unmake();
            if theirs != Outcome::Win {
                break;
            }
            refuted += 1;
            // The rest in the order the search left them (best first), searched again with
            // what is left of the think time: a search cut short still plays the best of what
            // the first one read, not the first candidate by pattern value.
            safe = report.order.iter().copied().filter(|&i| i != best).collect();
            report = searcher.iterate(&mut pos, &safe, limits, clock.last_chance(), true);
            best = report.best.unwrap_or(safe[0]);
        }
        let mut pv: Vec<Point> = report.pv.iter().map(|&i| pos.point(i)).collect();
        if pv.first() != Some(&pos.point(best)) {
            pv = vec![pos.point(best)];
        }
        let nodes = nodes_now(searcher);
        self.finish(&clock, report.score, report.depth, pv, nodes);
        Some(pos.point(best))
    }

    fn finish(&mut self, clock: &Clock, score: i32, depth: u32, pv: Vec<Point>, nodes: u64) {
        self.stats = Some(SearchStats {
            nodes,
            depth,
            elapsed: clock.elapsed(),
        });
        self.thought = Some(Thought {
            score,
            depth,
            nodes,
            pv,
        });
    }
}

impl GomokuStrategy for PatternSearch {
    fn act(&mut self, view: &View, budget: Budget, _rng: &mut dyn RngCore) -> Action {
        self.thought = None;
        self.told = false;
        match self.choose(view, budget) {
            Some(point) => {
                // A stone decided without a search (the centre, a five, a block) is its own
                // line; a line that does not start with the stone is not this stone's.
                if let Some(thought) = &mut self.thought
                    && thought.pv.first() != Some(&point)
                {
                    thought.pv = vec![point];
                }
                Action::Place { point }
            }
            None => Action::Resign {
                reason: Some("no legal point".to_string()),
            },
        }
    }

    fn stats(&self) -> Option<SearchStats> {
        self.stats
    }

    /// The last decision's score, depth, nodes and line (at most 12 points), and
    /// its evaluation for the replay's graph: `1000 * tanh(score / 400)`, the same scale as
    /// `threat-search`'s (a score of 400 multiplies the odds by 10).
    fn info(&mut self) -> Option<skirmish_protocol::BotInfo> {
        if self.told {
            return None;
        }
        let thought = self.thought.as_ref()?;
        self.told = true;
        #[allow(clippy::cast_possible_truncation)]
        let eval = (1000.0 * (f64::from(thought.score) / 400.0).tanh()).round() as i16;
        Some(skirmish_protocol::BotInfo {
            score: Some(i64::from(thought.score)),
            depth: Some(thought.depth),
            nodes: Some(thought.nodes),
            pv: thought
                .pv
                .iter()
                .take(INFO_PV_MOVES)
                .map(ToString::to_string)
                .collect(),
            belief: Some(skirmish_protocol::info::Belief::Gomoku { eval }),
        })
    }
}

/// The longest line an info carries: 12 moves (about 70 bytes of the 4 KiB an info may take).
const INFO_PV_MOVES: usize = 12;

/// The proposed levels by name, for `gomoku::strategy` (`pattern-search-easy`, ...).
pub fn level(name: &str) -> Option<Level> {
    match name {
        "easy" => Some(Level::EASY),
        "medium" => Some(Level::MEDIUM),
        "hard" => Some(Level::FULL),
        _ => None,
    }
}
