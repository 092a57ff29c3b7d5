//! A room's settings as a client asks for them: checked and completed before the lobby sees them.

use skirmish_protocol::clean_name;

use crate::error::ServerError;

/// Checks and completes a room's config: a name (made up when absent), sane clocks.
pub(super) fn check_room_config(
    config: &mut skirmish_protocol::RoomConfig,
    owner: &str,
    limits: &crate::Limits,
) -> Result<(), ServerError> {
    let clock = *config.clock.get_or_insert(skirmish_protocol::Clock {
        deploy_ms: limits.default_deploy_ms,
        move_ms: limits.default_move_ms,
        game_ms: 0,
    });
    let policy = *config.on_drop.get_or_insert(skirmish_protocol::DropPolicy {
        grace_ms: limits.grace_ms,
        then: skirmish_protocol::AfterGrace::Bot,
    });
    let name = config.name.get_or_insert_with(|| format!("{owner}'s room"));
    *name = clean_name(name);
    if name.is_empty() || name.chars().count() > 64 {
        return Err(ServerError::BadConfig(
            "a room name has 1 to 64 printable characters".to_owned(),
        ));
    }
    let max = limits.max_clock_ms;
    if max > 0 && policy.grace_ms > max {
        return Err(ServerError::BadConfig(format!(
            "a grace period is at most {max} ms on this server"
        )));
    }
    if max > 0 && (clock.deploy_ms > max || clock.move_ms > max || clock.game_ms > max) {
        return Err(ServerError::BadConfig(format!(
            "time limits are at most {max} ms on this server"
        )));
    }
    let too_short = |ms: u64| ms != 0 && ms < 100;
    if too_short(clock.move_ms) || too_short(clock.deploy_ms) || too_short(clock.game_ms) {
        return Err(ServerError::BadConfig(
            "a time limit is at least 100 ms (or 0 for none)".to_owned(),
        ));
    }
    Ok(())
}
