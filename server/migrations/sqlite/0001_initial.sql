-- The tables as the server made them before migrations (CREATE TABLE IF NOT EXISTS): a database
-- file from then takes this migration as a no-op and carries on (server/src/store.rs).
CREATE TABLE IF NOT EXISTS tournaments (
    id TEXT PRIMARY KEY,
    config TEXT NOT NULL,
    entrants TEXT NOT NULL,
    state TEXT NOT NULL,
    created_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY,
    tournament TEXT NOT NULL REFERENCES tournaments(id),
    idx INTEGER NOT NULL,
    round INTEGER NOT NULL,
    seats TEXT NOT NULL,
    opening TEXT,
    deal INTEGER,
    state TEXT NOT NULL,
    result TEXT,
    events TEXT,
    UNIQUE (tournament, idx)
);
CREATE TABLE IF NOT EXISTS rooms (
    id TEXT PRIMARY KEY,
    config TEXT NOT NULL,
    owner TEXT NOT NULL,
    seed TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    state TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS accounts (
    name_key TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    token_sha256 TEXT UNIQUE,
    created_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS room_log (
    room TEXT NOT NULL REFERENCES rooms(id),
    n INTEGER NOT NULL,
    entry TEXT NOT NULL,
    PRIMARY KEY (room, n)
);
CREATE TABLE IF NOT EXISTS broken_rooms (
    room TEXT PRIMARY KEY REFERENCES rooms(id),
    reason TEXT NOT NULL,
    at_ms INTEGER NOT NULL
);
