//! `quick_match`: seats a person in a waiting quick-match room of a game, or makes one that bots
//! fill after the server's wait (the rooms are the lobby's, `lobby/quick.rs`).
//!
//! What a hostile peer could try, and what it gets:
//! - flooding `quick_match` makes no more rooms than `create_room` would: every room it makes is
//!   one the person owns, refused past `--rooms-per-player` and `--rooms-per-address`; and a
//!   person seated in a waiting quick-match room of the game gets that seat again, not a new room;
//! - it names a game, never a room, so nobody is quick-matched into a room nobody offered to
//!   quick match: only rooms quick match made are searched, never one a person made with
//!   `create_room` for friends;
//! - the fill is one task per room it made, ended by the wait, the room's end or the shutdown.

use std::time::Duration;

use skirmish_protocol::{GameKind, RoomConfig, ServerMsg};
use tracing::info;

use super::Session;
use crate::error::ServerError;
use crate::lobby::{QUICK_MATCH_LEVEL, quick_config};

impl Session {
    /// Answers `quick_match` (request `req`) for `game`: `seated` and a `room` snapshot, for the
    /// seat this person already holds in a waiting quick-match room of `game`, else a free seat in
    /// the oldest such room, else a seat in a new one, named `name`.
    ///
    /// # Errors
    /// As `create_room` when a room must be made: [`ServerError::BadConfig`] (a bad name),
    /// [`ServerError::TooManyRooms`],
    /// [`ServerError::TooManyRoomsFromAddress`], [`ServerError::StorageUnavailable`].
    pub(super) async fn quick_match(
        &mut self,
        game: GameKind,
        name: Option<String>,
        req: Option<u64>,
    ) -> Result<(), ServerError> {
        let lobby = self.state.lobby.clone();
        // One at a time: two people pressing at once meet in one room.
        let _turn = lobby.quick_turn().await;
        // Pressed twice: the seat already held.
        if let Some(held) = lobby
            .seats_of(self.player)
            .into_iter()
            .find(|s| lobby.is_quick_waiting(s.room, game))
            && let Some(room) = lobby.local_room(held.room)
        {
            self.outbox.send(ServerMsg::Seated {
                req,
                room: held.room,
                seat: held.seat,
                strategy: None,
                think_ms: None,
            });
            room.attach(self.member()).await;
            return Ok(());
        }
        for id in lobby.quick_rooms(game) {
            let Some(room) = lobby.local_room(id) else {
                continue;
            };
            match room.join(self.member(), None, req).await {
                Ok(_) => return Ok(()),
                // Filled or started since it was listed: the next one.
                Err(ServerError::RoomFull | ServerError::RoomStarted | ServerError::SeatTaken) => {}
                Err(err) => return Err(err),
            }
        }
        let config = RoomConfig {
            name,
            game: quick_config(game),
            clock: None,
            on_drop: None,
        };
        let room = self.open_room(config)?;
        lobby.mark_quick(room.id(), game);
        info!(room = %room.id(), game = game.tag(), "quick match made a room");
        room.join(self.member(), None, req).await?;
        let wait = Duration::from_millis(self.state.limits.quick_match_wait_ms);
        let shutdown = self.state.shutdown.clone();
        tokio::spawn(async move {
            tokio::select! {
                () = shutdown.cancelled() => {}
                () = room.gone() => {}
                () = tokio::time::sleep(wait) => room.quick_fill(QUICK_MATCH_LEVEL).await,
            }
        });
        Ok(())
    }
}
