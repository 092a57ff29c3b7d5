//! The `seed-rules` strategy: the junqi player of the seed paper (seeds/004, 张瑋, 王俊, 閆桐,
//! 孟坤, Beijing Information Science and Technology University): an evaluation by piece values,
//! each hidden enemy piece's value weighted by the probability of its identity (section 3.2),
//! special-case rules for attack (3.3), defence (3.4) and special situations (3.5), and otherwise an
//! alpha-beta search over all moves.
//!
//! Where the paper is silent or illegible, our decisions:
//! - Table 1 (piece values) is not legible in our copy. The text says a general plus a major
//!   general is worth 53 (3.3); we take field marshal 40, general 30, major general 23 (30 + 23 =
//!   53), brigadier 15, colonel 10, major 7, captain 5, lieutenant 3, engineer 6, landmine 8,
//!   bomb 18, flag 1000 ([`piece_value`]).
//! - The probabilities of 3.2 come from the authors' collection of games, which we do not have; we
//!   use each starting post's rank frequencies over uniformly random legal layouts, so the
//!   deployment rules shape them, and take landmine and flag out once a piece has moved (those
//!   never move). Combat results do not update them (the paper uses them only in 3.5's rules).
//! - Figure 2 (the flow chart) is illegible; we check the rules in this order: take a revealed flag
//!   (3.3), defence (3.4), special design 1, 3 and 2 (3.5), occupy a headquarters when ahead (3.3),
//!   the no-attack rule (3.3); then search. Where a rule allows several moves the paper keeps the
//!   last one its loop finds; we keep the one with the best expected value.
//! - The search (3.1's "α-β剪枝") is two plies: our move, then the enemy reply, each combat valued by
//!   its expected material change over the defender's or attacker's identity, the board continued
//!   with the likeliest result. A small bonus for advancing breaks ties among quiet moves (ours).
//! - "ismy" (3.3) is read as "we are the side that loses when the no-attack limit runs out".

use std::sync::LazyLock;

use rand::seq::IndexedRandom;
use rand::{RngCore, SeedableRng};
use skirmish_games::Seat;
use skirmish_games::junqi::{Action, Layout, Move, MoveResult, Position, Post, Rank, View};

use super::belief::Belief;
use super::{Budget, JunqiStrategy, deploy, limit_loser, random_action, resign, seat_of};

/// A piece's value (the paper's Table 1, illegible in our copy; see the module docs): field
/// marshal 40, general 30, major general 23, brigadier 15, colonel 10, major 7, captain 5,
/// lieutenant 3, engineer 6, landmine 8, bomb 18, flag 1000.
pub const fn piece_value(rank: Rank) -> f32 {
    match rank {
        Rank::FieldMarshal => 40.0,
        Rank::General => 30.0,
        Rank::MajorGeneral => 23.0,
        Rank::Brigadier => 15.0,
        Rank::Colonel => 10.0,
        Rank::Major => 7.0,
        Rank::Captain => 5.0,
        Rank::Lieutenant => 3.0,
        Rank::Engineer => 6.0,
        Rank::Landmine => 8.0,
        Rank::Bomb => 18.0,
        Rank::Flag => 1000.0,
    }
}

/// The advantage that counts as "ahead" (3.3): a general plus a major general, 53.
pub const AHEAD: f32 = 53.0;

/// How often each rank stands on each layout slot in uniformly random legal layouts (4,000 drawn
/// with a fixed seed), rows by slot, columns in CAAI order.
static SLOT_PRIOR: LazyLock<Vec<[f32; 12]>> = LazyLock::new(|| {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(4);
    let n = 4000;
    let mut counts = vec![[0f32; 12]; 25];
    for _ in 0..n {
        let layout = Layout::random(&mut rng);
        for (slot, rank) in layout.0.iter().enumerate() {
            counts[slot][*rank as usize] += 1.0;
        }
    }
    for row in &mut counts {
        for c in row.iter_mut() {
            *c /= n as f32;
        }
    }
    counts
});

/// The paper's player (see the module docs).
#[derive(Clone, Copy, Debug, Default)]
pub struct SeedRules;

/// Expected material change (from the attacker's side) of `attacker` attacking a piece whose
/// identity has probabilities `p`, and the likeliest result.
fn attack_expectation(attacker: Rank, p: &[f32; 12]) -> (f32, MoveResult) {
    let mut ev = 0.0;
    let mut by_result = [0f32; 4];
    for rank in Rank::ALL {
        let q = p[rank as usize];
        if q == 0.0 {
            continue;
        }
        let result = attacker.attack(rank);
        ev += q * match result {
            MoveResult::Won => piece_value(rank),
            MoveResult::Lost => -piece_value(attacker),
            MoveResult::Traded => piece_value(rank) - piece_value(attacker),
            MoveResult::Moved => 0.0,
        };
        by_result[result as usize] += q;
    }
    let likeliest = [
        MoveResult::Moved,
        MoveResult::Won,
        MoveResult::Lost,
        MoveResult::Traded,
    ]
    .into_iter()
    .max_by(|a, b| by_result[*a as usize].total_cmp(&by_result[*b as usize]))
    .expect("four results");
    (ev, likeliest)
}

/// Expected material change for the defender's side when a piece with probabilities `p` attacks
/// `defender` (only movable identities attack; `p` need not sum to 1).
fn defence_expectation(defender: Rank, p: &[f32; 12]) -> (f32, MoveResult) {
    let mut ev = 0.0;
    let mut by_result = [0f32; 4];
    for rank in Rank::ALL.into_iter().filter(|r| r.movable()) {
        let q = p[rank as usize];
        if q == 0.0 {
            continue;
        }
        let result = rank.attack(defender);
        ev += q * match result {
            MoveResult::Won => -piece_value(defender),
            MoveResult::Lost => piece_value(rank),
            MoveResult::Traded => piece_value(rank) - piece_value(defender),
            MoveResult::Moved => 0.0,
        };
        by_result[result as usize] += q;
    }
    let likeliest = [MoveResult::Won, MoveResult::Lost, MoveResult::Traded]
        .into_iter()
        .max_by(|a, b| by_result[*a as usize].total_cmp(&by_result[*b as usize]))
        .expect("three results");
    (ev, likeliest)
}

/// One decision's working state.
struct Situation<'a> {
    me: Seat,
    belief: &'a Belief,
    /// Each enemy piece's identity probabilities, by index into `belief.pieces`.
    probs: Vec<[f32; 12]>,
    /// The board now: my pieces with their ranks, enemy pieces as stand-in captains.
    board: Position,
    moves: Vec<Move>,
}

impl Situation<'_> {
    fn probs_at(&self, post: Post) -> Option<&[f32; 12]> {
        self.belief.enemy_at(post).map(|i| &self.probs[i])
    }

    /// The expected value of one of my moves by itself (0 for a quiet move).
    fn move_value(&self, mv: Move) -> f32 {
        let attacker = self.belief.mine_at(mv.from).expect("my move starts on my piece");
        match self.probs_at(mv.to) {
            Some(p) => attack_expectation(attacker, p).0,
            None => 0.0,
        }
    }

    /// The best of `candidates` by expected value, if any.
    fn best_of(&self, candidates: impl Iterator<Item = Move>) -> Option<Move> {
        candidates.max_by(|a, b| self.move_value(*a).total_cmp(&self.move_value(*b)))
    }

    /// My material minus the enemy's expected material (3.2's two evaluations).
    fn balance(&self) -> f32 {
        let mine: f32 = self
            .belief
            .mine
            .iter()
            .filter(|(_, r)| *r != Rank::Flag)
            .map(|(_, r)| piece_value(*r))
            .sum();
        let theirs: f32 = self
            .belief
            .pieces
            .iter()
            .filter(|p| p.post.is_some())
            .map(|p| {
                let probs = &self.probs[p.slot];
                Rank::ALL
                    .iter()
                    .filter(|r| **r != Rank::Flag)
                    .map(|r| probs[*r as usize] * piece_value(*r))
                    .sum::<f32>()
            })
            .sum();
        mine - theirs
    }

    /// The two-ply search (see the module docs): my move's expected value plus the enemy's best
    /// reply's, pruned against the best move found so far.
    fn search(&self, rng: &mut dyn RngCore) -> Option<Move> {
        let enemy = self.belief.enemy;
        let mut best = f32::NEG_INFINITY;
        let mut best_moves = Vec::new();
        for &mv in &self.moves {
            let mine = self.belief.mine_at(mv.from).expect("my move starts on my piece");
            let mut after = self.board;
            let mut value = 0.0;
            let mut removed_enemy = None;
            match self.probs_at(mv.to) {
                Some(p) => {
                    let (ev, likeliest) = attack_expectation(mine, p);
                    value += ev;
                    after.put(mv.from, None);
                    match likeliest {
                        MoveResult::Won => after.put(mv.to, self.board.at(mv.from)),
                        MoveResult::Traded => after.put(mv.to, None),
                        _ => {}
                    }
                    if likeliest != MoveResult::Lost {
                        removed_enemy = Some(mv.to);
                    }
                }
                None => {
                    after.put(mv.to, after.at(mv.from));
                    after.put(mv.from, None);
                    // Ties among quiet moves: a little for going forward.
                    value += 0.05 * (f32::from(mv.to.depth(self.me)) - f32::from(mv.from.depth(self.me)));
                }
            }
            // The enemy's reply: each attack on one of my pieces at its expected value, weighted by
            // the chance the attacker can move at all.
            let mut worst = 0.0f32;
            for reply in after.legal_moves(enemy) {
                if removed_enemy == Some(reply.from) {
                    continue;
                }
                let Some(i) = self.belief.enemy_at(reply.from) else {
                    continue;
                };
                let Some(target) = after.at(reply.to) else {
                    continue;
                };
                let p = &self.probs[i];
                let (ev, _) = defence_expectation(target.rank, p);
                worst = worst.min(ev);
                if value + worst < best {
                    break;
                }
            }
            value += worst;
            if value > best + 1e-4 {
                best = value;
                best_moves.clear();
                best_moves.push(mv);
            } else if (value - best).abs() <= 1e-4 {
                best_moves.push(mv);
            }
        }
        best_moves.choose(rng).copied()
    }
}

/// The enemy's two back corners (their last row's columns 0 and 4, "底角").
fn enemy_corners(enemy: Seat) -> [Post; 2] {
    let back = |column| Post::new(11, column).expect("on the board").in_frame_of(enemy);
    [back(0), back(4)]
}

impl JunqiStrategy for SeedRules {
    fn deploy(&mut self, _view: &View, _budget: Budget, rng: &mut dyn RngCore) -> Result<Layout, String> {
        Ok(deploy::any_formation(rng))
    }

    fn act(&mut self, view: &View, _budget: Budget, rng: &mut dyn RngCore) -> Action {
        let Some(me) = seat_of(view) else {
            return resign("a spectator cannot move");
        };
        let Ok(belief) = Belief::from_view(view) else {
            return random_action(view, rng);
        };
        let board = super::random::own_side_position(view, me);
        let moves = board.legal_moves(me);
        if moves.is_empty() {
            return resign("no legal move");
        }
        let probs = belief
            .pieces
            .iter()
            .map(|p| {
                let mut probs = SLOT_PRIOR[p.slot];
                if p.moved {
                    probs[Rank::Landmine as usize] = 0.0;
                    probs[Rank::Flag as usize] = 0.0;
                }
                let total: f32 = probs.iter().sum();
                if total > 0.0 {
                    probs.iter_mut().for_each(|q| *q /= total);
                }
                probs
            })
            .collect();
        let situation = Situation {
            me,
            belief: &belief,
            probs,
            board,
            moves,
        };
        let mv = decide(&situation, view, rng);
        Action::Move {
            from: mv.from,
            to: mv.to,
        }
    }
}

/// The paper's rules in our order (module docs), then the search.
fn decide(s: &Situation<'_>, view: &View, rng: &mut dyn RngCore) -> Move {
    let me = s.me;
    let enemy = s.belief.enemy;
    let moves = || s.moves.iter().copied();
    let rank_of = |mv: Move| s.belief.mine_at(mv.from).expect("my move starts on my piece");

    // 3.3: the enemy field marshal is gone and its flag shown: take it.
    if let Some(flag) = view.revealed_flags.0.get(enemy.index()).copied().flatten()
        && let Some(mv) = moves().find(|m| m.to == flag)
    {
        return mv;
    }
    // 3.4: an enemy piece in my last three rows: attack it.
    let intruders: Vec<Post> = s
        .belief
        .pieces
        .iter()
        .filter_map(|p| p.post)
        .filter(|p| p.depth(me) <= 2)
        .collect();
    if let Some(mv) = s.best_of(moves().filter(|m| intruders.contains(&m.to))) {
        return mv;
    }
    // 3.5.1: an enemy piece outside its last two rows took my general or major general: bomb it.
    for combat in s.belief.combats.iter().rev() {
        let enemy_won = if combat.i_attacked {
            combat.result == MoveResult::Lost
        } else {
            combat.result == MoveResult::Won
        };
        if enemy_won
            && matches!(combat.mine, Rank::General | Rank::MajorGeneral)
            && let Some(post) = s.belief.pieces[combat.enemy].post
            && post.depth(enemy) > 1
            && let Some(mv) = moves().find(|m| m.to == post && rank_of(*m) == Rank::Bomb)
        {
            return mv;
        }
    }
    // 3.5.3: my general, major general or brigadier died attacking an enemy back corner: a
    // landmine, likely; send an engineer or a bomb.
    let corners = enemy_corners(enemy);
    for combat in &s.belief.combats {
        if combat.i_attacked
            && combat.result == MoveResult::Lost
            && matches!(combat.mine, Rank::General | Rank::MajorGeneral | Rank::Brigadier)
            && corners.contains(&combat.post)
            && s.belief.enemy_at(combat.post).is_some()
            && let Some(mv) =
                moves().find(|m| m.to == combat.post && matches!(rank_of(*m), Rank::Engineer | Rank::Bomb))
        {
            return mv;
        }
    }
    // 3.5.2: one enemy flank is empty but for its last two rows: go for that back corner.
    for corner in corners {
        let flank_empty = s.belief.pieces.iter().filter_map(|p| p.post).all(|p| {
            let same_side = (p.column() < 2) == (corner.column() < 2) && p.column() != 2;
            !(same_side && p.half() == enemy && p.depth(enemy) > 1)
        });
        if flank_empty
            && let Some(mv) = s.best_of(moves().filter(|m| m.to == corner && rank_of(*m) != Rank::Bomb))
        {
            return mv;
        }
    }
    // 3.3: ahead by a general and a major general, or the enemy field marshal gone: occupy an enemy
    // headquarters.
    let marshal_gone = view
        .revealed_flags
        .0
        .get(enemy.index())
        .copied()
        .flatten()
        .is_some();
    if (marshal_gone || s.balance() >= AHEAD)
        && let Some(mv) = s.best_of(moves().filter(|m| m.to.is_headquarters() && m.to.half() == enemy))
    {
        return mv;
    }
    // 3.3: the no-attack limit: from the 7th quiet move, when we are the side it would sink,
    // attack something.
    if view.no_attack_limit > 0
        && view.quiet_moves >= 7
        && limit_loser(me, view.quiet_moves, view.no_attack_limit) == me
        && let Some(mv) = s.best_of(moves().filter(|m| s.belief.enemy_at(m.to).is_some()))
    {
        return mv;
    }
    s.search(rng)
        .unwrap_or_else(|| *s.moves.first().expect("there are legal moves"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_values_keep_the_papers_53() {
        assert_eq!(
            piece_value(Rank::General) + piece_value(Rank::MajorGeneral),
            AHEAD
        );
    }

    #[test]
    fn expectations_weigh_each_identity() {
        let mut p = [0f32; 12];
        p[Rank::Landmine as usize] = 0.5;
        p[Rank::Captain as usize] = 0.5;
        let (ev, _) = attack_expectation(Rank::Engineer, &p);
        // Wins either way: half a landmine plus half... an engineer loses to a captain.
        assert!((ev - (0.5 * 8.0 - 0.5 * 6.0)).abs() < 1e-5, "{ev}");
        let (ev, likeliest) = attack_expectation(Rank::General, &p);
        assert!((ev - (0.5 * -30.0 + 0.5 * 5.0)).abs() < 1e-5, "{ev}");
        assert!(matches!(likeliest, MoveResult::Lost | MoveResult::Won));
        let slot_prior = &SLOT_PRIOR;
        assert_eq!(
            slot_prior[0][Rank::Bomb as usize],
            0.0,
            "no bomb in the front row"
        );
        assert_eq!(slot_prior[5][Rank::Landmine as usize], 0.0);
        assert!(slot_prior[21][Rank::Flag as usize] > 0.4);
    }
}
