//! The lobby's bots: listing them, and handing a seat to the least loaded bot that plays what a
//! room asks (in a cluster, among every node's bots: a bot of another node is reached through a
//! remote outbox).

use std::sync::Arc;

use skirmish_protocol::{BotLevel, BotSummary, GameKind, PlayerId};

use super::Lobby;
use super::levels::{level_play, stand_in};
use super::players::{PlayerRecord, Players};
use crate::outbox::Outbox;
use crate::replica::ClusterBot;

/// A bot picked for a seat.
#[derive(Debug, Clone)]
pub struct BotPick {
    /// The bot's player id.
    pub player: PlayerId,
    /// Its name.
    pub name: String,
    /// Its connection.
    pub outbox: Outbox,
    /// The strategy it is to play.
    pub strategy: String,
    /// The level it was picked for, if by level.
    pub level: Option<BotLevel>,
    /// The longest it is to think about one move, in milliseconds (the level's budget), if any.
    pub think_ms: Option<u64>,
}

/// What a seat asks of its bot: a strategy, a level, both or neither.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BotWish {
    /// The strategy wanted (any bot's strongest when absent and no level is named).
    pub strategy: Option<String>,
    /// The level wanted ([`super::levels`]).
    pub level: Option<BotLevel>,
}

impl Lobby {
    /// The connected bots (in a cluster, every node's).
    pub fn bots(&self) -> Vec<BotSummary> {
        let remote = self.remote_bots();
        let players = self.lock_players();
        let mut bots: Vec<BotSummary> = players
            .records
            .values()
            .filter(|p| p.connected_here())
            .filter_map(|p| {
                Some(BotSummary {
                    player: p.id,
                    name: p.name.clone(),
                    offer: p.bot.clone()?,
                    seats: u32::try_from(p.seats.len()).unwrap_or(u32::MAX),
                    account: p.account.is_some(),
                })
            })
            .collect();
        bots.extend(
            remote
                .iter()
                .filter(|b| {
                    !players
                        .records
                        .get(&b.player)
                        .is_some_and(PlayerRecord::connected_here)
                })
                .map(ClusterBot::summary),
        );
        drop(players);
        bots.sort_by(|a, b| a.name.cmp(&b.name).then(a.player.cmp(&b.player)));
        bots
    }

    /// The bots the other nodes of the cluster hold (none for a single node); read before the
    /// players' lock is taken.
    fn remote_bots(&self) -> Vec<ClusterBot> {
        self.cluster
            .replica
            .as_ref()
            .map(|replica| replica.bots())
            .unwrap_or_default()
    }

    /// Every connected bot as a candidate for a seat: this node's, and `remote`, the other
    /// nodes' (whose seats the room then reaches over the bus).
    fn candidates(players: &Players, remote: Vec<ClusterBot>) -> Vec<ClusterBot> {
        let here: Arc<str> = players.node.clone().unwrap_or_else(|| Arc::from(""));
        let mut bots: Vec<ClusterBot> = players
            .records
            .values()
            .filter_map(|p| p.cluster_bot(&here))
            .collect();
        bots.extend(remote.into_iter().filter(|b| {
            !players
                .records
                .get(&b.player)
                .is_some_and(PlayerRecord::connected_here)
        }));
        bots
    }

    /// The pick of `bot` for a seat playing `strategy`: its connection here, or for a bot of
    /// another node a remote outbox, the bot then known here (the room records its seat).
    fn pick(&self, players: &mut Players, bot: &ClusterBot, strategy: String) -> Option<BotPick> {
        let outbox = match players.records.get(&bot.player).filter(|p| p.connected_here()) {
            Some(record) => record.outbox.clone()?,
            None => {
                let replica = self.cluster.replica.as_ref()?;
                let outbox = replica.outbox(Arc::clone(&bot.node), bot.conn, bot.turn_view);
                let record = players.records.entry(bot.player).or_insert_with(|| {
                    PlayerRecord::new(
                        bot.player,
                        bot.name.clone(),
                        bot.token.clone(),
                        bot.account.clone(),
                        None,
                    )
                });
                record.outbox = Some(outbox.clone());
                outbox
            }
        };
        Some(BotPick {
            player: bot.player,
            name: bot.name.clone(),
            outbox,
            strategy,
            level: None,
            think_ms: None,
        })
    }

    /// Picks the connected bot with the fewest seats that plays `game` and what `wish` asks,
    /// excluding `exclude` (bots already seated in the room): the strategy named; else the
    /// level's strategy, played with the level's budget, or, when no bot offers it, a bot's own
    /// strategy of the same rank ([`stand_in`]); else any bot's strongest.
    pub fn pick_bot(&self, game: GameKind, wish: &BotWish, exclude: &[PlayerId]) -> Option<BotPick> {
        let play = wish.level.and_then(|level| level_play(game, level));
        let wanted = wish.strategy.as_deref().or(play.map(|p| p.strategy));
        let remote = self.remote_bots();
        let mut players = self.lock_players();
        let mut candidates: Vec<ClusterBot> = Self::candidates(&players, remote)
            .into_iter()
            .filter(|b| !exclude.contains(&b.player) && !b.offer.strategies(game).is_empty())
            .collect();
        candidates.sort_by_key(|b| (b.seats, b.name.clone(), b.player));
        let offers = |b: &&ClusterBot, s: &str| b.offer.strategies(game).iter().any(|o| o == s);
        let offering = wanted.and_then(|s| {
            candidates
                .iter()
                .find(|b| offers(b, s))
                .map(|b| (b, s.to_owned()))
        });
        let (bot, strategy) = match (offering, wanted, wish.level) {
            (Some(found), _, _) => found,
            // A level whose strategy no bot offers: a bot's own strategy of that rank.
            (None, _, Some(level)) if wish.strategy.is_none() => {
                let bot = candidates.first()?;
                (bot, stand_in(bot.offer.strategies(game), level)?.clone())
            }
            (None, Some(_), _) => return None,
            (None, None, _) => {
                let bot = candidates.first()?;
                (bot, bot.offer.strategies(game)[0].clone())
            }
        };
        let mut pick = self.pick(&mut players, bot, strategy)?;
        pick.level = wish.level;
        pick.think_ms = play.and_then(|p| p.think_ms);
        Some(pick)
    }

    /// The connection of the bot account `account` when it is connected (to any node of a
    /// cluster) and offers `strategy` for `game`: a tournament entrant's seat. Found by the
    /// account its token proved, never by the name a connection says, so no other connection
    /// (another account's, or an anonymous one) is ever handed an entrant's seat.
    pub fn find_bot(&self, account: &str, game: GameKind, strategy: &str) -> Option<BotPick> {
        let remote = self.remote_bots();
        let mut players = self.lock_players();
        let key = crate::accounts::name_key(account);
        let bot = Self::candidates(&players, remote).into_iter().find(|b| {
            b.account.as_deref().map(crate::accounts::name_key).as_ref() == Some(&key)
                && b.account.as_deref() == Some(account)
                && b.offer.strategies(game).iter().any(|s| s == strategy)
        })?;
        self.pick(&mut players, &bot, strategy.to_owned())
    }

    /// Picks a bot as [`pick_bot`](Self::pick_bot) does, allowing a bot already in the room when no
    /// other bot is free.
    pub fn pick_any_bot(&self, game: GameKind, wish: &BotWish, prefer_not: &[PlayerId]) -> Option<BotPick> {
        self.pick_bot(game, wish, prefer_not)
            .or_else(|| self.pick_bot(game, wish, &[]))
    }
}
