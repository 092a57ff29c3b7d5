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
    /// A room.
    RoomId
);
uuid_id!(
    /// A player (a person or a bot connection); public.
    PlayerId
);
uuid_id!(
    /// A player's secret token for taking their seats back after a reconnect.
    ResumeToken
);
