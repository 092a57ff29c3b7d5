"""Every message of the Skirmish protocol, as typed dictionaries, and builders for what a client sends.

The protocol's source of truth is the server's Rust types; their JSON Schemas are committed in the
repository as ``protocol/schema/client.json`` (what a client sends) and ``server.json`` (what the
server sends), and as an AsyncAPI 3.0 document, ``protocol/schema/asyncapi.json``. The types here
are written against those schemas, and ``sdk/python/tests/test_messages.py`` holds them to it:
every message type of both schemas has a ``TypedDict`` here whose keys the schema has, with the
schema's required keys required, and every message a builder below makes validates against
``client.json`` (with the ``jsonschema`` library).

Messages are plain ``dict``s, sent as JSON text frames, so a field the server adds later passes
through untouched; each builder takes ``**extra`` fields for the same reason.
"""


from typing import Any, Literal, NotRequired, TypedDict

#: The protocol version a ``hello`` names (``PROTOCOL_VERSION`` in the protocol crate).
PROTOCOL_VERSION = 1

#: The games a server referees, as the wire names them (``GameKind``).
Game = Literal["plane", "gomoku", "junqi", "tic_tac_toe"]
GAMES: tuple[Game, ...] = ("plane", "gomoku", "junqi", "tic_tac_toe")

# --- actions (``Action`` in client.json), one family per game ------------------------------------


class PlacementDict(TypedDict):
    """One plane on a board: its head cell (``"C1"``: column letter, row from 1 at the top) and where the head points."""

    head: str
    facing: Literal["up", "right", "down", "left"]


class PlaneDeploy(TypedDict):
    """Plane battle: one's secret planes for the round (one on ``classic`` 7x7, two on ``double`` 9x9)."""

    game: Literal["plane"]
    kind: Literal["deploy"]
    planes: list[PlacementDict]


class PlaneFire(TypedDict):
    """Plane battle: a shot at ``cell`` on seat ``target``'s board."""

    game: Literal["plane"]
    kind: Literal["fire"]
    target: int
    cell: str


class GomokuPlace(TypedDict):
    """Gomoku: a stone on ``point`` (column letter + row from 1 at the bottom: ``"h8"`` is the centre of 15x15)."""

    game: Literal["gomoku"]
    kind: Literal["place"]
    point: str


class JunqiDeploy(TypedDict):
    """Junqi: the secret layout, 25 CAAI piece letters in one's own frame (docs/rules.md, junqi)."""

    game: Literal["junqi"]
    kind: Literal["deploy"]
    layout: str


# ``from`` is a Python keyword, so this one is spelled the functional way.
JunqiMove = TypedDict(
    "JunqiMove",
    {"game": Literal["junqi"], "kind": Literal["move"], "from": str, "to": str},
)
JunqiMove.__doc__ = "Junqi: move the piece on post ``from`` to ``to`` (posts ``A0`` to ``L4``, the board's frame)."


class TicTacToePlace(TypedDict):
    """Tic-tac-toe: a mark in ``cell``, 0 to 8 row by row from the top left."""

    game: Literal["tic_tac_toe"]
    kind: Literal["place"]
    cell: int


class Resign(TypedDict):
    """Gomoku, junqi, tic-tac-toe: give up the game, with a reason for the record."""

    game: Literal["gomoku", "junqi", "tic_tac_toe"]
    kind: Literal["resign"]
    reason: NotRequired[str | None]


Action = PlaneDeploy | PlaneFire | GomokuPlace | JunqiDeploy | JunqiMove | TicTacToePlace | Resign | dict[str, Any]
"""Any action; the builders below make the common ones."""


def plane_deploy(planes: list[PlacementDict]) -> PlaneDeploy:
    """Plane battle's deployment: ``planes`` is a list of ``{"head": "C1", "facing": "up"}``."""
    return {"game": "plane", "kind": "deploy", "planes": planes}


def plane_fire(target: int, cell: str) -> PlaneFire:
    """Plane battle's shot at ``cell`` (``"E5"``) on the board of seat ``target``."""
    return {"game": "plane", "kind": "fire", "target": target, "cell": cell}


def gomoku_place(point: str) -> GomokuPlace:
    """Gomoku's stone on ``point`` (``"h8"``)."""
    return {"game": "gomoku", "kind": "place", "point": point}


def junqi_deploy(layout: str) -> JunqiDeploy:
    """Junqi's layout: 25 letters ``a`` (field marshal) to ``l`` (flag), front row first, in one's own frame."""
    return {"game": "junqi", "kind": "deploy", "layout": layout}


def junqi_move(frm: str, to: str) -> JunqiMove:
    """Junqi's move from post ``frm`` to post ``to`` (``"G0"``, ``"F0"``)."""
    return {"game": "junqi", "kind": "move", "from": frm, "to": to}


def tic_tac_toe_place(cell: int) -> TicTacToePlace:
    """Tic-tac-toe's mark in ``cell`` (0 to 8, row by row from the top left)."""
    return {"game": "tic_tac_toe", "kind": "place", "cell": cell}


def resign(game: Literal["gomoku", "junqi", "tic_tac_toe"], reason: str | None = None) -> Resign:
    """Give up a gomoku, junqi or tic-tac-toe game; ``reason`` (at most 200 bytes, `MAX_REASON_BYTES`) goes into the record."""
    action: Resign = {"game": game, "kind": "resign"}
    if reason is not None:
        action["reason"] = reason
    return action


# --- what a client sends (client.json) ----------------------------------------------------------


class BotOffer(TypedDict):
    """What a bot plays: each game with its strategy names, strongest first, and the program's version."""

    games: dict[str, list[str]]
    version: NotRequired[str | None]


class Hello(TypedDict):
    """The first message on a connection; answered by ``welcome`` (or an ``error`` that refuses it)."""

    type: Literal["hello"]
    req: NotRequired[int | None]
    protocol: int
    name: str
    bot: NotRequired[BotOffer | None]
    token: NotRequired[str | None]
    key: NotRequired[str | None]
    resume: NotRequired[str | None]
    turn_view: NotRequired[bool | None]


class ListRooms(TypedDict):
    """Asks for the lobby's rooms (answered by ``rooms``)."""

    type: Literal["list_rooms"]
    req: NotRequired[int | None]


class CreateRoom(TypedDict):
    """Makes a room with a ``RoomConfig`` (answered by ``room_created``)."""

    type: Literal["create_room"]
    req: NotRequired[int | None]
    config: dict[str, Any]
    sit: NotRequired[bool]


class JoinRoom(TypedDict):
    """Takes a seat in a room (answered by ``seated``)."""

    type: Literal["join_room"]
    req: NotRequired[int | None]
    room: str
    seat: NotRequired[int | None]


class LeaveRoom(TypedDict):
    """Leaves a room's seat or stops watching it."""

    type: Literal["leave_room"]
    req: NotRequired[int | None]
    room: str


class Spectate(TypedDict):
    """Watches a room."""

    type: Literal["spectate"]
    req: NotRequired[int | None]
    room: str


class AddBot(TypedDict):
    """Asks the server to seat a connected bot (by strategy or level) in one's room."""

    type: Literal["add_bot"]
    req: NotRequired[int | None]
    room: str
    seat: NotRequired[int | None]
    strategy: NotRequired[str | None]
    level: NotRequired[str | None]


class QuickMatch(TypedDict):
    """Asks for a seat in any room of a game."""

    type: Literal["quick_match"]
    req: NotRequired[int | None]
    game: Game
    name: NotRequired[str | None]


class Start(TypedDict):
    """Starts one's room with the seats taken."""

    type: Literal["start"]
    req: NotRequired[int | None]
    room: str


class ClientChat(TypedDict):
    """Says a line in a room's chat (bots do not read it)."""

    type: Literal["chat"]
    req: NotRequired[int | None]
    room: str
    text: str


# --- what a bot thought (``BotInfo`` in client.json) ----------------------------------------------

#: The most bytes an ``act``'s ``info`` may take as compact JSON (``MAX_INFO_BYTES``): 4 KiB.
MAX_INFO_BYTES = 4096


class BoardOdds(TypedDict):
    """Plane battle: one opponent's board, the chance in thousandths (0-1000) that each cell holds
    part of a plane, row by row from the top left (size x size values)."""

    seat: int
    cells: list[int]


class RankGuess(TypedDict):
    """Junqi: the likeliest rank of the enemy piece on ``post`` (``"G0"``), and its chance in thousandths."""

    post: str
    rank: str
    chance: int


class PlaneBelief(TypedDict):
    """Plane battle's belief: the odds on each opponent board the bot has an opinion of."""

    game: Literal["plane"]
    boards: list[BoardOdds]


class JunqiBelief(TypedDict):
    """Junqi's belief: a rank guess per enemy piece whose rank is hidden."""

    game: Literal["junqi"]
    pieces: list[RankGuess]


class GomokuBelief(TypedDict):
    """Gomoku's evaluation after the bot's stone: the expected result for the side that moved, in
    thousandths from -1000 (a sure loss) through 0 (even) to 1000 (a sure win)."""

    game: Literal["gomoku"]
    eval: int


Belief = PlaneBelief | JunqiBelief | GomokuBelief


class BotInfo(TypedDict, total=False):
    """What a bot thought when it chose its action (every key optional). The server keeps it sealed
    with the match's record, shown to no one (not even the sender) until the match and its deal are
    over; then the replay shows it. At most :data:`MAX_INFO_BYTES` as compact JSON."""

    score: int
    depth: int
    nodes: int
    pv: list[str]
    belief: Belief


class Act(TypedDict):
    """Plays an action for one's seat; not answered on success (the events are the answer)."""

    type: Literal["act"]
    req: NotRequired[int | None]
    room: str
    seat: NotRequired[int | None]
    action: Action
    info: NotRequired[BotInfo | None]


class Offer(TypedDict):
    """Offers a draw or asks for a takeback (gomoku, casual rooms)."""

    type: Literal["offer"]
    req: NotRequired[int | None]
    room: str
    seat: NotRequired[int | None]
    offer: Literal["draw", "takeback"]


class Answer(TypedDict):
    """Answers the other side's offer."""

    type: Literal["answer"]
    req: NotRequired[int | None]
    room: str
    seat: NotRequired[int | None]
    offer: Literal["draw", "takeback"]
    accept: bool


class Forfeit(TypedDict):
    """Gives up one's seat because one's engine failed (the one cause a client may name)."""

    type: Literal["forfeit"]
    req: NotRequired[int | None]
    room: str
    seat: NotRequired[int | None]
    cause: Literal["engine_failure"]
    detail: NotRequired[str | None]


class ListBots(TypedDict):
    """Asks for the connected bots (answered by ``bots``)."""

    type: Literal["list_bots"]
    req: NotRequired[int | None]


class Ping(TypedDict):
    """Asks for a ``pong``."""

    type: Literal["ping"]
    req: NotRequired[int | None]


#: Every client message's ``TypedDict``, by its ``type``.
CLIENT_MESSAGES: dict[str, type] = {
    "hello": Hello,
    "list_rooms": ListRooms,
    "create_room": CreateRoom,
    "join_room": JoinRoom,
    "leave_room": LeaveRoom,
    "spectate": Spectate,
    "add_bot": AddBot,
    "quick_match": QuickMatch,
    "start": Start,
    "chat": ClientChat,
    "act": Act,
    "offer": Offer,
    "answer": Answer,
    "forfeit": Forfeit,
    "list_bots": ListBots,
    "ping": Ping,
}


def _message(kind: str, req: int | None, fields: dict[str, Any]) -> dict[str, Any]:
    """A client message: its ``type``, ``req`` when given, and the fields that are not ``None``."""
    msg: dict[str, Any] = {"type": kind}
    if req is not None:
        msg["req"] = req
    msg.update({k: v for k, v in fields.items() if v is not None})
    return msg


def hello(
    name: str,
    *,
    bot: BotOffer | None = None,
    token: str | None = None,
    key: str | None = None,
    resume: str | None = None,
    turn_view: bool | None = None,
    req: int | None = None,
    **extra: Any,
) -> Hello:
    """``hello``: ``name`` (1 to 32 characters; a bot account's own name with its ``token``), ``bot``
    (``{"games": {"gomoku": ["my-strategy"]}, "version": "1.0"}``) for a bot, ``resume`` (the token of
    an earlier ``welcome``) to take one's seats back, ``key`` for an anonymous bot on a server with
    ``--bot-key``."""
    fields = dict(protocol=PROTOCOL_VERSION, name=name, bot=bot, token=token, key=key, resume=resume, turn_view=turn_view)
    return _message("hello", req, {**fields, **extra})  # type: ignore[return-value]


def act(
    room: str,
    action: Action,
    *,
    seat: int | None = None,
    info: BotInfo | None = None,
    req: int | None = None,
    **extra: Any,
) -> Act:
    """``act``: play ``action`` in ``room`` for ``seat`` (needed when one holds several seats of a
    room), with ``info``, what the bot thought (sealed until the match is over; see :class:`BotInfo`)."""
    return _message("act", req, {"room": room, "seat": seat, "action": action, "info": info, **extra})  # type: ignore[return-value]


def forfeit(room: str, *, seat: int | None = None, detail: str | None = None, req: int | None = None) -> Forfeit:
    """``forfeit`` with the cause ``engine_failure``: one's own engine failed, and ``detail`` says how."""
    return _message("forfeit", req, {"room": room, "seat": seat, "cause": "engine_failure", "detail": detail})  # type: ignore[return-value]


def offer(room: str, what: Literal["draw", "takeback"], *, seat: int | None = None, req: int | None = None) -> Offer:
    """``offer``: a draw, or a takeback of one's last stone (gomoku, casual rooms)."""
    return _message("offer", req, {"room": room, "seat": seat, "offer": what})  # type: ignore[return-value]


def answer(
    room: str, what: Literal["draw", "takeback"], accept: bool, *, seat: int | None = None, req: int | None = None
) -> Answer:
    """``answer``: accept or decline the offer waiting for one's seat."""
    return _message("answer", req, {"room": room, "seat": seat, "offer": what, "accept": accept})  # type: ignore[return-value]


def chat(room: str, text: str, *, req: int | None = None) -> ClientChat:
    """``chat``: a line (at most 200 characters, `MAX_CHAT_CHARS`) for the people in ``room``."""
    return _message("chat", req, {"room": room, "text": text})  # type: ignore[return-value]


def list_rooms(*, req: int | None = None) -> ListRooms:
    """``list_rooms``."""
    return _message("list_rooms", req, {})  # type: ignore[return-value]


def list_bots(*, req: int | None = None) -> ListBots:
    """``list_bots``."""
    return _message("list_bots", req, {})  # type: ignore[return-value]


def ping(*, req: int | None = None) -> Ping:
    """``ping``."""
    return _message("ping", req, {})  # type: ignore[return-value]


def create_room(config: dict[str, Any], *, sit: bool | None = None, req: int | None = None) -> CreateRoom:
    """``create_room`` with a ``RoomConfig`` (``{"name": .., "game": {"game": "gomoku"}}``)."""
    return _message("create_room", req, {"config": config, "sit": sit})  # type: ignore[return-value]


def join_room(room: str, *, seat: int | None = None, req: int | None = None) -> JoinRoom:
    """``join_room``: a seat (any free one when ``seat`` is ``None``)."""
    return _message("join_room", req, {"room": room, "seat": seat})  # type: ignore[return-value]


def leave_room(room: str, *, req: int | None = None) -> LeaveRoom:
    """``leave_room``."""
    return _message("leave_room", req, {"room": room})  # type: ignore[return-value]


def spectate(room: str, *, req: int | None = None) -> Spectate:
    """``spectate``."""
    return _message("spectate", req, {"room": room})  # type: ignore[return-value]


def add_bot(
    room: str, *, seat: int | None = None, strategy: str | None = None, level: str | None = None, req: int | None = None
) -> AddBot:
    """``add_bot``: a connected bot by ``strategy`` name or ``level`` (``easy``, ``medium``, ``hard``)."""
    return _message("add_bot", req, {"room": room, "seat": seat, "strategy": strategy, "level": level})  # type: ignore[return-value]


def quick_match(game: Game, *, name: str | None = None, req: int | None = None) -> QuickMatch:
    """``quick_match``: a seat in any room of ``game``."""
    return _message("quick_match", req, {"game": game, "name": name})  # type: ignore[return-value]


def start(room: str, *, req: int | None = None) -> Start:
    """``start``: one's room, with the seats taken."""
    return _message("start", req, {"room": room})  # type: ignore[return-value]


# --- what the server sends (server.json) --------------------------------------------------------


class SeatRef(TypedDict):
    """A room and a seat in it."""

    room: str
    seat: int


class Welcome(TypedDict):
    """The answer to ``hello``: one's player id, and the secret ``resume`` token for reconnecting."""

    type: Literal["welcome"]
    protocol: int
    player: str
    name: str
    resume: str
    seats: list[SeatRef]


class Rooms(TypedDict):
    """The lobby's rooms, answering ``list_rooms``."""

    type: Literal["rooms"]
    req: NotRequired[int | None]
    rooms: list[dict[str, Any]]


class RoomCreated(TypedDict):
    """The new room's id, answering ``create_room``."""

    type: Literal["room_created"]
    req: NotRequired[int | None]
    room: str


class Seated(TypedDict):
    """This client holds a seat now; a bot is told the strategy to play there and its time budget."""

    type: Literal["seated"]
    req: NotRequired[int | None]
    room: str
    seat: int
    strategy: NotRequired[str | None]
    think_ms: NotRequired[int | None]


class Done(TypedDict):
    """A request succeeded."""

    type: Literal["done"]
    req: NotRequired[int | None]


class RoomSnapshot(TypedDict, total=False):
    """What this client may see of a room: ``room`` (seats, status), ``you``, ``seq``, ``view``, ..."""

    type: Literal["room"]
    room: dict[str, Any]
    you: int | None
    seq: int
    view: dict[str, Any]


class CommitmentMsg(TypedDict):
    """A seat's secret deployment, committed to (SHA-256 of it with a salt)."""

    type: Literal["commitment"]
    room: str
    seat: int
    round: int
    sha256: str


class RevealMsg(TypedDict):
    """A deployment and its salt, opening an earlier commitment."""

    type: Literal["reveal"]
    room: str
    seat: int
    round: int
    deployment: str
    salt: str


class EventMsg(TypedDict):
    """Something happened in a room: ``event`` is tagged by ``game`` and ``kind`` (``"ended"``, ``"match_ended"``, ...)."""

    type: Literal["event"]
    room: str
    seq: int
    event: dict[str, Any]


class ServerChat(TypedDict):
    """A chat line (people's seats only; bot seats get none)."""

    type: Literal["chat"]
    room: str
    n: int
    name: str
    seat: NotRequired[int | None]
    text: str


class YourTurn(TypedDict):
    """``seat`` must act in ``room``, within ``deadline_ms`` milliseconds (absent: no clock); bots get the seat's ``view``."""

    type: Literal["your_turn"]
    room: str
    seat: int
    deadline_ms: NotRequired[int | None]
    view: NotRequired[dict[str, Any] | None]


class Bots(TypedDict):
    """The connected bots, answering ``list_bots``."""

    type: Literal["bots"]
    req: NotRequired[int | None]
    bots: list[dict[str, Any]]


class Error(TypedDict):
    """A refusal with a stable ``code`` (``not_your_turn``, ``bad_token``, ...); nothing changed."""

    type: Literal["error"]
    req: NotRequired[int | None]
    code: str
    message: str


class Pong(TypedDict):
    """The answer to ``ping``."""

    type: Literal["pong"]
    req: NotRequired[int | None]


class RoomClosed(TypedDict):
    """A room closed before its match was played (``code`` says why)."""

    type: Literal["room_closed"]
    room: str
    code: str
    message: str


#: Every server message's ``TypedDict``, by its ``type``.
SERVER_MESSAGES: dict[str, type] = {
    "welcome": Welcome,
    "rooms": Rooms,
    "room_created": RoomCreated,
    "seated": Seated,
    "done": Done,
    "room": RoomSnapshot,
    "commitment": CommitmentMsg,
    "reveal": RevealMsg,
    "event": EventMsg,
    "chat": ServerChat,
    "your_turn": YourTurn,
    "bots": Bots,
    "error": Error,
    "pong": Pong,
    "room_closed": RoomClosed,
}

#: ``hello`` refusals that no retry can mend: the client stops rather than reconnect.
FATAL_HELLO_CODES = frozenset(
    {"unsupported_version", "bad_name", "bad_key", "bad_token", "name_taken", "token_required", "bad_offer", "already_hello"}
)

#: The event kinds that end a game: plane battle's match, and the other games' game.
END_KINDS = frozenset({"match_ended", "ended"})
