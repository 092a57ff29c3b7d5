//! The exact expected shots of `bayes` on a lone board: its whole decision tree walked over every
//! deployment of the variant at once (`skirmish-bots eval --exhaustive`).
//!
//! The boards `eval` draws come from [`random_deployment`](skirmish_games::plane::random_deployment):
//! planes drawn one by one uniformly among the placements and the draw repeated until legal, which
//! for `double` is the uniform distribution over the 2,352 unordered non-overlapping pairs (each
//! such pair is drawn in two orders, every other pair is rejected), and over the 48 placements for
//! `classic`. Unclocked, `bayes`'s decision is a function of the public results alone but for its
//! uniform choice among tied cells, so the mean over every deployment, each tie branch weighted by
//! its probability, is the exact expected number of shots: no sampling error.
//!
//! A node of the tree is the public knowledge and its consistent deployments; a shot at a cell
//! splits them by outcome (`miss`, `hit`, `down` with each plane that may be revealed). The tree's
//! top is expanded once and its subtrees shared out to threads, each with its own `bayes` (the
//! solver's memo is per strategy object).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use skirmish_games::plane::Variant;

use super::bayes::Bayes;
use super::belief::{Knowledge, Universe};
use super::opening::Book;

/// The exact performance of a policy over every deployment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Exact {
    /// Deployments of the variant (each equally likely).
    pub deployments: usize,
    /// Expected shots to clear a board (exact, over deployments and tie choices).
    pub mean: f64,
    /// Most shots any deployment needs under some tie choice.
    pub worst: usize,
    /// Decisions taken during the walk (tree nodes with a consistent deployment left).
    pub decisions: usize,
}

/// A subtree still to walk: its knowledge, consistent deployments, probability of being reached
/// and shots fired on the way to it.
struct Task {
    knowledge: Knowledge,
    alive: Vec<u16>,
    weight: f64,
    shots: usize,
}

/// The children of a shot at cell bit index `c` from `knowledge` over `alive`: each outcome's
/// knowledge and consistent deployments (a `down` once per plane it may reveal).
fn split(u: &Universe, knowledge: &Knowledge, alive: &[u16], c: usize) -> Vec<(Knowledge, Vec<u16>)> {
    use skirmish_games::plane::ShotResult;
    let bit = 1u128 << c;
    let mut miss = Vec::new();
    let mut hit = Vec::new();
    // Per placement headed at `c`: the deployments in which it is downed.
    let mut down: Vec<(u8, Vec<u16>)> = Vec::new();
    for &i in alive {
        let d = &u.deployments[usize::from(i)];
        match d.result_at(bit) {
            ShotResult::Miss => miss.push(i),
            ShotResult::Hit => hit.push(i),
            ShotResult::Down => {
                let p = *d
                    .planes
                    .iter()
                    .find(|&&p| usize::from(u.placement_head[usize::from(p)]) == c)
                    .expect("a head at the cell");
                match down.iter_mut().find(|(q, _)| *q == p) {
                    Some((_, set)) => set.push(i),
                    None => down.push((p, vec![i])),
                }
            }
        }
    }
    let mut out = Vec::new();
    for (result, set) in [(ShotResult::Miss, miss), (ShotResult::Hit, hit)] {
        if !set.is_empty() {
            let mut k = knowledge.clone();
            k.record(u, c, result, None);
            out.push((k, set));
        }
    }
    for (p, set) in down {
        let mut k = knowledge.clone();
        k.record(u, c, ShotResult::Down, Some(p));
        out.push((k, set));
    }
    out
}

/// The expected shots still needed from a node, the most any deployment there needs, and the
/// decisions taken, walking every tie branch.
fn walk(
    bayes: &mut Bayes,
    u: &'static Universe,
    knowledge: &Knowledge,
    alive: &[u16],
) -> (f64, usize, usize) {
    if knowledge.planes_left(u) == 0 {
        return (0.0, 0, 0);
    }
    let choices = bayes.choices(u, knowledge, alive);
    let n = alive.len() as f64;
    let share = 1.0 / choices.len() as f64;
    let (mut mean, mut worst, mut decisions) = (0.0, 0, 1);
    for c in choices {
        let mut value = 1.0;
        for (k, set) in split(u, knowledge, alive, c) {
            let (v, w, d) = walk(bayes, u, &k, &set);
            value += set.len() as f64 / n * v;
            worst = worst.max(w + 1);
            decisions += d;
        }
        mean += share * value;
    }
    (mean, worst, decisions)
}

/// `bayes`, unclocked ([`Bayes::with_budget`]`(None)`), over every deployment of `variant`,
/// walked on `threads` threads (at least 1).
pub fn exact_bayes(variant: Variant, threads: usize) -> Exact {
    exact(variant, threads, || Bayes::with_budget(None))
}

/// [`exact_bayes`] without the opening book (every position searched).
pub fn exact_bayes_unbooked(variant: Variant, threads: usize) -> Exact {
    exact(variant, threads, || Bayes::with_budget(None).with_book(None))
}

/// A `bayes` made by `make` (one per thread; each must decide deterministically but for its
/// tie choices, so unclocked) over every deployment of `variant`, on `threads` threads.
pub fn exact(variant: Variant, threads: usize, make: impl Fn() -> Bayes + Sync) -> Exact {
    let u = Universe::of(variant);
    let root = Knowledge::default();
    let alive = root.consistent(u);
    let mut bayes = make();
    // Expand the top of the tree breadth-first until there is work for every thread.
    let mut done_mean = 0.0;
    let mut done_worst = 0;
    let mut decisions = 0;
    let mut tasks = vec![Task {
        knowledge: root,
        alive,
        weight: 1.0,
        shots: 0,
    }];
    while tasks.len() < 64 * threads.max(1) {
        let Some(at) = tasks.iter().position(|t| t.alive.len() > 1) else {
            break;
        };
        let task = tasks.swap_remove(at);
        let choices = bayes.choices(u, &task.knowledge, &task.alive);
        decisions += 1;
        let n = task.alive.len() as f64;
        let share = 1.0 / choices.len() as f64;
        for c in choices {
            for (knowledge, set) in split(u, &task.knowledge, &task.alive, c) {
                let weight = task.weight * share * set.len() as f64 / n;
                if knowledge.planes_left(u) == 0 {
                    done_mean += weight * (task.shots + 1) as f64;
                    done_worst = done_worst.max(task.shots + 1);
                } else {
                    tasks.push(Task {
                        knowledge,
                        alive: set,
                        weight,
                        shots: task.shots + 1,
                    });
                }
            }
        }
    }
    // Largest subtrees first, so the threads finish together.
    tasks.sort_by_key(|t| std::cmp::Reverse(t.alive.len()));
    let next = AtomicUsize::new(0);
    let total = Mutex::new((done_mean, done_worst, decisions));
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                let mut bayes = make();
                let (mut mean, mut worst, mut decisions) = (0.0, 0, 0);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(task) = tasks.get(i) else { break };
                    let (v, w, d) = walk(&mut bayes, u, &task.knowledge, &task.alive);
                    mean += task.weight * (task.shots as f64 + v);
                    worst = worst.max(task.shots + w);
                    decisions += d;
                }
                let mut total = total.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                total.0 += mean;
                total.1 = total.1.max(worst);
                total.2 += decisions;
            });
        }
    });
    let (mean, worst, decisions) = total
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    Exact {
        deployments: u.deployments.len(),
        mean,
        worst,
        decisions,
    }
}

/// How [`build_opening`] chooses the book's shots.
#[derive(Clone, Copy, Debug)]
pub struct BookPlan {
    /// Passes of policy improvement over the book's positions.
    pub passes: usize,
    /// The fewest consistent deployments a position must have to enter the book.
    pub min_pairs: usize,
    /// Cells tried per position: the search's best this many, and the book's current cell.
    pub candidates: usize,
    /// Threads (at least 1).
    pub threads: usize,
}

/// The expected shots from a position after a shot at `c`, playing `bayes` below: `1 + sum_o
/// p_o E(o)` over the outcomes, each valued exactly by walking the policy's tree.
fn shot_value(
    bayes: &mut Bayes,
    u: &'static Universe,
    knowledge: &Knowledge,
    alive: &[u16],
    c: usize,
) -> f64 {
    let n = alive.len() as f64;
    let mut value = 1.0;
    for (k, set) in split(u, knowledge, alive, c) {
        value += set.len() as f64 / n * walk(bayes, u, &k, &set).0;
    }
    value
}

/// Builds `bayes`'s 9x9 opening book by policy improvement: each pass walks the positions of the
/// current policy's tree from the top (both planes standing, at least `min_pairs` consistent
/// deployments, each orientation once) and gives each the candidate cell whose exact expected
/// shots under the current policy (the previous pass's book plus the search) is lowest; the
/// current cell is kept unless another is better by more than 1e-9 shots. Each change can only
/// lower the policy's exact mean (policy improvement: a position's new cell is better against
/// the policy below it, and the positions below only get better). `progress` hears each
/// position's (pass, consistent deployments, best value, cell).
pub fn build_opening(plan: BookPlan, mut progress: impl FnMut(usize, usize, f64, usize)) -> Book {
    let u = Universe::of(Variant::Double);
    let threads = plan.threads.max(1);
    let mut book = Book::new(usize::from(u.side));
    let mut workers: Vec<Bayes> = (0..threads).map(|_| Bayes::with_budget(None)).collect();
    for pass in 0..plan.passes {
        let current = Arc::new(book.clone());
        for w in &mut workers {
            *w = std::mem::replace(w, Bayes::with_budget(None)).with_book(Some(Arc::clone(&current)));
        }
        let mut seen = Book::new(usize::from(u.side));
        let root = Knowledge::default();
        let mut queue = std::collections::VecDeque::from([(root.consistent(u), root)]);
        while let Some((alive, knowledge)) = queue.pop_front() {
            if knowledge.planes_left(u) < 2 || knowledge.down != 0 || alive.len() < plan.min_pairs {
                continue;
            }
            if seen.cells_for(&knowledge).is_some() {
                continue;
            }
            seen.insert(&knowledge, 0);
            let bayes = &mut workers[0];
            let now = bayes.choices(u, &knowledge, &alive);
            let mut cands: Vec<usize> = vec![now[0]];
            for (c, _) in bayes.ranking(u, &knowledge, &alive) {
                if cands.len() > plan.candidates {
                    break;
                }
                if !cands.contains(&c) {
                    cands.push(c);
                }
            }
            let next = AtomicUsize::new(0);
            let values = Mutex::new(vec![f64::INFINITY; cands.len()]);
            std::thread::scope(|scope| {
                for bayes in &mut workers {
                    let (next, values, cands, knowledge, alive) =
                        (&next, &values, &cands, &knowledge, &alive);
                    scope.spawn(move || {
                        loop {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            let Some(&c) = cands.get(i) else { break };
                            let v = shot_value(bayes, u, knowledge, alive, c);
                            values.lock().unwrap_or_else(std::sync::PoisonError::into_inner)[i] = v;
                        }
                    });
                }
            });
            let values = values
                .into_inner()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let mut best = 0;
            for (i, v) in values.iter().enumerate() {
                if *v < values[best] - 1e-9 {
                    best = i;
                }
            }
            progress(pass, alive.len(), values[best], cands[best]);
            book.insert(&knowledge, cands[best]);
            for (k, set) in split(u, &knowledge, &alive, cands[best]) {
                queue.push_back((set, k));
            }
        }
    }
    book
}
