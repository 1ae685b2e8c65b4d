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
from pbem.hammer import drafts
from pbem.hammer.board import board
from pbem.hammer.cards import card as card_of
from pbem.hammer.errors import InvalidOrder

if TYPE_CHECKING:  # the engine is imported where a game is played, not to draft orders
    from pbem.hammer.engine import Player

_T = TypeVar("_T")

BOTS = ("random", "simple")
NORSE = "Norse"

# Standing battle plans (docs/plans.md) the bots send with their card and moves orders.
SIMPLE_PLANS: dict[str, Any] = {"battle": {"retreat_from_round": 2, "retreat_if_outnumbered": True}}
RANDOM_PLANS: tuple[dict[str, Any], ...] = (
    {},
    {"battle": {"retreat_below_percent": 50}},
    {"battle": {"retreat_from_round": 2, "retreat_if_steps_lost": 2}},
    {"ask": ["regroup"]},
    {"ask": ["retreat"], "battle": {"retreat_from_round": 3}},
)


def auto_draft(report: dict[str, Any], bot: str, seed: bytes) -> drafts.Draft:
    """The draft ``bot`` writes for what ``report`` asks; ``seed`` keys its random choices."""
    if bot not in BOTS:
        raise InvalidOrder(f"unknown bot {bot!r}; choose one of {', '.join(BOTS)}")
    asks = report.get("asks", "")
    if not asks:
        raise InvalidOrder(f"report for {report.get('side')} at step {report.get('step')}: nothing is owed")
    rng = Drbg(hashlib.sha256(b"pbem-bot|" + bot.encode() + b"|" + seed).digest())
    d = drafts.Draft(side=report["side"], step=int(report["step"]), kind=asks, game=report.get("game", ""))
    options = report.get("options", {})
    if asks == "card":
        hand = list(options.get("hand", []))
        d.sections["card"] = {"play": _choose_card(hand, bot, rng)}
        value = card_of(d.sections["card"]["play"]).value
        if card_of(d.sections["card"]["play"]).is_event:
            d.sections["event"] = _event_params(options, rng)
        else:  # always sent, even empty: Player 1 then needs no moves step of its own
            d.sections["if_player1"] = {"moves": _choose_moves(options.get("moves", {}), value, bot, rng, report)}
    elif asks == "moves":
        value = card_of(options["card"]).value if options.get("card") else 0
        d.sections["moves"] = {"moves": _choose_moves(options.get("moves", {}), value, bot, rng, report)}
    elif asks == "event":
        d.sections["event"] = _event_params(options, rng)
    elif asks == "decide":
        asked = options.get("questions") or [options.get("question", {})]
        picks = []
        for q in asked:
            opts = list(q.get("options", []))
            picks.append(opts[rng.randbelow(len(opts))] if bot == "random" and opts else (opts[0] if opts else ""))
        d.sections["decide"] = {"answers": picks} if len(asked) > 1 else {"answer": picks[0]}
    elif asks == "winter":
        d.sections["winter"] = _winter_plan(options.get("winter_plan", {}), bot, rng)
    if asks in ("card", "moves"):
        d.sections["plans"] = _plans(bot, rng)
        _keep_legal(d, report)
    return d


def _keep_legal(d: drafts.Draft, report: dict[str, Any]) -> None:
    """Drop group moves from the end until the player's check (the referee's own, docs/orders.md)
    accepts the draft: the bot picks each move from the listed reach, but the moves together may
    still break a border limit (4.3), a pin (4.6) or the card's value (4.2)."""
    from pbem.hammer.errors import IllegalOrder

    key = "if_player1" if "if_player1" in d.sections else "moves"
    moves = d.sections.get(key, {}).get("moves")
    while True:
        try:
            drafts.check_draft(d, report)
            return
        except IllegalOrder:
            if not moves:
                raise
            moves.pop()


def _plans(bot: str, rng: Drbg) -> dict[str, Any]:
    if bot == "simple":
        return dict(SIMPLE_PLANS)
    return dict(RANDOM_PLANS[rng.randbelow(len(RANDOM_PLANS))])


def _choose_card(hand: list[str], bot: str, rng: Drbg) -> str:
    if not hand:
        raise InvalidOrder("the report lists no card in hand")
    if bot == "random":
        return sorted(hand)[rng.randbelow(len(hand))]
    moves = [c for c in hand if not card_of(c).is_event]
    pool = moves or hand
    return sorted(pool, key=lambda c: (-card_of(c).value, c))[0]


def _event_params(options: dict[str, Any], rng: Drbg) -> dict[str, Any]:
    """Event parameters: one of the legal parameter sets the report lists, at random; none: {}."""
    choices = options.get("event_params", [])
    if not choices:
        return {}
    return dict(choices[rng.randbelow(len(choices))])


SINGLE_CHOICES = ("moray", "king", "wallace", "edward", "edward_company")


def _winter_plan(legal: dict[str, Any], bot: str, rng: Drbg) -> dict[str, Any]:
    """The simple bot keeps the documented winter defaults; the random bot picks among the
    listed legal choices (``winter.winter_plan_options``): one value per single-choice key, a
    home for each two-home noble, and a draw or step for each area's builds."""
    if bot != "random" or not legal:
        return {}
    plan: dict[str, Any] = {}
    for key in SINGLE_CHOICES:
        choices = legal.get(key, [])
        if choices:
            plan[key] = choices[rng.randbelow(len(choices))]
    homes = {n: opts[rng.randbelow(len(opts))] for n, opts in sorted(legal.get("homes", {}).items()) if opts}
    if homes:
        plan["homes"] = homes
    builds = {a: [opts[rng.randbelow(len(opts))]] for a, opts in sorted(legal.get("builds", {}).items()) if opts}
    if builds:
        plan["builds"] = builds
    return plan


def _choose_moves(legal: dict[str, Any], value: int, bot: str, rng: Drbg,
                  report: dict[str, Any]) -> list[dict[str, Any]]:
    """Up to ``value`` group moves from the legal options ``{origin: {block: [destinations]}}``.

    Each group moves its blocks together to one destination they can all reach, which keeps the
    moves inside the border limits in most cases; the referee still checks everything.
    """
    origins = sorted(o for o, blocks in legal.items() if any(blocks.values()))
    if not origins or value <= 0:
        return []
    if bot == "random":
        picked = rng.shuffled(origins)[:rng.randbelow(min(value, len(origins)) + 1)]
    else:
        picked = sorted(origins, key=lambda o: (-len(legal[o]), o))[:value]
    out: list[dict[str, Any]] = []
    enemy = _enemy_areas(report)
    budget = value
    used: dict[str, int] = {}  # blocks across each border this Move Phase (4.3)
    own = _own_counts(report)
    for origin in picked:
        # Only next-door destinations: one border crossed, so its limit and cost are known here.
        reach = {b: [d for d in ds if board().border(origin, d) is not None]
                 for b, ds in sorted(legal[origin].items()) if b != NORSE}  # the Norse move by sea (4.7)
        reach = {b: ds for b, ds in reach.items() if ds}
        if not reach or budget <= 0:
            continue
        # One group per enemy area: no Main Attack to name (5.32).
        attacked = {m["to"] for m in out if m["to"] in enemy}
        reach = {b: [d for d in ds if d not in attacked] for b, ds in reach.items()}
        reach = {b: ds for b, ds in reach.items() if ds}
        if not reach:
            continue
        common = sorted(set.intersection(*(set(ds) for ds in reach.values())))
        if not common:
            name = sorted(reach)[0]
            reach, common = {name: reach[name]}, sorted(reach[name])
        targets = [a for a in common if a in enemy and enemy[a] <= len(reach)] if bot == "simple" else []
        dest = targets[0] if targets else common[rng.randbelow(len(common))]
        border = board().border(origin, dest)
        assert border is not None
        room = border.limit - used.get(border.key, 0)
        names = sorted(reach)
        if border.anglo_scottish:  # each crossing block costs a move point (4.4)
            room = min(room, budget)
        names = names[:max(0, room)]
        if origin in enemy:  # attacked there: as many stay pinned as attack (4.6)
            names = names[:max(0, own.get(origin, 0) - enemy[origin])]
        if bot == "random" and len(names) > 1:
            names = sorted(rng.shuffled(names)[:1 + rng.randbelow(len(names))])
        if not names:
            continue
        cost = len(names) if border.anglo_scottish else 1
        budget -= cost
        used[border.key] = used.get(border.key, 0) + len(names)
        out.append({"from": origin, "to": dest, "blocks": names})
    return out


def _own_counts(report: dict[str, Any]) -> dict[str, int]:
    """Own blocks by area, from the side's view in the report."""
    out: dict[str, int] = {}
    for b in report.get("view", {}).get("blocks", []):
        out[b["area"]] = out.get(b["area"], 0) + 1
    return out


def _enemy_areas(report: dict[str, Any]) -> dict[str, int]:
    """Enemy block counts by area, from the public board in the report."""
    side = report.get("side", "")
    out: dict[str, int] = {}
    for area, counts in report.get("public", {}).get("blocks", {}).items():
        n = sum(v for s, v in counts.items() if s != side)
        if n:
            out[area] = n
    return out


# --- a random legal player for whole games through the engine (pbem.hammer.engine.play_game) ----

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
        from pbem.hammer.events import legal_events
        options = legal_events(state, side)
        return dict(self.rng.choice(options)) if options else {}

    def moves(self, state: Any, side: str) -> dict[str, Any]:
        from pbem.hammer.errors import IllegalOrder as Refused
        from pbem.hammer.movement import LegalSteps, check_moves
        from pbem.hammer.orders import parse_moves
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
    from pbem.hammer.engine import play_game
    from pbem.hammer.scenario import setup
    from pbem.hammer.state import Options
    label = f"{scenario_id}|{seed}"
    state = setup(scenario_id, options or Options(), game_stream(label, "setup"))
    if players is None:
        players = {"england": RandomPlayer(2 * seed), "scotland": RandomPlayer(2 * seed + 1)}
    if record is not None:
        players = {s: RecordingPlayer(s, p, record) for s, p in players.items()}
    play_game(state, players, lambda k: game_stream(label, k), after_step=after_step, until_year=until_year)
    return state
