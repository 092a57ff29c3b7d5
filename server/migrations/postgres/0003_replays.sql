-- Every finished casual match's record, for its replay (server/src/store/replays.rs): the room's
-- id, when it ended (milliseconds since the Unix epoch, the order the cap drops them in), its
-- summary as JSON (the game, the seats' names, the result) and its events as JSON.
-- `replay_players` names the seats' holders by the SHA-256 of their resume tokens, so that a
-- browser lists its own games with its secret token and nobody lists another's.
CREATE TABLE replays (
    room TEXT PRIMARY KEY,
    finished_ms BIGINT NOT NULL,
    summary TEXT NOT NULL,
    events TEXT NOT NULL
);
CREATE INDEX replays_by_age ON replays (finished_ms, room);
CREATE TABLE replay_players (
    room TEXT NOT NULL,
    token TEXT NOT NULL,
    seat BIGINT NOT NULL,
    PRIMARY KEY (token, room, seat)
);
CREATE INDEX replay_players_by_room ON replay_players (room);
