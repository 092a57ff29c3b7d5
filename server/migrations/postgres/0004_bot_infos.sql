-- What the bots thought in each finished match (server/src/room/infos.rs): the room's id (a
-- tournament match's id is its room's) and every act's `info` kept, as one JSON array of
-- `{seat, at, info}`. Written in the batch that closes the room; read with the match's record by
-- the replay API, which refuses a tournament match's while its deal is played anywhere. A casual
-- match's row goes when the replay cap drops its replay.
CREATE TABLE bot_infos (
    room TEXT PRIMARY KEY,
    infos TEXT NOT NULL
);
