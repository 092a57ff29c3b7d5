//! The bot client: connects to a server as a bot, announces the games and strategies it offers, and
//! plays in every seat the server hands it, many rooms at once.
//!
//! It is an ordinary protocol client: it sees only its own seats' views (sent with each
//! `your_turn`) and answers with `act`. Decisions run on blocking threads so that one slow decision
//! does not hold up the other rooms, nor the server when the pool runs inside the server's process.

use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Context;
use futures_util::{SinkExt, StreamExt};
use skirmish_games::Seat;
use skirmish_protocol::{
    AccessKey, AccountToken, BotInfo, BotOffer, CLOSE_REPLACED, ClientFrame, ClientMsg, ForfeitCause,
    GameKind, GameView, PROTOCOL_VERSION, ResumeToken, RoomId, ServerMsg,
};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;
use tokio_util::sync::CancellationToken;
use tracing::{debug, error, info, warn};

use crate::Budget;
use crate::audit::Audit;
pub use crate::player::{Decision, Player, PlayerFactory};

/// How a bot connects and what it offers.
#[derive(Clone)]
pub struct BotOptions {
    /// The server's WebSocket URL, such as `ws://127.0.0.1:8080/ws`.
    pub url: String,
    /// The bot's display name.
    pub name: String,
    /// The games it offers, each with its strategy names, strongest first (default: every
    /// built-in strategy of every game). [`BotOptions::set_strategies`] sets it
    /// from one list of names.
    pub strategies: BTreeMap<GameKind, Vec<String>>,
    /// How each game's players are made from strategy names (default: the built-in ones,
    /// [`crate::player::built_in`]); an outside-engine adapter replaces its game's.
    pub players: BTreeMap<GameKind, PlayerFactory>,
    /// The longest a strategy thinks about one move (gomoku, junqi), in wall time; a shorter room clock
    /// lowers it. Default 1 s.
    pub think: Duration,
    /// A file to append every message received to, one JSON text per line.
    pub transcript: Option<PathBuf>,
    /// Whether to reconnect (and take its seats back) when the connection drops.
    pub reconnect: bool,
    /// The operator's key, for a server that admits anonymous bots only with one (`--bot-key`).
    pub key: Option<AccessKey>,
    /// The bot account's token (`skirmish-bots account register`): the bot is that account's,
    /// and its `name` must be the account's. Only account bots enter tournaments.
    pub token: Option<AccountToken>,
    /// The version announced in `hello` (default: this crate's version); tournaments record it
    /// with each entrant.
    pub version: String,
    /// The ladders to play in, sent in `hello` (`gomoku-freestyle`, `plane-3`, ...; only a bot
    /// with an account token may name any). Default none.
    pub ladders: Vec<String>,
    /// A file that keeps the resume token (readable by its owner only): read when the bot
    /// starts, so that a bot program started again says `hello` with it and gets its seats back
    /// within the server's grace period, and rewritten whenever the server welcomes it. Without
    /// it, the token lives only as long as the process.
    pub resume_file: Option<PathBuf>,
    /// A PEM file of certificates to trust for a `wss://` server besides Mozilla's roots (a
    /// self-signed server's certificate, or a private CA): see [`crate::tls`].
    pub ca_cert: Option<PathBuf>,
}

impl BotOptions {
    /// A bot named `name` offering every game and every built-in strategy, reconnecting when
    /// dropped.
    pub fn new(url: String, name: String) -> BotOptions {
        BotOptions {
            url,
            name,
            strategies: crate::player::built_in()
                .iter()
                .map(|(game, list, _)| (*game, names(list)))
                .collect(),
            players: crate::player::built_in()
                .into_iter()
                .map(|(game, _, make)| (game, make))
                .collect(),
            transcript: None,
            reconnect: true,
            think: Duration::from_secs(1),
            key: None,
            token: None,
            version: env!("CARGO_PKG_VERSION").to_owned(),
            ladders: Vec::new(),
            resume_file: None,
            ca_cert: None,
        }
    }

    /// Offers exactly `names` (strongest first), each for the game(s) whose
    /// [`BotOptions::players`] make it. A game none of the names plays is not offered.
    pub fn set_strategies(&mut self, names: &[String]) {
        self.strategies.clear();
        for name in names {
            for (&game, make) in &self.players {
                let plays = make(name).is_some();
                let list = self.strategies.entry(game).or_default();
                if plays && !list.contains(name) {
                    list.push(name.clone());
                }
            }
        }
        self.strategies.retain(|_, list| !list.is_empty());
    }

    /// The names of `game`'s strategies this bot offers, strongest first.
    fn offered(&self, game: GameKind) -> &[String] {
        self.strategies.get(&game).map_or(&[], Vec::as_slice)
    }

    /// A player of `game` for the strategy `wanted`; else of the first strategy this bot offers
    /// for the game; else of the game's strongest built-in one.
    fn player(&self, game: GameKind, wanted: &str) -> Option<Box<dyn Player>> {
        let make = self.players.get(&game)?;
        make(wanted)
            .or_else(|| self.offered(game).iter().find_map(|s| make(s)))
            .or_else(|| {
                let (_, list, make) = crate::player::built_in()
                    .into_iter()
                    .find(|(g, _, _)| *g == game)?;
                make(list.first()?)
            })
    }
}

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| (*s).to_owned()).collect()
}

impl std::fmt::Debug for BotOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BotOptions")
            .field("url", &self.url)
            .field("name", &self.name)
            .field("strategies", &self.strategies)
            .field("think", &self.think)
            .finish_non_exhaustive()
    }
}

/// One seat's player: the strategy named when the seat was handed over, made for the seat's game
/// at its first turn.
enum SeatPlayer {
    Named(String),
    Playing(Box<dyn Player>),
}

/// One seat: its player, and the longest it may think a move there (the level's budget, from
/// `seated`'s `think_ms`; `None`: [`BotOptions::think`]).
struct SeatSlot {
    player: SeatPlayer,
    think: Option<Duration>,
}

impl SeatSlot {
    fn named(strategy: String, think: Option<Duration>) -> SeatStrategy {
        Arc::new(Mutex::new(SeatSlot {
            player: SeatPlayer::Named(strategy),
            think,
        }))
    }
}

/// One seat's player, used by one decision at a time.
type SeatStrategy = Arc<Mutex<SeatSlot>>;

/// What the bot keeps across reconnects.
#[derive(Default)]
struct BotState {
    resume: Option<ResumeToken>,
    /// Checks every reveal against its commitment and the public results.
    audit: Audit,
    seats: HashMap<(RoomId, Seat), SeatStrategy>,
    /// Whether the server closed the connection because a newer one took this player over
    /// ([`CLOSE_REPLACED`]).
    replaced: bool,
}

/// Plays until `shutdown` is cancelled (or, without `reconnect`, until the connection ends).
///
/// # Errors
/// Connection and transcript errors when `reconnect` is off; with it on, they are logged and the
/// bot reconnects after a pause (0.5 s doubling to 5 s).
pub async fn run(options: BotOptions, shutdown: CancellationToken) -> anyhow::Result<()> {
    let mut state = BotState {
        resume: options.resume_file.as_deref().and_then(read_token),
        ..BotState::default()
    };
    let mut pause = Duration::from_millis(500);
    loop {
        let result = connection(&options, &mut state, &shutdown).await;
        if shutdown.is_cancelled() {
            return Ok(());
        }
        if state.replaced {
            // A newer connection of this player (or account) plays its seats now: reconnecting
            // would only take them back from it, and be taken back in turn.
            warn!(bot = %options.name, "replaced by a newer connection: not reconnecting");
            return Ok(());
        }
        match result {
            Ok(()) if !options.reconnect => return Ok(()),
            Err(err) if !options.reconnect => return Err(err),
            Ok(()) => pause = Duration::from_millis(500),
            Err(err) => warn!(bot = %options.name, cause = %err, "connection failed"),
        }
        tokio::select! {
            () = shutdown.cancelled() => return Ok(()),
            () = tokio::time::sleep(pause) => {}
        }
        pause = (pause * 2).min(Duration::from_secs(5));
    }
}

async fn connection(
    options: &BotOptions,
    state: &mut BotState,
    shutdown: &CancellationToken,
) -> anyhow::Result<()> {
    let tls = crate::tls::connector(options.ca_cert.as_deref())?;
    let (socket, _) =
        tokio_tungstenite::connect_async_tls_with_config(options.url.as_str(), None, true, Some(tls))
            .await
            .with_context(|| format!("connecting to {}", options.url))?;
    let (mut sink, mut stream) = socket.split();
    let mut transcript = match &options.transcript {
        Some(path) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .with_context(|| format!("opening {}", path.display()))?,
        ),
        None => None,
    };
    let hello = ClientFrame {
        req: None,
        msg: ClientMsg::Hello {
            protocol: PROTOCOL_VERSION,
            name: options.name.clone(),
            bot: Some(BotOffer {
                games: options.strategies.clone(),
                version: Some(options.version.clone()),
            }),
            resume: state.resume.clone(),
            key: options.key.clone(),
            token: options.token.clone(),
            turn_view: Some(true),
            ladder: options.ladders.clone(),
        },
    };
    sink.send(Message::text(serde_json::to_string(&hello)?)).await?;
    let (decided, mut decisions) = mpsc::unbounded_channel::<ClientFrame>();
    let options = Arc::new(options.clone());
    loop {
        tokio::select! {
            () = shutdown.cancelled() => {
                let _ = sink.send(Message::Close(None)).await;
                return Ok(());
            }
            Some(frame) = decisions.recv() => {
                sink.send(Message::text(serde_json::to_string(&frame)?)).await?;
            }
            message = stream.next() => {
                let text = match message {
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(Message::Close(frame))) => {
                        info!(bot = %options.name, ?frame, "server closed the connection");
                        state.replaced = frame.is_some_and(|f| u16::from(f.code) == CLOSE_REPLACED);
                        return Ok(());
                    }
                    Some(Ok(_)) => continue,
                    Some(Err(err)) => return Err(err.into()),
                    None => return Ok(()),
                };
                if let Some(file) = transcript.as_mut() {
                    writeln!(file, "{}", text.as_str()).context("writing the transcript")?;
                }
                let msg: ServerMsg = serde_json::from_str(text.as_str()).context("reading a server message")?;
                on_message(&options, state, msg, &decided);
            }
        }
    }
}

fn on_message(
    options: &Arc<BotOptions>,
    state: &mut BotState,
    msg: ServerMsg,
    decided: &mpsc::UnboundedSender<ClientFrame>,
) {
    if let Err(err) = state.audit.observe(&msg) {
        error!(bot = %options.name, cause = %err, "the referee broke a commitment");
    }
    match msg {
        ServerMsg::Welcome {
            resume,
            player,
            seats,
            ..
        } => {
            info!(bot = %options.name, player = %player, seats = seats.len(), "welcomed");
            if let Some(path) = &options.resume_file
                && let Err(err) = write_token(path, &resume)
            {
                warn!(bot = %options.name, file = %path.display(), cause = %err, "the resume token could not be kept");
            }
            state.resume = Some(resume);
            // Seats taken back after the program started again: play each as it was asked to.
            for held in seats {
                state
                    .seats
                    .entry((held.room, held.seat))
                    .or_insert_with(|| SeatSlot::named(held.strategy.unwrap_or_default(), None));
            }
        }
        ServerMsg::Seated {
            room,
            seat,
            strategy: wanted,
            think_ms,
            ..
        } => {
            let name = wanted.unwrap_or_default();
            debug!(bot = %options.name, room = %room, seat = seat.0, strategy = name, think_ms, "seated");
            let think = think_ms.map(Duration::from_millis);
            state.seats.insert((room, seat), SeatSlot::named(name, think));
        }
        // The bot's hello asks for the whole view in every `your_turn` (`turn_view`): it decides
        // from the view alone.
        ServerMsg::YourTurn {
            room,
            seat,
            view: Some(view),
            deadline_ms,
        } => {
            let seat_strategy = state
                .seats
                .entry((room, seat))
                .or_insert_with(|| SeatSlot::named(String::new(), None))
                .clone();
            let decided = decided.clone();
            let options = Arc::clone(options);
            tokio::task::spawn_blocking(move || {
                let msg = match decide(&options, &seat_strategy, &view, seat, deadline_ms) {
                    // What the strategy thought rides with its action, for the replay.
                    Some((Decision::Act(action), info)) => ClientMsg::Act {
                        room,
                        seat: Some(seat),
                        action,
                        info: info.map(Box::new),
                    },
                    // The outside engine failed: the seat forfeits for that cause, which the
                    // standings count apart from losses on the board.
                    Some((Decision::EngineFailed(detail), _)) => ClientMsg::Forfeit {
                        room,
                        seat: Some(seat),
                        cause: ForfeitCause::EngineFailure,
                        detail,
                    },
                    None => return,
                };
                let _ = decided.send(ClientFrame { req: None, msg });
            });
        }
        ServerMsg::Event { room, event, .. } if event.ends_match() => {
            // Each seat of the room hears how its match ended (an outside engine is told), on a
            // blocking thread: a seat's strategy may still be deciding.
            let (ended, kept): (HashMap<_, _>, HashMap<_, _>) = std::mem::take(&mut state.seats)
                .into_iter()
                .partition(|((r, _), _)| *r == room);
            state.seats = kept;
            tokio::task::spawn_blocking(move || {
                for ((_, seat), player) in ended {
                    let mut player = player.lock().expect("a strategy does not panic");
                    if let SeatPlayer::Playing(playing) = &mut player.player {
                        playing.finish(seat, &event);
                    }
                }
            });
        }
        ServerMsg::Error { code, message, .. } => {
            warn!(bot = %options.name, code = %code, message = %message, "the server refused a request");
        }
        _ => {}
    }
}

/// The token kept in `path`, if there is a readable one.
fn read_token(path: &std::path::Path) -> Option<ResumeToken> {
    let text = std::fs::read_to_string(path).ok()?;
    ResumeToken::try_from(text.trim().to_owned()).ok()
}

/// Keeps `token` in `path`: written to a new file beside it, readable by its owner only, then
/// renamed over the old one, so that a crash leaves the old token or the new one.
fn write_token(path: &std::path::Path, token: &ResumeToken) -> std::io::Result<()> {
    let mut staged = path.as_os_str().to_owned();
    staged.push(".new");
    let staged = PathBuf::from(staged);
    let mut open = std::fs::OpenOptions::new();
    open.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut open, 0o600);
    let mut file = open.open(&staged)?;
    writeln!(file, "{}", token.as_str())?;
    file.sync_all()?;
    std::fs::rename(&staged, path)
}

/// What `seat` does in `view`, or `None` when it is not to act.
fn decide(
    options: &BotOptions,
    player: &SeatStrategy,
    view: &GameView,
    seat: Seat,
    deadline_ms: Option<u64>,
) -> Option<(Decision, Option<BotInfo>)> {
    let mut rng = rand::rng();
    let mut slot = player.lock().expect("a strategy does not panic");
    if let SeatPlayer::Named(name) = &slot.player {
        slot.player = SeatPlayer::Playing(options.player(view.kind(), name)?);
    }
    let budget = options.budget(deadline_ms, slot.think);
    let SeatPlayer::Playing(playing) = &mut slot.player else {
        return None;
    };
    let decision = playing.decide(view, seat, budget, &mut rng)?;
    Some((decision, playing.info()))
}

impl BotOptions {
    /// The thinking budget for a move due in `deadline_ms`: at most half of what is left on the
    /// clock, never more than [`BotOptions::think`], nor than the seat's own limit `seat_think`
    /// (its level's, when it was seated by level).
    fn budget(&self, deadline_ms: Option<u64>, seat_think: Option<Duration>) -> Budget {
        let own = seat_think.map_or(self.think, |t| self.think.min(t));
        let think = match deadline_ms {
            Some(ms) => own.min(Duration::from_millis(ms / 2)),
            None => own,
        };
        Budget::new(deadline_ms.unwrap_or(0), think)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_seated_by_level_thinks_within_the_levels_budget() {
        let options = BotOptions::new("ws://127.0.0.1:1/ws".into(), "pool".into());
        let ms = |b: Budget| b.think.as_millis();
        // The bot's own limit (1 s) without a level; the level's when shorter.
        assert_eq!(ms(options.budget(None, None)), 1000);
        assert_eq!(ms(options.budget(None, Some(Duration::from_millis(200)))), 200);
        // Never more than the bot's own limit, nor than half the clock left.
        assert_eq!(ms(options.budget(None, Some(Duration::from_secs(5)))), 1000);
        assert_eq!(
            ms(options.budget(Some(300), Some(Duration::from_millis(200)))),
            150
        );
    }
}
