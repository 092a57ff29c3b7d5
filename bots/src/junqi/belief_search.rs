//! The `belief-search` strategy: determinised search over the enemy's hidden ranks (perfect
//! information Monte Carlo, the simplest form of information-set search; Long, Sturtevant, Buro and
//! Furtak, "Understanding the Success of Perfect Information Monte Carlo Sampling in Game Tree
//! Search", AAAI 2010).
//!
//! Each decision rebuilds the [`Belief`] from the view's move record, then, until the time is
//! spent, draws one assignment of ranks to the enemy pieces consistent with everything seen
//! ([`Belief::sample`]), and in that fully known position scores every legal move by a two-ply
//! search: the move, then the enemy's best reply, then a static evaluation. A move's score is its
//! mean over the samples, so each combat counts at its probability. The evaluation (ours): material
//! by [`piece_value`] (the values of the seed paper, seeds/004), danger to the own flag and pressure
//! on the enemy's (in that sample), progress into the enemy half, and the no-attack limit (docs/rules.md
//! section 3, "End of the game" 5): the side it would sink pays as the count nears the limit.
//! Capturing a flag, or making the limit's last quiet move, ends the search with a win.

use std::time::{Duration, Instant};

use rand::RngCore;
use skirmish_games::Seat;
use skirmish_games::junqi::{Action, Layout, Move, Played, Position, Post, Rank, View};

use super::belief::Belief;
use super::seed_rules::piece_value;
use super::{Budget, JunqiStrategy, deploy, limit_loser, random_action, resign, seat_of};

/// A won game's score (a lost one's is its negative), far above any material balance.
const WIN: f32 = 10_000.0;

/// The most a decision draws, however much time is left.
const MAX_SAMPLES: usize = 400;

/// The share of [`Budget::think`] the sampling loop may use; the rest is margin.
const TIME_SHARE: f64 = 0.7;

/// Moves scored between two looks at the clock inside a sample (a move's two-ply search takes
/// tens of microseconds).
const CLOCK_EVERY: usize = 4;

/// The determinised two-ply searcher (module docs).
#[derive(Clone, Debug, Default)]
pub struct BeliefSearch {
    samples: Option<usize>,
}

impl BeliefSearch {
    /// A searcher that draws samples until 70% of the think time is spent (at least 4, at most
    /// 400), and never past the whole think time (at most 900 ms): the clock is read inside each
    /// sample too, every few moves scored, and a sample the think time cuts short is dropped (the
    /// first one's partial scores decide when nothing else is left), so a loaded machine costs
    /// samples rather than time.
    pub fn new() -> BeliefSearch {
        BeliefSearch { samples: None }
    }

    /// A searcher that draws exactly `samples` samples per decision and ignores the clock: with a
    /// seeded random source its play is deterministic (the tests use this).
    pub fn with_samples(samples: usize) -> BeliefSearch {
        BeliefSearch {
            samples: Some(samples.max(1)),
        }
    }
}

/// Whose flag fell, or whether the no-attack limit ran out, after `played` by `mover`: the score
/// from `me`'s side, if the game is over.
fn terminal(position: &Position, played: &Played, mover: Seat, me: Seat, limit: u8) -> Option<f32> {
    for piece in played.removed.iter().flatten() {
        if piece.rank == Rank::Flag {
            return Some(if piece.owner == me { -WIN } else { WIN });
        }
    }
    if limit > 0 && position.quiet_moves() >= u16::from(limit) {
        return Some(if mover == me { WIN } else { -WIN });
    }
    None
}

/// Road-and-row distance between two posts (rows plus columns apart).
fn distance(a: Post, b: Post) -> u8 {
    a.row().abs_diff(b.row()) + a.column().abs_diff(b.column())
}

/// The static evaluation of a fully known position from `me`'s side (module docs).
fn evaluate(position: &Position, me: Seat, limit: u8) -> f32 {
    let mut score = 0.0;
    let mut flags = [None, None];
    for (post, piece) in position.pieces() {
        if piece.rank == Rank::Flag {
            flags[piece.owner.index()] = Some(post);
        } else {
            let value = piece_value(piece.rank);
            score += if piece.owner == me { value } else { -value };
        }
    }
    for (post, piece) in position.pieces() {
        if !piece.rank.movable() || post.is_headquarters() {
            continue;
        }
        let ours = piece.owner == me;
        let target = flags[1 - piece.owner.index()];
        if let Some(flag) = target {
            let pressure = match distance(post, flag) {
                1 => 25.0,
                2 => 5.0,
                3 => 1.5,
                _ => 0.0,
            };
            score += if ours { pressure } else { -1.2 * pressure };
        }
        let depth = post.depth(piece.owner);
        if depth > 5 && piece.rank != Rank::Bomb {
            let progress = 0.25 * f32::from(depth - 5);
            score += if ours { progress } else { -progress };
        }
    }
    if limit > 0 {
        let quiet = position.quiet_moves();
        let left = u16::from(limit).saturating_sub(quiet);
        if left <= 12 {
            let penalty = f32::from(13 - left);
            let loser = limit_loser(position.to_move(), quiet, limit);
            score += if loser == me { -penalty } else { penalty };
        }
    }
    score
}

/// The score of `mv` for `me` in the determinised `position`: the enemy's best reply, then the
/// evaluation (or the end of the game, if one comes first).
fn score_move(position: &Position, mv: Move, me: Seat, limit: u8, replies: &mut Vec<Move>) -> f32 {
    let enemy = Seat(1 - me.0);
    let mut after = *position;
    let played = after.play(mv);
    if let Some(end) = terminal(&after, &played, me, me, limit) {
        return end;
    }
    replies.clear();
    replies.extend(after.legal_moves(enemy));
    if replies.is_empty() {
        return WIN;
    }
    let mut worst = f32::INFINITY;
    for &reply in replies.iter() {
        let mut next = after;
        let played = next.play(reply);
        let value = terminal(&next, &played, enemy, me, limit).unwrap_or_else(|| evaluate(&next, me, limit));
        worst = worst.min(value);
        if worst <= -WIN {
            break;
        }
    }
    worst
}

impl JunqiStrategy for BeliefSearch {
    fn deploy(&mut self, _view: &View, _budget: Budget, rng: &mut dyn RngCore) -> Result<Layout, String> {
        Ok(deploy::any_formation(rng))
    }

    fn act(&mut self, view: &View, budget: Budget, rng: &mut dyn RngCore) -> Action {
        let start = Instant::now();
        let Some(me) = seat_of(view) else {
            return resign("a spectator cannot move");
        };
        let Ok(belief) = Belief::from_view(view) else {
            return random_action(view, rng);
        };
        let moves = super::random::own_side_position(view, me).legal_moves(me);
        match moves.len() {
            0 => return resign("no legal move"),
            1 => {
                return Action::Move {
                    from: moves[0].from,
                    to: moves[0].to,
                };
            }
            _ => {}
        }
        let think = budget.think.min(Duration::from_millis(900));
        let deadline = start + think.mul_f64(TIME_SHARE);
        let limit = view.no_attack_limit;
        let hard = self.samples.is_none().then_some(start + think);
        let past_hard = || hard.is_some_and(|h| Instant::now() >= h);
        let mut totals = vec![0f64; moves.len()];
        let mut scores = vec![0f64; moves.len()];
        let mut replies = Vec::with_capacity(64);
        let mut drawn = 0;
        loop {
            let enough = match self.samples {
                Some(n) => drawn >= n,
                None => drawn >= MAX_SAMPLES || (drawn >= 4 && Instant::now() >= deadline) || past_hard(),
            };
            if enough {
                break;
            }
            let Some(sample) = belief.sample(rng) else {
                break;
            };
            let position = belief.position(&sample, me, view.quiet_moves);
            let mut scored = moves.len();
            for (i, (score, &mv)) in scores.iter_mut().zip(&moves).enumerate() {
                if i % CLOCK_EVERY == CLOCK_EVERY - 1 && past_hard() {
                    scored = i;
                    break;
                }
                *score = f64::from(score_move(&position, mv, me, limit, &mut replies));
            }
            if scored < moves.len() {
                if drawn == 0 {
                    // Nothing else to go on: the moves scored so far, the others last.
                    for (i, (total, score)) in totals.iter_mut().zip(&scores).enumerate() {
                        *total = if i < scored { *score } else { f64::NEG_INFINITY };
                    }
                }
                break;
            }
            for (total, score) in totals.iter_mut().zip(&scores) {
                *total += *score;
            }
            drawn += 1;
        }
        // Ties (every sample alike) go to a random one of the best.
        let best = totals.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let tied: Vec<Move> = moves
            .iter()
            .zip(&totals)
            .filter(|(_, t)| **t >= best - 1e-6 * best.abs().max(1.0))
            .map(|(m, _)| *m)
            .collect();
        let mv = tied[usize::try_from(rng.next_u32()).expect("u32 fits usize") % tied.len()];
        Action::Move {
            from: mv.from,
            to: mv.to,
        }
    }
}
