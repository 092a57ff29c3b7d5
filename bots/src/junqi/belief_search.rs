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

use skirmish_protocol::BotInfo;
use skirmish_protocol::info::{Belief as Picture, RankGuess};

use super::belief::Belief;
use super::flag_safety;
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
    /// Whether the evaluation leaves out issue 19's terms (shown flags, mobile pieces): the
    /// version before them, kept as the sparring partner `belief-search-before-19`.
    before_19: bool,
    /// What the last decision thought ([`JunqiStrategy::info`]), until taken.
    last: Option<BotInfo>,
}

impl BeliefSearch {
    /// A searcher that draws samples until 70% of the think time is spent (at least 4, at most
    /// 400), and never past the whole think time (at most 900 ms): the clock is read inside each
    /// sample too, every few moves scored, and a sample the think time cuts short is dropped (the
    /// first one's partial scores decide when nothing else is left), so a loaded machine costs
    /// samples rather than time.
    pub fn new() -> BeliefSearch {
        BeliefSearch {
            samples: None,
            before_19: false,
            last: None,
        }
    }

    /// The searcher as it was before issue 19 (its evaluation without the price of a shown flag
    /// and of missing mobile pieces), to measure the new one against.
    #[must_use]
    pub fn before_19(mut self) -> BeliefSearch {
        self.before_19 = true;
        self
    }

    /// A searcher that draws exactly `samples` samples per decision and ignores the clock: with a
    /// seeded random source its play is deterministic (the tests use this).
    pub fn with_samples(samples: usize) -> BeliefSearch {
        BeliefSearch {
            samples: Some(samples.max(1)),
            before_19: false,
            last: None,
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
    // The side that made the limit-th quiet move loses.
    if limit > 0 && position.quiet_moves() >= u16::from(limit) {
        return Some(if mover == me { -WIN } else { WIN });
    }
    None
}

/// Road-and-row distance between two posts (rows plus columns apart).
fn distance(a: Post, b: Post) -> u8 {
    a.row().abs_diff(b.row()) + a.column().abs_diff(b.column())
}

/// How much more a shown own flag weighs than the enemy's (ours, issue 19): a marshal trade that
/// shows both flags equally exposed is declined, so `belief-search` trades its field marshal only
/// when its flag is the safer one or the trade wins material elsewhere.
const OWN_FLAG_WEIGHT: f32 = 1.25;

/// Movable pieces (outside the headquarters) below which a side pays for each one missing,
/// quadratically: issue 19's "no legal move" losses came with only landmines, the flag and pieces
/// in a headquarters left.
const MOBILE_FLOOR: u8 = 5;

/// The price per squared missing movable piece (`MOBILE_FLOOR`): 4, 16, 36, 64, 100 for 1 to 5 missing.
const MOBILE_PRICE: f32 = 4.0;

/// The static evaluation of a fully known position from `me`'s side (module docs).
fn evaluate(position: &Position, me: Seat, limit: u8, before_19: bool) -> f32 {
    let mut score = 0.0;
    let mut flags = [None, None];
    let mut marshals = [false, false];
    let mut mobile = [0u8, 0u8];
    for (post, piece) in position.pieces() {
        let side = piece.owner.index();
        if piece.rank == Rank::Flag {
            flags[side] = Some(post);
        } else {
            let value = piece_value(piece.rank);
            score += if piece.owner == me { value } else { -value };
        }
        if piece.rank == Rank::FieldMarshal {
            marshals[side] = true;
        }
        if piece.rank.movable() && !post.is_headquarters() {
            mobile[side] = mobile[side].saturating_add(1);
        }
    }
    for (post, piece) in position.pieces() {
        if !piece.rank.movable() || post.is_headquarters() {
            continue;
        }
        let ours = piece.owner == me;
        let side = 1 - piece.owner.index();
        // A shown flag is priced by `flag_safety::exposure` instead.
        if let Some(flag) = flags[side].filter(|_| before_19 || marshals[side]) {
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
    // A side without its field marshal has its flag shown (docs/rules.md, junqi).
    for side in [me, Seat(1 - me.0)].into_iter().filter(|_| !before_19) {
        if let Some(flag) = flags[side.index()].filter(|_| !marshals[side.index()]) {
            let cost = flag_safety::exposure(position, flag, side);
            score += if side == me { -OWN_FLAG_WEIGHT * cost } else { cost };
        }
        let missing = MOBILE_FLOOR.saturating_sub(mobile[side.index()]);
        let cost = MOBILE_PRICE * f32::from(missing) * f32::from(missing);
        score += if side == me { -cost } else { cost };
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
fn score_move(
    position: &Position,
    mv: Move,
    me: Seat,
    limit: u8,
    before_19: bool,
    replies: &mut Vec<Move>,
) -> f32 {
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
        let value = terminal(&next, &played, enemy, me, limit)
            .unwrap_or_else(|| evaluate(&next, me, limit, before_19));
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
        self.last = None;
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
        // How often each enemy piece (by index into `belief.pieces`) had each rank
        // (`Rank::ALL`'s order) in the samples scored: the beliefs the info reports.
        let mut seen = vec![[0u32; 12]; belief.pieces.len()];
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
                *score = f64::from(score_move(&position, mv, me, limit, self.before_19, &mut replies));
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
            for (counts, rank) in seen.iter_mut().zip(sample.iter()) {
                if let Some(k) = Rank::ALL.iter().position(|r| r == rank) {
                    counts[k] += 1;
                }
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
        self.last = Some(rank_guesses(&belief, &seen, drawn, moves.len(), best, mv));
        Action::Move {
            from: mv.from,
            to: mv.to,
        }
    }

    fn info(&mut self) -> Option<BotInfo> {
        self.last.take()
    }
}

/// The info of a decision ([`BotInfo`]): for each enemy piece on the board, the rank it had
/// most often in the `drawn` samples (`seen`: counts per piece in [`Rank::ALL`]'s order) and how
/// often; the chosen move `mv` with its mean score `best_total / drawn` (evaluation units, a
/// win [`WIN`]); `drawn × moves` moves scored, two plies deep.
fn rank_guesses(
    belief: &Belief,
    seen: &[[u32; 12]],
    drawn: usize,
    moves: usize,
    best_total: f64,
    mv: Move,
) -> BotInfo {
    let samples = u32::try_from(drawn).unwrap_or(u32::MAX);
    let pieces = belief
        .pieces
        .iter()
        .zip(seen)
        .filter_map(|(piece, counts)| {
            let post = piece.post?;
            let (k, &count) = counts
                .iter()
                .enumerate()
                .max_by_key(|&(k, c)| (*c, std::cmp::Reverse(k)))?;
            if samples == 0 || count == 0 {
                // No sample scored: the first rank the piece can still be, unweighed.
                let rank = piece.ranks.ranks().next()?;
                return Some(RankGuess {
                    post,
                    rank,
                    chance: 0,
                });
            }
            let chance = (u64::from(count) * 1000 + u64::from(samples) / 2) / u64::from(samples);
            Some(RankGuess {
                post,
                rank: Rank::ALL[k],
                chance: u16::try_from(chance.min(1000)).unwrap_or(1000),
            })
        })
        .collect();
    let score = (drawn > 0).then(|| (best_total / drawn as f64).round() as i64);
    BotInfo {
        score,
        depth: Some(2),
        nodes: Some((drawn * moves) as u64),
        pv: vec![format!("{}-{}", mv.from, mv.to)],
        belief: Some(Picture::Junqi { pieces }),
    }
}

#[cfg(test)]
mod tests {
    //! Issue 19's behaviours in fully known positions (the determinised search every sample
    //! runs): each test also shows that the evaluation before issue 19 chose otherwise, so it
    //! fails when the behaviour is removed.

    use skirmish_games::junqi::Piece;

    use super::*;

    fn post(s: &str) -> Post {
        s.parse().expect("a post")
    }

    /// A position with seat 0 to move and `pieces` as `(post, owner, rank letter)`.
    fn position(pieces: &[(&str, u8, char)]) -> Position {
        let mut p = Position::empty(Seat(0));
        for (at, owner, letter) in pieces {
            let rank = Rank::from_letter(*letter).expect("a rank letter");
            p.put(
                post(at),
                Some(Piece {
                    owner: Seat(*owner),
                    rank,
                }),
            );
        }
        p
    }

    /// Seat 0's best move by the two-ply search in `p` (no no-attack limit), the first on ties.
    fn best(p: &Position, before_19: bool) -> Move {
        let mut replies = Vec::new();
        let mut best = (f32::NEG_INFINITY, None);
        for mv in p.legal_moves(Seat(0)) {
            let score = score_move(p, mv, Seat(0), 0, before_19, &mut replies);
            if score > best.0 {
                best = (score, Some(mv));
            }
        }
        best.1.expect("a legal move")
    }

    /// `mv`'s score for seat 0 in `p` (no no-attack limit).
    fn score(p: &Position, mv: &str, before_19: bool) -> f32 {
        score_move(
            p,
            mv.parse().expect("a move"),
            Seat(0),
            0,
            before_19,
            &mut Vec::new(),
        )
    }

    #[test]
    fn a_shown_flag_is_defended_against_a_railway_attacker() {
        // Seat 0's field marshal is gone: its flag on L1 is shown, nothing guards it. An enemy
        // lieutenant on B0 is three moves from it (down the column 0 railway to K0, then K1 or
        // L0, then L1), far by rows and columns; once on K0 no piece of seat 0 could reach it.
        // Seat 0's major in the camp C1 can take it now; its general on G4 can take a major
        // general on F4 instead (23 points against 3).
        let p = position(&[
            ("L1", 0, 'l'),
            ("C1", 0, 'f'),
            ("G4", 0, 'b'),
            ("H2", 0, 'g'),
            ("J2", 0, 'h'),
            ("L4", 0, 'g'),
            ("A1", 1, 'l'),
            ("B0", 1, 'h'),
            ("F4", 1, 'c'),
            ("C2", 1, 'a'),
            ("A0", 1, 'j'),
            ("A2", 1, 'j'),
            ("B1", 1, 'j'),
            ("C3", 1, 'g'),
            ("D2", 1, 'g'),
            ("E3", 1, 'g'),
        ]);
        let chosen = best(&p, false);
        assert_eq!(chosen, "C1B0".parse().expect("a move"), "played {chosen} instead");
        assert_eq!(
            best(&p, true),
            "G4F4".parse().expect("a move"),
            "before issue 19 the major general was taken"
        );
    }

    #[test]
    fn an_early_marshal_trade_with_an_unguarded_flag_is_declined() {
        // Both field marshals stand face to face on the column 0 railway (seat 0's on H0, seat
        // 1's on I0, deep in seat 0's half). Seat 0's flag on L1 has nothing round it and an
        // enemy lieutenant three moves away (E4 down column 4, along row K, onto L1); seat 1's on
        // A1 sits under four landmines with two captains by it. The trade shows both flags.
        let mut p = position(&[
            ("L1", 0, 'l'),
            ("H0", 0, 'a'),
            ("G1", 0, 'g'),
            ("G2", 0, 'h'),
            ("G3", 0, 'g'),
            ("H2", 0, 'h'),
            ("A1", 1, 'l'),
            ("A0", 1, 'j'),
            ("A2", 1, 'j'),
            ("B1", 1, 'j'),
            ("B0", 1, 'j'),
            ("B2", 1, 'g'),
            ("C1", 1, 'g'),
            ("D2", 1, 'f'),
            ("I0", 1, 'a'),
            ("E4", 1, 'h'),
        ]);
        let trade = "H0I0";
        let gap = |p: &Position, before_19: bool| {
            let best = best(p, before_19).to_string();
            score(p, &best, before_19) - score(p, trade, before_19)
        };
        let open = gap(&p, false);
        assert!(open > 5.0, "the trade costs only {open}");
        let before = gap(&p, true);
        assert!(
            before < 1.0,
            "before issue 19 the trade was as good as any move: {before}"
        );
        // With its flag under landmines, the trade costs less.
        for at in ["L0", "L2", "K1"] {
            p.put(
                post(at),
                Some(Piece {
                    owner: Seat(0),
                    rank: Rank::Landmine,
                }),
            );
        }
        let guarded = gap(&p, false);
        assert!(
            guarded < open,
            "a guarded flag makes the trade cheaper: {guarded} vs {open}"
        );
    }

    #[test]
    fn a_shown_enemy_flag_is_rushed_along_the_railway() {
        // Seat 1's field marshal is gone: its flag on A1 is shown, its landmines elsewhere.
        // Seat 0's captain on K0 is three moves from it (up the column 0 railway to B0, then A0
        // or B1, then A1); its general on K2 could take a major on J2 instead.
        let p = position(&[
            ("L1", 0, 'l'),
            ("L0", 0, 'j'),
            ("L2", 0, 'j'),
            ("K1", 0, 'j'),
            ("K0", 0, 'g'),
            ("K2", 0, 'b'),
            ("G3", 0, 'g'),
            ("H4", 0, 'h'),
            ("J4", 0, 'h'),
            ("A1", 1, 'l'),
            ("J2", 1, 'f'),
            ("C3", 1, 'g'),
            ("D2", 1, 'g'),
            ("E3", 1, 'g'),
            ("E1", 1, 'h'),
        ]);
        assert_eq!(best(&p, false), "K0B0".parse().expect("a move"));
        assert_eq!(
            best(&p, true),
            "K2J2".parse().expect("a move"),
            "before issue 19 the major was taken"
        );
    }

    #[test]
    fn with_few_mobile_pieces_none_is_spent_in_a_headquarters() {
        // Seat 0 has four movable pieces. Its colonel on A4 could take a major sitting in seat
        // 1's headquarters A3 (7 points), and would never move again.
        let p = position(&[
            ("L1", 0, 'l'),
            ("L0", 0, 'j'),
            ("L2", 0, 'j'),
            ("K1", 0, 'j'),
            ("A4", 0, 'e'),
            ("J0", 0, 'g'),
            ("J4", 0, 'g'),
            ("I1", 0, 'h'),
            ("A1", 1, 'l'),
            ("A3", 1, 'f'),
            ("A0", 1, 'j'),
            ("A2", 1, 'j'),
            ("B1", 1, 'j'),
            ("D0", 1, 'g'),
            ("D4", 1, 'g'),
            ("C2", 1, 'h'),
            ("E2", 1, 'h'),
            ("D2", 1, 'i'),
        ]);
        let spend: Move = "A4A3".parse().expect("a move");
        assert_ne!(best(&p, false), spend, "spent a mobile piece in a headquarters");
        assert_eq!(best(&p, true), spend, "before issue 19 the piece was spent");
    }
}
