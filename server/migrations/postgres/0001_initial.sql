-- The same tables as migrations/sqlite/0001_initial.sql, with PostgreSQL's 64-bit BIGINT where
-- SQLite's INTEGER is 64 bits anyway: the store reads every number as an i64 on both engines
-- (server/src/store.rs). Values are the protocol's JSON as TEXT, as in SQLite.
CREATE TABLE IF NOT EXISTS tournaments (
    id TEXT PRIMARY KEY,
    config TEXT NOT NULL,
    entrants TEXT NOT NULL,
    state TEXT NOT NULL,
    created_ms BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY,
    tournament TEXT NOT NULL REFERENCES tournaments(id),
    idx BIGINT NOT NULL,
    round BIGINT NOT NULL,
    seats TEXT NOT NULL,
    opening TEXT,
    deal BIGINT,
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
    created_ms BIGINT NOT NULL,
    state TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS accounts (
    name_key TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    token_sha256 TEXT UNIQUE,
    created_ms BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS room_log (
    room TEXT NOT NULL REFERENCES rooms(id),
    n BIGINT NOT NULL,
    entry TEXT NOT NULL,
    PRIMARY KEY (room, n)
);
CREATE TABLE IF NOT EXISTS broken_rooms (
    room TEXT PRIMARY KEY REFERENCES rooms(id),
    reason TEXT NOT NULL,
    at_ms BIGINT NOT NULL
);
