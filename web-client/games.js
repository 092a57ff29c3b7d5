// The games the page knows through the page-module interface, listed once: a new game is its
// module and one line here. A page module exports:
//   GAME                            its tag on the wire ('tic_tac_toe')
//   createFields(h, ui)             the create-room form's fields for it (may be [])
//   configFromForm(val)             the game's config from the form (`val(id)` reads a field)
//   MOVE_FIELD                      the move clock field: { value (seconds), help key }
//   configText(g, clock)            one line for the room header
//   lobbyText(g)                    [headline, detail] for the lobby's room list
//   turnKey(view)                   changes whenever the turn does (drops a stale deadline)
//   applyEvent(rs, ev, clock, ui)   keeps the view and the event log current
//   section(rs, ui, parts)          the room page: `parts` are the room page's common pieces
//   seatLabel(seat)                 the seat's side in the game's words
//   replayStart(config)             the replay page's state before the first event
//   replayView(rs, ui)              the replay page's picture of a state (nothing to click)
// Plane battle, gomoku and junqi predate it and are still dispatched by name in lobby.js,
// room_page.js, room_state.js and state.js.
import * as TicTacToe from './tic_tac_toe.js';

export const GAMES = Object.freeze({
  [TicTacToe.GAME]: TicTacToe,
});

/** The page module of `game`, or undefined for a game dispatched by name. */
export function pageModule(game) {
  return Object.hasOwn(GAMES, game) ? GAMES[game] : undefined;
}
