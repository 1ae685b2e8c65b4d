"""The Hammer of the Scots ``Ruleset``: the step machine the protocol drives (brief 7, docs/playing.md).

The protocol sees a plain-data secret state, asks who owes what, hands in one order per owing
side and a random stream, and gets back the new state, the public facts and one report per side.
Everything Hammer-specific stays here and in the engine modules.

The secret state is a wrapper around ``GameState``::

    {"game": GameState.to_dict(), "owes": {side: kind}, "pending": {side: {...}},
     "resume": {...} | None, "question": Question dict | None, "paused": GameState dict | None,
     "step": n}

``pending`` keeps what a side sent ahead (``if_player1`` moves, battle plans, winter plans)
until the engine needs it, which is what lets a game turn cost about two exchanges.
``resume`` makes an engine step (a battle phase, an event, winter) resumable after a "decide"
step: the referee replays it from the snapshot taken before it, with the same stream key, the
standing plans as they were then, and the answers given so far, so the questions come again
in the same order and the dice a side has seen never change.
"""

from __future__ import annotations

import json
from typing import Any

from pbem.core.drbg import Drbg
from pbem.core.ruleset import StepResult
from pbem.hammer import drafts, engine, plans
from pbem.hammer.blocks import SIDES
from pbem.hammer.cards import card as card_of
from pbem.hammer.cards import deck
from pbem.hammer.decisions import Lookahead, NeedDecision, Question, Replay, StopLookahead, battle_of, signature
from pbem.hammer.errors import IllegalOrder, InvalidOrder
from pbem.hammer.events import legal_events, validate_event
from pbem.hammer.movement import apply_moves, legal_group_moves
from pbem.hammer.orders import parse_moves
from pbem.hammer.scenario import scenarios as scenario_names
from pbem.hammer.scenario import setup as scenario_setup
from pbem.hammer.state import PLACES, GameState, Options, Turn, plain_copy
from pbem.hammer.suggest import did_you_mean
from pbem.hammer.views import filter_log as views_filter_log
from pbem.hammer.views import view as side_view
from pbem.hammer.winter import check_winter_plan, validate_winter_plan, winter_plan_options
from pbem.hammer.winter import plan_decider as winter_plan

RULESET_ID = "hammer"
WORDS_PER_KEY = 8  # an engine call's stream key: 8 words (32 bytes) of the step's stream
RULESET_VERSION = "2"


class HammerRuleset:
    """Hammer of the Scots on the protocol's ``Ruleset`` seam."""

    id = RULESET_ID
    version = RULESET_VERSION
    sides = SIDES

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

    def player(self) -> Any:
        """The player's side of the seam (protocol §10.2): pbem.hammer.player.HammerPlayer."""
        from pbem.hammer.player import HammerPlayer
        return HammerPlayer()

    # --- set-up -----------------------------------------------------------------------------
    def scenarios(self) -> tuple[str, ...]:
        return tuple(sorted(scenario_names()))

    def setup(self, scenario: str, options: dict[str, Any], rng: Drbg) -> dict[str, Any]:
        """The first secret state: the scenario set up, the hands dealt, both sides owe a card."""
        game = scenario_setup(scenario, parse_options(options), rng)
        return {"game": game.to_dict(), "owes": {s: "card" for s in SIDES},
                "pending": {s: {} for s in SIDES}, "resume": None, "question": None, "paused": None, "step": 0}

    # --- queries ---------------------------------------------------------------------------
    def owes(self, state: dict[str, Any]) -> dict[str, str]:
        """Side -> the kind of order it owes now (empty when the game is over)."""
        return dict(sorted(state["owes"].items()))

    def is_over(self, state: dict[str, Any]) -> bool:
        return bool(state["game"].get("winner")) or not state["owes"]

    def result(self, state: dict[str, Any]) -> dict[str, Any]:
        g = state["game"]
        return {"winner": g.get("winner", ""), "reason": g.get("win_reason", ""), "year": g.get("year", 0)}

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
        stood at the question: the battle so far, with its rounds and dice, as this side saw them.
        """
        return self._report(state, game_of(state), side, log, game_id, step)

    def _report(self, state: dict[str, Any], g: GameState, side: str, log: list[dict[str, Any]], game_id: str,
                step: int, shared: tuple[GameState, dict[str, Any]] | None = None) -> dict[str, Any]:
        """``report`` with the game already parsed from ``state["game"]`` (``g`` is only read).
        ``shared``: the game shown and its public board, the same for every side's report (only read)."""
        shown, public = shared or self._shown(state, g)
        asks = state["owes"].get(side, "")
        return {"game": game_id, "side": side, "step": step, "asks": asks, "owes": self.owes(state),
                "options": _options(g, state, side), "view": _plain(side_view(shown, side)),
                "log": _plain(filter_log(log, side)),
                "public": public, "result": self.result(state)}

    def _shown(self, state: dict[str, Any], g: GameState) -> tuple[GameState, dict[str, Any]]:
        """The game a report shows (the paused one while a step waits for a decision) and its public board."""
        shown = GameState.from_dict(state["paused"]) if state.get("paused") else g
        return shown, _public(shown, self.owes(state))

    def options(self, state: dict[str, Any], side: str) -> dict[str, Any]:
        """The legal options for what ``side`` owes, for templates and bots."""
        return _options(game_of(state), state, side)

    # --- orders ----------------------------------------------------------------------------
    def default_order(self, state: dict[str, Any], side: str) -> dict[str, Any]:
        """The deadline policy (docs/playing.md): lowest card, no moves, first option, default plans."""
        asks = state["owes"].get(side, "")
        step = int(state.get("step", 0))
        d = drafts.Draft(side=side, step=step, kind=asks or "card")
        g = game_of(state)
        if asks == "card":
            hand = sorted(g.hands.get(side, []), key=lambda c: (card_of(c).is_event, card_of(c).value, c))
            d.sections["card"] = {"play": hand[0]}
            d.sections["if_player1"] = {"moves": []}  # no moves: spares a round trip (docs/playing.md)
            if card_of(hand[0]).is_event:
                d.sections["event"] = {}  # the event's own defaults (events.py)
        elif asks == "moves":
            d.sections["moves"] = {"moves": []}
        elif asks == "decide":
            q = state.get("question") or {}
            if state.get("questions"):  # several questions of one battle: the first option of each
                d.sections["decide"] = {"answers": [(x.get("options") or [""])[0] for x in state["questions"]]}
            else:
                d.sections["decide"] = {"answer": (q.get("options") or [""])[0]}
        elif asks == "event":
            d.sections["event"] = {}
        elif asks == "winter":
            d.sections["winter"] = {}
        return d.body()

    def validate(self, state: dict[str, Any], side: str, body: dict[str, Any]) -> drafts.Draft:
        """Refuse an order this side may not give now: wrong side, step or kind, or illegal content."""
        draft = drafts.from_body(body, f"order from {side}")
        asks = state["owes"].get(side, "")
        if draft.side != side:
            raise InvalidOrder(f"order from {side}: it says side {draft.side!r}")
        if not asks:
            raise InvalidOrder(f"order from {side}: {side} owes nothing at step {state.get('step', 0)}")
        if draft.step != int(state.get("step", 0)):
            raise InvalidOrder(f"order from {side}: it answers step {draft.step}, not step {state.get('step', 0)}")
        if draft.kind != asks:
            raise InvalidOrder(f"order from {side}: it is a {draft.kind} order, but {side} owes {asks}")
        g = game_of(state)  # a fresh copy, private to this check: the dry runs below may change it
        if asks == "card":
            play = draft.sections["card"]["play"]
            if play not in g.hands.get(side, []):
                raise IllegalOrder(f"play {play!r}: that card is not in {side}'s hand "
                                   f"({', '.join(sorted(g.hands.get(side, [])))}) (3.1)"
                                   f"{'' if play in deck() else did_you_mean(play, g.hands.get(side, []))}",
                                   rule="3.1")  # a suggestion only for a name that is no card at all
            if card_of(play).is_event and "event" in draft.sections:  # against the board as it is now
                validate_event(g, side, play, draft.sections["event"])
            ahead = draft.sections.get("if_player1")
            if ahead and not card_of(play).is_event:  # checked now as if this side were Player 1
                g.current = Turn(cards={side: play}, player1=side)
                _eng_apply_moves(g, side, ahead)
        if asks == "event":
            validate_event(g, side, g.current.cards.get(side, ""), draft.sections.get("event", {}))
        if asks == "decide":
            _check_answers(state, draft.sections["decide"])
        if asks == "moves":
            _eng_apply_moves(g, side, draft.sections.get("moves", {}))  # a dry run: movement rules raise
        if asks == "winter":  # every choice must be one offered in this position (7.0)
            check_winter_plan(g, side, draft.sections.get("winter", {}))
        _check_plans(draft)
        return draft

    # --- adjudication ----------------------------------------------------------------------
    def adjudicate(self, state: dict[str, Any], orders: dict[str, dict[str, Any]], rng: Drbg,
                   game_id: str = "") -> StepResult:
        """Apply every owed order, then run the game until some side owes orders again."""
        missing = sorted(set(state["owes"]) - set(orders))
        if missing:
            raise InvalidOrder(f"step {state.get('step', 0)} is incomplete: {', '.join(missing)} "
                               f"still {'owes' if len(missing) == 1 else 'owe'} orders")
        extra = sorted(set(orders) - set(state["owes"]))
        if extra:
            raise InvalidOrder(f"step {state.get('step', 0)}: {', '.join(extra)} owe nothing")
        new = _next_state(state)
        parsed = {side: self.validate(state, side, orders[side]) for side in sorted(orders)}
        log: list[dict[str, Any]] = []
        g = run_step(new, parsed, rng, log)  # the game as the step left it: parsed once, only read
        new["step"] = int(state.get("step", 0)) + 1
        for entry in log:
            entry.setdefault("step", new["step"] - 1)
        shared = self._shown(new, g)
        reports = {s: self._report(new, g, s, log, game_id, new["step"], shared) for s in SIDES}
        self._made = (new["game"], g)
        return StepResult(state=new, public=_public(g, self.owes(new)), reports=reports, log=log)


# --- helpers -------------------------------------------------------------------------------

def parse_options(options: dict[str, Any]) -> Options:
    """Scenario options from ``--option key=value`` pairs (``schiltroms``, ``bid``)."""
    known = {"schiltroms", "bid"}
    for key in sorted(options):
        if key not in known:
            raise InvalidOrder(f"unknown option {key!r}; known: {', '.join(sorted(known))}")
    schiltroms = options.get("schiltroms", False)
    if isinstance(schiltroms, str):
        word = schiltroms.lower()
        if word not in ("1", "true", "yes", "on", "0", "false", "no", "off"):
            raise InvalidOrder(f"option schiltroms={schiltroms!r}: say true or false (the optional Schiltroms rule)")
        schiltroms = word in ("1", "true", "yes", "on")
    return Options(schiltroms=bool(schiltroms), bid=str(options.get("bid", "")))


def _next_state(state: dict[str, Any]) -> dict[str, Any]:
    """A copy of the secret state for ``run_step`` to change. The game's plain data (``game``,
    ``paused``, the resume point's ``game``) is only ever replaced here, never changed in place,
    so it is shared rather than copied; everything else is copied."""
    def copied(part: dict[str, Any], shared: tuple[str, ...]) -> dict[str, Any]:
        return {k: (v if k in shared else plain_copy(v)) for k, v in part.items()}
    new = copied(state, ("game", "paused", "resume"))
    if isinstance(state.get("resume"), dict):
        new["resume"] = copied(state["resume"], ("game",))
    return new


def game_of(state: dict[str, Any]) -> GameState:
    return GameState.from_dict(state["game"])


def _public(g: GameState, owes: dict[str, str]) -> dict[str, Any]:
    counts: dict[str, dict[str, int]] = {}
    for b in g.blocks.values():
        if b.location in PLACES:
            continue
        counts.setdefault(b.location, {s: 0 for s in SIDES})[b.owner] += 1
    return {"year": g.year, "turn": g.turn, "phase": g.phase, "king": g.king, "edward": g.edward,
            "played": {s: list(g.played.get(s, [])) for s in SIDES},
            "blocks": {a: counts[a] for a in sorted(counts)},
            "owes": owes, "winner": g.winner, "win_reason": g.win_reason}


def _options(g: GameState, state: dict[str, Any], side: str) -> dict[str, Any]:
    asks = state["owes"].get(side, "")
    out: dict[str, Any] = {}
    if asks == "card":
        out["hand"] = sorted(g.hands.get(side, []))
        out["moves"] = _eng_reach_as_player1(g, side)  # for [if_player1] (4.1)
    elif asks == "moves":
        out["card"] = g.current.cards.get(side, "")
        out["moves"] = _eng_legal_moves(g, side)
    elif asks == "event":
        out["event"] = g.current.cards.get(side, "")
        out["event_params"] = _plain(legal_events(g, side))
    elif asks == "decide" and state.get("question"):
        out["question"] = state["question"]
        if state.get("questions"):  # the side's questions of this battle, asked together (docs/plans.md)
            out["questions"] = state["questions"]
    elif asks == "winter":
        out["winter_plan"] = _plain(winter_plan_options(g, side))
    return out


_LEAVES = frozenset({str, int, bool, type(None)})  # kept as they are: no call for them (most of the data)


def _plain(data: Any) -> Any:
    kind = type(data)
    if kind in _LEAVES:
        return data
    if kind is dict:
        return {str(k): v if type(v) in _LEAVES else _plain(v) for k, v in data.items()}
    if kind is list:
        return [v if type(v) in _LEAVES else _plain(v) for v in data]
    if hasattr(data, "to_dict"):
        return data.to_dict()
    if isinstance(data, dict):
        return {str(k): _plain(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [_plain(v) for v in data]
    return data


def answers_of(decide: dict[str, Any]) -> list[str]:
    """A decide order's answers in order: ``answers = [...]`` or the single ``answer``."""
    return list(decide["answers"]) if "answers" in decide else [decide["answer"]]


def _check_answers(state: dict[str, Any], decide: dict[str, Any]) -> None:
    """One answer per question asked, in order, each one of its question's options."""
    q = state.get("question") or {}
    asked = state.get("questions") or [q]
    answers = answers_of(decide)
    if len(answers) != len(asked):
        rule = str(q.get("rule", ""))
        raise IllegalOrder(f"answers: {len(asked)} question(s) of this battle are asked, so give "
                           f"{len(asked)} answer(s) in order, not {len(answers)} ({rule})", rule=rule)
    for n, (answer, question) in enumerate(zip(answers, asked)):
        opts = list(question.get("options", []))
        if answer not in opts:
            where = f"answer {answer!r}" if len(asked) == 1 else \
                f"answers[{n}] {answer!r} ({question.get('kind', '')} {question.get('context', {}).get('block', '')})"
            raise IllegalOrder(f"{where.replace(' )', ')')}: not one of {', '.join(opts)} ({question.get('rule', '')})",
                               rule=str(question.get("rule", "")))


def _check_plans(draft: drafts.Draft) -> None:
    if "winter" in draft.sections:
        validate_winter_plan(draft.side, draft.sections["winter"])
    if "plans" in draft.sections:
        _plan_decider(draft.side, {"plans": draft.sections["plans"]})


# --- the step machine (brief 7) -------------------------------------------------------------
#
# The engine (engine.py) owns the game turn's phases. ``run_step`` files what the answering
# sides sent (plans and "if Player 1" moves are kept in ``pending`` until needed), then
# ``_drive`` feeds the engine every step it can from what is pending, and stops where a side
# must be asked (setting ``owes``) or when the game is over.


def run_step(state: dict[str, Any], parsed: dict[str, drafts.Draft], rng: Drbg,
             log: list[dict[str, Any]]) -> GameState:
    """File the orders, run the engine as far as it goes; the game as it then stands (equal to
    ``game_of(state)``; the caller only reads it)."""
    pending = state.setdefault("pending", {s: {} for s in SIDES})
    for side, d in sorted(parsed.items()):
        p = pending.setdefault(side, {})
        if "plans" in d.sections:  # standing plans: kept until replaced
            p["plans"] = d.sections["plans"]
        for key in ("if_player1", "event", "winter"):
            if key in d.sections:
                p[key] = d.sections[key]
    kinds = {d.kind for d in parsed.values()}
    g: GameState | None = None
    if state.get("resume"):
        ((side, d),) = parsed.items()
        asked = state["resume"].pop("ask", None)
        if asked is None:  # a call paused before batched questions: answers in a flat list
            state["resume"]["answers"].setdefault(side, []).append(answers_of(d.sections["decide"])[0])
        else:  # the answers, and the plans sent with them, for the rest of the call (docs/plans.md)
            done = {**asked, "answers": answers_of(d.sections["decide"])}
            if "plans" in d.sections:
                done["plans"] = d.sections["plans"]
            state["resume"].setdefault("decided", []).append(done)
        g = _call(state, state["resume"]["call"], state["resume"]["args"], rng, log)
        if g is None:
            return game_of(state)
    elif kinds == {"card"}:
        for side in SIDES:
            if side not in parsed:
                continue
            pending[side].pop("battle_order", None)
            if "if_player1" not in parsed[side].sections:
                pending[side].pop("if_player1", None)
            if "event" not in parsed[side].sections:
                pending[side].pop("event", None)
        cards = {side: d.sections["card"]["play"] for side, d in sorted(parsed.items())}
        for side, play in cards.items():  # Truce takes no parameters: played at once, no event step (3.12)
            if card_of(play).event == "truce" and "event" not in parsed[side].sections:
                pending[side]["event"] = {}
        g = _call(state, "submit_cards", [cards], rng, log)
        if g is None:
            return game_of(state)
    elif kinds == {"moves"}:
        ((side, d),) = parsed.items()
        section = d.sections.get("moves", {})
        pending[side]["battle_order"] = list(section.get("battle_order", []))
        g = _call(state, "submit_moves", [side, section], rng, log)
        if g is None:
            return game_of(state)
    # "event" and "winter" orders only fill ``pending``; _drive submits them.
    return _drive(state, rng, log, g)


def _drive(state: dict[str, Any], rng: Drbg, log: list[dict[str, Any]], made: GameState | None = None) -> GameState:
    """Feed the engine every step it can; the game as it then stands. ``made`` is ``game_of(state)``
    when the caller has it (the game an engine call just made), so it is not parsed again; it
    is only read here."""
    pending = state["pending"]
    for _ in range(1000):
        g = made or game_of(state)
        made = None
        phase = engine.next_step(g)
        owing = engine.who_owes(g)
        if phase == "over" or (not owing and phase not in ("battle",)):
            state["owes"] = {}
            return g
        if phase == "card":
            state["owes"] = {s: "card" for s in SIDES}
            return g
        if phase == "event":
            side = owing[0]
            params = pending[side].pop("event", None)
            if params is not None:
                try:  # sent with the card; the other side's Event, resolved first, may have changed the board
                    validate_event(g, side, g.current.cards.get(side, ""), params)
                except IllegalOrder as exc:
                    log.append({"what": "event_refused", "side": side, "public": False, "reason": str(exc),
                                "rule": getattr(exc, "rule", "") or "3.12"})
                    params = None
            if params is None:
                state["owes"] = {side: "event"}
                return g
            made = _call(state, "submit_events", [side, params], rng, log)
            if made is None:
                return g
            continue
        if phase == "move":
            side = owing[0]
            ahead = pending[side].pop("if_player1", None) if side == g.current.player1 else None
            if ahead is None:
                state["owes"] = {side: "moves"}
                return g
            pending[side]["battle_order"] = list(ahead.get("battle_order", []))
            made = _call(state, "submit_moves", [side, ahead], rng, log)
            if made is None:
                return g
            continue
        if phase == "battle":
            p1 = g.current.player1 or "england"
            order = [a for a in pending.get(p1, {}).get("battle_order", []) if a in g.current.battles]
            made = _call(state, "run_battles", [order], rng, log)
            if made is None:
                return g
            continue
        if phase == "winter":
            if not all("winter" in pending[s] for s in SIDES):
                state["owes"] = {s: "winter" for s in SIDES}
                return g
            made = _call(state, "run_winter", [], rng, log)
            if made is None:
                return g
            for s in SIDES:
                pending[s].pop("winter", None)
            continue
        raise InvalidOrder(f"the engine waits in an unknown step {phase!r}")  # pragma: no cover
    raise InvalidOrder("the game made no progress in 1000 steps")  # pragma: no cover


def _call(state: dict[str, Any], name: str, args: list[Any], rng: Drbg,
          log: list[dict[str, Any]]) -> GameState | None:
    """Call one engine step, resumably: the game it made (equal to ``game_of(state)`` after it),
    or None when a side must decide first.

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
    resume = state.get("resume")
    if not resume:
        # Call k of this step (k = 0, 1, ...) is keyed by words 8k .. 8k+7 of the step's stream, i.e.
        # its block k: nothing else reads the step's stream (docs/random-stream.md "Engine calls").
        call = rng.position // WORDS_PER_KEY
        key = b"".join(rng.word().to_bytes(4, "big") for _ in range(WORDS_PER_KEY))
        plans = {s: {k: v for k, v in state.get("pending", {}).get(s, {}).items() if k in ("plans", "winter")}
                 for s in SIDES}
        resume = {"call": name, "args": args, "game": state["game"], "key": key.hex(), "answers": {},
                  "plans": plain_copy(plans), "stream": [int(state.get("step", 0)) + 1, call]}
        state["resume"] = resume
    g = GameState.from_dict(resume["game"])
    sub = Drbg(bytes.fromhex(resume["key"]))

    made: dict[tuple[str, str, frozenset[str]], Any] = {}

    def make(side: str, pending: dict[str, Any], quiet: frozenset[str]) -> Any:
        key = (side, json.dumps(pending, sort_keys=True), quiet)
        if key not in made:
            made[key] = _plan_decider(side, pending, g, quiet)
        return made[key]

    replay = Replay(make, resume["plans"], resume.get("decided", []),
                    {s: list(a) for s, a in resume["answers"].items()})
    decider = Lookahead(replay, lambda: sub.position, g.to_dict)
    fn = getattr(engine, name)
    out: Any = None
    try:
        out = fn(g, *plain_copy(resume["args"]), sub, decider)
    except StopLookahead:
        pass
    if decider.batch:  # a side must decide: its questions of this battle, asked together
        first = decider.batch[0]
        state["question"] = first.to_dict()
        state.pop("questions", None)
        if len(decider.batch) > 1:
            state["questions"] = [q.to_dict() for q in decider.batch]
        state["owes"] = {first.side: "decide"}
        shown = GameState.from_dict(decider.paused)  # the game at the first question
        for entry in shown.current.fight.log if shown.current.fight is not None else []:
            entry.setdefault("stream", list(resume["stream"]))
        state["paused"] = shown.to_dict()  # shown in the reports; the call itself replays from resume
        resume["ask"] = {"side": first.side, "area": battle_of(first), "at": decider.at,
                         "questions": [signature(q) for q in decider.batch]}
        return None
    # Who sees a line is views.entry_for's rule alone: a line naming neither ``side`` nor
    # ``public`` is the referee's (fail closed). Each line names the sub-stream its dice came from.
    out = engine.tagged(out, name)
    for entry in out:
        entry.setdefault("stream", list(resume["stream"]))
    log.extend(out)
    state["game"] = g.to_dict()
    state["resume"] = None
    state["question"] = None
    state.pop("questions", None)
    state["paused"] = None
    return g


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


def _eng_legal_moves(g: GameState, side: str) -> dict[str, dict[str, list[str]]]:
    """``{origin: {block: [areas it may reach]}}`` for ``side``'s Move Phase now (4.x)."""
    return legal_group_moves(g, side)  # plain data already: new dicts and lists of names


def _eng_reach_as_player1(g: GameState, side: str) -> dict[str, dict[str, list[str]]]:
    """The legal moves ``side`` would have as Player 1 of a new Game Turn, as ``validate`` checks
    ``[if_player1]``: the card only needs a value of at least 1 (4.1, 4.2)."""
    work = g.copy()
    work.current = Turn(cards={side: _A_MOVE_CARD}, player1=side)
    return _eng_legal_moves(work, side)


_A_MOVE_CARD = "move1-1"


def _eng_apply_moves(g: GameState, side: str, section: dict[str, Any]) -> None:
    apply_moves(g, side, parse_moves({k: v for k, v in section.items() if k != "battle_order"}))


def filter_log(log: list[dict[str, Any]], side: str) -> list[dict[str, Any]]:
    """Only what ``side`` saw happen (views.py holds the one visibility rule)."""
    return list(views_filter_log(log, side))


__all__ = ["HammerRuleset", "NeedDecision", "Question", "parse_options", "game_of"]
