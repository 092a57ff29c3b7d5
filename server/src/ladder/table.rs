//! A ladder's table: its entrants ranked by rating less twice the deviation, as the node running
//! the ladder publishes it, and as the other nodes of a cluster read it from the store
//! ([`stored_status`]).

use std::collections::HashSet;

use skirmish_protocol::ladder::{LadderId, LadderRow, LadderStatus, LadderSummary, Paused, RatingSystem};
use skirmish_protocol::tournament::ForfeitReason;
use skirmish_protocol::{GameConfig, GameKind};

use super::{Members, game_of, rating};
use crate::lobby::Lobby;
use crate::store::{Store, StoreError, StoredEntrant};
use crate::wall_clock::now_ms;

/// What a table's summary sums up.
pub(super) struct Summed<'a> {
    pub(super) id: LadderId,
    pub(super) game: &'a GameConfig,
    pub(super) system: RatingSystem,
    pub(super) games: u64,
    pub(super) running: usize,
}

/// The table of `entrants` (those in `present` marked so), best first by rating less twice the
/// deviation.
pub(super) fn table<'a>(
    summed: Summed<'_>,
    entrants: impl Iterator<Item = &'a StoredEntrant>,
    present: &HashSet<u64>,
) -> LadderStatus {
    let now = now_ms();
    let bound = rating::provisional_bound(summed.system);
    let mut table: Vec<LadderRow> = entrants
        .map(|e| {
            let s = &e.stats;
            LadderRow {
                rank: 0,
                entrant: e.entrant.clone(),
                rating: s.rating,
                deviation: s.deviation,
                provisional: s.deviation >= bound,
                games: s.games,
                wins: s.wins,
                draws: s.draws,
                losses: s.losses,
                forfeits: s.forfeits.clone(),
                last_seen_ms: s.last_seen_ms,
                present: present.contains(&e.entrant.id),
                paused: (s.paused_until_ms > now).then(|| Paused {
                    reason: s.last_fail.unwrap_or(ForfeitReason::EngineFailure),
                    in_a_row: s.fail_streak,
                    until_ms: s.paused_until_ms,
                }),
            }
        })
        .collect();
    table.sort_by(|a, b| {
        let key = |r: &LadderRow| r.rating - 2.0 * r.deviation;
        key(b).total_cmp(&key(a)).then(a.entrant.id.cmp(&b.entrant.id))
    });
    for (i, row) in table.iter_mut().enumerate() {
        row.rank = u32::try_from(i + 1).unwrap_or(u32::MAX);
    }
    LadderStatus {
        summary: LadderSummary {
            id: summed.id,
            game: summed.game.clone(),
            rating_system: summed.system,
            provisional_deviation: bound,
            entrants: u32::try_from(table.len()).unwrap_or(u32::MAX),
            games: summed.games,
            running: u32::try_from(summed.running).unwrap_or(u32::MAX),
            node: None,
        },
        table,
    }
}

/// The games rated on a ladder whose games seat `seats`, from its entrants' counts (each game
/// counts once per seat).
pub(super) fn games_of<'a>(entrants: impl Iterator<Item = &'a StoredEntrant>, seats: usize) -> u64 {
    entrants.map(|e| u64::from(e.stats.games)).sum::<u64>() / u64::try_from(seats).unwrap_or(1).max(1)
}

/// The entrants connected now to ladder `id` (of game `game`): for each bot account in it
/// whose bot is connected (to any node of a cluster), each strategy it offers for the game,
/// with its account name and the version it declares (empty when none).
pub(super) fn offers(
    lobby: &Lobby,
    members: &Members,
    id: LadderId,
    game: GameKind,
) -> Vec<(String, String, String)> {
    let members = members.of(id);
    if members.is_empty() {
        return Vec::new();
    }
    let mut offers = Vec::new();
    for bot in lobby.bots() {
        if !bot.account || !members.contains(&bot.name) {
            continue;
        }
        let version = bot.offer.version.clone().unwrap_or_default();
        for strategy in bot.offer.strategies(game) {
            offers.push((bot.name.clone(), strategy.clone(), version.clone()));
        }
    }
    offers
}

/// Ladder `id`'s table as the store holds it, for a node of a cluster that does not run it:
/// its entrants' ratings and counts as last stored, the games stored as running, and as present
/// the entrants whose bot is connected to any node now.
///
/// # Errors
/// A storage error reading the ladder.
pub(crate) async fn stored_status(
    id: LadderId,
    store: &Store,
    lobby: &Lobby,
    members: &Members,
) -> Result<LadderStatus, StoreError> {
    let game = game_of(id);
    let mut entrants = store.ladder_entrants(id).await?;
    let running = store.running_ladder_games(id).await?.len();
    let now = now_ms();
    let offered = offers(lobby, members, id, game.kind());
    let mut present = HashSet::new();
    for e in &mut entrants {
        let en = &e.entrant;
        if offered
            .iter()
            .any(|(b, s, v)| *b == en.bot && *s == en.strategy && *v == en.version)
        {
            present.insert(en.id);
            e.stats.last_seen_ms = now;
        }
    }
    let summed = Summed {
        id,
        system: rating::system_for(game.seats()),
        games: games_of(entrants.iter(), game.seats()),
        game: &game,
        running,
    };
    Ok(table(summed, entrants.iter(), &present))
}
