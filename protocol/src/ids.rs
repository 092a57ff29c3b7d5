//! Identifiers: newtypes over UUIDs, written as their hyphenated text.

use std::fmt;
use std::str::FromStr;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// Text that is not a UUID.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseIdError(pub String);

impl fmt::Display for ParseIdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is not an id", self.0)
    }
}

impl std::error::Error for ParseIdError {}

macro_rules! uuid_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
        #[serde(transparent)]
        pub struct $name(pub Uuid);

        impl $name {
            /// A fresh random id (UUID v4).
            pub fn random() -> Self {
                $name(Uuid::new_v4())
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }

        impl FromStr for $name {
            type Err = ParseIdError;
            fn from_str(s: &str) -> Result<Self, ParseIdError> {
                Uuid::parse_str(s).map($name).map_err(|_| ParseIdError(s.to_owned()))
            }
        }
    };
}

uuid_id!(
    /// A tournament.
    TournamentId
);
uuid_id!(
    /// One match of a tournament.
    MatchId
);
uuid_id!(
    /// A room.
    RoomId
);
uuid_id!(
    /// A player (a person or a bot connection); public.
    PlayerId
);
/// A player's secret token for taking their seats back after a reconnect: 256 random bits from
/// the operating system's seeded generator, written as 64 lowercase hex digits.
///
/// Its `Debug` form hides it, so that logging a message never logs a token. A client may send any
/// string of up to 128 characters; one the server did not issue is refused as `bad_resume`.
#[derive(Clone, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(try_from = "String", into = "String")]
pub struct ResumeToken(String);

impl ResumeToken {
    /// A fresh random token.
    pub fn random() -> Self {
        use rand::RngCore;
        let mut bytes = [0u8; 32];
        rand::rng().fill_bytes(&mut bytes);
        ResumeToken(bytes.iter().map(|b| format!("{b:02x}")).collect())
    }

    /// The token's text, to store it on the client's side.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The SHA-256 of the token's text, in lowercase hex (64 characters): what the server keeps
    /// and stores to recognise the token, so that neither its memory nor its database holds a
    /// token someone could resume with.
    pub fn digest(&self) -> String {
        use sha2::{Digest, Sha256};
        hex::encode(Sha256::digest(self.0.as_bytes()))
    }
}

impl fmt::Debug for ResumeToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ResumeToken(<hidden>)")
    }
}

impl TryFrom<String> for ResumeToken {
    type Error = ParseIdError;
    fn try_from(s: String) -> Result<Self, ParseIdError> {
        if s.is_empty() || s.len() > 128 {
            return Err(ParseIdError("a resume token has 1 to 128 characters".to_owned()));
        }
        Ok(ResumeToken(s))
    }
}

impl From<ResumeToken> for String {
    fn from(token: ResumeToken) -> String {
        token.0
    }
}

/// An operator's secret key that admits bots to a server that requires one (the server's
/// `--bot-key`). 1 to 256 characters.
///
/// Its `Debug` form hides it, so that logging a message or the server's settings never logs a key;
/// [`AccessKey::admits`] compares keys without leaking, through timing, how much of a guess matched
/// (use it, not `==`, to check a key).
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(try_from = "String", into = "String")]
pub struct AccessKey(String);

impl AccessKey {
    /// Whether `offered` is this key. Both are hashed first (SHA-256), so the comparison's time
    /// does not depend on where a wrong guess first differs.
    pub fn admits(&self, offered: Option<&AccessKey>) -> bool {
        use sha2::{Digest, Sha256};
        offered.is_some_and(|o| Sha256::digest(self.0.as_bytes()) == Sha256::digest(o.0.as_bytes()))
    }

    /// The key's text, to send it (an HTTP `Authorization` header); never log it.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for AccessKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("AccessKey(<hidden>)")
    }
}

impl FromStr for AccessKey {
    type Err = ParseIdError;
    fn from_str(s: &str) -> Result<Self, ParseIdError> {
        if s.is_empty() || s.len() > 256 {
            return Err(ParseIdError("an access key has 1 to 256 characters".to_owned()));
        }
        Ok(AccessKey(s.to_owned()))
    }
}

impl TryFrom<String> for AccessKey {
    type Error = ParseIdError;
    fn try_from(s: String) -> Result<Self, ParseIdError> {
        s.parse()
    }
}

impl From<AccessKey> for String {
    fn from(key: AccessKey) -> String {
        key.0
    }
}

/// A bot account's secret token (`skirmish-bots account register`), sent in `hello` to be that
/// account's bot: 256 random bits from the operating system's generator, written as 64 lowercase
/// hex digits. The server shows it once, when it is issued, and keeps only its SHA-256
/// ([`AccountToken::digest`]).
///
/// Its `Debug` form hides it, so that logging a message never logs a token. A client may send any
/// string of 1 to 128 characters; one the server did not issue (or revoked) is refused as
/// `bad_token`.
#[derive(Clone, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(try_from = "String", into = "String")]
pub struct AccountToken(String);

impl AccountToken {
    /// A fresh random token, from the operating system's random number generator.
    ///
    /// # Panics
    /// When the operating system has no randomness to give (the server cannot issue secrets then).
    pub fn random() -> Self {
        use rand::TryRngCore;
        let mut bytes = [0u8; 32];
        rand::rngs::OsRng
            .try_fill_bytes(&mut bytes)
            .expect("the operating system's random number generator works");
        AccountToken(hex::encode(bytes))
    }

    /// The token's text, to keep it on the bot's side; never log it.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// The SHA-256 of the token's text, in lowercase hex (64 characters): all the server stores.
    pub fn digest(&self) -> String {
        use sha2::{Digest, Sha256};
        hex::encode(Sha256::digest(self.0.as_bytes()))
    }
}

impl fmt::Debug for AccountToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("AccountToken(<hidden>)")
    }
}

impl FromStr for AccountToken {
    type Err = ParseIdError;
    fn from_str(s: &str) -> Result<Self, ParseIdError> {
        if s.is_empty() || s.len() > 128 {
            return Err(ParseIdError(
                "an account token has 1 to 128 characters".to_owned(),
            ));
        }
        Ok(AccountToken(s.to_owned()))
    }
}

impl TryFrom<String> for AccountToken {
    type Error = ParseIdError;
    fn try_from(s: String) -> Result<Self, ParseIdError> {
        s.parse()
    }
}

impl From<AccountToken> for String {
    fn from(token: AccountToken) -> String {
        token.0
    }
}
