//! The lobby: the directory of rooms, players and bots.
//!
//! It knows every room (with a summary each room keeps up to date), every player's identity and
//! the digest of their resume token (never the token itself), the seats each player holds, and the connected bots with their load, so it can hand
//! bot seats to the least loaded bot that plays the game and strategy asked for. It is a plain
//! directory behind one short lock, not an actor: no call awaits while holding it. A scale-out to
//! many nodes would put this interface in front of a shared store.

use std::collections::{HashMap, HashSet};
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard};

use skirmish_protocol::{BotOffer, PlayerId, ResumeToken, RoomId, RoomStatus, RoomSummary, Seat, SeatRef};

mod bots;

pub use bots::BotPick;

use crate::outbox::Outbox;
use crate::replica::{ClusterBot, ClusterPlayer, Replica, SeatChange};
use crate::room_handle::RoomHandle;

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
    fn new(
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
    fn connected_here(&self) -> bool {
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
    fn cluster_bot(&self, node: &Arc<str>) -> Option<ClusterBot> {
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

/// Lowers `key`'s count by one, forgetting it at zero (a map of counts holds only what is open).
fn decrement<K: std::hash::Hash + Eq>(counts: &mut HashMap<K, usize>, key: K) {
    if let Some(n) = counts.get_mut(&key) {
        *n -= 1;
        if *n == 0 {
            counts.remove(&key);
        }
    }
}

#[derive(Debug, Default)]
struct Directory {
    rooms: HashMap<RoomId, (RoomHandle, RoomSummary, u64)>,
    players: HashMap<PlayerId, PlayerRecord>,
    /// Players by their resume token's digest.
    tokens: HashMap<String, PlayerId>,
    /// The address each room was created from (rooms created over a connection).
    creators: HashMap<RoomId, IpAddr>,
    /// The rooms not finished, and how many of them each player owns and each address created:
    /// what [`Lobby::open_rooms`] reads at every `create_room`, kept as counts so that a create
    /// walks no rooms (walking the unfinished ones was 2% of the server's CPU with 1,000 rooms
    /// playing, a new room at every game's end; docs/performance.md).
    unfinished: HashSet<RoomId>,
    open_owned: HashMap<PlayerId, usize>,
    open_created: HashMap<IpAddr, usize>,
    /// Bot accounts' players, by the account's name key ([`crate::accounts::name_key`]).
    accounts: HashMap<String, PlayerId>,
    room_order: u64,
    /// The rest of the cluster, when this node is one of several.
    replica: Option<Arc<dyn Replica>>,
}

impl Directory {
    /// Counts room `id` (listed in `rooms`) as open under its owner and its address; nothing if
    /// it is counted already.
    fn count_open(&mut self, id: RoomId) {
        if !self.unfinished.insert(id) {
            return;
        }
        if let Some((_, summary, _)) = self.rooms.get(&id) {
            *self.open_owned.entry(summary.owner).or_default() += 1;
        }
        if let Some(address) = self.creators.get(&id) {
            *self.open_created.entry(*address).or_default() += 1;
        }
    }

    /// Takes room `id` out of the open counts; returns whether it was counted.
    fn uncount_open(&mut self, id: RoomId) -> bool {
        if !self.unfinished.remove(&id) {
            return false;
        }
        if let Some((_, summary, _)) = self.rooms.get(&id) {
            let owner = summary.owner;
            decrement(&mut self.open_owned, owner);
        }
        if let Some(address) = self.creators.get(&id).copied() {
            decrement(&mut self.open_created, address);
        }
        true
    }

    /// Forgets `player` once nothing needs their record: not connected, no seat, and no open room
    /// of theirs (whose owner may come back to start it). A closed connection then leaves nothing
    /// behind in the directory (issue 16, finding 1: each closed bot connection kept its record,
    /// offer included, for the life of the server). Their resume token is forgotten with it: a
    /// later `hello` with it gets `bad_resume` and a new identity, which has nothing to take back.
    fn forget_if_idle(&mut self, player: PlayerId) {
        let Some(record) = self.players.get(&player) else {
            return;
        };
        if record.connected_here() || !record.seats.is_empty() {
            return;
        }
        let owns_open_room = self
            .rooms
            .values()
            .any(|(_, s, _)| s.owner == player && s.status != RoomStatus::Finished);
        if owns_open_room {
            return;
        }
        if let Some(record) = self.players.remove(&player) {
            self.tokens.remove(&record.token);
            if let Some(account) = &record.account
                && self.accounts.get(&crate::accounts::name_key(account)) == Some(&player)
            {
                self.accounts.remove(&crate::accounts::name_key(account));
            }
            if let Some(replica) = &self.replica
                && record.listed
            {
                replica.player_unlisted(&record.token, record.account.as_deref());
            }
        }
    }

    /// Tells the cluster what it holds of `player` now: their resume entry and, for a bot
    /// connected here, its directory entry.
    fn share(&mut self, player: PlayerId) {
        let (Some(replica), Some(record)) = (&self.replica, self.players.get_mut(&player)) else {
            return;
        };
        if !record.connected_here() && !record.listed {
            return;
        }
        record.listed = true;
        replica.player_listed(&record.cluster_player(replica.node()));
        if record.bot.is_some() {
            match record.cluster_bot(replica.node()) {
                Some(bot) => replica.bot_listed(&bot),
                None => replica.bot_unlisted(player),
            }
        }
    }

    /// Tells the node holding `player`'s connection, when it is another one, that they gained
    /// or lost `seat`.
    fn tell_home(&self, player: PlayerId, seat: SeatRef, held: bool) {
        let (Some(replica), Some(record)) = (&self.replica, self.players.get(&player)) else {
            return;
        };
        if let Some(home) = record.home() {
            replica.seat_changed(home, SeatChange { player, seat, held });
        }
    }
}

/// How many open rooms (waiting or playing) one player and one address have created; what the
/// room limits count ([`crate::Limits::rooms_per_player`], [`crate::Limits::rooms_per_address`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpenRooms {
    /// Open rooms the player owns.
    pub player: usize,
    /// Open rooms created from the address.
    pub address: usize,
}

/// The shared directory. Cheap to clone.
#[derive(Debug, Clone, Default)]
pub struct Lobby {
    /// A std mutex: every critical section is a few map operations and none awaits.
    inner: Arc<Mutex<Directory>>,
}

impl Lobby {
    fn lock(&self) -> MutexGuard<'_, Directory> {
        self.inner.lock().expect("lobby lock not poisoned")
    }

    /// The lobby of one node of a cluster: it shares its rooms, bots and players with the other
    /// nodes through `replica`, and lists theirs.
    pub fn clustered(replica: Arc<dyn Replica>) -> Lobby {
        let lobby = Lobby::default();
        lobby.lock().replica = Some(replica);
        lobby
    }

    /// The rest of the cluster, when this node is one of several.
    pub fn replica(&self) -> Option<Arc<dyn Replica>> {
        self.lock().replica.clone()
    }

    /// Knows `id`, a player whose connection another node holds (`outbox` is remote), seated
    /// or watching in a room here: the room stores their token's digest and bot account with
    /// the seat, and their seat changes are told to their node. A record of this node (the
    /// player connected here as well, or restored here) keeps its own connection.
    pub fn know_remote(&self, id: PlayerId, name: &str, token: &str, account: Option<&str>, outbox: Outbox) {
        let mut dir = self.lock();
        if let Some(record) = dir.players.get_mut(&id) {
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
        dir.players.insert(id, record);
    }

    /// Forgets `player` if nothing needs their record any more (not connected here, no seat,
    /// no open room of theirs).
    pub fn release(&self, player: PlayerId) {
        self.lock().forget_if_idle(player);
    }

    /// Forgets `player` here at once, record and token: they resumed on another node of the
    /// cluster, which holds them now.
    pub fn moved_away(&self, player: PlayerId) {
        let mut dir = self.lock();
        if let Some(record) = dir.players.remove(&player) {
            dir.tokens.remove(&record.token);
            if let Some(account) = &record.account {
                dir.accounts.remove(&crate::accounts::name_key(account));
            }
            if let Some(replica) = &dir.replica
                && record.bot.is_some()
            {
                replica.bot_unlisted(player);
            }
        }
    }

    /// The players connected to this node who hold a seat in `room`, as the room knows them.
    pub fn members_connected_here(&self, room: RoomId) -> Vec<crate::room_handle::Member> {
        self.lock()
            .players
            .values()
            .filter(|p| p.connected_here() && p.seats.iter().any(|s| s.room == room))
            .filter_map(|p| {
                Some(crate::room_handle::Member {
                    id: p.id,
                    name: p.name.clone(),
                    outbox: p.outbox.clone()?,
                })
            })
            .collect()
    }

    /// How many rooms this node runs.
    pub fn local_room_count(&self) -> usize {
        self.lock().rooms.len()
    }

    /// Whether the lobby knows the player of bot account `account`.
    pub fn knows_account(&self, account: &str) -> bool {
        self.lock()
            .accounts
            .contains_key(&crate::accounts::name_key(account))
    }

    /// Whether the lobby knows a player by the digest of their resume token.
    pub fn knows_token(&self, digest: &str) -> bool {
        self.lock().tokens.contains_key(digest)
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
        let mut dir = self.lock();
        dir.tokens.insert(digest.clone(), id);
        if let Some(account) = &account {
            dir.accounts.insert(crate::accounts::name_key(account), id);
        }
        if let Some(replica) = &dir.replica {
            replica.connected(&outbox);
        }
        let mut record = PlayerRecord::new(id, name, digest, account, Some(outbox));
        record.bot = bot;
        dir.players.insert(id, record);
        dir.share(id);
        (id, token)
    }

    /// Brings back a player known from a room's stored log (after a restart), not connected,
    /// so that they can resume with their token; does nothing for a player already known.
    /// `account` is the bot account it was, whose token takes its seats back.
    pub fn restore_player(&self, id: PlayerId, name: &str, token: &str, account: Option<&str>) {
        let mut dir = self.lock();
        if dir.players.contains_key(&id) {
            return;
        }
        dir.tokens.insert(token.to_owned(), id);
        if let Some(account) = account {
            dir.accounts.insert(crate::accounts::name_key(account), id);
        }
        let record = PlayerRecord::new(
            id,
            name.to_owned(),
            token.to_owned(),
            account.map(str::to_owned),
            None,
        );
        dir.players.insert(id, record);
    }

    /// Records that `room`, where `player` held a seat, could not be restored after a restart:
    /// the seat is not theirs any more, and they are told when they resume.
    pub fn room_broken(&self, player: PlayerId, room: RoomId) {
        if let Some(record) = self.lock().players.get_mut(&player) {
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
        let mut dir = self.lock();
        if let Some(record) = dir.players.get_mut(&player) {
            let old = std::mem::replace(&mut record.token, digest.clone());
            let account = record.account.clone();
            dir.tokens.remove(&old);
            dir.tokens.insert(digest, player);
            if let Some(replica) = &dir.replica {
                replica.player_unlisted(&old, account.as_deref());
            }
            dir.share(player);
        }
        token
    }

    /// The bot account `player` is, if any.
    pub fn account_of(&self, player: PlayerId) -> Option<String> {
        self.lock().players.get(&player).and_then(|p| p.account.clone())
    }

    /// The digest of `player`'s resume token, if the player is known.
    pub fn token_digest(&self, player: PlayerId) -> Option<String> {
        self.lock().players.get(&player).map(|p| p.token.clone())
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
        let mut dir = self.lock();
        let key = account.map(crate::accounts::name_key);
        let by_token = token.and_then(|t| dir.tokens.get(&t.digest()).copied());
        let by_account = key.as_ref().and_then(|k| dir.accounts.get(k).copied());
        let Some(id) = by_token.or(by_account) else {
            return Ok(None);
        };
        let Some(record) = dir.players.get_mut(&id) else {
            return Ok(None);
        };
        if record.account.as_deref().map(crate::accounts::name_key) != key && record.account.is_some() {
            return Err(ResumeRefused::OtherAccount);
        }
        if let Some(replica) = &dir.replica {
            replica.connected(&outbox);
        }
        let Some(record) = dir.players.get_mut(&id) else {
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
            dir.accounts.insert(key, id);
        }
        dir.share(id);
        Ok(Some(record))
    }

    /// Closes the connection of the bot account `account` (its token was rotated or revoked); its
    /// seats wait for a connection with the new token as after any drop.
    pub fn close_account(&self, account: &str) {
        let dir = self.lock();
        if let Some(outbox) = dir
            .accounts
            .get(&crate::accounts::name_key(account))
            .and_then(|id| dir.players.get(id))
            .and_then(|p| p.outbox.as_ref())
        {
            outbox.close_replaced();
        }
    }

    /// Marks a player's connection `conn` as gone (a newer connection is left alone): a bot's
    /// offer goes with it, and the player is forgotten altogether when they hold no seat and own
    /// no open room.
    pub fn disconnected(&self, player: PlayerId, conn: u64) {
        let mut dir = self.lock();
        if let Some(record) = dir.players.get_mut(&player)
            && record.outbox.as_ref().is_some_and(|o| o.conn() == conn)
        {
            record.outbox = None;
            let was_bot = record.bot.take().is_some();
            if let Some(replica) = &dir.replica
                && was_bot
            {
                replica.bot_unlisted(player);
            }
            dir.share(player);
            dir.forget_if_idle(player);
        }
    }

    /// The connection of `player`, if connected.
    pub fn outbox_of(&self, player: PlayerId) -> Option<Outbox> {
        self.lock().players.get(&player).and_then(|p| p.outbox.clone())
    }

    /// Whether the lobby knows `player` (connected, holding a seat, or owning an open room).
    pub fn knows(&self, player: PlayerId) -> bool {
        self.lock().players.contains_key(&player)
    }

    /// How many players the lobby knows (what a closed connection must not add to).
    pub fn player_count(&self) -> usize {
        self.lock().players.len()
    }

    /// The open rooms `player` owns and `address` created.
    pub fn open_rooms(&self, player: PlayerId, address: Option<IpAddr>) -> OpenRooms {
        let dir = self.lock();
        let mut open = OpenRooms {
            player: dir.open_owned.get(&player).copied().unwrap_or(0),
            address: address
                .and_then(|a| dir.open_created.get(&a).copied())
                .unwrap_or(0),
        };
        // A player's rooms on the other nodes count too (an address's are counted per node).
        if let Some(replica) = &dir.replica {
            open.player += replica
                .rooms()
                .iter()
                .filter(|s| s.owner == player && s.status != RoomStatus::Finished)
                .count();
        }
        open
    }

    /// Records that room `id` was created from `address`.
    pub fn created_from(&self, id: RoomId, address: IpAddr) {
        let mut dir = self.lock();
        if dir.rooms.contains_key(&id) {
            // Counted again under its address (an open room's count moves with it).
            let open = dir.uncount_open(id);
            dir.creators.insert(id, address);
            if open {
                dir.count_open(id);
            }
        }
    }

    /// Adds a room to the directory.
    pub fn add_room(&self, handle: RoomHandle, summary: RoomSummary) {
        let mut dir = self.lock();
        dir.room_order += 1;
        let order = dir.room_order;
        if let Some(replica) = &dir.replica {
            replica.room_listed(&summary);
        }
        let (id, open) = (summary.id, summary.status != RoomStatus::Finished);
        dir.uncount_open(id);
        dir.rooms.insert(id, (handle, summary, order));
        if open {
            dir.count_open(id);
        }
    }

    /// Removes a room from the directory (a finished room some time after its end, or an expired
    /// one); its owner is forgotten if nothing else needs their record.
    pub fn remove_room(&self, id: RoomId) {
        let mut dir = self.lock();
        dir.uncount_open(id);
        dir.creators.remove(&id);
        if let Some((_, summary, _)) = dir.rooms.remove(&id) {
            if let Some(replica) = &dir.replica {
                replica.room_unlisted(id);
            }
            dir.forget_if_idle(summary.owner);
        }
    }

    /// Replaces a room's summary (rooms call this after every change of seats or status).
    pub fn update_room(&self, summary: RoomSummary) {
        let mut dir = self.lock();
        let replica = dir.replica.clone();
        let id = summary.id;
        let finished = summary.status == RoomStatus::Finished;
        if dir.rooms.get(&id).is_some_and(|entry| entry.1 != summary) {
            if let Some(replica) = replica {
                replica.room_listed(&summary);
            }
            // Uncounted under the old summary, counted under the new (its owner may change).
            dir.uncount_open(id);
            if let Some(entry) = dir.rooms.get_mut(&id) {
                entry.1 = summary;
            }
            if !finished {
                dir.count_open(id);
            }
        }
    }

    /// The handle of a room: this node's, or another node's of the cluster (its commands then
    /// go over the bus).
    pub fn room(&self, id: RoomId) -> Option<RoomHandle> {
        let dir = self.lock();
        match dir.rooms.get(&id) {
            Some((handle, _, _)) => Some(handle.clone()),
            None => dir.replica.as_ref()?.room(id),
        }
    }

    /// The handle of a room of this node only.
    pub fn local_room(&self, id: RoomId) -> Option<RoomHandle> {
        self.lock().rooms.get(&id).map(|(h, _, _)| h.clone())
    }

    /// Every room's summary, newest first (in a cluster, this node's, then the other nodes').
    pub fn rooms(&self) -> Vec<RoomSummary> {
        let dir = self.lock();
        let mut rooms: Vec<_> = dir
            .rooms
            .values()
            .map(|(_, s, order)| (*order, s.clone()))
            .collect();
        rooms.sort_by_key(|(order, _)| std::cmp::Reverse(*order));
        let mut rooms: Vec<RoomSummary> = rooms.into_iter().map(|(_, s)| s).collect();
        if let Some(replica) = &dir.replica {
            rooms.extend(
                replica
                    .rooms()
                    .into_iter()
                    .filter(|s| !dir.rooms.contains_key(&s.id)),
            );
        }
        rooms
    }

    /// Records that `player` holds `seat` in `room`, and for a bot the `strategy` it plays there.
    pub fn seated(&self, player: PlayerId, room: RoomId, seat: Seat, strategy: Option<&str>) {
        let mut dir = self.lock();
        let seat = SeatRef {
            room,
            seat,
            strategy: strategy.map(str::to_owned),
        };
        if let Some(record) = dir.players.get_mut(&player) {
            if record.seats.contains(&seat) {
                return;
            }
            record.seats.push(seat.clone());
            dir.tell_home(player, seat, true);
            dir.share(player);
        }
    }

    /// Records that `player` no longer holds a seat in `room` (forgetting a player who is gone
    /// and needed no more).
    pub fn unseated(&self, player: PlayerId, room: RoomId) {
        let mut dir = self.lock();
        if let Some(record) = dir.players.get_mut(&player) {
            let (gone, kept) = std::mem::take(&mut record.seats)
                .into_iter()
                .partition(|s| s.room == room);
            record.seats = kept;
            for seat in gone {
                dir.tell_home(player, seat, false);
            }
            dir.share(player);
            dir.forget_if_idle(player);
        }
    }

    /// Records that `player` no longer holds `seat` in `room` (their other seats there stay).
    pub fn unseated_from(&self, player: PlayerId, room: RoomId, seat: Seat) {
        let mut dir = self.lock();
        if let Some(record) = dir.players.get_mut(&player) {
            let (gone, kept) = std::mem::take(&mut record.seats)
                .into_iter()
                .partition(|s| s.room == room && s.seat == seat);
            record.seats = kept;
            for seat in gone {
                dir.tell_home(player, seat, false);
            }
            dir.share(player);
            dir.forget_if_idle(player);
        }
    }

    /// The seats `player` holds in rooms not yet finished.
    pub fn seats_of(&self, player: PlayerId) -> Vec<SeatRef> {
        self.lock()
            .players
            .get(&player)
            .map(|p| p.seats.clone())
            .unwrap_or_default()
    }
}
