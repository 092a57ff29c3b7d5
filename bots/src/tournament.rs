//! `skirmish-bots tournament`: makes a tournament on a server over its HTTP API
//! (`POST /api/tournaments`), follows it with a progress bar, and prints the final standings and
//! crosstable.

use std::time::Duration;

use anyhow::Context;
use comfy_table::{Cell, Table, presets::UTF8_FULL_CONDENSED};
use indicatif::{ProgressBar, ProgressStyle};
use skirmish_protocol::tournament::{
    Entrant, Format, Standings, TournamentConfig, TournamentId, TournamentState, TournamentStatus,
};
use skirmish_protocol::{AccessKey, Clock, GameConfig, gomoku, junqi, plane};

/// The game a tournament plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum GameArg {
    /// Plane battle (`--players`, `--rounds`).
    Plane,
    /// Gomoku (`--size`, `--rule`, `--openings`).
    Gomoku,
    /// Junqi.
    Junqi,
}

/// How entrants are paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FormatArg {
    /// Every pair (every triple for 3-player plane battle).
    RoundRobin,
    /// Swiss rounds (`--swiss-rounds`).
    Swiss,
}

/// `skirmish-bots tournament`'s options.
#[derive(Debug, clap::Args)]
pub struct TournamentArgs {
    /// The server's HTTP address.
    #[arg(long, env = "SKIRMISH_SERVER", default_value = "http://127.0.0.1:8080")]
    pub server: String,
    /// Follow this tournament (made before) instead of making a new one.
    #[arg(long)]
    pub follow: Option<TournamentId>,
    /// The game.
    #[arg(long, value_enum, default_value_t = GameArg::Gomoku)]
    pub game: GameArg,
    /// Plane battle: players per match, 2 or 3.
    #[arg(long, default_value_t = 2)]
    pub players: u8,
    /// Plane battle: rounds per match (docs/rules.md, plane battle; 18 by default).
    #[arg(long, default_value_t = 18)]
    pub rounds: u32,
    /// Gomoku: lines per side (15 or 19).
    #[arg(long, default_value_t = 15)]
    pub size: u8,
    /// Gomoku: `freestyle`, `standard` or `renju`.
    #[arg(long, default_value = "freestyle")]
    pub rule: String,
    /// Gomoku: openings each pairing plays with both colours, comma-separated (docs/rules.md,
    /// gomoku; default: the empty board).
    #[arg(long, value_delimiter = ',')]
    pub openings: Vec<String>,
    /// The pairing format.
    #[arg(long, value_enum, default_value_t = FormatArg::RoundRobin)]
    pub format: FormatArg,
    /// Swiss: rounds to play (default ⌈log2 entrants⌉).
    #[arg(long)]
    pub swiss_rounds: Option<u32>,
    /// Entrants as `account/strategy`, comma-separated (default: every strategy for the game of
    /// every bot account connected; anonymous bots never enter).
    #[arg(long, value_delimiter = ',')]
    pub entrants: Vec<String>,
    /// Sets per pairing (each set is every seat order, and every opening both ways).
    #[arg(long, default_value_t = 1)]
    pub games_per_pairing: u32,
    /// Let the bots deploy for themselves instead of duplicate matches with dealt deployments
    /// (plane battle; junqi entrants deploy their own unless `--deal-layouts`).
    #[arg(long, conflicts_with = "deal_layouts")]
    pub no_duplicate: bool,
    /// Junqi: duplicate matches with dealt layouts (by default each entrant deploys its own).
    #[arg(long)]
    pub deal_layouts: bool,
    /// Matches played at once.
    #[arg(long, default_value_t = 4)]
    pub parallel: u32,
    /// Milliseconds per move (0: no limit).
    #[arg(long, default_value_t = 5_000)]
    pub move_ms: u64,
    /// Milliseconds per deployment (0: no limit).
    #[arg(long, default_value_t = 10_000)]
    pub deploy_ms: u64,
    /// Milliseconds of thinking per seat for a whole match (0: no limit).
    #[arg(long, default_value_t = 0)]
    pub game_ms: u64,
    /// Milliseconds a dropped bot has to come back before it loses the match.
    #[arg(long, default_value_t = 10_000)]
    pub grace_ms: u64,
    /// The seed of the schedule and the deals (default: random). Secret while the tournament
    /// runs: only the commitment to it is printed; `skirmish-bots audit` checks it after.
    #[arg(long)]
    pub seed: Option<u64>,
    /// A name for the tournament.
    #[arg(long)]
    pub name: Option<String>,
    /// The server's tournament key or admin key (`--tournament-key`, `--admin-key`): a server
    /// makes tournaments only with one, unless started with `--open-tournaments`.
    #[arg(long, env = "SKIRMISH_TOURNAMENT_KEY", hide_env_values = true)]
    pub key: Option<AccessKey>,
    /// Print the final standings as JSON (the API's shape) instead of tables.
    #[arg(long)]
    pub json: bool,
    /// Make the tournament, print its id and page, and exit without following it.
    #[arg(long)]
    pub no_wait: bool,
}

impl TournamentArgs {
    /// The tournament these options ask for.
    ///
    /// # Errors
    /// An entrant not written `bot/strategy`, or an unknown gomoku rule.
    pub fn config(&self) -> anyhow::Result<TournamentConfig> {
        let game = match self.game {
            GameArg::Plane => GameConfig::Plane(plane::Config {
                players: self.players,
                format: plane::MatchFormat::Rounds(self.rounds),
                ..plane::Config::default()
            }),
            GameArg::Gomoku => GameConfig::Gomoku(gomoku::Config {
                size: self.size,
                rule: serde_json::from_value(serde_json::Value::String(self.rule.clone()))
                    .map_err(|_| anyhow::anyhow!("the rule is freestyle, standard or renju"))?,
                opening: None,
            }),
            GameArg::Junqi => GameConfig::Junqi(junqi::Config::default()),
        };
        let entrants = self
            .entrants
            .iter()
            .map(|e| {
                let (bot, strategy) = e
                    .rsplit_once('/')
                    .with_context(|| format!("entrant `{e}` is not written bot/strategy"))?;
                Ok(Entrant {
                    bot: bot.to_owned(),
                    strategy: strategy.to_owned(),
                    version: None,
                })
            })
            .collect::<anyhow::Result<_>>()?;
        Ok(TournamentConfig {
            name: self.name.clone(),
            game,
            clock: Some(Clock {
                deploy_ms: self.deploy_ms,
                move_ms: self.move_ms,
                game_ms: self.game_ms,
            }),
            format: match self.format {
                FormatArg::RoundRobin => Format::RoundRobin,
                FormatArg::Swiss => Format::Swiss {
                    rounds: self.swiss_rounds,
                },
            },
            entrants,
            games_per_pairing: self.games_per_pairing,
            openings: self.openings.clone(),
            // None: the game's default (on for plane battle, off for junqi).
            duplicate: if self.no_duplicate {
                Some(false)
            } else if self.deal_layouts {
                Some(true)
            } else {
                None
            },
            parallel: self.parallel,
            grace_ms: self.grace_ms,
            seed: self.seed,
        })
    }
}

/// An HTTP client of one server's tournament API.
struct Api {
    http: reqwest::Client,
    base: String,
    key: Option<AccessKey>,
}

impl Api {
    async fn answer<T: serde::de::DeserializeOwned>(response: reqwest::Response) -> anyhow::Result<T> {
        let status = response.status();
        let body = response.text().await?;
        if !status.is_success() {
            let refusal: serde_json::Value = serde_json::from_str(&body).unwrap_or_default();
            anyhow::bail!(
                "the server refused ({status}): {} ({})",
                refusal["message"].as_str().unwrap_or(&body),
                refusal["code"].as_str().unwrap_or("?")
            );
        }
        serde_json::from_str(&body).with_context(|| format!("reading the server's answer: {body}"))
    }

    async fn create(&self, config: &TournamentConfig) -> anyhow::Result<TournamentStatus> {
        let mut request = self
            .http
            .post(format!("{}/api/tournaments", self.base))
            .json(config);
        if let Some(key) = &self.key {
            request = request.bearer_auth(key.expose());
        }
        Api::answer(request.send().await.context("reaching the server")?).await
    }

    async fn status(&self, id: TournamentId) -> anyhow::Result<TournamentStatus> {
        let url = format!("{}/api/tournaments/{id}", self.base);
        Api::answer(self.http.get(url).send().await.context("reaching the server")?).await
    }

    async fn standings(&self, id: TournamentId) -> anyhow::Result<Standings> {
        let url = format!("{}/api/tournaments/{id}/standings", self.base);
        Api::answer(self.http.get(url).send().await.context("reaching the server")?).await
    }
}

/// Makes (or follows) a tournament, shows its progress, and prints its final standings.
///
/// # Errors
/// The server cannot be reached, or refuses the tournament (the reason and code are in the
/// error).
pub async fn run(args: &TournamentArgs) -> anyhow::Result<()> {
    let api = Api {
        http: reqwest::Client::new(),
        base: args.server.trim_end_matches('/').to_owned(),
        key: args.key.clone(),
    };
    let id = match args.follow {
        Some(id) => id,
        None => {
            let status = api.create(&args.config()?).await?;
            eprintln!(
                "tournament {} ({}): {} entrants, {} matches, seed commitment {}; page: {}/tournament/{}",
                status.summary.name,
                status.summary.id,
                status.summary.entrants.len(),
                status.summary.total,
                status.seed.sha256,
                api.base,
                status.summary.id
            );
            status.summary.id
        }
    };
    if args.no_wait {
        println!("{id}");
        return Ok(());
    }
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template("{spinner} [{elapsed_precise}] {bar:40} {pos}/{len} matches, {msg}")
            .expect("a valid template"),
    );
    let status = loop {
        let status = api.status(id).await?;
        bar.set_length(u64::from(status.summary.total));
        bar.set_position(u64::from(status.summary.finished));
        bar.set_message(format!("{} running", status.summary.running));
        if status.summary.state != TournamentState::Running {
            break status;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    };
    bar.finish_with_message(format!("{:?}", status.summary.state).to_lowercase());
    let standings = api.standings(id).await?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&standings)?);
    } else {
        println!("{}", standings_table(&standings));
        println!("{}", crosstable(&standings));
        match &standings.dealing {
            skirmish_protocol::tournament::Dealing::Fresh { why } => {
                println!("Duplicate was not possible: {why}.")
            }
            skirmish_protocol::tournament::Dealing::Duplicate { tables } => {
                println!("Duplicate: each deal played at up to {tables} tables, never twice by one entrant.");
            }
            skirmish_protocol::tournament::Dealing::Own => {}
        }
    }
    Ok(())
}

/// The standings as a table: rank, entrant, matches, W/D/L, score, points, placings, the losses
/// on the board and the forfeits by cause (clock, dropped out, absent, engine failure, other),
/// the duplicate comparison when any deal was played at several tables (points over the other
/// tables of the same deal, and the seats compared), Elo with its 95% interval.
pub fn standings_table(standings: &Standings) -> Table {
    let seats = standings.table.first().map_or(0, |l| l.placings.len());
    let duplicate = standings.table.iter().any(|l| l.duplicate_boards > 0);
    let mut table = Table::new();
    table.load_style(UTF8_FULL_CONDENSED);
    let mut header = vec![
        "#",
        "entrant",
        "version",
        "matches",
        "W",
        "D",
        "L",
        "score",
        "points",
        "per match",
    ];
    let places = ["1st", "2nd", "3rd"];
    if seats > 2 {
        header.extend(places.iter().take(seats));
    }
    header.extend([
        "L on board",
        "forfeit: time",
        "dropped",
        "absent",
        "engine",
        "other",
    ]);
    if duplicate {
        header.extend(["duplicate ±", "compared"]);
    }
    header.extend(["Elo", "95% interval"]);
    table.set_header(header);
    for line in &standings.table {
        let entrant = &standings.entrants[line.entrant];
        let mut row = vec![
            Cell::new(line.rank),
            Cell::new(format!("{}/{}", entrant.bot, entrant.strategy)),
            Cell::new(entrant.version.as_deref().unwrap_or("")),
            Cell::new(line.matches),
            Cell::new(line.wins),
            Cell::new(line.draws),
            Cell::new(line.losses),
            Cell::new(line.score),
            Cell::new(line.points),
            Cell::new(format!("{:.2}", line.average_points)),
        ];
        if seats > 2 {
            row.extend(line.placings.iter().map(Cell::new));
        }
        let by = &line.forfeits_by;
        row.extend([
            Cell::new(line.board_losses),
            Cell::new(by.timed_out),
            Cell::new(by.disconnected),
            Cell::new(by.absent),
            Cell::new(by.engine_failure),
            Cell::new(by.other),
        ]);
        if duplicate {
            row.extend([
                Cell::new(format!("{:+.1}", line.duplicate)),
                Cell::new(line.duplicate_boards),
            ]);
        }
        row.extend([
            Cell::new(format!("{:.0}", line.elo)),
            Cell::new(format!("[{:.0}, {:.0}]", line.elo_low, line.elo_high)),
        ]);
        table.add_row(row);
    }
    table
}

/// The crosstable: each row's pairwise score against each column, out of the games played.
pub fn crosstable(standings: &Standings) -> Table {
    let mut table = Table::new();
    table.load_style(UTF8_FULL_CONDENSED);
    let order: Vec<usize> = standings.table.iter().map(|l| l.entrant).collect();
    let mut header = vec![Cell::new("")];
    header.extend(order.iter().map(|e| Cell::new(&standings.entrants[*e])));
    table.set_header(header);
    for a in &order {
        let mut row = vec![Cell::new(&standings.entrants[*a])];
        for b in &order {
            let cell = &standings.crosstable[*a][*b];
            row.push(Cell::new(if a == b {
                "·".to_owned()
            } else {
                format!("{}/{}", cell.score, cell.games)
            }));
        }
        table.add_row(row);
    }
    table
}
