-- The standing ladders (server/src/store/ladder.rs, docs/ladder.md).
-- `ladders`: each ladder's secret seed, from which its dealt deployments are drawn.
-- `ladder_entrants`: one row per account, strategy and version on a ladder, its rating and
-- counts as JSON (`stats`).
-- `ladder_games`: every game paired: its seats (entrant numbers, JSON), its deal, its state
-- (`running`, `finished`, `void` for one cut off by a stop with no log to go on from) and
-- its result (JSON). A game is finished, rated and its replay kept in one transaction, and only
-- from `running`, so no game is counted twice.
-- `ladder_history`: each entrant's rating after each game, the newest kept (a cap per entrant).
CREATE TABLE ladders (
    ladder TEXT PRIMARY KEY,
    seed TEXT NOT NULL
);
CREATE TABLE ladder_entrants (
    ladder TEXT NOT NULL,
    id INTEGER NOT NULL,
    bot TEXT NOT NULL,
    strategy TEXT NOT NULL,
    version TEXT NOT NULL,
    stats TEXT NOT NULL,
    PRIMARY KEY (ladder, id),
    UNIQUE (ladder, bot, strategy, version)
);
CREATE TABLE ladder_games (
    id TEXT PRIMARY KEY,
    ladder TEXT NOT NULL,
    seats TEXT NOT NULL,
    deal INTEGER,
    state TEXT NOT NULL,
    result TEXT,
    created_ms INTEGER NOT NULL,
    finished_ms INTEGER
);
CREATE INDEX ladder_games_by_ladder ON ladder_games (ladder, created_ms);
CREATE TABLE ladder_history (
    ladder TEXT NOT NULL,
    entrant INTEGER NOT NULL,
    game TEXT NOT NULL,
    at_ms INTEGER NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (ladder, entrant, game)
);
CREATE INDEX ladder_history_by_time ON ladder_history (ladder, entrant, at_ms);
