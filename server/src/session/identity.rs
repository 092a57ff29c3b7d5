//! Who says `hello`: the bot account its token proves, and the name it may use.

use skirmish_protocol::ErrorCode;

use crate::AppState;

/// The bot account a `hello` proves with its `token`, or `None` for an anonymous client.
///
/// # Errors
/// The code and message refusing the `hello`: `bad_token` (a token not issued, or revoked or
/// rotated), `token_required` (an anonymous bot on a server that admits none), `bad_key` (an
/// anonymous bot without the server's bot key), `unavailable` (storage failed).
pub(super) async fn account_of(
    state: &AppState,
    is_bot: bool,
    token: Option<&skirmish_protocol::AccountToken>,
    key: Option<&skirmish_protocol::AccessKey>,
) -> Result<Option<String>, (ErrorCode, String)> {
    if let Some(token) = token {
        let account = state
            .store
            .account_by_token(token.digest())
            .await
            .map_err(|err| {
                tracing::warn!(cause = %err, "accounts could not be read");
                (
                    ErrorCode::Unavailable,
                    "accounts cannot be read now; try again".to_owned(),
                )
            })?;
        return match account {
            Some(account) if is_bot => Ok(Some(account)),
            Some(_) => Err((
                ErrorCode::BadToken,
                "an account token is for a bot: say hello with `bot`".to_owned(),
            )),
            None => Err((
                ErrorCode::BadToken,
                "this account token is not (or no longer) valid here".to_owned(),
            )),
        };
    }
    if !is_bot {
        return Ok(None);
    }
    if state.limits.anonymous_bots == crate::AnonymousBots::Deny {
        return Err((
            ErrorCode::TokenRequired,
            "this server admits only bots with an account token (the bot's --token)".to_owned(),
        ));
    }
    if let Some(required) = &state.limits.bot_key
        && !required.admits(key)
    {
        return Err((
            ErrorCode::BadKey,
            "this server admits anonymous bots only with its key (the bot's --key)".to_owned(),
        ));
    }
    Ok(None)
}

/// The name a `hello` may use: an account bot's is its account's (as registered, whatever the
/// case said); anyone else's must not be an account's.
///
/// # Errors
/// `bad_name` for an account bot saying another name, `name_taken` for anyone else saying an
/// account's name, `unavailable` when storage failed.
pub(super) async fn check_name(
    state: &AppState,
    name: String,
    account: Option<&str>,
) -> Result<String, (ErrorCode, String)> {
    if let Some(account) = account {
        if crate::accounts::name_key(&name) == crate::accounts::name_key(account) {
            return Ok(account.to_owned());
        }
        return Err((
            ErrorCode::BadName,
            format!("this token is the bot account `{account}`'s: say hello as `{account}`"),
        ));
    }
    match state.store.account_named(name.clone()).await {
        Ok(None) => Ok(name),
        Ok(Some(account)) => Err((
            ErrorCode::NameTaken,
            format!("`{account}` is a bot account's name: only its token may use it"),
        )),
        Err(err) => {
            tracing::warn!(cause = %err, "accounts could not be read");
            Err((
                ErrorCode::Unavailable,
                "accounts cannot be read now; try again".to_owned(),
            ))
        }
    }
}
