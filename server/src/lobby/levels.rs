//! Bot levels: what people choose when they add a bot (简单 / 中等 / 困难), each level of each
//! game one built-in strategy (`skirmish_bots::player::built_in`) with a thinking budget, chosen by
//! measured strength (bots/README.md, "Levels", has the figures and the commands that measure
//! them).

use skirmish_protocol::{BotLevel, GameKind};

/// What a bot of one level plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelPlay {
    /// The built-in strategy.
    pub strategy: &'static str,
    /// The longest it thinks about one move, in milliseconds, sent to the bot with its seat
    /// (`seated`'s `think_ms`); `None` for a strategy with a fixed budget of its own (plane
    /// battle's: `bayes::DECISION_BUDGET`, 300 ms) or one that does not search.
    pub think_ms: Option<u64>,
}

const fn play(strategy: &'static str, think_ms: Option<u64>) -> LevelPlay {
    LevelPlay { strategy, think_ms }
}

/// Every game's levels, easy, medium and hard (bots/README.md, "Levels"):
/// - plane battle: `random` (about 52 shots to clear a 9x9 board), `seed-cv` (about 9.7),
///   `points` (about 8.7, and the most points in 3-player matches);
/// - gomoku: `pattern-search` at its easy level (2 plies, 3,000 nodes, a fifth of the budget),
///   at its medium level (6 plies, 60,000 nodes, 30% of the budget) and at full strength, each
///   given 1 s a move (`skirmish_bots::gomoku::pattern_search::Level`);
/// - junqi: `random`, `seed-rules`, `belief-search` at 1 s a move;
/// - tic-tac-toe: `random`, `seed-junior` (blocks a line of two), `seed-rules` (never loses).
pub const LEVELS: &[(GameKind, [LevelPlay; 3])] = &[
    (
        GameKind::Plane,
        [play("random", None), play("seed-cv", None), play("points", None)],
    ),
    (
        GameKind::Gomoku,
        [
            play("pattern-search-easy", Some(1000)),
            play("pattern-search-medium", Some(1000)),
            play("pattern-search", Some(1000)),
        ],
    ),
    (
        GameKind::Junqi,
        [
            play("random", None),
            play("seed-rules", None),
            play("belief-search", Some(1000)),
        ],
    ),
    (
        GameKind::TicTacToe,
        [
            play("random", None),
            play("seed-junior", None),
            play("seed-rules", None),
        ],
    ),
];

/// What a bot of `level` plays at `game`; `None` for a game with no levels listed.
pub fn level_play(game: GameKind, level: BotLevel) -> Option<LevelPlay> {
    let (_, levels) = LEVELS.iter().find(|(g, _)| *g == game)?;
    Some(levels[level as usize])
}

/// The strategy that stands in for `level` among `offered` (a bot's strategies for one game,
/// strongest first) when the bot does not offer the level's own: its strongest for `hard`, its
/// weakest for `easy`, the middle one for `medium`. `None` when `offered` is empty.
pub fn stand_in(offered: &[String], level: BotLevel) -> Option<&String> {
    let last = offered.len().checked_sub(1)?;
    offered.get(match level {
        BotLevel::Hard => 0,
        BotLevel::Medium => last.div_ceil(2),
        BotLevel::Easy => last,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_its_levels_weakest_first() {
        for &game in GameKind::ALL {
            let levels: Vec<_> = BotLevel::ALL.iter().map(|&l| level_play(game, l)).collect();
            assert!(levels.iter().all(Option::is_some), "{game:?} has every level");
        }
        assert_eq!(
            level_play(GameKind::Gomoku, BotLevel::Hard).map(|p| p.think_ms),
            Some(Some(1000))
        );
    }

    #[test]
    fn a_stand_in_goes_by_rank() {
        let offered: Vec<String> = ["a", "b", "c"].map(str::to_owned).to_vec();
        assert_eq!(stand_in(&offered, BotLevel::Hard).map(String::as_str), Some("a"));
        assert_eq!(
            stand_in(&offered, BotLevel::Medium).map(String::as_str),
            Some("b")
        );
        assert_eq!(stand_in(&offered, BotLevel::Easy).map(String::as_str), Some("c"));
        assert_eq!(
            stand_in(&offered[..1], BotLevel::Easy).map(String::as_str),
            Some("a")
        );
        assert_eq!(stand_in(&[], BotLevel::Easy), None);
    }
}
