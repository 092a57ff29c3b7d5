//! The bot client: connects to a server as a bot, announces the games and strategies it offers, and
//! plays in every seat the server hands it, many rooms at once.
//!
//! It is an ordinary protocol client: it sees only its own seats' views (sent with each
//! `your_turn`) and answers with `act`. Decisions run on blocking threads so that one slow decision
//! does not hold up the other rooms, nor the server when the pool runs inside the server's process.

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Context;
use futures_util::{SinkExt, StreamExt};
use skirmish_games::plane::{self, PhaseView};
use skirmish_games::{Seat, Viewer};
use skirmish_protocol::{
    Action, BotOffer, ClientFrame, ClientMsg, GameEvent, GameKind, GameView, PROTOCOL_VERSION, ResumeToken,
    RoomId, ServerMsg,
};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;
use tokio_util::sync::CancellationToken;
use tracing::{debug, info, warn};

use crate::plane::{PlaneStrategy, STRATEGIES, strategy};

/// How a bot connects and what it offers.
#[derive(Debug, Clone)]
pub struct BotOptions {
    /// The server's WebSocket URL, such as `ws://127.0.0.1:8080/ws`.
    pub url: String,
    /// The bot's display name.
    pub name: String,
    /// Strategy names offered, strongest first (default: all of [`STRATEGIES`]).
    pub strategies: Vec<String>,
    /// A file to append every message received to, one JSON text per line.
    pub transcript: Option<PathBuf>,
    /// Whether to reconnect (and take its seats back) when the connection drops.
    pub reconnect: bool,
}

impl BotOptions {
    /// A bot named `name` offering every strategy, reconnecting when dropped.
    pub fn new(url: String, name: String) -> BotOptions {
        BotOptions {
            url,
            name,
            strategies: STRATEGIES.iter().map(|s| (*s).to_owned()).collect(),
            transcript: None,
            reconnect: true,
        }
    }
}

/// One seat's strategy, used by one decision at a time.
type SeatStrategy = Arc<Mutex<Box<dyn PlaneStrategy>>>;

/// What the bot keeps across reconnects.
#[derive(Default)]
struct BotState {
    resume: Option<ResumeToken>,
    seats: HashMap<(RoomId, Seat), SeatStrategy>,
}

/// Plays until `shutdown` is cancelled (or, without `reconnect`, until the connection ends).
///
/// # Errors
/// Connection and transcript errors when `reconnect` is off; with it on, they are logged and the
/// bot reconnects after a pause (0.5 s doubling to 5 s).
pub async fn run(options: BotOptions, shutdown: CancellationToken) -> anyhow::Result<()> {
    let mut state = BotState::default();
    let mut pause = Duration::from_millis(500);
    loop {
        let result = connection(&options, &mut state, &shutdown).await;
        if shutdown.is_cancelled() {
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
    let (socket, _) = tokio_tungstenite::connect_async_with_config(options.url.as_str(), None, true)
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
                games: vec![GameKind::Plane],
                strategies: options.strategies.clone(),
            }),
            resume: state.resume,
        },
    };
    sink.send(Message::text(serde_json::to_string(&hello)?)).await?;
    let (decided, mut decisions) = mpsc::unbounded_channel::<ClientFrame>();
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
                on_message(options, state, msg, &decided);
            }
        }
    }
}

fn on_message(
    options: &BotOptions,
    state: &mut BotState,
    msg: ServerMsg,
    decided: &mpsc::UnboundedSender<ClientFrame>,
) {
    match msg {
        ServerMsg::Welcome { resume, player, .. } => {
            info!(bot = %options.name, player = %player, "welcomed");
            state.resume = Some(resume);
        }
        ServerMsg::Seated {
            room,
            seat,
            strategy: wanted,
            ..
        } => {
            let name = wanted.as_deref().unwrap_or(&options.strategies[0]);
            let chosen = strategy(name)
                .or_else(|| strategy(STRATEGIES[0]))
                .expect("the default strategy exists");
            debug!(bot = %options.name, room = %room, seat = seat.0, strategy = name, "seated");
            state.seats.insert((room, seat), Arc::new(Mutex::new(chosen)));
        }
        ServerMsg::YourTurn {
            room,
            seat,
            view: GameView::Plane(view),
            ..
        } => {
            let seat_strategy = state
                .seats
                .entry((room, seat))
                .or_insert_with(|| {
                    Arc::new(Mutex::new(
                        strategy(STRATEGIES[0]).expect("the default strategy exists"),
                    ))
                })
                .clone();
            let decided = decided.clone();
            tokio::task::spawn_blocking(move || {
                let action = decide(&seat_strategy, &view, seat);
                if let Some(action) = action {
                    let _ = decided.send(ClientFrame {
                        req: None,
                        msg: ClientMsg::Act {
                            room,
                            seat: Some(seat),
                            action: Action::Plane(action),
                        },
                    });
                }
            });
        }
        ServerMsg::Event {
            room,
            event: GameEvent::Plane(plane::Event::MatchEnded { .. }),
            ..
        } => {
            state.seats.retain(|(r, _), _| *r != room);
        }
        ServerMsg::Error { code, message, .. } => {
            warn!(bot = %options.name, code = %code, message = %message, "the server refused a request");
        }
        _ => {}
    }
}

/// The action `seat` takes in `view`, or `None` when it is not to act.
fn decide(strategy: &SeatStrategy, view: &plane::View, seat: Seat) -> Option<plane::Action> {
    if view.viewer != Viewer::Seat(seat) {
        return None;
    }
    let mut rng = rand::rng();
    let mut strategy = strategy.lock().expect("a strategy does not panic");
    match &view.phase {
        PhaseView::Deploy { ready } if !ready.contains(&seat) => Some(plane::Action::Deploy {
            planes: strategy.deploy(view, &mut rng),
        }),
        PhaseView::Attack { attacker } if *attacker == seat => {
            let (target, cell) = strategy.fire(view, &mut rng);
            Some(plane::Action::Fire { target, cell })
        }
        _ => None,
    }
}
