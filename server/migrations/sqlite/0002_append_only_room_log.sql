-- The room log becomes append-only, in the order it is written (docs/performance.md, "The journal
-- as an append-only log"): a batch of moves of many rooms lands on the table's last pages instead
-- of one B-tree page per room (the `(room, n)` key spread every batch over as many pages as rooms).
-- `seq` never goes back (AUTOINCREMENT: a deleted last row's number is not given again), and
-- `rooms.log_from` is the largest `seq` when the room was made, so that every entry of the room
-- has a larger one: reading a room's log scans from there. An entry written twice (a batch tried
-- again) is read as its last row.
ALTER TABLE rooms ADD COLUMN log_from INTEGER NOT NULL DEFAULT 0;
CREATE TABLE room_log_v2 (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    room TEXT NOT NULL,
    n INTEGER NOT NULL,
    entry TEXT NOT NULL
);
INSERT INTO room_log_v2 (room, n, entry) SELECT room, n, entry FROM room_log ORDER BY room, n;
DROP TABLE room_log;
ALTER TABLE room_log_v2 RENAME TO room_log;
UPDATE rooms SET log_from = COALESCE((SELECT MIN(seq) - 1 FROM room_log WHERE room_log.room = rooms.id), 0);
