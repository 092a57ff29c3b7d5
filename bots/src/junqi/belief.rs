//! What a seat can know about the enemy's hidden pieces, rebuilt from its [`View`] alone: each of
//! the 25 enemy pieces is followed from its starting post through the public move record, and
//! carries the set of ranks it can still be. Samples of the enemy layout consistent with every
//! fact give the determinised positions `belief-search` plays out.
//!
//! The facts used, all certain (docs/rules.md, junqi):
//! - deployment: the flag stands in a headquarters, landmines in the owner's last two rows, no
//!   bomb in the front row; each rank has its count;
//! - a piece that moved is neither a landmine nor the flag; a railway move no straight run could
//!   make (a turn, or round a piece) was an engineer's;
//! - a combat's result against one of my pieces (whose rank I know) leaves only the ranks that give
//!   that result (`Rank::attack`);
//! - the enemy flag's post, once revealed, holds the flag, and the revelation means the enemy
//!   field marshal is off the board; while it is not revealed, no removed enemy piece was the field
//!   marshal (its removal would have revealed the flag).

use rand::Rng;
use rand::seq::SliceRandom;
use skirmish_games::junqi::{MoveResult, Piece, Position, Post, Rank, View, layout_post};
use skirmish_games::{Seat, Viewer};

/// A set of ranks, one bit per rank in CAAI order (bit 0 the field marshal, bit 11 the flag).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct RankSet(pub u16);

impl RankSet {
    /// Every rank.
    pub const ALL: RankSet = RankSet((1 << 12) - 1);
    /// No rank (an inconsistent piece).
    pub const EMPTY: RankSet = RankSet(0);

    /// The set holding `rank` alone.
    pub const fn only(rank: Rank) -> RankSet {
        RankSet(1 << rank as u16)
    }

    /// Whether `rank` is in the set.
    pub const fn contains(self, rank: Rank) -> bool {
        self.0 & (1 << rank as u16) != 0
    }

    /// The set without `rank`.
    pub const fn without(self, rank: Rank) -> RankSet {
        RankSet(self.0 & !(1 << rank as u16))
    }

    /// The ranks in both sets.
    pub const fn and(self, other: RankSet) -> RankSet {
        RankSet(self.0 & other.0)
    }

    /// How many ranks the set holds.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The ranks in the set, in CAAI order.
    pub fn ranks(self) -> impl Iterator<Item = Rank> {
        Rank::ALL.into_iter().filter(move |&r| self.contains(r))
    }

    /// The ranks `filter` keeps.
    pub fn filter(self, filter: impl Fn(Rank) -> bool) -> RankSet {
        RankSet(
            self.ranks()
                .filter(|&r| filter(r))
                .fold(0, |m, r| m | (1 << r as u16)),
        )
    }

    /// The only rank in the set, if it holds exactly one.
    pub fn single(self) -> Option<Rank> {
        (self.len() == 1).then(|| self.ranks().next().expect("one rank"))
    }
}

/// What the ranks a piece starting on layout slot `slot` (0 to 24, CAAI order) may be, by the
/// deployment rules alone (docs/rules.md, junqi, "Deployment").
pub fn slot_ranks(slot: usize) -> RankSet {
    let post = layout_post(Seat(0), slot);
    let mut set = RankSet::ALL;
    if !post.is_headquarters() {
        set = set.without(Rank::Flag);
    }
    if post.depth(Seat(0)) > 1 {
        set = set.without(Rank::Landmine);
    }
    if post.depth(Seat(0)) == 5 {
        set = set.without(Rank::Bomb);
    }
    set
}

/// One enemy piece as followed through the move record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EnemyPiece {
    /// Its layout slot (0 to 24, CAAI order), so its starting post is `layout_post(enemy, slot)`.
    pub slot: usize,
    /// Where it stands now; `None` once removed.
    pub post: Option<Post>,
    /// The ranks it can still be.
    pub ranks: RankSet,
    /// Whether it has ever moved.
    pub moved: bool,
    /// The number of the move that removed it, if it is removed.
    pub removed_at: Option<u32>,
}

/// A combat between one of my pieces and an enemy piece, as the record shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Combat {
    /// The move number (1 = the first move of the battle).
    pub number: u32,
    /// The enemy piece's index in [`Belief::pieces`].
    pub enemy: usize,
    /// My piece's rank.
    pub mine: Rank,
    /// Whether I attacked (else the enemy piece attacked mine).
    pub i_attacked: bool,
    /// Where the combat took place (the defender's post).
    pub post: Post,
    /// The result from the attacker's side.
    pub result: MoveResult,
}

/// What occupies a post while the record is replayed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Occupant {
    Mine(Rank),
    Theirs(usize),
}

/// Everything a seat knows of the enemy's pieces: each one's post and possible ranks, rebuilt from
/// a view's move record (see the module docs for the facts used).
#[derive(Clone, Debug)]
pub struct Belief {
    /// The seat whose belief this is.
    pub me: Seat,
    /// The enemy seat.
    pub enemy: Seat,
    /// The 25 enemy pieces, by layout slot.
    pub pieces: Vec<EnemyPiece>,
    /// Every combat of the game so far, oldest first.
    pub combats: Vec<Combat>,
    /// My pieces now, with their ranks.
    pub mine: Vec<(Post, Rank)>,
    board: [Option<Occupant>; 60],
}

/// Why a view cannot give a belief.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum BeliefError {
    /// The view is a spectator's, or the seat has not deployed.
    #[error("only a seat that has deployed has a belief")]
    NotASeat,
    /// The record does not replay onto the view's board (a view this module does not understand).
    #[error("the move record does not replay onto the board shown")]
    Inconsistent,
}

impl Belief {
    /// Rebuilds the belief of the view's seat from its own layout and the move record.
    ///
    /// # Errors
    /// [`BeliefError::NotASeat`] for a spectator's view or before the seat deployed;
    /// [`BeliefError::Inconsistent`] when the replayed board differs from the pieces shown.
    pub fn from_view(view: &View) -> Result<Belief, BeliefError> {
        let Viewer::Seat(me) = view.viewer else {
            return Err(BeliefError::NotASeat);
        };
        let layout = view.layout.ok_or(BeliefError::NotASeat)?;
        let enemy = Seat(1 - me.0);
        let mut board = [None; 60];
        for (post, rank) in layout.pieces(me) {
            board[post.index()] = Some(Occupant::Mine(rank));
        }
        let mut pieces = Vec::with_capacity(25);
        for slot in 0..25 {
            let post = layout_post(enemy, slot);
            board[post.index()] = Some(Occupant::Theirs(slot));
            pieces.push(EnemyPiece {
                slot,
                post: Some(post),
                ranks: slot_ranks(slot),
                moved: false,
                removed_at: None,
            });
        }
        let mut belief = Belief {
            me,
            enemy,
            pieces,
            combats: Vec::new(),
            mine: Vec::new(),
            board,
        };
        for record in &view.moves {
            belief.replay(record.number, record.seat, record.from, record.to, record.result)?;
        }
        // The flag's revelation (docs/rules.md, "What the referee tells").
        match view.revealed_flags.0.get(enemy.index()).copied().flatten() {
            Some(flag) => {
                for piece in &mut belief.pieces {
                    if piece.post == Some(flag) {
                        piece.ranks = piece.ranks.and(RankSet::only(Rank::Flag));
                    } else {
                        piece.ranks = piece.ranks.without(Rank::Flag);
                        if piece.post.is_some() {
                            piece.ranks = piece.ranks.without(Rank::FieldMarshal);
                        }
                    }
                }
            }
            None => {
                for piece in belief.pieces.iter_mut().filter(|p| p.post.is_none()) {
                    piece.ranks = piece.ranks.without(Rank::FieldMarshal);
                }
            }
        }
        // The replayed board must be the one shown.
        let mut shown = 0;
        for piece in &view.pieces {
            shown += 1;
            match belief.board[piece.post.index()] {
                Some(Occupant::Mine(rank)) if piece.owner == me && piece.rank == Some(rank) => {}
                Some(Occupant::Theirs(_)) if piece.owner == enemy => {}
                _ => return Err(BeliefError::Inconsistent),
            }
        }
        if shown != belief.board.iter().flatten().count() {
            return Err(BeliefError::Inconsistent);
        }
        belief.mine = Post::all()
            .filter_map(|p| match belief.board[p.index()] {
                Some(Occupant::Mine(rank)) => Some((p, rank)),
                _ => None,
            })
            .collect();
        belief.propagate();
        Ok(belief)
    }

    /// The position of the board now with enemy pieces as stand-in captains (a movable
    /// non-engineer), for legal moves.
    fn stand_in_position(&self, to_move: Seat) -> Position {
        let mut position = Position::empty(to_move);
        for post in Post::all() {
            let piece = match self.board[post.index()] {
                Some(Occupant::Mine(rank)) => Some(Piece { owner: self.me, rank }),
                Some(Occupant::Theirs(_)) => Some(Piece {
                    owner: self.enemy,
                    rank: Rank::Captain,
                }),
                None => None,
            };
            position.put(post, piece);
        }
        position
    }

    fn replay(
        &mut self,
        number: u32,
        seat: Seat,
        from: Post,
        to: Post,
        result: MoveResult,
    ) -> Result<(), BeliefError> {
        let mover = self.board[from.index()].ok_or(BeliefError::Inconsistent)?;
        let defender = self.board[to.index()];
        match (mover, seat == self.me) {
            (Occupant::Theirs(i), false) => {
                let piece = &mut self.pieces[i];
                piece.moved = true;
                piece.ranks = piece.ranks.filter(Rank::movable);
                // A move no straight run or road step makes was an engineer's.
                if from.on_railway() && !self.stand_in_position(seat).destinations(from).contains(&to) {
                    let piece = &mut self.pieces[i];
                    piece.ranks = piece.ranks.and(RankSet::only(Rank::Engineer));
                }
            }
            (Occupant::Mine(_), true) => {}
            _ => return Err(BeliefError::Inconsistent),
        }
        match (result, defender) {
            (MoveResult::Moved, None) => {}
            (MoveResult::Moved, Some(_)) | (_, None) => return Err(BeliefError::Inconsistent),
            (_, Some(defender)) => {
                let (mine, theirs, i_attacked) = match (mover, defender) {
                    (Occupant::Mine(m), Occupant::Theirs(t)) => (m, t, true),
                    (Occupant::Theirs(t), Occupant::Mine(m)) => (m, t, false),
                    _ => return Err(BeliefError::Inconsistent),
                };
                let piece = &mut self.pieces[theirs];
                piece.ranks = if i_attacked {
                    piece.ranks.filter(|r| mine.attack(r) == result)
                } else {
                    piece.ranks.filter(|r| r.attack(mine) == result)
                };
                self.combats.push(Combat {
                    number,
                    enemy: theirs,
                    mine,
                    i_attacked,
                    post: to,
                    result,
                });
                let enemy_removed = match result {
                    MoveResult::Won => i_attacked,
                    MoveResult::Lost => !i_attacked,
                    MoveResult::Traded => true,
                    MoveResult::Moved => false,
                };
                if enemy_removed {
                    self.pieces[theirs].post = None;
                    self.pieces[theirs].removed_at = Some(number);
                }
            }
        }
        match result {
            MoveResult::Moved | MoveResult::Won => {
                self.board[to.index()] = Some(mover);
                self.board[from.index()] = None;
            }
            MoveResult::Lost => self.board[from.index()] = None,
            MoveResult::Traded => {
                self.board[from.index()] = None;
                self.board[to.index()] = None;
            }
        }
        if let Some(Occupant::Theirs(i)) = self.board[to.index()] {
            self.pieces[i].post = Some(to);
        }
        Ok(())
    }

    /// Narrows the sets by counting: a rank whose count is used up by pieces that can only be it
    /// is taken out of every other piece's set (repeated until nothing changes).
    fn propagate(&mut self) {
        loop {
            let mut changed = false;
            for rank in Rank::ALL {
                let sure = self
                    .pieces
                    .iter()
                    .filter(|p| p.ranks.single() == Some(rank))
                    .count();
                if sure >= usize::from(rank.count()) {
                    for piece in &mut self.pieces {
                        if piece.ranks.single() != Some(rank) && piece.ranks.contains(rank) {
                            piece.ranks = piece.ranks.without(rank);
                            changed = true;
                        }
                    }
                }
            }
            if !changed {
                return;
            }
        }
    }

    /// The enemy piece standing on `post`, by index into [`Belief::pieces`].
    pub fn enemy_at(&self, post: Post) -> Option<usize> {
        match self.board[post.index()] {
            Some(Occupant::Theirs(i)) => Some(i),
            _ => None,
        }
    }

    /// My piece's rank on `post`.
    pub fn mine_at(&self, post: Post) -> Option<Rank> {
        match self.board[post.index()] {
            Some(Occupant::Mine(rank)) => Some(rank),
            _ => None,
        }
    }

    /// Whether some assignment of ranks to the 25 enemy pieces fits every set and every count
    /// (Hall's condition over the 4,096 sets of ranks).
    pub fn consistent(&self) -> bool {
        let sets: Vec<RankSet> = self.pieces.iter().map(|p| p.ranks).collect();
        let mut counts = [0u8; 12];
        for rank in Rank::ALL {
            counts[rank as usize] = rank.count();
        }
        hall(&sets, &counts)
    }

    /// A rank for each of the 25 enemy pieces (by index into [`Belief::pieces`]) that fits every
    /// set and the counts. Each step draws the most constrained piece's rank in proportion to the
    /// rank's remaining count; a dead end restarts, and after 32 dead ends every draw is checked
    /// with Hall's condition, so a consistent belief always yields a sample.
    ///
    /// Returns `None` only when the belief is inconsistent ([`Belief::consistent`]).
    pub fn sample(&self, rng: &mut (impl Rng + ?Sized)) -> Option<[Rank; 25]> {
        for _ in 0..32 {
            if let Some(sample) = self.draw(rng, false) {
                return Some(sample);
            }
        }
        self.draw(rng, true)
    }

    fn draw(&self, rng: &mut (impl Rng + ?Sized), checked: bool) -> Option<[Rank; 25]> {
        let mut left = [0u8; 12];
        for rank in Rank::ALL {
            left[rank as usize] = rank.count();
        }
        let mut sets: Vec<RankSet> = self.pieces.iter().map(|p| p.ranks).collect();
        let mut out = [Rank::Flag; 25];
        let mut open: Vec<usize> = (0..25).collect();
        open.shuffle(rng);
        if checked && !hall(&sets, &left) {
            return None;
        }
        while !open.is_empty() {
            let available = |s: RankSet, left: &[u8; 12]| s.filter(|r| left[r as usize] > 0);
            let (k, _) = open
                .iter()
                .enumerate()
                .min_by_key(|&(_, &i)| available(sets[i], &left).len())
                .expect("open is not empty");
            let i = open.swap_remove(k);
            let mut choices: Vec<Rank> = available(sets[i], &left).ranks().collect();
            loop {
                let total: u32 = choices.iter().map(|&r| u32::from(left[r as usize])).sum();
                if total == 0 {
                    return None;
                }
                let mut pick = rng.random_range(0..total);
                let mut chosen = choices[0];
                for &r in &choices {
                    let w = u32::from(left[r as usize]);
                    if pick < w {
                        chosen = r;
                        break;
                    }
                    pick -= w;
                }
                if checked {
                    let mut trial_left = left;
                    trial_left[chosen as usize] -= 1;
                    let trial: Vec<RankSet> = open.iter().map(|&j| sets[j]).collect();
                    if !hall(&trial, &trial_left) {
                        choices.retain(|&r| r != chosen);
                        continue;
                    }
                }
                left[chosen as usize] -= 1;
                out[i] = chosen;
                sets[i] = RankSet::only(chosen);
                break;
            }
        }
        Some(out)
    }

    /// Each enemy piece's probability of each rank (rows by index into [`Belief::pieces`],
    /// columns in CAAI order), estimated from `samples` samples.
    pub fn marginals(&self, samples: usize, rng: &mut (impl Rng + ?Sized)) -> Vec<[f32; 12]> {
        let mut counts = vec![[0f32; 12]; 25];
        let mut n = 0f32;
        for _ in 0..samples {
            if let Some(sample) = self.sample(rng) {
                n += 1.0;
                for (i, rank) in sample.iter().enumerate() {
                    counts[i][*rank as usize] += 1.0;
                }
            }
        }
        if n > 0.0 {
            for row in &mut counts {
                for c in row.iter_mut() {
                    *c /= n;
                }
            }
        }
        counts
    }

    /// The board now with the enemy pieces given the ranks of `sample` (from
    /// [`Belief::sample`]): a determinised position, `to_move` to move after `quiet` quiet moves.
    pub fn position(&self, sample: &[Rank; 25], to_move: Seat, quiet: u16) -> Position {
        let mut position = Position::empty(to_move);
        for post in Post::all() {
            let piece = match self.board[post.index()] {
                Some(Occupant::Mine(rank)) => Some(Piece { owner: self.me, rank }),
                Some(Occupant::Theirs(i)) => Some(Piece {
                    owner: self.enemy,
                    rank: sample[i],
                }),
                None => None,
            };
            position.put(post, piece);
        }
        position.set_quiet_moves(quiet);
        position
    }
}

/// Hall's condition for filling `counts` (which sum to at least the number of sets) from pieces
/// whose possible ranks are `sets`: for every set S of ranks, the pieces that can only be in S are
/// no more than S's count. Sum-over-subsets over the 4,096 sets of ranks.
fn hall(sets: &[RankSet], counts: &[u8; 12]) -> bool {
    let mut need = vec![0i32; 1 << 12];
    for s in sets {
        if s.is_empty() {
            return false;
        }
        need[usize::from(s.0)] += 1;
    }
    for bit in 0..12 {
        for mask in 0..(1usize << 12) {
            if mask & (1 << bit) != 0 {
                need[mask] += need[mask ^ (1 << bit)];
            }
        }
    }
    (0..(1usize << 12)).all(|mask| {
        let cap: i32 = (0..12)
            .filter(|b| mask & (1 << b) != 0)
            .map(|b| i32::from(counts[b]))
            .sum();
        need[mask] <= cap
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::SmallRng;
    use skirmish_games::Game;
    use skirmish_games::junqi::{Action, Config, Junqi, Layout};

    fn post(s: &str) -> Post {
        s.parse().expect("a post")
    }

    /// A game with both layouts deployed, then `moves` played in order.
    fn game(layouts: [&str; 2], moves: &[&str]) -> Junqi {
        let (mut game, _) = Junqi::new(Config::default()).expect("default config");
        for (seat, layout) in layouts.iter().enumerate() {
            let layout: Layout = layout.parse().expect("a layout");
            game.apply(Seat(seat as u8), Action::Deploy { layout })
                .expect("a legal layout");
        }
        for (i, mv) in moves.iter().enumerate() {
            let (from, to) = (post(&mv[..2]), post(&mv[2..]));
            game.apply(Seat((i % 2) as u8), Action::Move { from, to })
                .expect("a legal move");
        }
        game
    }

    fn belief(game: &Junqi, seat: u8) -> Belief {
        Belief::from_view(&game.view(Viewer::Seat(Seat(seat)))).expect("a belief")
    }

    #[test]
    fn deployment_rules_shape_the_prior() {
        let b = belief(&game(["abccddeeffggghhhiiijjkklj"; 2], &[]), 0);
        // Seat 1's slot 0 is G0 turned: F4, its front row: no bomb, no landmine, no flag.
        let front = &b.pieces[b.enemy_at(post("F4")).expect("a piece")];
        assert!(!front.ranks.contains(Rank::Bomb) && !front.ranks.contains(Rank::Landmine));
        assert!(!front.ranks.contains(Rank::Flag));
        let hq = &b.pieces[b.enemy_at(post("A1")).expect("a piece")];
        assert!(hq.ranks.contains(Rank::Flag) && hq.ranks.contains(Rank::Landmine));
        assert!(b.consistent());
    }

    #[test]
    fn combat_results_narrow_the_enemy_piece() {
        // My colonel at G0 attacks F0 (seat 1's slot 4, a brigadier) and loses; the brigadier
        // then steps onto G0. It beats a colonel and moved: field marshal to brigadier.
        let layout0 = "eabcdcdeffggghhhiiijjkklj";
        let g = game([layout0, "abccddeeffggghhhiiijjkklj"], &["G0F0", "F0G0"]);
        let b = belief(&g, 0);
        let i = b.enemy_at(post("G0")).expect("the enemy piece moved on");
        let ranks = b.pieces[i].ranks;
        assert!(b.pieces[i].moved);
        for r in ranks.ranks() {
            assert!(r.beats(Rank::Colonel), "{r} would not beat a colonel");
        }
        assert!(ranks.contains(Rank::Brigadier));
        assert!(!ranks.contains(Rank::Landmine), "it moved");
        // The field marshal is still hidden, so never among the removed.
        assert!(b.consistent());
        let mut rng = SmallRng::seed_from_u64(3);
        for _ in 0..200 {
            let s = b.sample(&mut rng).expect("consistent");
            assert!(s[i].beats(Rank::Colonel));
        }
    }

    #[test]
    fn a_turn_on_the_railway_means_an_engineer() {
        // Seat 0 has an engineer at G0 (and its field marshal at K1). It clears G1 and G2 into
        // camps, then runs G0-G1-G2 and turns up the centre railway onto F2 (seat 1's major
        // general), where it dies. A straight step (G1 to H1) says nothing.
        let layout0 = "ibccddeeffggghhhaiijjkklj";
        let standard = "abccddeeffggghhhiiijjkklj";
        let g = game([layout0, standard], &["G1H1", "F1E1", "G2H3", "E1F1"]);
        let b = belief(&g, 1);
        let stepped = b.enemy_at(post("H1")).expect("on H1");
        assert!(b.pieces[stepped].moved);
        assert!(b.pieces[stepped].ranks.len() > 1, "a road step is no evidence");
        let g = game([layout0, standard], &["G1H1", "F1E1", "G2H3", "E1F1", "G0F2"]);
        let b = belief(&g, 1);
        let dead = b.pieces.iter().find(|p| p.slot == 0).expect("slot 0");
        assert_eq!(dead.post, None, "the engineer lost to the major general");
        assert_eq!(dead.ranks, RankSet::only(Rank::Engineer));
        let mut rng = SmallRng::seed_from_u64(5);
        for _ in 0..50 {
            let s = b.sample(&mut rng).expect("consistent");
            assert_eq!(s[0], Rank::Engineer);
        }
    }

    #[test]
    fn samples_fit_counts_sets_and_deployment_rules() {
        let g = game(["abccddeeffggghhhiiijjkklj"; 2], &["G2F2", "F4G4"]);
        let b = belief(&g, 1);
        let mut rng = SmallRng::seed_from_u64(7);
        for _ in 0..500 {
            let s = b.sample(&mut rng).expect("consistent");
            let mut counts = [0u8; 12];
            for (i, r) in s.iter().enumerate() {
                counts[*r as usize] += 1;
                assert!(b.pieces[i].ranks.contains(*r));
            }
            for r in Rank::ALL {
                assert_eq!(counts[r as usize], r.count(), "{r}");
            }
            // The ranks by slot form a legal layout.
            let mut layout = [Rank::Flag; 25];
            for p in &b.pieces {
                layout[p.slot] = s[p.slot];
            }
            assert_eq!(Layout(layout).check(), Ok(()));
        }
    }

    #[test]
    fn hall_detects_impossible_sets_and_the_checked_draw_finds_the_one_way() {
        let mut b = belief(&game(["abccddeeffggghhhiiijjkklj"; 2], &[]), 0);
        // Force a near-unique assignment: the true layout's ranks on all but two pieces.
        let truth: Layout = "abccddeeffggghhhiiijjkklj".parse().expect("layout");
        for p in b.pieces.iter_mut().skip(2) {
            p.ranks = RankSet::only(truth.0[p.slot]);
        }
        assert!(b.consistent());
        let s = b.sample(&mut rand::rng()).expect("consistent");
        let mut got = [s[0], s[1]];
        got.sort();
        assert_eq!(got, [Rank::FieldMarshal, Rank::General]);
        // Three pieces that can only be a field marshal: impossible.
        for p in b.pieces.iter_mut().take(3) {
            p.ranks = RankSet::only(Rank::FieldMarshal);
        }
        assert!(!b.consistent());
        assert_eq!(b.sample(&mut rand::rng()), None);
    }

    #[test]
    fn a_trade_removes_the_enemy_piece_and_leaves_only_its_equal() {
        // Seat 0's major general G2 attacks F2, seat 1's major general: both removed. F2 is a
        // front-row post, so no bomb: the removed piece was a major general.
        let g = game(["abccddeeffggghhhiiijjkklj"; 2], &["G2F2"]);
        let b = belief(&g, 0);
        let dead: Vec<&EnemyPiece> = b.pieces.iter().filter(|p| p.post.is_none()).collect();
        assert_eq!(dead.len(), 1);
        assert_eq!(dead[0].ranks, RankSet::only(Rank::MajorGeneral));
        assert_eq!(b.mine.len(), 24);
        assert_eq!(dead[0].removed_at, Some(1));
        assert_eq!(b.combats.len(), 1);
    }
}
