//! The lobby's players: their records, resume tokens' digests, bot accounts and seats.

use std::collections::HashMap;
use std::sync::Arc;

use skirmish_protocol::{BotOffer, PlayerId, ResumeToken, RoomId, Seat, SeatRef};

use super::Lobby;
use super::told::{Tell, Telling, Told};
use crate::accounts::name_key;
use crate::outbox::Outbox;
use crate::replica::{ClusterBot, ClusterPlayer, SeatChange};
use crate::room_handle::Member;

/// A known player: a person or a bot connection.
#[derive(Debug, Clone)]
pub struct PlayerRecord {
    /// The player's public id.
    pub id: PlayerId,
    /// Display name.
    pub name: String,
    /// The player's current connection, if connected.
    pub outbox: Option<Outbox>,
    /// What the player plays, if it is a bot.
    pub bot: Option<BotOffer>,
    /// Seats the player holds in rooms not yet finished.
    pub seats: Vec<SeatRef>,
    /// The SHA-256 of the player's resume token ([`ResumeToken::digest`]), which rooms store
    /// with the seat so that the player can resume it after a restart.
    pub token: String,
    /// Rooms the player held a seat in that could not be restored after a restart (kept in
    /// storage for inspection): the player is told of each when they resume (`room_broken`).
    pub broken: Vec<RoomId>,
    /// The bot account this player is (its registered name), proved by the account's token in
    /// `hello`; `None` for people and anonymous bots. Tournament seats go by it.
    pub account: Option<String>,
    /// Whether this node put the player in the cluster's directory (a player it holds, not one
    /// known from another node or from a room taken over): it takes them out again.
    listed: bool,
}

impl PlayerRecord {
    /// A player with no seat yet.
    pub(super) fn new(
        id: PlayerId,
        name: String,
        token: String,
        account: Option<String>,
        outbox: Option<Outbox>,
    ) -> PlayerRecord {
        PlayerRecord {
            id,
            name,
            outbox,
            bot: None,
            seats: Vec::new(),
            token,
            broken: Vec::new(),
            account,
            listed: false,
        }
    }

    /// Whether the player's connection is one of this node's (a player connected to another
    /// node of a cluster, seated in a room here, has a remote outbox).
    pub(super) fn connected_here(&self) -> bool {
        self.outbox.as_ref().is_some_and(|o| o.node().is_none())
    }

    /// The node holding the player's connection, when it is another one.
    fn home(&self) -> Option<&Arc<str>> {
        self.outbox.as_ref().and_then(Outbox::node)
    }

    /// The player as the cluster's directory holds them.
    fn cluster_player(&self, node: &Arc<str>) -> ClusterPlayer {
        ClusterPlayer {
            player: self.id,
            name: self.name.clone(),
            token: self.token.clone(),
            account: self.account.clone(),
            connection: self
                .outbox
                .as_ref()
                .filter(|_| self.connected_here())
                .map(|o| (Arc::clone(node), o.conn())),
        }
    }

    /// The bot as the cluster's directory holds it, when it is a bot connected here.
    pub(super) fn cluster_bot(&self, node: &Arc<str>) -> Option<ClusterBot> {
        let outbox = self.outbox.as_ref().filter(|_| self.connected_here())?;
        Some(ClusterBot {
            player: self.id,
            name: self.name.clone(),
            offer: self.bot.clone()?,
            seats: u32::try_from(self.seats.len()).unwrap_or(u32::MAX),
            account: self.account.clone(),
            token: self.token.clone(),
            node: Arc::clone(node),
            conn: outbox.conn(),
            turn_view: outbox.turn_view(),
        })
    }
}

/// Why a `hello` may not take a known player back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResumeRefused {
    /// The resume token is a bot account's player's, and the `hello` did not carry that
    /// account's token.
    OtherAccount,
}

/// The players this node knows.
#[derive(Debug, Default)]
pub(super) struct Players {
    pub(super) records: HashMap<PlayerId, PlayerRecord>,
    /// Players by their resume token's digest.
    tokens: HashMap<String, PlayerId>,
    /// Bot accounts' players, by the account's name key ([`name_key`]).
    accounts: HashMap<String, PlayerId>,
    /// This node's name, when it is one of a cluster's: what it holds of its players is told
    /// to the others.
    pub(super) node: Option<Arc<str>>,
    /// What to tell the cluster once the lock is let go.
    told: Vec<Tell>,
}

impl Telling for Players {
    fn take_told(&mut self) -> Vec<Tell> {
        std::mem::take(&mut self.told)
    }
}

impl Players {
    /// The players of node `node` of a cluster.
    pub(super) fn clustered(node: Arc<str>) -> Players {
        Players {
            node: Some(node),
            ..Players::default()
        }
    }

    pub(super) fn tell(&mut self, tell: Tell) {
        if self.node.is_some() {
            self.told.push(tell);
        }
    }

    /// Forgets `player` once nothing needs their record: not connected, no seat, and no open
    /// room of theirs (`owns_open_room`, asked last; whose owner may come back to start it). A
    /// closed connection then leaves nothing behind in the directory. Their resume token is
    /// forgotten with it: a later `hello` with it gets `bad_resume` and a new identity, which
    /// has nothing to take back.
    fn forget_if_idle(&mut self, player: PlayerId, owns_open_room: impl FnOnce(PlayerId) -> bool) {
        let Some(record) = self.records.get(&player) else {
            return;
        };
        if record.connected_here() || !record.seats.is_empty() || owns_open_room(player) {
            return;
        }
        if let Some(record) = self.records.remove(&player) {
            self.tokens.remove(&record.token);
            if let Some(account) = &record.account
                && self.accounts.get(&name_key(account)) == Some(&player)
            {
                self.accounts.remove(&name_key(account));
            }
            if record.listed {
                self.tell(Tell::PlayerUnlisted(record.token, record.account));
            }
        }
    }

    /// Tells the cluster what this node holds of `player` now: their resume entry and, for a
    /// bot connected here, its directory entry.
    fn share(&mut self, player: PlayerId) {
        let (Some(node), Some(record)) = (&self.node, self.records.get_mut(&player)) else {
            return;
        };
        if !record.connected_here() && !record.listed {
            return;
        }
        record.listed = true;
        self.told.push(Tell::PlayerListed(record.cluster_player(node)));
        if record.bot.is_some() {
            self.told.push(match record.cluster_bot(node) {
                Some(bot) => Tell::BotListed(bot),
                None => Tell::BotUnlisted(player),
            });
        }
    }

    /// Tells the node holding `player`'s connection, when it is another one, that they gained
    /// or lost `seat`.
    fn tell_home(&mut self, player: PlayerId, seat: SeatRef, held: bool) {
        let Some(home) = self.records.get(&player).and_then(PlayerRecord::home).cloned() else {
            return;
        };
        self.tell(Tell::SeatChanged(home, SeatChange { player, seat, held }));
    }

    /// Takes `player`'s seats matching `gone` from their record, telling their node.
    fn unseat(&mut self, player: PlayerId, gone: impl Fn(&SeatRef) -> bool) {
        let Some(record) = self.records.get_mut(&player) else {
            return;
        };
        let (gone, kept) = std::mem::take(&mut record.seats).into_iter().partition(gone);
        record.seats = kept;
        for seat in gone {
            self.tell_home(player, seat, false);
        }
        self.share(player);
    }
}

impl Lobby {
    pub(super) fn lock_players(&self) -> Told<'_, Players> {
        Told::lock(&self.players, &self.cluster)
    }

    /// Forgets `player` from `players` if nothing needs their record any more.
    fn forget_if_idle(&self, players: &mut Players, player: PlayerId) {
        players.forget_if_idle(player, |p| self.owns_open_room(p));
    }

    /// Knows `id`, a player whose connection another node holds (`outbox` is remote), seated
    /// or watching in a room here: the room stores their token's digest and bot account with
    /// the seat, and their seat changes are told to their node. A record of this node (the
    /// player connected here as well, or restored here) keeps its own connection.
    pub fn know_remote(&self, id: PlayerId, name: &str, token: &str, account: Option<&str>, outbox: Outbox) {
        let mut players = self.lock_players();
        if let Some(record) = players.records.get_mut(&id) {
            if !record.connected_here() {
                record.outbox = Some(outbox);
                record.name = name.to_owned();
            }
            return;
        }
        let record = PlayerRecord::new(
            id,
            name.to_owned(),
            token.to_owned(),
            account.map(str::to_owned),
            Some(outbox),
        );
        players.records.insert(id, record);
    }

    /// Forgets `player` if nothing needs their record any more (not connected here, no seat,
    /// no open room of theirs).
    pub fn release(&self, player: PlayerId) {
        let mut players = self.lock_players();
        self.forget_if_idle(&mut players, player);
    }

    /// Forgets `player` here at once, record and token: they resumed on another node of the
    /// cluster, which holds them now.
    pub fn moved_away(&self, player: PlayerId) {
        let mut players = self.lock_players();
        if let Some(record) = players.records.remove(&player) {
            players.tokens.remove(&record.token);
            if let Some(account) = &record.account {
                players.accounts.remove(&name_key(account));
            }
            if record.bot.is_some() {
                players.tell(Tell::BotUnlisted(player));
            }
        }
    }

    /// The players connected to this node who hold a seat in `room`, as the room knows them.
    pub fn members_connected_here(&self, room: RoomId) -> Vec<Member> {
        self.lock_players()
            .records
            .values()
            .filter(|p| p.connected_here() && p.seats.iter().any(|s| s.room == room))
            .filter_map(|p| {
                Some(Member {
                    id: p.id,
                    name: p.name.clone(),
                    outbox: p.outbox.clone()?,
                })
            })
            .collect()
    }

    /// Whether the lobby knows the player of bot account `account`.
    pub fn knows_account(&self, account: &str) -> bool {
        self.lock_players().accounts.contains_key(&name_key(account))
    }

    /// Whether the lobby knows a player by the digest of their resume token.
    pub fn knows_token(&self, digest: &str) -> bool {
        self.lock_players().tokens.contains_key(digest)
    }

    /// Registers a new player with a fresh id and resume token; `account` names the bot account
    /// it is, proved by its token.
    pub fn register(
        &self,
        name: String,
        bot: Option<BotOffer>,
        outbox: Outbox,
        account: Option<String>,
    ) -> (PlayerId, ResumeToken) {
        let id = PlayerId::random();
        let token = ResumeToken::random();
        let digest = token.digest();
        let mut players = self.lock_players();
        players.tokens.insert(digest.clone(), id);
        if let Some(account) = &account {
            players.accounts.insert(name_key(account), id);
        }
        players.tell(Tell::Connected(outbox.clone()));
        let mut record = PlayerRecord::new(id, name, digest, account, Some(outbox));
        record.bot = bot;
        players.records.insert(id, record);
        players.share(id);
        (id, token)
    }

    /// Brings back a player known from a room's stored log (after a restart), not connected,
    /// so that they can resume with their token; does nothing for a player already known.
    /// `account` is the bot account it was, whose token takes its seats back.
    pub fn restore_player(&self, id: PlayerId, name: &str, token: &str, account: Option<&str>) {
        let mut players = self.lock_players();
        if players.records.contains_key(&id) {
            return;
        }
        players.tokens.insert(token.to_owned(), id);
        if let Some(account) = account {
            players.accounts.insert(name_key(account), id);
        }
        let record = PlayerRecord::new(
            id,
            name.to_owned(),
            token.to_owned(),
            account.map(str::to_owned),
            None,
        );
        players.records.insert(id, record);
    }

    /// Records that `room`, where `player` held a seat, could not be restored after a restart:
    /// the seat is not theirs any more, and they are told when they resume.
    pub fn room_broken(&self, player: PlayerId, room: RoomId) {
        if let Some(record) = self.lock_players().records.get_mut(&player) {
            record.seats.retain(|s| s.room != room);
            if !record.broken.contains(&room) {
                record.broken.push(room);
            }
        }
    }

    /// A fresh resume token for `player` (taken back by its bot account's token), replacing the
    /// old one, which stops working.
    pub fn new_token(&self, player: PlayerId) -> ResumeToken {
        let token = ResumeToken::random();
        let digest = token.digest();
        let mut players = self.lock_players();
        if let Some(record) = players.records.get_mut(&player) {
            let old = std::mem::replace(&mut record.token, digest.clone());
            let account = record.account.clone();
            players.tokens.remove(&old);
            players.tokens.insert(digest, player);
            players.tell(Tell::PlayerUnlisted(old, account));
            players.share(player);
        }
        token
    }

    /// The bot account `player` is, if any.
    pub fn account_of(&self, player: PlayerId) -> Option<String> {
        self.lock_players()
            .records
            .get(&player)
            .and_then(|p| p.account.clone())
    }

    /// The digest of `player`'s resume token, if the player is known.
    pub fn token_digest(&self, player: PlayerId) -> Option<String> {
        self.lock_players().records.get(&player).map(|p| p.token.clone())
    }

    /// Takes a player back after a reconnect: the player of the resume `token`, or else the
    /// player of the bot `account` (proved by its token) when the lobby knows one. The new
    /// connection replaces the old one, which is told to close at once
    /// ([`Outbox::close_replaced`]): one connection per player, so one per seat. Returns the
    /// player's record, or `None` when neither names a known player.
    ///
    /// # Errors
    /// [`ResumeRefused::OtherAccount`] when the resume token is a bot account's player's and
    /// `account` is not that account: only the account's token takes its seats.
    pub fn resume(
        &self,
        token: Option<&ResumeToken>,
        account: Option<&str>,
        name: String,
        bot: Option<BotOffer>,
        outbox: Outbox,
    ) -> Result<Option<PlayerRecord>, ResumeRefused> {
        let mut players = self.lock_players();
        let key = account.map(name_key);
        let by_token = token.and_then(|t| players.tokens.get(&t.digest()).copied());
        let by_account = key.as_ref().and_then(|k| players.accounts.get(k).copied());
        let Some(id) = by_token.or(by_account) else {
            return Ok(None);
        };
        let Some(record) = players.records.get(&id) else {
            return Ok(None);
        };
        if record.account.is_some() && record.account.as_deref().map(name_key) != key {
            return Err(ResumeRefused::OtherAccount);
        }
        players.tell(Tell::Connected(outbox.clone()));
        let Some(record) = players.records.get_mut(&id) else {
            return Ok(None);
        };
        if let Some(old) = record.outbox.replace(outbox)
            && record.outbox.as_ref().is_some_and(|new| new.conn() != old.conn())
        {
            old.close_replaced();
        }
        record.name = name;
        record.bot = bot;
        if let Some(account) = account {
            record.account = Some(account.to_owned());
        }
        let record = record.clone();
        if let Some(key) = key {
            players.accounts.insert(key, id);
        }
        players.share(id);
        Ok(Some(record))
    }

    /// Closes the connection of the bot account `account` (its token was rotated or revoked); its
    /// seats wait for a connection with the new token as after any drop.
    pub fn close_account(&self, account: &str) {
        let players = self.lock_players();
        if let Some(outbox) = players
            .accounts
            .get(&name_key(account))
            .and_then(|id| players.records.get(id))
            .and_then(|p| p.outbox.as_ref())
        {
            outbox.close_replaced();
        }
    }

    /// Marks a player's connection `conn` as gone (a newer connection is left alone): a bot's
    /// offer goes with it, and the player is forgotten altogether when they hold no seat and own
    /// no open room.
    pub fn disconnected(&self, player: PlayerId, conn: u64) {
        let mut players = self.lock_players();
        if let Some(record) = players.records.get_mut(&player)
            && record.outbox.as_ref().is_some_and(|o| o.conn() == conn)
        {
            record.outbox = None;
            if record.bot.take().is_some() {
                players.tell(Tell::BotUnlisted(player));
            }
            players.share(player);
            self.forget_if_idle(&mut players, player);
        }
    }

    /// The connection of `player`, if connected.
    pub fn outbox_of(&self, player: PlayerId) -> Option<Outbox> {
        self.lock_players()
            .records
            .get(&player)
            .and_then(|p| p.outbox.clone())
    }

    /// Whether the lobby knows `player` (connected, holding a seat, or owning an open room).
    pub fn knows(&self, player: PlayerId) -> bool {
        self.lock_players().records.contains_key(&player)
    }

    /// How many players the lobby knows (what a closed connection must not add to).
    pub fn player_count(&self) -> usize {
        self.lock_players().records.len()
    }

    /// Records that `player` holds `seat` in `room`, and for a bot the `strategy` it plays there.
    pub fn seated(&self, player: PlayerId, room: RoomId, seat: Seat, strategy: Option<&str>) {
        let mut players = self.lock_players();
        let seat = SeatRef {
            room,
            seat,
            strategy: strategy.map(str::to_owned),
        };
        if let Some(record) = players.records.get_mut(&player) {
            if record.seats.contains(&seat) {
                return;
            }
            record.seats.push(seat.clone());
            players.tell_home(player, seat, true);
            players.share(player);
        }
    }

    /// Records that `player` no longer holds a seat in `room` (forgetting a player who is gone
    /// and needed no more).
    pub fn unseated(&self, player: PlayerId, room: RoomId) {
        let mut players = self.lock_players();
        players.unseat(player, |s| s.room == room);
        self.forget_if_idle(&mut players, player);
    }

    /// Records that `player` no longer holds `seat` in `room` (their other seats there stay).
    pub fn unseated_from(&self, player: PlayerId, room: RoomId, seat: Seat) {
        let mut players = self.lock_players();
        players.unseat(player, |s| s.room == room && s.seat == seat);
        self.forget_if_idle(&mut players, player);
    }

    /// Tells the cluster `player`'s bot entry again when their bot is connected here: the
    /// directory lost it, or holds another node's older write over it (a node that gave the
    /// player up can write its own entry after the one the new node wrote), and no other node
    /// could seat the bot. Nothing for a player not connected here or not a bot.
    pub fn relist_bot(&self, player: PlayerId) {
        let mut players = self.lock_players();
        if players
            .records
            .get(&player)
            .is_some_and(|p| p.connected_here() && p.bot.is_some())
        {
            players.share(player);
        }
    }

    /// The seats `player` holds in rooms not yet finished.
    pub fn seats_of(&self, player: PlayerId) -> Vec<SeatRef> {
        self.lock_players()
            .records
            .get(&player)
            .map(|p| p.seats.clone())
            .unwrap_or_default()
    }
}
