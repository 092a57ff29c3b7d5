//! Who says `hello`: the bot account its token proves, and the name it may use.

use crate::AppState;
use crate::error::ServerError;

/// The bot account a `hello` proves with its `token`, or `None` for an anonymous client.
///
/// # Errors
/// The refusal of the `hello`: [`ServerError::BadToken`] (a token not issued, or revoked or
/// rotated), [`ServerError::TokenForPerson`] (a token said by a client that is not a bot),
/// [`ServerError::TokenRequired`] (an anonymous bot on a server that admits none),
/// [`ServerError::BadKey`] (an anonymous bot without the server's bot key),
/// [`ServerError::AccountsUnavailable`] (storage failed).
pub(super) async fn account_of(
    state: &AppState,
    is_bot: bool,
    token: Option<&skirmish_protocol::AccountToken>,
    key: Option<&skirmish_protocol::AccessKey>,
) -> Result<Option<String>, ServerError> {
    if let Some(token) = token {
        let account = state
            .store
            .account_by_token(token.digest())
            .await
            .map_err(|err| {
                tracing::warn!(cause = %err, "accounts could not be read");
                ServerError::AccountsUnavailable
            })?;
        return match account {
            Some(account) if is_bot => Ok(Some(account)),
            Some(_) => Err(ServerError::TokenForPerson),
            None => Err(ServerError::BadToken),
        };
    }
    if !is_bot {
        return Ok(None);
    }
    if state.limits.anonymous_bots == crate::AnonymousBots::Deny {
        return Err(ServerError::TokenRequired);
    }
    if let Some(required) = &state.limits.bot_key
        && !required.admits(key)
    {
        return Err(ServerError::BadKey);
    }
    Ok(None)
}

/// The name a `hello` may use: an account bot's is its account's (as registered, whatever the
/// case said); anyone else's must not be an account's.
///
/// # Errors
/// [`ServerError::NotAccountName`] (`bad_name`) for an account bot saying another name,
/// [`ServerError::NameTaken`] for anyone else saying an account's name,
/// [`ServerError::AccountsUnavailable`] when storage failed.
pub(super) async fn check_name(
    state: &AppState,
    name: String,
    account: Option<&str>,
) -> Result<String, ServerError> {
    if let Some(account) = account {
        if crate::accounts::name_key(&name) == crate::accounts::name_key(account) {
            return Ok(account.to_owned());
        }
        return Err(ServerError::NotAccountName(account.to_owned()));
    }
    match state.store.account_named(name.clone()).await {
        Ok(None) => Ok(name),
        Ok(Some(account)) => Err(ServerError::NameTaken(account)),
        Err(err) => {
            tracing::warn!(cause = %err, "accounts could not be read");
            Err(ServerError::AccountsUnavailable)
        }
    }
}
