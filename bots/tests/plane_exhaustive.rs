//! `bayes`'s exact expected shots on a lone board (issue 19), from `plane::exhaustive`'s walk of
//! its whole decision tree over every deployment (no sampling error): 107/24 on 7x7 (the optimum),
//! and on 9x9 the figures `bots/README.md` gives ("One board"), so that deleting the opening book
//! or the deeper search fails here.

use skirmish_bots::plane::exhaustive::{exact_bayes, exact_bayes_unbooked};
use skirmish_games::plane::Variant;

/// The optimal expected shots to clear a fresh 7x7 board.
const CLASSIC_OPTIMUM: f64 = 107.0 / 24.0;

/// `bayes`'s exact mean on 9x9 with its opening book, as `eval --exhaustive` printed it.
const DOUBLE_BOOKED: f64 = 8.65264;

/// The same without the book (the 5-shot search alone); before issue 19's work it was 8.69005.
const DOUBLE_SEARCH: f64 = 8.65859;

#[test]
fn the_walk_finds_the_seven_by_seven_optimum() {
    let exact = exact_bayes(Variant::Classic, 2);
    assert_eq!(exact.deployments, 48);
    assert!((exact.mean - CLASSIC_OPTIMUM).abs() < 1e-9, "{}", exact.mean);
    assert_eq!(exact.worst, 7);
}

/// Walks the 2,352 deployments twice: about 10 s in the test profile on two cores.
#[test]
fn nine_by_nine_exact_means() {
    let booked = exact_bayes(Variant::Double, 2);
    let search = exact_bayes_unbooked(Variant::Double, 2);
    eprintln!(
        "with the book {:.5}, search alone {:.5}",
        booked.mean, search.mean
    );
    assert_eq!(booked.deployments, 2352);
    assert!(
        (search.mean - DOUBLE_SEARCH).abs() < 5e-6,
        "search alone {}",
        search.mean
    );
    assert!(
        (booked.mean - DOUBLE_BOOKED).abs() < 5e-6,
        "with the book {}",
        booked.mean
    );
    assert!(booked.worst <= 14, "worst {}", booked.worst);
}
