//! Bot accounts: a bot is registered once and gets its own secret token, as a lichess bot account
//! has its API token. `hello` with the token is that account's bot; the account's name is its
//! alone (no other connection, anonymous or not, may say it); only account bots enter tournaments,
//! and a tournament entrant's seats go to the account's connection alone.
//!
//! Tokens are 256 random bits from the operating system ([`AccountToken::random`]), shown once
//! when issued and stored only as their SHA-256, so that neither the database nor a backup of it
//! holds a token anyone could use. Revoking takes the token away and keeps the name reserved;
//! rotating issues a new token and the old one stops working at once. Either closes the account's
//! live connection ([`skirmish_protocol::CLOSE_REPLACED`]).
//!
//! The admin HTTP API, guarded by the server's `--admin-key` (`Authorization: Bearer <key>`;
//! without the option the API refuses every request with `admin_disabled`):
//!
//! - `POST /api/accounts` with an [`AccountRequest`]: registers one; `201` with [`AccountIssued`].
//! - `GET /api/accounts`: every account ([`Account`]), tokens never included.
//! - `POST /api/accounts/{name}/rotate`: a new token; `200` with [`AccountIssued`].
//! - `POST /api/accounts/{name}/revoke`: takes the token away; `200` with the [`Account`].
//!
//! Refusals are `{"code": ..., "message": ...}`: `bad_name` (400), `bad_key` (401),
//! `admin_disabled` (403), `no_such_account` (404), `name_taken` (409), `storage` (500), and
//! `bad_json` for a body that is not the JSON expected.

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use axum::{Json, Router};
use skirmish_protocol::accounts::{Account, AccountIssued, AccountRequest};
use skirmish_protocol::{AccountToken, ErrorCode};

use crate::AppState;
use crate::http_error::HttpError;
use crate::store::{Store, StoreError, on_conn};
use crate::wall_clock::now_ms;

/// Why an account request was refused; each has a stable code.
#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    /// The name is empty, too long, or has nothing printable.
    #[error("a bot's name has 1 to 32 printable characters")]
    BadName,
    /// Another account has this name (compared without regard to case).
    #[error("the name `{0}` is another account's")]
    NameTaken(String),
    /// No account has this name.
    #[error("no account `{0}`")]
    NoSuchAccount(String),
    /// Storage failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl AccountError {
    /// The stable code (`bad_name`, `name_taken`, `no_such_account`, `storage`).
    pub fn code(&self) -> ErrorCode {
        match self {
            AccountError::BadName => ErrorCode::BadName,
            AccountError::NameTaken(_) => ErrorCode::NameTaken,
            AccountError::NoSuchAccount(_) => ErrorCode::NoSuchAccount,
            AccountError::Store(_) => ErrorCode::Storage,
        }
    }
}

/// A name as `hello` takes it ([`skirmish_protocol::clean_name`]: control and
/// bidirectional-formatting characters dropped, spaces trimmed); `None` unless 1 to 32
/// characters are left.
pub fn clean_name(name: &str) -> Option<String> {
    let name = skirmish_protocol::clean_name(name);
    (!name.is_empty() && name.chars().count() <= 32).then_some(name)
}

/// The key a name is unique by: its lowercase form, so that `Alpha` cannot pass for `alpha`.
pub fn name_key(name: &str) -> String {
    name.to_lowercase()
}

/// The key two names count as the same person's by: the UTS #39 confusable skeleton
/// (`unicode-security`) of the lowercase name, so that Cyrillic `аlpha`, fullwidth `ａｌｐｈａ` or
/// `a1pha` cannot pass for the bot account `alpha` (invisible characters are gone already:
/// [`clean_name`]).
pub fn confusable_key(name: &str) -> String {
    let skeleton: String = unicode_security::skeleton(&name.to_lowercase()).collect();
    skeleton.to_lowercase()
}

impl Store {
    /// Registers the account `name` (already clean) holding the token whose SHA-256 is
    /// `digest`. Returns `false`, storing nothing, when the name is taken.
    ///
    /// # Errors
    /// The database's error.
    pub async fn register_account(&self, name: String, digest: String) -> Result<bool, StoreError> {
        let added = on_conn!(self, |conn| {
            sqlx::query(
                "INSERT INTO accounts (name_key, name, token_sha256, created_ms) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT DO NOTHING",
            )
            .bind(name_key(&name))
            .bind(&name)
            .bind(&digest)
            .bind(i64::try_from(now_ms()).unwrap_or(i64::MAX))
            .execute(&mut *conn)
            .await?
            .rows_affected()
        });
        Ok(added == 1)
    }

    /// Gives the account `name` the token whose SHA-256 is `digest` (`None`: no token, revoked).
    /// Returns the account's name as registered, or `None` when there is no such account.
    ///
    /// # Errors
    /// The database's error.
    pub async fn set_account_token(
        &self,
        name: String,
        digest: Option<String>,
    ) -> Result<Option<String>, StoreError> {
        // One statement: the update and the name it touched (RETURNING, in both engines).
        Ok(on_conn!(self, |conn| {
            sqlx::query_scalar("UPDATE accounts SET token_sha256 = $2 WHERE name_key = $1 RETURNING name")
                .bind(name_key(&name))
                .bind(&digest)
                .fetch_optional(&mut *conn)
                .await?
        }))
    }

    /// The name of the account whose token has the SHA-256 `digest`, if one has.
    ///
    /// # Errors
    /// The database's error.
    pub async fn account_by_token(&self, digest: String) -> Result<Option<String>, StoreError> {
        Ok(on_conn!(self, |conn| {
            sqlx::query_scalar("SELECT name FROM accounts WHERE token_sha256 = $1")
                .bind(&digest)
                .fetch_optional(&mut *conn)
                .await?
        }))
    }

    /// The registered name of the account called `name` (without regard to case), or of one
    /// whose name `name` could pass for ([`confusable_key`]), if any.
    ///
    /// Reads every account's name: accounts are made by the operator alone (the admin key), so
    /// they are few, and this runs once per `hello` without a token.
    ///
    /// # Errors
    /// The database's error.
    pub async fn account_named(&self, name: String) -> Result<Option<String>, StoreError> {
        let names: Vec<String> = on_conn!(self, |conn| {
            sqlx::query_scalar("SELECT name FROM accounts")
                .fetch_all(&mut *conn)
                .await?
        });
        let (key, confusable) = (name_key(&name), confusable_key(&name));
        Ok(names
            .into_iter()
            .find(|n| name_key(n) == key || confusable_key(n) == confusable))
    }

    /// Every account, by name.
    ///
    /// # Errors
    /// The database's error.
    pub async fn accounts(&self) -> Result<Vec<Account>, StoreError> {
        let rows: Vec<(String, i64, bool)> = on_conn!(self, |conn| {
            sqlx::query_as(
                "SELECT name, created_ms, token_sha256 IS NOT NULL FROM accounts ORDER BY name_key",
            )
            .fetch_all(&mut *conn)
            .await?
        });
        Ok(rows
            .into_iter()
            .map(|(name, created_ms, active)| Account {
                name,
                created_ms: u64::try_from(created_ms).unwrap_or(0),
                active,
            })
            .collect())
    }
}

/// Registers a bot account called `name` with a fresh token, shown in the answer only.
///
/// # Errors
/// [`AccountError::BadName`], [`AccountError::NameTaken`], or a storage error.
pub async fn register(store: &Store, name: &str) -> Result<AccountIssued, AccountError> {
    let name = clean_name(name).ok_or(AccountError::BadName)?;
    if let Some(taken) = store.account_named(name.clone()).await? {
        return Err(AccountError::NameTaken(taken));
    }
    let token = AccountToken::random();
    if !store.register_account(name.clone(), token.digest()).await? {
        return Err(AccountError::NameTaken(name));
    }
    tracing::info!(account = %name, "bot account registered");
    Ok(AccountIssued { name, token })
}

/// Gives the account `name` a fresh token; the old one stops working, and the account's live
/// connection (if any) is closed.
///
/// # Errors
/// [`AccountError::NoSuchAccount`], or a storage error.
pub async fn rotate(state: &AppState, name: &str) -> Result<AccountIssued, AccountError> {
    let token = AccountToken::random();
    let name = state
        .store
        .set_account_token(name.to_owned(), Some(token.digest()))
        .await?
        .ok_or_else(|| AccountError::NoSuchAccount(name.to_owned()))?;
    state.lobby.close_account(&name);
    tracing::info!(account = %name, "bot account token rotated");
    Ok(AccountIssued { name, token })
}

/// Takes the account `name`'s token away (the name stays the account's), and closes its live
/// connection (if any).
///
/// # Errors
/// [`AccountError::NoSuchAccount`], or a storage error.
pub async fn revoke(state: &AppState, name: &str) -> Result<Account, AccountError> {
    let name = state
        .store
        .set_account_token(name.to_owned(), None)
        .await?
        .ok_or_else(|| AccountError::NoSuchAccount(name.to_owned()))?;
    state.lobby.close_account(&name);
    tracing::info!(account = %name, "bot account token revoked");
    let listed = state.store.accounts().await?;
    Ok(listed.into_iter().find(|a| a.name == name).unwrap_or(Account {
        name,
        created_ms: 0,
        active: false,
    }))
}

/// The admin API's routes.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/accounts", post(create).get(list))
        .route("/api/accounts/{name}/rotate", post(rotate_route))
        .route("/api/accounts/{name}/revoke", post(revoke_route))
}

impl From<AccountError> for HttpError {
    fn from(err: AccountError) -> Self {
        let status = match &err {
            AccountError::BadName => StatusCode::BAD_REQUEST,
            AccountError::NameTaken(_) => StatusCode::CONFLICT,
            AccountError::NoSuchAccount(_) => StatusCode::NOT_FOUND,
            AccountError::Store(_) => StatusCode::INTERNAL_SERVER_ERROR,
        };
        HttpError::new(status, err.code(), err.to_string())
    }
}

/// Refuses a request without the server's admin key (every request when it has none).
fn check_admin(state: &AppState, headers: &HeaderMap) -> Result<(), HttpError> {
    let Some(required) = &state.limits.admin_key else {
        return Err(HttpError::new(
            StatusCode::FORBIDDEN,
            ErrorCode::AdminDisabled,
            "this server has no admin key (--admin-key): bot accounts cannot be managed over HTTP",
        ));
    };
    // The one reading of the header, the scheme's name in any case (RFC 7235), as for the
    // tournament key.
    let offered = crate::bearer::offered_key(headers);
    if required.admits(offered.as_ref()) {
        Ok(())
    } else {
        Err(HttpError::new(
            StatusCode::UNAUTHORIZED,
            ErrorCode::BadKey,
            "bot accounts are managed with the server's admin key: Authorization: Bearer <key>",
        ))
    }
}

async fn create(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Result<Json<AccountRequest>, JsonRejection>,
) -> Result<(StatusCode, Json<AccountIssued>), HttpError> {
    check_admin(&state, &headers)?;
    let Json(request) = body?;
    Ok((
        StatusCode::CREATED,
        Json(register(&state.store, &request.name).await?),
    ))
}

async fn list(State(state): State<AppState>, headers: HeaderMap) -> Result<Json<Vec<Account>>, HttpError> {
    check_admin(&state, &headers)?;
    let accounts = state.store.accounts().await.map_err(AccountError::Store)?;
    Ok(Json(accounts))
}

async fn rotate_route(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(name): Path<String>,
) -> Result<Json<AccountIssued>, HttpError> {
    check_admin(&state, &headers)?;
    Ok(Json(rotate(&state, &name).await?))
}

async fn revoke_route(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(name): Path<String>,
) -> Result<Json<Account>, HttpError> {
    check_admin(&state, &headers)?;
    Ok(Json(revoke(&state, &name).await?))
}
