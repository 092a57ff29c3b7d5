//! `skirmish-bots account`: registers, rotates and revokes bot accounts on a server over its admin
//! HTTP API (`/api/accounts`, with the server's `--admin-key`). A new token is printed once, on
//! stdout alone, so that it can be piped into a secret store; the server keeps only its hash.

use anyhow::Context;
use skirmish_protocol::AccessKey;
use skirmish_protocol::accounts::{Account, AccountIssued, AccountRequest};

/// `skirmish-bots account`'s options.
#[derive(Debug, clap::Args)]
pub struct AccountArgs {
    /// What to do.
    #[command(subcommand)]
    pub action: AccountAction,
    /// The server's HTTP address.
    #[arg(
        long,
        global = true,
        env = "SKIRMISH_SERVER",
        default_value = "http://127.0.0.1:8080"
    )]
    pub server: String,
    /// The server's admin key (its `--admin-key`). Its value never appears in logs or `--help`.
    #[arg(long, global = true, env = "SKIRMISH_ADMIN_KEY", hide_env_values = true)]
    pub admin_key: Option<AccessKey>,
}

/// What `skirmish-bots account` does.
#[derive(Debug, clap::Subcommand)]
pub enum AccountAction {
    /// Registers a bot account and prints its token (shown this once).
    Register {
        /// The bot's name (1 to 32 characters, unique on the server without regard to case).
        name: String,
    },
    /// Issues a new token for an account and prints it; the old one stops working at once.
    Rotate {
        /// The account's name.
        name: String,
    },
    /// Takes an account's token away; its name stays reserved (rotate gives it a token again).
    Revoke {
        /// The account's name.
        name: String,
    },
    /// Lists the accounts (never their tokens).
    List,
}

/// Runs the command: the token of a register or rotate goes to stdout alone, everything else to
/// stderr.
///
/// # Errors
/// The server cannot be reached, or refuses (its reason and code are in the error).
pub async fn run(args: &AccountArgs) -> anyhow::Result<()> {
    let base = args.server.trim_end_matches('/');
    let http = reqwest::Client::new();
    let request = match &args.action {
        AccountAction::Register { name } => http
            .post(format!("{base}/api/accounts"))
            .json(&AccountRequest { name: name.clone() }),
        AccountAction::Rotate { name } => http.post(format!("{base}/api/accounts/{}/rotate", path(name))),
        AccountAction::Revoke { name } => http.post(format!("{base}/api/accounts/{}/revoke", path(name))),
        AccountAction::List => http.get(format!("{base}/api/accounts")),
    };
    let request = match &args.admin_key {
        Some(key) => request.bearer_auth(key.expose()),
        None => request,
    };
    let response = request.send().await.context("reaching the server")?;
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
    match &args.action {
        AccountAction::Register { .. } | AccountAction::Rotate { .. } => {
            let issued: AccountIssued = serde_json::from_str(&body).context("reading the server's answer")?;
            eprintln!(
                "bot account `{}`: its token follows, shown this once; give it to the bot \
                 (skirmish-bots play --token, or SKIRMISH_BOT_TOKEN)",
                issued.name
            );
            println!("{}", issued.token.expose());
        }
        AccountAction::Revoke { .. } => {
            let account: Account = serde_json::from_str(&body).context("reading the server's answer")?;
            eprintln!(
                "bot account `{}`: token revoked; the name stays reserved",
                account.name
            );
        }
        AccountAction::List => {
            let accounts: Vec<Account> =
                serde_json::from_str(&body).context("reading the server's answer")?;
            for account in accounts {
                println!(
                    "{}\t{}",
                    account.name,
                    if account.active { "active" } else { "revoked" }
                );
            }
        }
    }
    Ok(())
}

/// `name` as one URL path segment (percent-encoded).
fn path(name: &str) -> String {
    name.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
                char::from(b).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}
