-- The room log becomes append-only, in the order it is written (docs/performance.md, "The journal
-- as an append-only log"), as on SQLite (its 0002): `seq` from an identity (it never goes back),
-- `rooms.log_from` the largest `seq` when the room was made; an entry written twice (a batch
-- tried again) is read as its last row.
ALTER TABLE rooms ADD COLUMN log_from BIGINT NOT NULL DEFAULT 0;
CREATE TABLE room_log_v2 (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    room TEXT NOT NULL,
    n BIGINT NOT NULL,
    entry TEXT NOT NULL
);
INSERT INTO room_log_v2 (room, n, entry) SELECT room, n, entry FROM room_log ORDER BY room, n;
DROP TABLE room_log;
ALTER TABLE room_log_v2 RENAME TO room_log;
UPDATE rooms SET log_from = COALESCE((SELECT MIN(seq) - 1 FROM room_log WHERE room_log.room = rooms.id), 0);
