"""Bots that write real drafts from a side's own report: what a player could do, nothing more.

A bot sees only the report the referee sealed to its side (its view and the legal options) and
writes the same TOML draft a human would. Its randomness comes from a ``Drbg`` keyed by a seed
the caller gives, so a bot game replays exactly.

- ``random``: any legal choice, uniformly; standing battle plans drawn from a few kinds,
  some of which ask (so bot games open ``decide`` steps too).
- ``simple``: plays its highest Move card (keeps Events for nothing), moves groups towards
  enemy areas where it has at least as many blocks, answers questions with the first option,
  and sends a standing plan: from round 2, retreat when outnumbered.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any, TypeVar

from pbem.core.drbg import Drbg
from pbem.hammer.play import drafts
from pbem.hammer.play.order_kinds import Sections, rules_for
from pbem.hammer.play.order_kinds.bot_choices import BOTS as BOTS
from pbem.hammer.play.order_kinds.bot_choices import RANDOM_PLANS as RANDOM_PLANS
from pbem.hammer.play.order_kinds.bot_choices import SIMPLE_PLANS as SIMPLE_PLANS
from pbem.hammer.rules.cards import card as card_of
from pbem.hammer.rules.engine import play_game
from pbem.hammer.rules.errors import IllegalOrder, InvalidOrder
from pbem.hammer.rules.errors import IllegalOrder as Refused
from pbem.hammer.rules.events import legal_events
from pbem.hammer.rules.movement import LegalSteps, check_moves
from pbem.hammer.rules.orders import parse_moves
from pbem.hammer.rules.scenario import setup
from pbem.hammer.rules.state import Options

if TYPE_CHECKING:  # the engine is imported where a game is played, not to draft orders
    from pbem.hammer.rules.engine import Player

_T = TypeVar("_T")


def auto_draft(report: dict[str, Any], bot: str, seed: bytes) -> drafts.Draft:
    """The draft ``bot`` writes for what ``report`` asks; ``seed`` keys its random choices. Each
    order kind writes its own sections (``order_kinds``: how the bots choose is there too)."""
    if bot not in BOTS:
        raise InvalidOrder(f"unknown bot {bot!r}; choose one of {', '.join(BOTS)}")
    asks = report.get("asks", "")
    if not asks:
        raise InvalidOrder(f"report for {report.get('side')} at step {report.get('step')}: nothing is owed")
    rng = Drbg(hashlib.sha256(b"pbem-bot|" + bot.encode() + b"|" + seed).digest())
    rules = rules_for(asks)
    sections = rules.bot(report, bot, rng)
    if rules.bot_cuts_moves:
        sections = keep_legal(asks, sections, report)
    return drafts.Draft(side=report["side"], step=int(report["step"]), kind=asks, game=report.get("game", ""),
                        sections=sections)


def keep_legal(kind: str, sections: Sections, report: dict[str, Any]) -> Sections:
    """Drop group moves from the end until the player's check (the referee's own, docs/orders.md)
    accepts the draft: the bot picks each move from the listed reach, but the moves together may
    still break a border limit (4.3), a pin (4.6) or the card's value (4.2). Run for the kinds whose
    bots write group moves (``OrderKindRules.bot_cuts_moves``)."""
    d = drafts.Draft(side=report["side"], step=int(report["step"]), kind=kind, game=report.get("game", ""),
                     sections=sections)
    key = "if_player1" if "if_player1" in d.sections else "moves"
    moves = d.sections.get(key, {}).get("moves")
    while True:
        try:
            drafts.check_draft(d, report)
            return sections
        except IllegalOrder:
            if not moves:
                raise
            moves.pop()


# --- a random legal player for whole games through the engine (pbem.hammer.rules.engine.play_game) ----

class RandomPlayer:
    """Plays any legal thing at random, seeing the whole state: for property tests and benches.

    Not adjudication, so Python's ``random`` is fine here; seeded, it replays exactly. Moves are
    drawn from the movement module's legal-move generator and tried on a scratch copy of the state: an
    order the rules refuse is cut down (last group move dropped) until one is accepted, so the
    player never stalls the game.
    """

    def __init__(self, seed: int) -> None:
        import random
        self.rng = random.Random(seed)

    def choose_card(self, state: Any, side: str) -> str:
        card: str = self.rng.choice(sorted(state.hands[side]))
        return card

    def event_params(self, state: Any, side: str) -> dict[str, Any]:
        options = legal_events(state, side)
        return dict(self.rng.choice(options)) if options else {}

    def moves(self, state: Any, side: str) -> dict[str, Any]:
        value = card_of(state.current.cards[side]).value
        legal = LegalSteps(state, side)  # the steps from an area are worked out when it is picked
        origins = legal.origins()
        self.rng.shuffle(origins)
        moves: list[dict[str, Any]] = []
        for origin in origins[: self.rng.randint(0, min(value, len(origins)))]:
            parts: list[dict[str, Any]] = []
            by_block: dict[str, list[Any]] = {}
            for step in legal.steps(origin):
                by_block.setdefault(step.block, []).append(step)
            for name, steps in sorted(by_block.items()):
                step = self.rng.choice(steps)
                if step.sea:  # the Norse move alone, by sea (4.7)
                    if not parts and len(moves) < value:
                        moves.append(step.to_dict())
                    continue
                if self.rng.random() < 0.7:
                    parts.append({"blocks": [name], "path": list(step.path)})
            if parts:
                moves.append({"from": origin, "parts": parts})
        moves = moves[:value]
        while True:
            order = {"moves": moves}
            try:
                check_moves(state, side, parse_moves(order))  # tried on a scratch copy; state unchanged
                return order
            except Refused:
                if not moves:
                    raise
                last = moves[-1]
                if len(last.get("parts", [])) > 1:
                    last["parts"] = last["parts"][:-1]
                else:
                    moves = moves[:-1]

    def battle_order(self, state: Any, side: str) -> list[str]:
        areas = sorted(state.current.battles)
        self.rng.shuffle(areas)
        return areas

    def decide(self, question: Any) -> str:
        answer: str = self.rng.choice(list(question.options))
        return answer


class RecordingPlayer:
    """Wraps a player and writes down every answer it gives, in order, as plain data."""

    def __init__(self, side: str, inner: Player, record: list[dict[str, Any]]) -> None:
        self.side, self.inner, self.record = side, inner, record

    def _keep(self, kind: str, value: _T) -> _T:
        self.record.append({"side": self.side, "kind": kind, "value": value})
        return value

    def choose_card(self, state: Any, side: str) -> str:
        return self._keep("card", self.inner.choose_card(state, side))

    def event_params(self, state: Any, side: str) -> dict[str, Any]:
        return self._keep("event", self.inner.event_params(state, side))

    def moves(self, state: Any, side: str) -> Any:
        return self._keep("moves", self.inner.moves(state, side))

    def battle_order(self, state: Any, side: str) -> list[str]:
        return self._keep("battle_order", self.inner.battle_order(state, side))

    def decide(self, question: Any) -> str:
        return self._keep(f"decide:{question.kind}", self.inner.decide(question))


class ScriptedPlayer:
    """Replays a recorded game: each answer must be asked for in the recorded order."""

    def __init__(self, side: str, script: list[dict[str, Any]]) -> None:
        self.side = side
        self.script = [s for s in script if s["side"] == side]

    def _next(self, kind: str) -> Any:
        if not self.script:
            raise InvalidOrder(f"the script of {self.side} ran out when asked for {kind}")
        step = self.script.pop(0)
        if step["kind"] != kind:
            raise InvalidOrder(f"the script of {self.side} has {step['kind']} where the game asks for {kind}")
        return step["value"]

    def choose_card(self, state: Any, side: str) -> str:
        return str(self._next("card"))

    def event_params(self, state: Any, side: str) -> dict[str, Any]:
        return dict(self._next("event"))

    def moves(self, state: Any, side: str) -> dict[str, Any]:
        return dict(self._next("moves"))

    def battle_order(self, state: Any, side: str) -> list[str]:
        return list(self._next("battle_order"))

    def decide(self, question: Any) -> str:
        return str(self._next(f"decide:{question.kind}"))


def game_stream(label: str, k: int | str) -> Drbg:
    """The random stream of step ``k`` of a bot game named ``label`` (reproducible anywhere)."""
    return Drbg(hashlib.sha256(f"pbem-bot-game|{label}|{k}".encode()).digest())


def random_game(scenario_id: str, seed: int, options: Any = None, after_step: Any = None,
                record: list[dict[str, Any]] | None = None, players: dict[str, Any] | None = None,
                until_year: int = 0) -> Any:
    """Play a whole game of ``scenario_id`` between two ``RandomPlayer``s (or ``players``).

    Returns the final ``GameState`` (unfinished if ``until_year`` stopped it). ``record`` (a list)
    receives every answer given, so the game can be replayed with ``ScriptedPlayer``s.
    """
    label = f"{scenario_id}|{seed}"
    state = setup(scenario_id, options or Options(), game_stream(label, "setup"))
    if players is None:
        players = {"england": RandomPlayer(2 * seed), "scotland": RandomPlayer(2 * seed + 1)}
    if record is not None:
        players = {s: RecordingPlayer(s, p, record) for s, p in players.items()}
    play_game(state, players, lambda k: game_stream(label, k), after_step=after_step, until_year=until_year)
    return state
