//! The `flag-rush` sparring partner: a player with the instincts issue 19 saw in the outside CAAI
//! engine that beat `belief-search` (its code is private to the evaluator), to measure against.
//!
//! - **It rushes a shown flag.** Once the enemy field marshal has fallen and its flag is shown, it
//!   takes the flag if it can, else moves the piece that gets nearest to it, counted in moves along
//!   roads and straight railway runs ([`flag_safety::moves_to`]).
//! - **It trades field marshals early.** For its first [`EARLY_MOVES`] moves its field marshal
//!   attacks any enemy piece that may be the enemy's field marshal and cannot be a landmine,
//!   those that have beaten one of its pieces first, and otherwise runs forward to the front.
//! - **Otherwise it is a reasonable material player:** the `seed-rules` player (seeds/004).
//!
//! It is not offered by the bot client ([`super::STRATEGIES`]); `junqi-bench` and the tests take it
//! by name ([`super::SPARRING`]).

use rand::RngCore;
use rand::seq::IndexedRandom;
use skirmish_games::junqi::{Action, Layout, Move, MoveResult, Post, Rank, View};

use super::belief::Belief;
use super::random::own_side_position;
use super::{Budget, JunqiStrategy, SeedRules, deploy, flag_safety, random_action, resign, seat_of};

/// The moves of the game (both sides' counted) during which its field marshal goes looking for
/// a trade: the "in the first 15 moves".
pub const EARLY_MOVES: usize = 30;

/// The sparring partner (module docs).
#[derive(Clone, Copy, Debug, Default)]
pub struct FlagRush;

/// The move that brings one of `me`'s pieces nearest to the enemy's shown `flag` (or takes it),
/// if any gets nearer than it stands: a determinised board where enemy pieces are stand-ins.
pub fn rush(view: &View, flag: Post, rng: &mut dyn RngCore) -> Option<Move> {
    let me = seat_of(view)?;
    let board = own_side_position(view, me);
    let moves = board.legal_moves(me);
    if let Some(mv) = moves.iter().find(|m| m.to == flag) {
        return Some(*mv);
    }
    let dist = flag_safety::moves_to(&board, flag);
    let best = moves
        .iter()
        .filter(|m| dist[m.to.index()] < dist[m.from.index()])
        .map(|m| dist[m.to.index()])
        .min()?;
    let closest: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| dist[m.to.index()] == best && dist[m.to.index()] < dist[m.from.index()])
        .collect();
    closest.choose(rng).copied()
}

/// Its field marshal's early move, if it has one: an attack on a piece that may be the enemy's
/// field marshal and is not a landmine (those that beat one of its pieces first), else a run
/// towards the front.
fn marshal_hunt(view: &View, belief: &Belief, rng: &mut dyn RngCore) -> Option<Move> {
    let me = belief.me;
    let (marshal, _) = belief.mine.iter().find(|(_, r)| *r == Rank::FieldMarshal)?;
    let board = own_side_position(view, me);
    let moves: Vec<Move> = board
        .legal_moves(me)
        .into_iter()
        .filter(|m| m.from == *marshal)
        .collect();
    let targets: Vec<(Move, bool)> = moves
        .iter()
        .filter_map(|m| {
            let i = belief.enemy_at(m.to)?;
            let ranks = belief.pieces[i].ranks;
            if !ranks.contains(Rank::FieldMarshal) || ranks.contains(Rank::Landmine) {
                return None;
            }
            let strong = belief.combats.iter().any(|c| {
                c.enemy == i
                    && if c.i_attacked {
                        c.result == MoveResult::Lost
                    } else {
                        c.result == MoveResult::Won
                    }
            });
            Some((*m, strong))
        })
        .collect();
    let strong: Vec<Move> = targets.iter().filter(|t| t.1).map(|t| t.0).collect();
    if let Some(mv) = strong.choose(rng) {
        return Some(*mv);
    }
    let any: Vec<Move> = targets.iter().map(|t| t.0).collect();
    if let Some(mv) = any.choose(rng) {
        return Some(*mv);
    }
    if marshal.depth(me) >= 5 {
        return None;
    }
    let forward = moves
        .iter()
        .filter(|m| board.at(m.to).is_none() && !m.to.is_headquarters())
        .max_by_key(|m| m.to.depth(me))?;
    (forward.to.depth(me) > marshal.depth(me)).then_some(*forward)
}

impl JunqiStrategy for FlagRush {
    fn deploy(&mut self, _view: &View, _budget: Budget, rng: &mut dyn RngCore) -> Result<Layout, String> {
        Ok(deploy::any_formation(rng))
    }

    fn act(&mut self, view: &View, budget: Budget, rng: &mut dyn RngCore) -> Action {
        let Some(me) = seat_of(view) else {
            return resign("a spectator cannot move");
        };
        let Ok(belief) = Belief::from_view(view) else {
            return random_action(view, rng);
        };
        let enemy_flag = view.revealed_flags.0.get(belief.enemy.index()).copied().flatten();
        let chosen = enemy_flag.and_then(|flag| rush(view, flag, rng)).or_else(|| {
            (view.moves.len() < EARLY_MOVES)
                .then(|| marshal_hunt(view, &belief, rng))
                .flatten()
        });
        match chosen {
            Some(mv) => {
                debug_assert!(own_side_position(view, me).check_move(me, mv).is_ok());
                Action::Move {
                    from: mv.from,
                    to: mv.to,
                }
            }
            None => SeedRules.act(view, budget, rng),
        }
    }
}
