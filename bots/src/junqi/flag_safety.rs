//! How exposed a flag is once the opponent knows where it stands (a field marshal's fall shows its
//! side's flag, docs/rules.md, junqi, "What the referee tells"): the opponent's pieces measured in
//! moves from it, along roads and straight railway runs, through what stands in the way.
//!
//! Issue 19 found `belief-search` losing to an outside engine mostly by a flag revealed early (the
//! field marshals traded in the first 15 moves) and then taken: the engine rushes a shown flag
//! along the railway. [`exposure`] is the price `belief-search`'s evaluation puts on a shown flag,
//! its own (a cost) and the enemy's (a gain), so that a marshal trade is worth what the two shown
//! flags cost, a shown flag is guarded, and an enemy's shown flag is attacked by the quickest way.
//!
//! The numbers are ours, set by hand and measured with `junqi-bench` (bots/README.md, junqi).

use skirmish_games::Seat;
use skirmish_games::junqi::{Direction, Position, Post, Rank};

/// Moves beyond which an attacker is no threat to a flag.
pub const FAR: u8 = u8::MAX;

/// The extra moves an attacker spends going through one of the flag owner's pieces (a combat it
/// must win first), and through a landmine (which kills all but an engineer or a bomb).
const THROUGH_PIECE: u8 = 1;
const THROUGH_LANDMINE: u8 = 2;

/// The price of a flag the opponent knows, before any attacker is counted.
pub const SHOWN: f32 = 8.0;

/// The price of each attacker by how many moves it needs to reach the flag (index 1 to 4):
/// one move means it takes the flag at its next turn unless stopped.
const THREAT: [f32; 5] = [0.0, 60.0, 24.0, 8.0, 3.0];

/// The most the attackers together cost.
const THREAT_CAP: f32 = 100.0;

/// What each of the owner's movable pieces within two moves of the flag takes off the price, for
/// at most three of them (defenders kept near).
const GUARD: f32 = 3.0;

/// The fewest moves each post's piece needs to reach `flag` (a post index to moves; [`FAR`] when
/// it cannot), going one road step or one straight railway run at a time through empty posts,
/// and through the flag owner's pieces at an extra `THROUGH_PIECE` (a landmine
/// `THROUGH_LANDMINE`) moves; a piece of the owner in a camp cannot be attacked, so the way is
/// shut there. Posts of the attacker's own pieces get their distance but are not gone through.
/// Engineers' turning runs are not followed here; [`exposure`] counts them for engineers.
pub fn moves_to(position: &Position, flag: Post) -> [u8; 60] {
    let Some(owner) = position.at(flag).map(|p| p.owner) else {
        return [FAR; 60];
    };
    let mut dist = [FAR; 60];
    let mut done = [false; 60];
    dist[flag.index()] = 0;
    // Dial's algorithm: edge costs are 1 to 3, so four buckets in a ring hold every post still
    // to settle (a post enters a bucket only when its distance improves, so at most 60 share one distance).
    let mut buckets = [[0u8; 64]; 4];
    let mut lens = [0usize; 4];
    buckets[0][0] = u8::try_from(flag.index()).expect("below 60");
    lens[0] = 1;
    let mut current = 0usize;
    let mut empty_rounds = 0;
    while empty_rounds < 4 {
        let slot = current % 4;
        if lens[slot] == 0 {
            empty_rounds += 1;
            current += 1;
            continue;
        }
        empty_rounds = 0;
        lens[slot] -= 1;
        let at = Post::from_index(usize::from(buckets[slot][lens[slot]]));
        if done[at.index()] || usize::from(dist[at.index()]) != current {
            continue;
        }
        done[at.index()] = true;
        // Only the flag itself, empty posts and beaten owner's pieces are gone through.
        let passable = at == flag
            || match position.at(at) {
                None => true,
                Some(piece) => piece.owner == owner,
            };
        if !passable {
            continue;
        }
        let base = dist[at.index()];
        let reach = |to: Post, dist: &mut [u8; 60], buckets: &mut [[u8; 64]; 4], lens: &mut [usize; 4]| {
            let cost = match position.at(to) {
                None => 1,
                Some(piece) if piece.owner == owner => {
                    // The attacker stands here after beating it; it cannot come out of a camp.
                    if to.is_camp() {
                        return;
                    }
                    1 + if piece.rank == Rank::Landmine {
                        THROUGH_LANDMINE
                    } else {
                        THROUGH_PIECE
                    }
                }
                Some(_) => 1,
            };
            // A piece in a headquarters never moves again.
            if to.is_headquarters() && position.at(to).is_some_and(|p| p.owner != owner) {
                return;
            }
            let d = base.saturating_add(cost);
            if d < dist[to.index()] {
                dist[to.index()] = d;
                let slot = usize::from(d) % 4;
                buckets[slot][lens[slot]] = u8::try_from(to.index()).expect("below 60");
                lens[slot] += 1;
            }
        };
        for &to in at.neighbours() {
            reach(to, &mut dist, &mut buckets, &mut lens);
        }
        if at.on_railway() {
            for direction in Direction::ALL {
                let mut p = at;
                while let Some(next) = p.railway_step(direction) {
                    reach(next, &mut dist, &mut buckets, &mut lens);
                    if position.at(next).is_some() {
                        break;
                    }
                    p = next;
                }
            }
        }
    }
    dist
}

/// The fewest moves the engineer on the railway post `from` needs to reach the flag of
/// [`moves_to`]'s `dist`: one turning railway run (docs/rules.md, junqi, "Moves" 4) to any empty
/// railway post it can reach, or onto an enemy piece next to such a path (an engineer beats a
/// landmine, so no extra is charged for the post it attacks), then that post's distance.
fn engineer_moves(position: &Position, from: Post, dist: &[u8; 60]) -> u8 {
    let Some(mover) = position.at(from).map(|p| p.owner) else {
        return FAR;
    };
    let mut runs = Vec::new();
    position.engineer_runs(from, mover, &mut runs);
    runs.into_iter()
        .map(|to| {
            let landed = match position.at(to) {
                None => dist[to.index()],
                Some(piece) if piece.rank == Rank::Flag => 0,
                Some(piece) => {
                    let extra = if piece.rank == Rank::Landmine {
                        THROUGH_LANDMINE
                    } else {
                        THROUGH_PIECE
                    };
                    dist[to.index()].saturating_sub(extra)
                }
            };
            landed.saturating_add(1)
        })
        .min()
        .unwrap_or(FAR)
}

/// The price (in piece-value points, as `belief-search`'s evaluation counts) of `owner`'s flag at
/// `flag` being known to the opponent in `position`: [`SHOWN`], plus each opponent's movable piece
/// by how many moves it needs ([`moves_to`]; 60, 24, 8 and 3 for one to four moves, 100 at most
/// together), less 3 for each of up to three of the owner's movable pieces within two moves of it.
/// Never below 0.
pub fn exposure(position: &Position, flag: Post, owner: Seat) -> f32 {
    let dist = moves_to(position, flag);
    let mut threat = 0.0;
    let mut guards = 0u8;
    for (post, piece) in position.pieces() {
        if !piece.rank.movable() || post.is_headquarters() {
            continue;
        }
        let mut d = dist[post.index()];
        if piece.owner != owner && piece.rank == Rank::Engineer && post.on_railway() {
            d = d.min(engineer_moves(position, post, &dist));
        }
        if piece.owner == owner {
            if post.row().abs_diff(flag.row()) + post.column().abs_diff(flag.column()) <= 2 {
                guards += 1;
            }
        } else if let Some(w) = THREAT.get(usize::from(d)) {
            threat += w;
        }
    }
    (SHOWN + f32::min(threat, THREAT_CAP) - GUARD * f32::from(guards.min(3))).max(0.0)
}

#[cfg(test)]
mod tests {
    use skirmish_games::junqi::Piece;

    use super::*;

    fn post(s: &str) -> Post {
        s.parse().expect("a post")
    }

    fn put(position: &mut Position, at: &str, owner: u8, rank: Rank) {
        position.put(
            post(at),
            Some(Piece {
                owner: Seat(owner),
                rank,
            }),
        );
    }

    #[test]
    fn railway_runs_count_one_move_and_pieces_in_the_way_cost_more() {
        let mut p = Position::empty(Seat(0));
        put(&mut p, "L1", 0, Rank::Flag);
        // An enemy captain far up column 0's railway: K0 is one railway run from B0, then L0
        // (empty) and L1: three moves.
        put(&mut p, "B0", 1, Rank::Captain);
        let d = moves_to(&p, post("L1"));
        assert_eq!(d[post("K1").index()], 1);
        assert_eq!(d[post("K0").index()], 2, "K0-K1-L1 or K0-L0-L1");
        assert_eq!(d[post("B0").index()], 3, "one run down to K0, then two steps");
        let free = exposure(&p, post("L1"), Seat(0));
        // A landmine on K1 and one on L0 make the way longer.
        put(&mut p, "K1", 0, Rank::Landmine);
        put(&mut p, "L0", 0, Rank::Landmine);
        let d = moves_to(&p, post("L1"));
        assert!(d[post("B0").index()] > 3, "{}", d[post("B0").index()]);
        // A defender of its own within two posts lowers the price too.
        put(&mut p, "K2", 0, Rank::Major);
        assert!(exposure(&p, post("L1"), Seat(0)) < free);
        // An enemy piece in the flag's camp-free neighbourhood next to it costs most.
        put(&mut p, "L2", 1, Rank::Lieutenant);
        assert!(exposure(&p, post("L1"), Seat(0)) >= SHOWN + 60.0 - 3.0);
    }

    #[test]
    fn an_engineer_turns_along_the_railway_and_goes_through_a_landmine() {
        let mut p = Position::empty(Seat(0));
        put(&mut p, "L1", 0, Rank::Flag);
        put(&mut p, "K1", 0, Rank::Landmine);
        put(&mut p, "L0", 0, Rank::Landmine);
        put(&mut p, "L2", 0, Rank::Landmine);
        let far = exposure(&p, post("L1"), Seat(0));
        // An engineer on G2 runs G2-G4-K4-K2 and beyond in one move, onto the landmine on K1:
        // two moves from the flag. A captain there would need far more.
        put(&mut p, "G2", 1, Rank::Captain);
        let captain = exposure(&p, post("L1"), Seat(0));
        put(&mut p, "G2", 1, Rank::Engineer);
        let dist = moves_to(&p, post("L1"));
        assert_eq!(engineer_moves(&p, post("G2"), &dist), 2);
        assert!(exposure(&p, post("L1"), Seat(0)) >= far + 24.0, "{far}");
        assert!(captain < far + 24.0);
    }

    #[test]
    fn a_piece_in_a_camp_shuts_the_way() {
        let mut p = Position::empty(Seat(0));
        put(&mut p, "L1", 0, Rank::Flag);
        put(&mut p, "J1", 0, Rank::Major);
        let d = moves_to(&p, post("L1"));
        assert_eq!(d[post("J1").index()], FAR, "a camp's piece cannot be attacked");
        assert_eq!(d[post("K1").index()], 1);
    }
}
