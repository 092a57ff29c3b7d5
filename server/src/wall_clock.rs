//! The wall clock, for what is stored or shown with a date: milliseconds since the Unix epoch.
//! Deadlines and durations use `tokio::time::Instant`, which no change of the system clock moves.

/// Milliseconds since the Unix epoch by the system clock; 0 for a clock set before 1970.
pub(crate) fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}
