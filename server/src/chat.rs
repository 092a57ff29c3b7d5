//! A room's one chat: what a line may hold, how fast a player may say lines, and the newest
//! lines the room keeps for its snapshots. The room relays each line to every person in it.

use std::collections::{HashMap, VecDeque};
use std::time::Duration;

use skirmish_protocol::{
    CHAT_BURST, CHAT_HISTORY_CHARS, CHAT_HISTORY_LINES, CHAT_WINDOW_MS, ChatLine, MAX_CHAT_CHARS, PlayerId,
    Seat, is_hidden_char,
};
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

/// The newest lines of a room's chat: at most [`CHAT_HISTORY_LINES`] lines holding at most
/// [`CHAT_HISTORY_CHARS`] characters of text together (each line's name, at most 32 characters,
/// comes on top). Kept in memory only: a room rebuilt after a restart starts with none.
#[derive(Debug, Default)]
pub(crate) struct ChatHistory {
    /// The kept lines, oldest first.
    lines: VecDeque<ChatLine>,
    /// Characters of text in `lines`.
    chars: usize,
    /// The number of the last line said, kept or not.
    said: u64,
}

impl ChatHistory {
    /// Numbers and keeps a line (already cleaned, [`clean_line`]) said by `name` from `seat`
    /// (`None`: not seated), dropping the oldest lines until the bounds hold, and returns it.
    pub(crate) fn push(&mut self, seat: Option<Seat>, name: String, text: String) -> ChatLine {
        self.said += 1;
        let line = ChatLine {
            n: self.said,
            seat,
            name,
            text,
        };
        self.chars += line.text.chars().count();
        self.lines.push_back(line.clone());
        while self.lines.len() > CHAT_HISTORY_LINES || self.chars > CHAT_HISTORY_CHARS {
            let Some(old) = self.lines.pop_front() else { break };
            self.chars -= old.text.chars().count();
        }
        line
    }

    /// The kept lines, oldest first.
    pub(crate) fn lines(&self) -> Vec<ChatLine> {
        self.lines.iter().cloned().collect()
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
    fn history_keeps_the_newest_within_both_bounds() {
        let mut history = ChatHistory::default();
        for n in 0..CHAT_HISTORY_LINES + 7 {
            history.push(Some(Seat(0)), "Ann".to_owned(), format!("line {n}"));
        }
        let kept = history.lines();
        assert_eq!(kept.len(), CHAT_HISTORY_LINES);
        assert_eq!(kept[0].text, "line 7", "the oldest went first");
        assert_eq!(
            kept.last().map(|l| l.n),
            Some(u64::try_from(CHAT_HISTORY_LINES).unwrap() + 7)
        );

        let long = "长".repeat(MAX_CHAT_CHARS);
        for _ in 0..CHAT_HISTORY_LINES {
            history.push(None, "Bo".to_owned(), long.clone());
        }
        let kept = history.lines();
        assert_eq!(kept.len(), CHAT_HISTORY_CHARS / MAX_CHAT_CHARS);
        let chars: usize = kept.iter().map(|l| l.text.chars().count()).sum();
        assert!(chars <= CHAT_HISTORY_CHARS, "{chars} characters kept");
        assert_eq!(history.chars, chars);
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
