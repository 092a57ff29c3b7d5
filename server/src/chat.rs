//! A room's two chats (the players' and the spectators'): what a line may hold and how fast a
//! player may say them. The room routes each line to its chat's members only.

use std::collections::{HashMap, VecDeque};
use std::time::Duration;

use skirmish_protocol::{CHAT_BURST, CHAT_WINDOW_MS, MAX_CHAT_CHARS, PlayerId, is_hidden_char};
use tokio::time::Instant;

use crate::error::ServerError;

/// A chat line made safe to relay: every character a name may not carry either
/// ([`skirmish_protocol::is_hidden_char`]: control characters, newlines included, and
/// bidirectional overrides) becomes a space, and the ends are trimmed.
///
/// # Errors
/// [`ServerError::BadChat`] when nothing is left, or more than [`MAX_CHAT_CHARS`] characters are.
pub(crate) fn clean_line(text: &str) -> Result<String, ServerError> {
    let line: String = text
        .chars()
        .map(|c| if is_hidden_char(c) { ' ' } else { c })
        .collect();
    let line = line.trim();
    if line.is_empty() {
        return Err(ServerError::BadChat("an empty chat line".to_owned()));
    }
    let chars = line.chars().count();
    if chars > MAX_CHAT_CHARS {
        return Err(ServerError::BadChat(format!(
            "a chat line of {chars} characters; at most {MAX_CHAT_CHARS}"
        )));
    }
    Ok(line.to_owned())
}

/// How many speakers the limiter holds before it forgets the quiet ones.
const PRUNE_AT: usize = 64;

/// Each player's recent chat lines in one room, for the rate limit: at most [`CHAT_BURST`] lines
/// in any [`CHAT_WINDOW_MS`].
#[derive(Debug, Default)]
pub(crate) struct ChatLimiter {
    said: HashMap<PlayerId, VecDeque<Instant>>,
}

impl ChatLimiter {
    /// Counts a line by `player` at `now`.
    ///
    /// # Errors
    /// [`ServerError::ChatTooFast`] when the player already said [`CHAT_BURST`] lines in the
    /// window; the refused line does not count.
    pub(crate) fn allow(&mut self, player: PlayerId, now: Instant) -> Result<(), ServerError> {
        let window = Duration::from_millis(CHAT_WINDOW_MS);
        // Spectators come and go with fresh ids: forget whoever has said nothing in the window,
        // so the map stays as small as the room's recent speakers.
        if self.said.len() >= PRUNE_AT {
            self.said
                .retain(|_, times| times.back().is_some_and(|t| now.duration_since(*t) < window));
        }
        let times = self.said.entry(player).or_default();
        while times.front().is_some_and(|t| now.duration_since(*t) >= window) {
            times.pop_front();
        }
        if times.len() >= CHAT_BURST {
            return Err(ServerError::ChatTooFast);
        }
        times.push_back(now);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_cleaned_and_bounded() {
        assert_eq!(clean_line("  hi\nthere\u{7}  ").as_deref(), Ok("hi there"));
        // A right-to-left override would reverse what follows it on every reader's page.
        assert_eq!(clean_line("gg \u{202E}evol\u{2066}").as_deref(), Ok("gg  evol"));
        assert_eq!(
            clean_line("<b>x</b>").as_deref(),
            Ok("<b>x</b>"),
            "markup stays text; the page shows it as text"
        );
        assert!(matches!(clean_line(" \n\t "), Err(ServerError::BadChat(_))));
        assert!(clean_line(&"é".repeat(MAX_CHAT_CHARS)).is_ok());
        assert!(matches!(
            clean_line(&"é".repeat(MAX_CHAT_CHARS + 1)),
            Err(ServerError::BadChat(_))
        ));
    }

    #[test]
    fn a_burst_then_a_wait() {
        let mut limiter = ChatLimiter::default();
        let (ann, bob) = (
            PlayerId(uuid::Uuid::from_u128(1)),
            PlayerId(uuid::Uuid::from_u128(2)),
        );
        let t0 = Instant::now();
        for _ in 0..CHAT_BURST {
            assert_eq!(limiter.allow(ann, t0), Ok(()));
        }
        assert_eq!(limiter.allow(ann, t0), Err(ServerError::ChatTooFast));
        assert_eq!(limiter.allow(bob, t0), Ok(()), "each player has their own limit");
        let later = t0 + Duration::from_millis(CHAT_WINDOW_MS);
        assert_eq!(limiter.allow(ann, later), Ok(()));
    }

    #[test]
    fn quiet_speakers_are_forgotten() {
        let mut limiter = ChatLimiter::default();
        let t0 = Instant::now();
        for n in 0..1000u128 {
            let _ = limiter.allow(
                PlayerId(uuid::Uuid::from_u128(n)),
                t0 + Duration::from_millis(CHAT_WINDOW_MS) * u32::try_from(n).unwrap(),
            );
        }
        assert!(
            limiter.said.len() <= PRUNE_AT,
            "{} speakers kept",
            limiter.said.len()
        );
    }
}
