"""The Hammer of the Scots ``Ruleset``: the step machine the protocol drives (brief 7, docs/playing.md).

The protocol sees a plain-data secret state, asks who owes what, hands in one order per owing
side and a random stream, and gets back the new state, the public facts and one report per side.
Everything Hammer-specific stays here and in the engine modules.

The secret state is a wrapper around ``GameState``, the record ``stepstate.StepState`` (parsed
at the seam's edge from the data the protocol stores)::

    {"game": GameState.to_dict(), "owes": {side: kind}, "pending": {side: {...}},
     "resume": {...} | None, "question": Question dict | None, ["questions": [...],]
     "paused": GameState dict | None, ["paused_log": [...],] "step": n}

``pending`` keeps what a side sent ahead (``if_player1`` moves, battle plans, winter plans)
until the engine needs it, which is what lets a game turn cost about two exchanges.
``resume`` makes an engine step (a battle phase, an event, winter) resumable after a "decide"
step: the referee replays it from the snapshot taken before it, with the same stream key, the
standing plans as they were then, and the answers given so far, so the questions come again
in the same order and the dice a side has seen never change. While it waits, ``paused`` is the game
as the call had left it at the question and ``paused_log`` the lines the call had written by then,
outside the battle in progress (which the paused game holds): the decide step's reports show both.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, NamedTuple

from pbem.core.drbg import Drbg
from pbem.core.plain import plain_copy
from pbem.core.ruleset import Ruleset, StepResult
from pbem.hammer.peer import HammerPeer
from pbem.hammer.play import drafts
from pbem.hammer.play.order_kinds import ORDER_KINDS
from pbem.hammer.play.order_kinds import check as order_check
from pbem.hammer.play.order_kinds.check import ask_of, game_of
from pbem.hammer.play.player import HammerPlayer
from pbem.hammer.play.tools import TOOLS
from pbem.hammer.rules import engine, plans, sofar
from pbem.hammer.rules.blocks import SIDES
from pbem.hammer.rules.decisions import Lookahead, NeedDecision, Question, Replay, StopLookahead, battle_of, signature
from pbem.hammer.rules.errors import DataError, IllegalOrder, InvalidOrder
from pbem.hammer.rules.events import validate_event
from pbem.hammer.rules.log import PRIVATE, LogEntry, entry, to_data
from pbem.hammer.rules.plaindata import plain as _plain
from pbem.hammer.rules.scenario import scenarios as scenario_names
from pbem.hammer.rules.scenario import setup as scenario_setup
from pbem.hammer.rules.state import PLACES, GameState, parse_options
from pbem.hammer.rules.stepstate import GameData, PausedCall, StepState, owes_of
from pbem.hammer.rules.vocab import SIDE_NAMES, Side, order_kind_named, side_named
from pbem.hammer.rules.winter import plan_decider as winter_plan
from pbem.hammer.show.views import Board, filter_log
from pbem.hammer.show.views import view as side_view

RULESET_ID = "hammer"
WORDS_PER_KEY = 8  # an engine call's stream key: 8 words (32 bytes) of the step's stream
# What a game replays with: a game is adjudicated and audited only by the version it was opened
# with. 2: the rules fixes of docs/rules-notes.md (Step 7). 3: a winter plan serves only the
# Winter Turn it was sent for, also when that winter paused for a question (docs/plans.md).
# 4: Moray meets the castle limit at 7.1, after the other nobles are home; the owner orders the
# fire of blocks of one letter under the Schiltrom option (docs/rules-notes.md).
RULESET_VERSION = "4"


class HammerRuleset:
    """Hammer of the Scots on the protocol's ``Ruleset`` seam."""

    id = RULESET_ID
    version = RULESET_VERSION
    sides: tuple[str, ...] = SIDES

    def __init__(self) -> None:
        # The game the last ``adjudicate`` made, beside the plain data it left in the state:
        # ``public`` and ``secrets`` of that state read it instead of parsing the data again.
        self._made: tuple[dict[str, Any], GameState] | None = None

    def _read(self, state: dict[str, Any]) -> GameState:
        """``game_of(state)`` for reading only: the game ``adjudicate`` made when ``state["game"]``
        is the very object it left (a state's game data is replaced, never changed in place)."""
        made = self._made
        if made is not None and state["game"] is made[0]:
            return made[1]
        return game_of(state)

    def peer(self) -> Any:
        """The hidden-fact seam for a game with no referee (protocol §13.10, docs/hammer-peer.md)."""
        return HammerPeer()

    def player(self) -> Any:
        """The player's side of the seam (protocol §10.2): pbem.hammer.play.player.HammerPlayer."""
        return HammerPlayer()

    def tools(self) -> tuple[Any, ...]:
        """The rules workbench the CLI offers as ``pbem sandbox`` and ``pbem odds`` (protocol §10.2,
        ``Tool``): pbem.hammer.play.tools."""
        return TOOLS

    # --- set-up -----------------------------------------------------------------------------
    def scenarios(self) -> tuple[str, ...]:
        return tuple(sorted(scenario_names()))

    def setup(self, scenario: str, options: dict[str, Any], rng: Drbg) -> dict[str, Any]:
        """The first secret state: the scenario set up, the hands dealt, both sides owe a card."""
        lines: list[LogEntry] = []
        game = scenario_setup(scenario, parse_options(options), rng, lines)
        for line in lines:  # drawn from the step stream of seed_0 itself, from word 0 (docs/draws.md)
            line.setdefault("stream", [0])
        return StepState.first(game.to_dict(), to_data(lines)).to_data()

    # --- queries ---------------------------------------------------------------------------
    def owes(self, state: dict[str, Any]) -> dict[str, str]:
        """Side -> the kind of order it owes now (empty when the game is over)."""
        return dict(sorted(owes_of(state).items()))

    def is_over(self, state: dict[str, Any]) -> bool:
        return bool(state["game"].get("winner")) or not owes_of(state)

    def result(self, state: dict[str, Any]) -> dict[str, Any]:
        return _result(state["game"])

    def secrets(self, state: dict[str, Any]) -> dict[str, Any]:
        """The hidden things committed one by one (brief 6): hands, blocks by area, pools, deck."""
        g = self._read(state)
        areas: dict[str, list[list[Any]]] = {}
        for name, b in sorted(g.blocks.items()):
            areas.setdefault(b.location, []).append([name, b.owner, b.strength])
        out: dict[str, Any] = {f"hand.{s}": sorted(g.hands.get(s, [])) for s in SIDES}
        out.update({f"area.{a}": v for a, v in sorted(areas.items())})
        out["deck"] = list(g.deck)
        return out

    def public(self, state: dict[str, Any]) -> dict[str, Any]:
        """What both sides may know: blocks per side per area, cards played, year, turn, owes."""
        return _public(self._read(state), self.owes(state))

    def view(self, state: dict[str, Any], side: str) -> dict[str, Any]:
        """What ``side`` may see of the board (views.py holds the one visibility rule)."""
        view: dict[str, Any] = _plain(side_view(game_of(state), side))
        return view

    def report(self, state: dict[str, Any], side: str, log: list[dict[str, Any]], game_id: str = "",
               step: int = 0) -> dict[str, Any]:
        """One side's report: its view, what it saw happen, what it owes next and the options.

        Built from the view, the public board and this side's own options only, so it cannot
        carry what the side may not see (tests/hammer/test_views_noninterference.py). While an
        engine step is paused for a decision, the view and board are those of the game as it
        stood at the question: the battle so far, with its rounds and dice, as this side saw them;
        and the log goes on with the lines the paused call had written by then (an Event's die,
        the battles it fought before), each as this side sees it, as it will see them when the
        call ends.
        """
        st = StepState.from_data(state)
        return self._report(st, state, GameState.from_dict(st.game), side, log, game_id, step)

    def _report(self, st: StepState, state: dict[str, Any], g: GameState, side: str, log: list[Any], game_id: str,
                step: int, shared: Shown | None = None) -> dict[str, Any]:
        """``report`` with the state parsed (``st``, its data form ``state``) and its game (``g``, only read).
        ``shared``: the game shown, tallied, and its public board, the same for every side's report (only read)."""
        board, public = shared or _shown(st, g)
        return {"game": game_id, "side": side, "step": step, "asks": st.owed().get(side, ""),
                "owes": st.owed(), "options": _options(g, state, side), "view": board.view(side),
                "log": _plain(filter_log([*(st.setup_log or ()), *log, *(st.paused_log or ())], side)),
                "public": public, "result": _result(st.game)}

    def options(self, state: dict[str, Any], side: str) -> dict[str, Any]:
        """The legal options for what ``side`` owes, for templates and bots."""
        return _options(game_of(state), state, side)

    # --- orders ----------------------------------------------------------------------------
    def default_order(self, state: dict[str, Any], side: str) -> dict[str, Any]:
        """The deadline policy (docs/playing.md): lowest card, no moves, first option, default plans
        (each order kind's ``default``, pbem/hammer/order_kinds)."""
        ask = ask_of(state, side)
        d = drafts.Draft(side=side, step=int(state.get("step", 0)), kind=ask.kind if ask else "card")
        if ask is not None:
            d.sections.update(ORDER_KINDS[ask.kind].default(game_of(state), ask))
        return d.body()

    def validate(self, state: dict[str, Any], side: str, body: dict[str, Any]) -> None:
        """The protocol's check: refuse an order this side may not give now (``accepted`` says why)."""
        self.accepted(state, side, body)

    def notes(self, state: dict[str, Any], side: str, body: dict[str, Any]) -> list[str]:
        """``validate``, then what the player's check tells of the order accepted (the order kind's
        ``notes``: e.g. a battle order naming an area with no battle yet, 5.1)."""
        return order_check.notes(state, side, drafts.from_body(body, f"order from {side}"))

    def accepted(self, state: dict[str, Any], side: str, body: dict[str, Any]) -> drafts.Draft:
        """The order as a draft, refused when this side may not give it now (``order_kinds.check``)."""
        return order_check.accepted(state, side, drafts.from_body(body, f"order from {side}"))

    # --- adjudication ----------------------------------------------------------------------
    def adjudicate(self, state: dict[str, Any], orders: dict[str, dict[str, Any]], rng: Drbg,
                   game_id: str = "") -> StepResult:
        """Apply every owed order, then run the game until some side owes orders again."""
        st = StepState.from_data(state)
        missing = sorted(set(st.owes) - set(orders))
        if missing:
            raise InvalidOrder(f"step {st.step} is incomplete: {', '.join(missing)} "
                               f"still {'owes' if len(missing) == 1 else 'owe'} orders")
        extra = sorted(set(orders) - set(st.owes))
        if extra:
            raise InvalidOrder(f"step {st.step}: {', '.join(extra)} owe nothing")
        new = st.fork()
        new.setup_log = None  # the set-up's lines belong to the entry-0 reports alone
        parsed = {side_named(side): self.accepted(state, side, orders[side]) for side in sorted(orders)}
        log: list[Any] = []
        g = run_step(new, parsed, rng, log)  # the game as the step left it: parsed once, only read
        new.step = st.step + 1
        for line in log:
            line.setdefault("step", st.step)
        data = new.to_data()
        shared = _shown(new, g)
        reports = {s: self._report(new, data, g, s, log, game_id, new.step, shared) for s in SIDES}
        self._made = (new.game, g)
        return StepResult(state=data, public=_public(g, new.owed()), reports=reports, log=to_data(log))


# --- helpers -------------------------------------------------------------------------------

def _result(g: GameData) -> dict[str, Any]:
    """The outcome so far, from the game's data."""
    return {"winner": g.get("winner", ""), "reason": g.get("win_reason", ""), "year": g.get("year", 0)}


class Shown(NamedTuple):
    """The game a step's reports show, tallied once for both sides' views, and its public board."""

    board: Board
    public: dict[str, Any]


def _shown(st: StepState, g: GameState) -> Shown:
    """The game a report shows (the paused one while a step waits for a decision) and its public board."""
    shown = GameState.from_dict(st.paused) if st.paused else g
    board = Board(shown)
    return Shown(board, _public(shown, st.owed(), board.places.counts()))


def _public(g: GameState, owes: dict[str, str], counts: dict[str, dict[str, int]] | None = None) -> dict[str, Any]:
    """The public board; ``counts``: the blocks per side per area, when the caller has tallied them."""
    if counts is None:
        counts = {}
        for b in g.blocks.values():
            if b.location in PLACES:
                continue
            counts.setdefault(b.location, {s: 0 for s in SIDES})[b.owner] += 1
    return {"year": g.year, "turn": g.turn, "phase": g.phase, "king": g.king, "edward": g.edward,
            "played": {s: list(g.played.get(s, [])) for s in SIDES},
            "blocks": {a: counts[a] for a in sorted(counts)},
            "owes": owes, "winner": g.winner, "win_reason": g.win_reason}


def _options(g: GameState, state: dict[str, Any], side: str) -> dict[str, Any]:
    """The legal options the report lists for what ``side`` owes (the order kind's ``options``)."""
    ask = ask_of(state, side)
    return ORDER_KINDS[ask.kind].options(g, ask) if ask is not None else {}


# --- the step machine (brief 7) -------------------------------------------------------------
#
# The engine (engine.py) owns the game turn's phases. ``run_step`` files what the answering
# sides sent (plans and "if Player 1" moves are kept in ``pending`` until needed) and runs the
# call their kind of order starts (``OrderKindRules.start``); then ``engine.drive`` feeds the
# engine every step it can from what is pending, and stops where a side must be asked (setting
# ``owes``) or when the game is over.


def run_step(st: StepState, parsed: dict[Side, drafts.Draft], rng: Drbg, log: list[Any]) -> GameState:
    """File the orders, run the engine as far as it goes; the game as it then stands (equal to
    ``GameState.from_dict(st.game)``; the caller only reads it)."""
    for side, d in sorted(parsed.items()):
        st.pending_of(side).keep(d.sections)
    kinds = {d.kind for d in parsed.values()}
    if len(kinds) != 1:
        raise DataError(f"one step takes orders of one kind; these are {', '.join(sorted(kinds)) or 'none'}")
    call = ORDER_KINDS[order_kind_named(kinds.pop())].start(st, parsed)
    # a resumed call (winter included) spends its plans as a fresh one does
    made = _run(st, call, rng, log) if call is not None else GameState.from_dict(st.game)
    if made is None:  # paused for a decision
        return GameState.from_dict(st.game)
    g, waiting = engine.drive(made, _SentAhead(st, log), lambda game, step: _run(st, step, rng, log))
    if waiting is not None:
        st.owes = dict(waiting.owes)
    return g


class _SentAhead:
    """The ruleset's source of orders for ``engine.drive``: what the sides sent ahead (``pending``);
    None where a side must be asked (cards are always asked for: they open a turn)."""

    def __init__(self, st: StepState, log: list[Any]) -> None:
        self.st, self.log = st, log

    def cards(self, g: GameState) -> None:
        return None

    def event(self, g: GameState, side: Side) -> dict[str, Any] | None:
        p = self.st.pending_of(side)
        params, p.event = p.event, None
        if params is not None:
            try:  # sent with the card; the other side's Event, resolved first, may have changed the board
                validate_event(g, side, g.current.cards.get(side, ""), params)
            except IllegalOrder as exc:
                self.log.append(entry("event_refused", side, PRIVATE, reason=str(exc),
                                      rule=getattr(exc, "rule", "") or "3.12"))
                params = None
        return params

    def moves(self, g: GameState, side: Side) -> dict[str, Any] | None:
        """Player 1's moves sent with its card (``if_player1``); Player 2 is asked (4.1)."""
        p = self.st.pending_of(side)
        if side != g.current.player1:
            return None
        ahead, p.if_player1 = p.if_player1, None
        if ahead is not None:
            p.battle_order = list(ahead.get("battle_order", []))
        return ahead

    def battle_order(self, g: GameState, side: Side) -> list[str]:
        return [a for a in self.st.pending_of(side).battle_order or [] if a in g.current.battles]

    def winter(self, g: GameState) -> bool:
        return all(self.st.pending_of(s).winter is not None for s in SIDE_NAMES)


def _run(st: StepState, step: engine.StepCall, rng: Drbg, log: list[Any]) -> GameState | None:
    """``_call`` for the driver; a winter plan is spent once the Winter Turn it was sent for is over."""
    made = _call(st, step, rng, log)
    if made is not None and step.name == "run_winter":
        for s in SIDE_NAMES:
            st.pending_of(s).winter = None
    return made


def _call(st: StepState, step: engine.StepCall, rng: Drbg, log: list[Any]) -> GameState | None:
    """Call one engine step, resumably: the game it made (equal to ``GameState.from_dict(st.game)``
    after it), or None when a side must decide first.

    The call runs on a copy of the state taken before it, with its own stream keyed by the next
    block of the step's stream (every log line it writes says which: ``"stream": [entry, call]``),
    the standing plans as they were when it started, and the answers given in ``decide`` steps
    so far. After a "decide" step it is replayed from that copy with the same
    key and plans, so the questions come in the same order and dice already shown never change.

    "Ask me" is asked once per battle (decisions.Lookahead): when a side's plans ask, its other
    questions of that battle that come before any new die are gathered and asked with it, in one
    decide step; after it, that side is not asked again in that battle, and plans sent with the
    decide order answer its remaining questions of the call (decisions.Replay).
    """
    resume = st.resume
    if resume is None:
        # Call k of this step (k = 0, 1, ...) is keyed by words 8k .. 8k+7 of the step's stream, i.e.
        # its block k: nothing else reads the step's stream (docs/random-stream.md "Engine calls").
        call = rng.position // WORDS_PER_KEY
        key = b"".join(rng.word().to_bytes(4, "big") for _ in range(WORDS_PER_KEY))
        plans = {s: st.pending[s].standing() if s in st.pending else {} for s in SIDE_NAMES}
        resume = st.resume = PausedCall(call=step.name, args=list(step.args), game=st.game, key=key.hex(),
                                        stream=[st.step + 1, call], plans=plain_copy(plans))
    g = GameState.from_dict(resume.game)
    sub = Drbg(bytes.fromhex(resume.key))

    made: dict[tuple[str, str, frozenset[str]], Any] = {}

    def make(side: str, pending: dict[str, Any], quiet: frozenset[str]) -> Any:
        key = (side, json.dumps(pending, sort_keys=True), quiet)
        if key not in made:
            made[key] = _plan_decider(side, pending, g, quiet)
        return made[key]

    replay = Replay(make, resume.plans, resume.decided or [], {s: list(a) for s, a in resume.answers.items()})
    decider = Lookahead(replay, lambda: sub.position, lambda: _at_question(g))
    out: Any = None
    try:
        out = engine.StepCall(resume.call, plain_copy(resume.args)).run(g, sub, decider)
    except StopLookahead:
        pass
    at = decider.paused  # what the call had done by the first question a side's plans asked
    if decider.batch and at is not None:  # a side must decide: its questions of this battle, asked together
        first = decider.batch[0]
        st.question = first.to_dict()
        st.questions = [q.to_dict() for q in decider.batch] if len(decider.batch) > 1 else None
        st.owes = {side_named(first.side): "decide"}
        shown = GameState.from_dict(at.game)  # the game at the first question
        for line in shown.current.fight.log if shown.current.fight is not None else []:
            line.setdefault("stream", list(resume.stream))
        for data in at.lines:  # the call's lines outside that battle: stamped as the call's lines are below
            data.setdefault("stream", list(resume.stream))
        st.paused = shown.to_dict()  # shown in the reports; the call itself replays from resume
        st.paused_log = at.lines or None
        resume.ask = {"side": first.side, "area": battle_of(first), "at": decider.at,
                      "questions": [signature(q) for q in decider.batch]}
        return None
    # Who sees a line is views.entry_for's rule alone: a line naming neither ``side`` nor
    # ``public`` is the referee's (fail closed). Each line names the sub-stream its dice came from.
    out = engine.copied(out)
    for line in out:
        line.setdefault("stream", list(resume.stream))
    log.extend(out)
    st.game = g.to_dict()
    st.resume = None
    st.question = None
    st.questions = None
    st.paused = None
    st.paused_log = None
    return g


class _AtQuestion(NamedTuple):
    """What a paused call had done by its first question (sofar.py): the game, and the lines written, as data."""

    game: GameData
    lines: list[dict[str, Any]]


def _at_question(g: GameState) -> _AtQuestion:
    """The call at a question, copied: the game it is changing (a working copy in an Event or a
    winter sub-step, else ``g``, the game it was handed) and the lines it has written so far."""
    now = sofar.now()
    return _AtQuestion((now.game or g).to_dict(), now.lines)


# --- the engine seam: every call into the rules engine goes through these few functions -----

def _plan_decider(side: str, pending: dict[str, Any], live: GameState | None = None,
                  quiet: frozenset[str] = frozenset()) -> Any:
    """Winter questions from the winter plan (winter.py); others from battle plans (plans.py), which
    do not ask again in the battles of ``quiet`` (asked once per battle)."""
    winter = winter_plan(side, dict(pending.get("winter", {}) or {}))
    battle = plans.decider(side, {"plans": pending.get("plans", {})}, state=live, quiet=quiet)
    return _ByKind(winter, battle)


class _ByKind:
    """Questions whose kind starts with ``winter`` go to the winter plan, the rest to battle plans."""

    def __init__(self, winter: Any, battle: Any) -> None:
        self.winter, self.battle = winter, battle

    def decide(self, question: Question) -> str:
        target = self.winter if question.kind.startswith("winter") else self.battle
        return str(target.decide(question))


if TYPE_CHECKING:  # mypy holds the class to the protocol's seam
    _SEAM: Ruleset = HammerRuleset()

__all__ = ["HammerRuleset", "NeedDecision", "Question", "parse_options", "game_of"]
