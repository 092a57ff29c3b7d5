//! The server's options: what one connection may do, the time controls rooms get, keys, TLS and
//! the anonymous-bot policy ([`Limits`], each a `skirmish-server` option with its environment
//! variable), with their defaults written once ([`DEFAULT_LIMITS`]).

use std::path::PathBuf;

use crate::outbox;

/// The limits a server has unless told otherwise: the one place the defaults are written (the
/// options' `--help` and [`Limits::default`] read them here).
pub const DEFAULT_LIMITS: Limits = Limits {
    max_frame_bytes: skirmish_protocol::MAX_FRAME_BYTES,
    outbox_capacity: outbox::OUTBOX_CAPACITY,
    hello_timeout_ms: 30_000,
    max_json_depth: skirmish_protocol::MAX_JSON_DEPTH,
    messages_per_second: 20,
    message_burst: 100,
    bot_messages_per_second: 1000,
    rooms_per_player: 8,
    rooms_per_address: 32,
    room_expiry_ms: 600_000,
    connections_per_address: 64,
    upgrades_per_address: 8,
    http_connections_per_address: 64,
    requests_per_address: 16,
    header_read_timeout_ms: 10_000,
    request_timeout_ms: 30_000,
    idle_timeout_ms: 120_000,
    default_deploy_ms: 60_000,
    default_move_ms: 30_000,
    max_clock_ms: 3_600_000,
    grace_ms: 60_000,
    quick_match_wait_ms: QUICK_MATCH_WAIT_MS,
    bot_key: None,
    tournament_key: None,
    open_tournaments: false,
    max_tournaments: 4,
    tournaments_per_address: 1,
    tls_cert: None,
    tls_key: None,
    tls_reload_ms: 60_000,
    admin_key: None,
    anonymous_bots: AnonymousBots::Allow,
    replays_kept: crate::store::DEFAULT_REPLAY_CAP.count,
    replay_days: crate::store::DEFAULT_REPLAY_CAP.max_age_ms / 86_400_000,
    ladder_pair_games_per_day: 20,
    ladder_concurrent: 8,
    ladder_pause_after: 3,
    ladder_cooldown_ms: 600_000,
    ladder_move_ms: 5_000,
    ladder_deploy_ms: 10_000,
};

/// How long a quick-match room waits for people before bots fill it, by default: 15 s. Long
/// enough for a friend told "press quick match" to press it and meet in the same room, and for
/// two people browsing the lobby at once to meet; short enough that one alone is playing within
/// the time it takes to read the rules' first lines.
pub const QUICK_MATCH_WAIT_MS: u64 = 15_000;

/// Limits on what one connection may do, and the time controls rooms get; each is a server
/// option (`skirmish-server --help`).
#[derive(Clone, Debug, PartialEq, Eq, clap::Args)]
pub struct Limits {
    /// Largest client text frame read, in bytes; a larger one (up to 1 MiB) is answered with
    /// `frame_too_large` and dropped, and one over 1 MiB closes the connection.
    #[arg(
        long,
        env = "SKIRMISH_MAX_FRAME_BYTES",
        default_value_t = DEFAULT_LIMITS.max_frame_bytes,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1 << 20)
    )]
    pub max_frame_bytes: usize,
    /// Messages the server may have queued for one connection before it counts as not keeping up
    /// and is closed with code 4008 (it may reconnect and resume).
    #[arg(
        long,
        env = "SKIRMISH_OUTBOX_CAPACITY",
        default_value_t = DEFAULT_LIMITS.outbox_capacity,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1 << 20)
    )]
    pub outbox_capacity: usize,
    /// Milliseconds a new connection has to say `hello` before it is closed with code 4001.
    #[arg(long, env = "SKIRMISH_HELLO_TIMEOUT_MS", default_value_t = DEFAULT_LIMITS.hello_timeout_ms)]
    pub hello_timeout_ms: u64,
    /// Deepest nesting of JSON arrays and objects read in a client frame; a deeper one is answered
    /// with `too_deep` and dropped.
    #[arg(long, env = "SKIRMISH_MAX_JSON_DEPTH", default_value_t = DEFAULT_LIMITS.max_json_depth)]
    pub max_json_depth: usize,
    /// Client frames per second one connection may send on average (a token bucket); a client
    /// that empties its bucket is closed with code 4029.
    #[arg(
        long,
        env = "SKIRMISH_MESSAGES_PER_SECOND",
        default_value_t = DEFAULT_LIMITS.messages_per_second,
        value_parser = clap::value_parser!(u32).range(1..)
    )]
    pub messages_per_second: u32,
    /// The token bucket's size: frames a connection may send at once, above the average rate.
    #[arg(
        long,
        env = "SKIRMISH_MESSAGE_BURST",
        default_value_t = DEFAULT_LIMITS.message_burst,
        value_parser = clap::value_parser!(u32).range(1..)
    )]
    pub message_burst: u32,
    /// As `--messages-per-second`, for a bot connection (a bot plays many seats at once, and
    /// answers each turn within milliseconds); also its bucket's size.
    #[arg(
        long,
        env = "SKIRMISH_BOT_MESSAGES_PER_SECOND",
        default_value_t = DEFAULT_LIMITS.bot_messages_per_second,
        value_parser = clap::value_parser!(u32).range(1..)
    )]
    pub bot_messages_per_second: u32,
    /// Rooms one player may have open (waiting or playing) that they created, across their
    /// connections (a reconnect with the resume token keeps the count); more are refused with
    /// `too_many_rooms`.
    #[arg(long, env = "SKIRMISH_ROOMS_PER_PLAYER", default_value_t = DEFAULT_LIMITS.rooms_per_player)]
    pub rooms_per_player: usize,
    /// Rooms one IP address may have open that were created from it, whoever said hello there
    /// (a reconnect as a new player keeps the count); more are refused with
    /// `too_many_rooms_from_address`.
    #[arg(long, env = "SKIRMISH_ROOMS_PER_ADDRESS", default_value_t = DEFAULT_LIMITS.rooms_per_address)]
    pub rooms_per_address: usize,
    /// Milliseconds a room may wait for its players before it closes unstarted: its owner and
    /// everyone in it get `room_closed` with `room_expired`, and it leaves the lobby and the
    /// database (0: rooms wait for ever).
    #[arg(long, env = "SKIRMISH_ROOM_EXPIRY_MS", default_value_t = DEFAULT_LIMITS.room_expiry_ms)]
    pub room_expiry_ms: u64,
    /// WebSocket connections one IP address may hold at once; more are refused with HTTP 429.
    #[arg(long, env = "SKIRMISH_CONNECTIONS_PER_ADDRESS", default_value_t = DEFAULT_LIMITS.connections_per_address)]
    pub connections_per_address: usize,
    /// WebSocket connections one IP address may hold that have not said `hello` yet; more are
    /// refused with HTTP 429 (each is closed with 4001 after `--hello-timeout-ms`).
    #[arg(long, env = "SKIRMISH_UPGRADES_PER_ADDRESS", default_value_t = DEFAULT_LIMITS.upgrades_per_address)]
    pub upgrades_per_address: usize,
    /// HTTP connections (TCP connections not upgraded to a WebSocket) one IP address may hold at
    /// once; a connection over it is closed as soon as it is accepted.
    #[arg(long, env = "SKIRMISH_HTTP_CONNECTIONS_PER_ADDRESS", default_value_t = DEFAULT_LIMITS.http_connections_per_address)]
    pub http_connections_per_address: usize,
    /// HTTP requests from one IP address the server handles at once, over all its connections;
    /// one more is answered at once with HTTP 429.
    #[arg(long, env = "SKIRMISH_REQUESTS_PER_ADDRESS", default_value_t = DEFAULT_LIMITS.requests_per_address, value_parser = clap::value_parser!(u32).range(1..))]
    pub requests_per_address: u32,
    /// Milliseconds a connection has to send a request's headers, from when it opens or from
    /// the end of its previous response; then it is closed without an answer (a connection that
    /// sends nothing included).
    #[arg(long, env = "SKIRMISH_HEADER_READ_TIMEOUT_MS", default_value_t = DEFAULT_LIMITS.header_read_timeout_ms, value_parser = clap::value_parser!(u64).range(1..))]
    pub header_read_timeout_ms: u64,
    /// Milliseconds the server spends on one HTTP request, its body read included; a longer one
    /// is answered with HTTP 408.
    #[arg(long, env = "SKIRMISH_REQUEST_TIMEOUT_MS", default_value_t = DEFAULT_LIMITS.request_timeout_ms, value_parser = clap::value_parser!(u64).range(1..))]
    pub request_timeout_ms: u64,
    /// Milliseconds a connection may go without sending anything (frames, or the pongs that
    /// answer the server's pings every half of this) before it is closed with code 4000.
    #[arg(long, env = "SKIRMISH_IDLE_TIMEOUT_MS", default_value_t = DEFAULT_LIMITS.idle_timeout_ms, value_parser = clap::value_parser!(u64).range(100..))]
    pub idle_timeout_ms: u64,
    /// Milliseconds to deploy each round in a room created without a clock (plane battle; 0: no
    /// limit).
    #[arg(
        long,
        env = "SKIRMISH_DEFAULT_DEPLOY_MS",
        default_value_t = DEFAULT_LIMITS.default_deploy_ms,
        help_heading = "Time controls"
    )]
    pub default_deploy_ms: u64,
    /// Milliseconds for each shot or stone in a room created without a clock (0: no limit).
    #[arg(
        long,
        env = "SKIRMISH_DEFAULT_MOVE_MS",
        default_value_t = DEFAULT_LIMITS.default_move_ms,
        help_heading = "Time controls"
    )]
    pub default_move_ms: u64,
    /// The longest time limit a room may set, in milliseconds; 0 (no limit) is always allowed.
    #[arg(
        long,
        env = "SKIRMISH_MAX_CLOCK_MS",
        default_value_t = DEFAULT_LIMITS.max_clock_ms,
        help_heading = "Time controls"
    )]
    pub max_clock_ms: u64,
    /// Milliseconds a player who dropped mid-match has to reconnect and take their seat back, in
    /// a room created without a drop policy; after it a bot takes the seat over (or the seat
    /// forfeits when no bot is connected). Also how long every seat waits after a restart.
    #[arg(
        long,
        env = "SKIRMISH_GRACE_MS",
        default_value_t = DEFAULT_LIMITS.grace_ms,
        help_heading = "Time controls"
    )]
    pub grace_ms: u64,
    /// Milliseconds a room made by quick match waits for people before bots fill its empty
    /// seats and its match starts (docs/playing.md, "Quick match").
    #[arg(
        long,
        env = "SKIRMISH_QUICK_MATCH_WAIT_MS",
        default_value_t = DEFAULT_LIMITS.quick_match_wait_ms,
        help_heading = "Time controls"
    )]
    pub quick_match_wait_ms: u64,
    /// A key every anonymous bot (one without an account token) must give in its `hello`; people
    /// and account bots need none. Without this option, any connection may offer itself as an
    /// anonymous bot for casual seats (while `--anonymous-bots allow`). Its value never appears in
    /// logs or `--help`.
    #[arg(
        long,
        env = "SKIRMISH_BOT_KEY",
        hide_env_values = true,
        help_heading = "Access"
    )]
    pub bot_key: Option<skirmish_protocol::AccessKey>,
    /// A key that creates and cancels tournaments over the HTTP API (`Authorization: Bearer
    /// <key>`), besides the admin key, which does too. Without either (and without
    /// `--open-tournaments`) no one may. Its value never appears in logs or `--help`.
    #[arg(
        long,
        env = "SKIRMISH_TOURNAMENT_KEY",
        hide_env_values = true,
        help_heading = "Access"
    )]
    pub tournament_key: Option<skirmish_protocol::AccessKey>,
    /// Lets anyone who reaches the server create and cancel tournaments, without a key: for a
    /// server on a trusted network. Each address may then run `--tournaments-per-address`
    /// tournaments at once. Off by default: a stranger makes nothing.
    #[arg(long, env = "SKIRMISH_OPEN_TOURNAMENTS", help_heading = "Access")]
    pub open_tournaments: bool,
    /// Tournaments this server runs at once, whoever made them; one more is refused with
    /// `too_many_tournaments` (429) until one is over. Each keeps every entrant busy, so a few
    /// are plenty.
    #[arg(long, env = "SKIRMISH_MAX_TOURNAMENTS", default_value_t = DEFAULT_LIMITS.max_tournaments, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1024), help_heading = "Access")]
    pub max_tournaments: usize,
    /// With `--open-tournaments`: tournaments one address may run at once; one more is refused
    /// with `too_many_tournaments_from_address` (429). A key's holder is not counted.
    #[arg(long, env = "SKIRMISH_TOURNAMENTS_PER_ADDRESS", default_value_t = DEFAULT_LIMITS.tournaments_per_address, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1024), help_heading = "Access")]
    pub tournaments_per_address: usize,
    /// A PEM file with the server's certificate chain: with `--tls-key`, every connection speaks
    /// TLS (https and wss). Reloaded when it changes (see `--tls-reload-ms`).
    #[arg(long, env = "SKIRMISH_TLS_CERT", requires = "tls_key", help_heading = "TLS")]
    pub tls_cert: Option<PathBuf>,
    /// A PEM file with the certificate's private key.
    #[arg(long, env = "SKIRMISH_TLS_KEY", requires = "tls_cert", help_heading = "TLS")]
    pub tls_key: Option<PathBuf>,
    /// Milliseconds between two looks at the certificate's files; changed files are loaded for
    /// the connections that follow (a renewal needs no restart).
    #[arg(long, env = "SKIRMISH_TLS_RELOAD_MS", default_value_t = DEFAULT_LIMITS.tls_reload_ms, value_parser = clap::value_parser!(u64).range(10..), help_heading = "TLS")]
    pub tls_reload_ms: u64,
    /// The key of the admin HTTP API that registers, rotates and revokes bot accounts
    /// (`Authorization: Bearer <key>`, `skirmish-bots account --admin-key`); without this
    /// option that API refuses every request. Its value never appears in logs or `--help`.
    #[arg(
        long,
        env = "SKIRMISH_ADMIN_KEY",
        hide_env_values = true,
        help_heading = "Access"
    )]
    pub admin_key: Option<skirmish_protocol::AccessKey>,
    /// Whether bots without an account token may connect and fill casual seats (rooms people
    /// make, `add_bot`, a dropped player's seat). They never enter tournaments either way.
    #[arg(
        long,
        env = "SKIRMISH_ANONYMOUS_BOTS",
        value_enum,
        default_value_t = DEFAULT_LIMITS.anonymous_bots,
        help_heading = "Access"
    )]
    pub anonymous_bots: AnonymousBots,
    /// Finished casual matches the server keeps for their replays and "My games", whoever
    /// played them; the oldest is dropped when one more is kept (docs/playing.md, "Replays").
    #[arg(long, env = "SKIRMISH_REPLAYS_KEPT", default_value_t = DEFAULT_LIMITS.replays_kept)]
    pub replays_kept: u64,
    /// Days a finished casual match's replay is kept (0: no age limit, only `--replays-kept`).
    #[arg(long, env = "SKIRMISH_REPLAY_DAYS", default_value_t = DEFAULT_LIMITS.replay_days)]
    pub replay_days: u64,
    /// The most games two accounts play each other on one ladder in any 24 hours (20: enough for
    /// their ratings to settle, not so many that one pair fills the ladder; docs/ladder.md).
    #[arg(long, env = "SKIRMISH_LADDER_PAIR_GAMES_PER_DAY", default_value_t = DEFAULT_LIMITS.ladder_pair_games_per_day)]
    pub ladder_pair_games_per_day: u32,
    /// The most games each ladder plays at once (8: a small server's two cores stay free for
    /// people's rooms).
    #[arg(long, env = "SKIRMISH_LADDER_CONCURRENT", default_value_t = DEFAULT_LIMITS.ladder_concurrent)]
    pub ladder_concurrent: u32,
    /// Games lost in a row by an engine failure or a clock running out after which a ladder
    /// entrant is paused (3).
    #[arg(long, env = "SKIRMISH_LADDER_PAUSE_AFTER", default_value_t = DEFAULT_LIMITS.ladder_pause_after)]
    pub ladder_pause_after: u32,
    /// How long a paused ladder entrant waits before it is paired again, in milliseconds
    /// (600,000: ten minutes); a new version of the bot is a new entrant and is paired at once.
    #[arg(long, env = "SKIRMISH_LADDER_COOLDOWN_MS", default_value_t = DEFAULT_LIMITS.ladder_cooldown_ms)]
    pub ladder_cooldown_ms: u64,
    /// Milliseconds for each move in a ladder game (5,000, a tournament's default).
    #[arg(long, env = "SKIRMISH_LADDER_MOVE_MS", default_value_t = DEFAULT_LIMITS.ladder_move_ms)]
    pub ladder_move_ms: u64,
    /// Milliseconds for each deployment in a ladder game (10,000, a tournament's default).
    #[arg(long, env = "SKIRMISH_LADDER_DEPLOY_MS", default_value_t = DEFAULT_LIMITS.ladder_deploy_ms)]
    pub ladder_deploy_ms: u64,
}

/// Whether bots without an account may connect ([`Limits::anonymous_bots`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum AnonymousBots {
    /// They may, to fill casual seats (the default: the built-in pool and bots people run for
    /// themselves keep working without an account).
    #[default]
    Allow,
    /// They are refused with `token_required`: every bot needs an account.
    Deny,
}

impl Default for Limits {
    fn default() -> Self {
        DEFAULT_LIMITS
    }
}

impl Limits {
    /// The cap on kept matches ([`Limits::replays_kept`], [`Limits::replay_days`]).
    pub fn replay_cap(&self) -> crate::store::ReplayCap {
        crate::store::ReplayCap {
            count: self.replays_kept,
            max_age_ms: self.replay_days.saturating_mul(86_400_000),
        }
    }

    /// The ladders' options ([`Limits::ladder_pair_games_per_day`] and the rest; the grace
    /// period is [`Limits::grace_ms`]).
    pub fn ladder_options(&self) -> crate::ladder::LadderOptions {
        crate::ladder::LadderOptions {
            pair_games_per_day: self.ladder_pair_games_per_day,
            concurrent: self.ladder_concurrent,
            pause_after: self.ladder_pause_after.max(1),
            cooldown_ms: self.ladder_cooldown_ms,
            move_ms: self.ladder_move_ms,
            deploy_ms: self.ladder_deploy_ms,
            grace_ms: self.grace_ms,
        }
    }

    /// How long a room may wait for its players ([`Limits::room_expiry_ms`]; `None` for ever).
    pub fn room_expiry(&self) -> Option<std::time::Duration> {
        (self.room_expiry_ms > 0).then(|| std::time::Duration::from_millis(self.room_expiry_ms))
    }
}
