//! The schedule: which entrants meet, in which seat order, with which opening or deal.
//!
//! A *set* is one pairing (a pair of entrants, or a triple in 3-player plane battle) played in
//! every seat order: both colours for 2 players, all 6 orders for 3. Gomoku plays each opening of
//! the set both ways.
//!
//! Duplicate (plane battle; junqi when asked) follows bridge's rule: **no entrant ever plays the
//! same deal twice**. [`assign_deals`] groups the matches into deals the way a bridge movement
//! does: a deal goes to as many tables as can be found whose entrants are all different, so the
//! same boards are played by different entrants in the same seats and the results can be
//! compared deal by deal. Since every pairing plays every seat order, each entrant meets deals
//! from every seat over the tournament. A deal is never given to two matches sharing an entrant:
//! what an entrant saw of one deal (its own board, shot results, planes downed, the reveals)
//! never helps it in another match.

use std::collections::HashSet;

use rand::Rng;
use rand::seq::SliceRandom;

/// A match to play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Planned {
    /// The Swiss round (0 for round robin).
    pub round: u32,
    /// The entrant in each seat.
    pub seats: Vec<usize>,
    /// The gomoku opening, if any.
    pub opening: Option<String>,
    /// The number of its deal (dealt deployments), if any ([`assign_deals`]).
    pub deal: Option<u32>,
}

/// What a set needs to know of the tournament's settings.
#[derive(Debug, Clone)]
pub struct SetRules {
    /// Sets per pairing.
    pub sets: u32,
    /// Gomoku openings to play both ways (empty: the empty board).
    pub openings: Vec<String>,
    /// Whether secret deployments are dealt (plane battle, junqi when asked; duplicate on).
    pub dealt: bool,
}

/// Whether `n` entrants in games of `k` seats allow duplicate: two tables with different
/// entrants need at least `2k` of them.
pub fn duplicate_possible(n: usize, k: usize) -> bool {
    n >= 2 * k
}

/// Gives every match of `planned` (a round robin, or one Swiss round) a deal, numbered from
/// `first`: going through the matches in order, each match without a deal opens a new one, and
/// every later match without a deal whose entrants are all different from the deal's tables so
/// far joins it (a greedy movement). So no entrant plays a deal twice, and with `n` entrants in
/// `k` seats a deal has up to `n / k` tables (exactly that for 2 seats and an even `n`, and for
/// a Swiss round). Returns the next free number. Leaves `planned` alone when `dealt` is false.
pub fn assign_deals(planned: &mut [Planned], dealt: bool, first: u32) -> u32 {
    if !dealt {
        return first;
    }
    let mut next = first;
    for i in 0..planned.len() {
        if planned[i].deal.is_some() {
            continue;
        }
        planned[i].deal = Some(next);
        let mut seated: HashSet<usize> = planned[i].seats.iter().copied().collect();
        for later in &mut planned[i + 1..] {
            if later.deal.is_none() && later.seats.iter().all(|e| !seated.contains(e)) {
                later.deal = Some(next);
                seated.extend(later.seats.iter().copied());
            }
        }
        next += 1;
    }
    next
}

/// Every order of `group`, the given order first.
pub fn seat_orders(group: &[usize]) -> Vec<Vec<usize>> {
    if group.len() <= 1 {
        return vec![group.to_vec()];
    }
    let mut orders = Vec::new();
    for (i, first) in group.iter().enumerate() {
        let mut rest = group.to_vec();
        rest.remove(i);
        for mut tail in seat_orders(&rest) {
            tail.insert(0, *first);
            orders.push(tail);
        }
    }
    orders
}

/// The matches of one pairing in round `round`: `rules.sets` sets, without deals yet
/// ([`assign_deals`] gives them).
pub fn pairing(group: &[usize], round: u32, rules: &SetRules) -> Vec<Planned> {
    let mut planned = Vec::new();
    for _ in 0..rules.sets {
        let openings: Vec<Option<String>> = if rules.openings.is_empty() {
            vec![None]
        } else {
            rules.openings.iter().cloned().map(Some).collect()
        };
        for opening in openings {
            for seats in seat_orders(group) {
                planned.push(Planned {
                    round,
                    seats,
                    opening: opening.clone(),
                    deal: None,
                });
            }
        }
    }
    planned
}

/// Every `k`-subset of `0..n`, in lexicographic order.
pub fn groups(n: usize, k: usize) -> Vec<Vec<usize>> {
    fn extend(start: usize, n: usize, k: usize, current: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if current.len() == k {
            out.push(current.clone());
            return;
        }
        for i in start..n {
            current.push(i);
            extend(i + 1, n, k, current, out);
            current.pop();
        }
    }
    let mut out = Vec::new();
    extend(0, n, k, &mut Vec::new(), &mut out);
    out
}

/// Every pair of `0..n` in rounds of disjoint pairs, round after round: the circle method
/// (Berger tables; with an odd `n` one entrant sits each round out).
pub fn pairs_in_rounds(n: usize) -> Vec<Vec<usize>> {
    let m = n + n % 2;
    let mut ring: Vec<usize> = (0..m).collect();
    let mut out = Vec::new();
    for _ in 1..m {
        for i in 0..m / 2 {
            let (a, b) = (ring[i], ring[m - 1 - i]);
            if a < n && b < n {
                out.push(vec![a.min(b), a.max(b)]);
            }
        }
        // Entrant 0 stays; the others turn one place.
        let last = ring.pop().expect("at least two");
        ring.insert(1, last);
    }
    out
}

/// A round robin of `n` entrants in groups of `k` seats: every group's sets, with their deals
/// (numbered from 0) when `rules.dealt`, each deal's tables one after the other so they are
/// played at once. Pairs come in rounds of disjoint pairs ([`pairs_in_rounds`]), so that every
/// deal goes to `n / 2` tables.
pub fn round_robin(n: usize, k: usize, rules: &SetRules) -> Vec<Planned> {
    let groups = if k == 2 { pairs_in_rounds(n) } else { groups(n, k) };
    let mut planned: Vec<Planned> = groups.iter().flat_map(|group| pairing(group, 0, rules)).collect();
    assign_deals(&mut planned, rules.dealt, 0);
    // Stable: undealt matches keep their order.
    planned.sort_by_key(|p| p.deal);
    planned
}

/// Matches a round robin holds.
pub fn round_robin_size(n: usize, k: usize, rules: &SetRules) -> usize {
    groups(n, k).len() * per_pairing(k, rules)
}

/// Matches one pairing holds.
pub fn per_pairing(k: usize, rules: &SetRules) -> usize {
    let orders: usize = (1..=k).product();
    orders * rules.openings.len().max(1) * usize::try_from(rules.sets).unwrap_or(usize::MAX)
}

/// Swiss rounds by default for `n` entrants: ⌈log2 n⌉, at least 1.
pub fn default_swiss_rounds(n: usize) -> u32 {
    let mut rounds = 0;
    while (1usize << rounds) < n {
        rounds += 1;
    }
    rounds.max(1)
}

/// One Swiss round: groups of `k` entrants from `ranking` (best first). The best-ranked entrant
/// left is grouped with the best-ranked ones below it it has not met, searching (backtracking)
/// for a grouping of everyone with no rematch; only when there is none (or the search runs past
/// [`PAIRING_SEARCH_STEPS`]) is each entrant grouped greedily, with anyone when it has met them
/// all. When the entrants do not divide into groups, the lowest-ranked without a bye so far sit
/// out with one. Returns the groups and the entrants given a bye.
pub fn swiss_groups(
    ranking: &[usize],
    k: usize,
    met: &HashSet<(usize, usize)>,
    had_bye: &HashSet<usize>,
) -> (Vec<Vec<usize>>, Vec<usize>) {
    let mut left: Vec<usize> = ranking.to_vec();
    let mut byes = Vec::new();
    for _ in 0..ranking.len() % k {
        let pick = left
            .iter()
            .rposition(|e| !had_bye.contains(e))
            .unwrap_or(left.len() - 1);
        byes.push(left.remove(pick));
    }
    let has_met = |a: usize, b: usize| met.contains(&(a.min(b), a.max(b)));
    let mut steps = PAIRING_SEARCH_STEPS;
    if let Some(groups) = without_rematches(&left, k, &has_met, &mut steps) {
        return (groups, byes);
    }
    let mut groups = Vec::new();
    while !left.is_empty() {
        let mut group = vec![left.remove(0)];
        while group.len() < k {
            let pick = left
                .iter()
                .position(|e| group.iter().all(|g| !has_met(*g, *e)))
                .unwrap_or(0);
            group.push(left.remove(pick));
        }
        groups.push(group);
    }
    (groups, byes)
}

/// How many candidates the search for a Swiss round without rematches may try before it gives
/// up and groups greedily (a bound on its time: the search is exponential in the worst case,
/// though with a few dozen entrants it finds a grouping in far fewer).
pub const PAIRING_SEARCH_STEPS: u32 = 100_000;

/// Groups all of `left` (best first) into groups of `k` in which nobody has met, preferring for
/// each best-ranked entrant left the best-ranked partners; `None` when there is no such grouping
/// or `steps` run out.
fn without_rematches(
    left: &[usize],
    k: usize,
    has_met: &impl Fn(usize, usize) -> bool,
    steps: &mut u32,
) -> Option<Vec<Vec<usize>>> {
    let Some((&first, rest)) = left.split_first() else {
        return Some(Vec::new());
    };
    complete(&mut vec![first], rest, 0, k, has_met, steps)
}

/// Adds members to `group` from `rest[from..]`, then groups what is left; backtracks on failure.
fn complete(
    group: &mut Vec<usize>,
    rest: &[usize],
    from: usize,
    k: usize,
    has_met: &impl Fn(usize, usize) -> bool,
    steps: &mut u32,
) -> Option<Vec<Vec<usize>>> {
    if group.len() == k {
        let left: Vec<usize> = rest.iter().copied().filter(|e| !group.contains(e)).collect();
        let mut groups = without_rematches(&left, k, has_met, steps)?;
        groups.insert(0, group.clone());
        return Some(groups);
    }
    for (i, &candidate) in rest.iter().enumerate().skip(from) {
        *steps = steps.checked_sub(1)?;
        if group.iter().all(|g| !has_met(*g, candidate)) {
            group.push(candidate);
            if let Some(groups) = complete(group, rest, i + 1, k, has_met, steps) {
                return Some(groups);
            }
            group.pop();
        }
    }
    None
}

/// The order entrants are ranked in for a Swiss round: by score, best first, ties in a random
/// order drawn from `rng` (so round 0 is a random draw).
pub fn swiss_ranking(scores: &[f64], rng: &mut impl Rng) -> Vec<usize> {
    let mut order: Vec<usize> = (0..scores.len()).collect();
    order.shuffle(rng);
    order.sort_by(|a, b| scores[*b].total_cmp(&scores[*a]));
    order
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    use super::*;

    fn rules(sets: u32, openings: &[&str], dealt: bool) -> SetRules {
        SetRules {
            sets,
            openings: openings.iter().map(|s| (*s).to_owned()).collect(),
            dealt,
        }
    }

    #[test]
    fn a_round_robin_meets_every_pair_in_both_colours_once_per_set() {
        let plan = round_robin(4, 2, &rules(2, &[], false));
        assert_eq!(plan.len(), 6 * 2 * 2);
        let pairs: HashSet<Vec<usize>> = pairs_in_rounds(7).into_iter().collect();
        assert_eq!(pairs.len(), 21, "every pair of 7 once");
        assert_eq!(plan.len(), round_robin_size(4, 2, &rules(2, &[], false)));
        for a in 0..4 {
            for b in 0..4 {
                if a != b {
                    let n = plan.iter().filter(|p| p.seats == vec![a, b]).count();
                    assert_eq!(n, 2, "{a} against {b} as first seat");
                }
            }
        }
    }

    /// Checks bridge's rule on `plan`: no entrant plays a deal twice; returns the tables per deal.
    fn tables_per_deal(plan: &[Planned]) -> Vec<usize> {
        let mut deals: std::collections::BTreeMap<u32, Vec<&Planned>> = std::collections::BTreeMap::new();
        for p in plan {
            deals
                .entry(p.deal.expect("every match dealt"))
                .or_default()
                .push(p);
        }
        for (deal, tables) in &deals {
            let mut seen = HashSet::new();
            for t in tables {
                for e in &t.seats {
                    assert!(seen.insert(*e), "entrant {e} plays deal {deal} twice");
                }
            }
        }
        deals.values().map(Vec::len).collect()
    }

    #[test]
    fn no_entrant_plays_a_deal_twice_and_each_deal_goes_to_every_table_it_can() {
        // 2 seats: 4 entrants, 2 sets: 24 matches, 12 deals of 2 tables each.
        let plan = round_robin(4, 2, &rules(2, &[], true));
        assert_eq!(tables_per_deal(&plan), vec![2; 12]);
        // Every entrant plays every seat equally often, and every deal once at most.
        for e in 0..4 {
            for seat in 0..2 {
                let n = plan.iter().filter(|p| p.seats[seat] == e).count();
                assert_eq!(n, 6, "entrant {e} in seat {seat}");
            }
        }
        // 6 entrants: 15 pairs in 5 rounds of 3, both ways: 10 deals of 3 tables.
        let plan = round_robin(6, 2, &rules(1, &[], true));
        assert_eq!(tables_per_deal(&plan), vec![3; 10]);
        // 5 entrants: one sits out each round: 10 deals of 2 tables.
        let plan = round_robin(5, 2, &rules(1, &[], true));
        assert_eq!(tables_per_deal(&plan), vec![2; 10]);
        // A deal's tables are next to each other in the schedule, to be played at once.
        assert!(plan.windows(2).all(|w| w[0].deal <= w[1].deal));
        // 3 seats, 6 entrants: 2 tables a deal at most, all six seat orders of each triple.
        let plan = round_robin(6, 3, &rules(1, &[], true));
        assert_eq!(plan.len(), 20 * 6);
        let tables = tables_per_deal(&plan);
        assert!(tables.iter().all(|t| *t <= 2));
        assert!(tables.iter().filter(|t| **t == 2).count() >= 40, "{tables:?}");
    }

    #[test]
    fn too_few_entrants_for_duplicate_get_a_fresh_deal_each_match() {
        assert!(!duplicate_possible(3, 2));
        assert!(!duplicate_possible(5, 3));
        assert!(duplicate_possible(4, 2));
        let plan = round_robin(2, 2, &rules(3, &[], true));
        assert_eq!(tables_per_deal(&plan), vec![1; 6]);
        let plan = round_robin(4, 3, &rules(1, &[], true));
        assert_eq!(tables_per_deal(&plan), vec![1; 24]);
    }

    #[test]
    fn a_swiss_round_deals_each_seat_order_to_all_its_groups() {
        let rules = rules(1, &[], true);
        let mut round: Vec<Planned> = [vec![0, 3], vec![1, 2]]
            .iter()
            .flat_map(|g| pairing(g, 2, &rules))
            .collect();
        let next = assign_deals(&mut round, true, 10);
        assert_eq!(next, 12);
        let deals: Vec<(Vec<usize>, Option<u32>)> = round.into_iter().map(|p| (p.seats, p.deal)).collect();
        assert_eq!(
            deals,
            vec![
                (vec![0, 3], Some(10)),
                (vec![3, 0], Some(11)),
                (vec![1, 2], Some(10)),
                (vec![2, 1], Some(11)),
            ]
        );
    }

    #[test]
    fn gomoku_openings_are_each_played_with_both_colours() {
        let plan = pairing(&[0, 1], 0, &rules(1, &["d1", "i2"], false));
        let got: Vec<(Option<String>, Vec<usize>)> = plan.into_iter().map(|p| (p.opening, p.seats)).collect();
        assert_eq!(
            got,
            vec![
                (Some("d1".into()), vec![0, 1]),
                (Some("d1".into()), vec![1, 0]),
                (Some("i2".into()), vec![0, 1]),
                (Some("i2".into()), vec![1, 0]),
            ]
        );
    }

    #[test]
    fn swiss_avoids_rematches_and_gives_the_bye_to_the_last_without_one() {
        let met = HashSet::from([(0, 1)]);
        let (groups, byes) = swiss_groups(&[0, 1, 2, 3, 4], 2, &met, &HashSet::from([4]));
        assert_eq!(byes, vec![3]);
        assert_eq!(groups, vec![vec![0, 2], vec![1, 4]]);
        assert_eq!(default_swiss_rounds(5), 3);
        assert_eq!(default_swiss_rounds(1), 1);
    }

    #[test]
    fn swiss_searches_past_a_greedy_pairing_that_forces_a_rematch() {
        // Greedily 0 takes 1, leaving 2 and 3, who have met; 0-2 and 1-3 meet nobody twice.
        let met = HashSet::from([(2, 3)]);
        let (groups, byes) = swiss_groups(&[0, 1, 2, 3], 2, &met, &HashSet::new());
        assert!(byes.is_empty());
        assert_eq!(groups, vec![vec![0, 2], vec![1, 3]]);
        // The same for triples (3-player plane battle): 0, 1, 2 would leave 3, 4, 5, of whom 4
        // and 5 have met.
        let met = HashSet::from([(4, 5)]);
        let (groups, _) = swiss_groups(&[0, 1, 2, 3, 4, 5], 3, &met, &HashSet::new());
        assert_eq!(groups, vec![vec![0, 1, 4], vec![2, 3, 5]]);
        // When every grouping repeats a meeting, the greedy one is kept.
        let met = HashSet::from([(0, 1), (0, 2), (0, 3)]);
        let (groups, _) = swiss_groups(&[0, 1, 2, 3], 2, &met, &HashSet::new());
        assert_eq!(groups, vec![vec![0, 1], vec![2, 3]]);
    }

    #[test]
    fn the_same_seed_ranks_a_swiss_round_the_same() {
        let scores = [1.0, 0.0, 1.0, 0.0, 0.5];
        let a = swiss_ranking(&scores, &mut StdRng::seed_from_u64(9));
        let b = swiss_ranking(&scores, &mut StdRng::seed_from_u64(9));
        assert_eq!(a, b);
    }
}
