"""docs/protocol.md: the ledger records the ruleset's data byte for byte, so its data form is pinned.

The record tests (test_5_battle_records.py, test_step_machine_records.py, ...) check that each
record round-trips; they compare the code with itself, so a changed data form (a field dropped,
renamed or reordered) passes them. Here seeded bot games are played through the ruleset as the
referee plays them (``pbem.core.ruleset.load("hammer")``, in-process), and after set-up and every
step the canonical JSON of everything a ledger or a player gets is hashed: the secret state, the
public board, both reports, the step's log, the secrets committed to and the result. The hashes
are compared with tests/hammer/golden/ruleset-data-form.txt, one line per step.

The games cover the three scenarios, every order kind (an Event's parameters sent apart from its
card), deadline default orders, battles paused by plans that ask (``ask = true``: battle actions,
hits, regroups asked mid-battle), Winter Turns paused by winter plans that ask every question, and
games played to their end.

Regenerate after a deliberate change of the data form with
``PBEM_REGOLD=1 pytest tests/hammer/test_ruleset_data_form_golden.py`` and review the diff.
"""

from __future__ import annotations

import collections
import hashlib
from dataclasses import dataclass, field
from typing import Any

from test_render_golden import golden

from pbem.core.canonical import canonical_bytes
from pbem.core.drbg import Drbg
from pbem.core.ruleset import load
from pbem.hammer.play import bots
from pbem.hammer.rules.winter import QUESTION_KINDS

GOLDEN_FILE = "ruleset-data-form.txt"
BATTLE_QUESTIONS = {"battle_action", "hit", "regroup", "battle_next"}


@dataclass(frozen=True)
class Game:
    """A seeded bot game: who plays each side, and how its orders differ from the bots' drafts."""

    scenario: str
    seed: int
    steps: int
    bots: dict[str, str]
    defaults: bool = False          # every third step, both sides' deadline default orders
    plans_ask: tuple[str, ...] = ()  # these sides' battle plans are ``ask = true`` (docs/plans.md)
    winter_ask: bool = False        # winter plans that ask every winter question (7.0)
    events_apart: bool = False      # an Event's parameters not sent with its card: an event step (3.12)


SIMPLE_ENGLAND = {"england": "simple", "scotland": "random"}
BOTH_RANDOM = {"england": "random", "scotland": "random"}

GAMES = (
    Game("braveheart", 1, 100, BOTH_RANDOM, plans_ask=("scotland",), events_apart=True),
    Game("braveheart", 4, 60, SIMPLE_ENGLAND, plans_ask=("england", "scotland")),
    Game("the_bruce", 2, 40, SIMPLE_ENGLAND, defaults=True),
    Game("campaign", 4, 400, SIMPLE_ENGLAND, defaults=True, winter_ask=True),
)


@dataclass
class Played:
    """What a game covered, and its golden lines."""

    lines: list[str] = field(default_factory=list)
    owed: collections.Counter[str] = field(default_factory=collections.Counter)
    asked: collections.Counter[str] = field(default_factory=collections.Counter)
    defaults: int = 0
    result: dict[str, Any] = field(default_factory=dict)


def _digest(*parts: Any) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(canonical_bytes(part))
    return h.hexdigest()[:24]


def play(game: Game) -> Played:
    """Play ``game`` through the ruleset; one line per step: what was owed and the step's hash."""
    rules = load("hammer")
    seed = game.seed
    state = rules.setup(game.scenario, {}, Drbg(hashlib.sha256(f"setup|{seed}".encode()).digest()))
    reports = {side: rules.report(state, side, [], "g", 0) for side in rules.sides}
    out = Played()
    out.lines.append(f"{game.scenario} seed {seed} setup {_digest(state, reports, rules.secrets(state))}")
    for step in range(game.steps):
        owes = rules.owes(state)
        if not owes:
            break
        orders: dict[str, dict[str, Any]] = {}
        for side, kind in owes.items():
            out.owed[kind] += 1
            options = reports[side]["options"]
            for question in options.get("questions") or ([options["question"]] if "question" in options else []):
                out.asked[str(question["kind"])] += 1
            if game.defaults and step % 3 == 0:
                orders[side] = rules.default_order(state, side)
                out.defaults += 1
                continue
            draft = bots.auto_draft(reports[side], game.bots[side], f"{seed}|{step}|{side}".encode())
            if kind == "card" and game.events_apart:
                draft.sections.pop("event", None)
            if kind == "winter" and game.winter_ask:
                draft.sections["winter"] = {"ask": list(QUESTION_KINDS)}
            if side in game.plans_ask and "plans" in draft.sections:
                draft.sections["plans"] = {"ask": True}
            orders[side] = draft.body()
        res = rules.adjudicate(state, orders, Drbg(hashlib.sha256(f"step|{seed}|{step}".encode()).digest()), "g")
        state, reports = res.state, res.reports
        digest = _digest(res.state, res.public, res.reports, res.log, rules.secrets(state), rules.public(state),
                         rules.result(state))
        owed = " ".join(f"{side}={kind}" for side, kind in owes.items())
        out.lines.append(f"{game.scenario} seed {seed} step {step} {owed} {digest}")
    out.result = rules.result(state)
    winner = out.result.get("winner") or "none yet"
    out.lines.append(f"{game.scenario} seed {seed} result {winner} after {len(out.lines) - 1} steps")
    return out


def test_protocol_ledger_data_form_of_seeded_games_matches_its_golden_file() -> None:
    played = [play(game) for game in GAMES]
    # the games cover what this file pins (else a golden file would pin less than it says)
    assert {g.scenario for g in GAMES} == {"braveheart", "the_bruce", "campaign"}
    owed = sum((p.owed for p in played), collections.Counter[str]())
    asked = sum((p.asked for p in played), collections.Counter[str]())
    assert set(owed) == {"card", "event", "moves", "decide", "winter"}, owed
    assert BATTLE_QUESTIONS <= set(asked), asked
    assert {"winter_home", "winter_build", "winter_release"} <= set(asked), asked
    assert all(p.defaults for p, g in zip(played, GAMES) if g.defaults)
    assert sum(bool(p.result["winner"]) for p in played) >= 2, [p.result for p in played]
    golden(GOLDEN_FILE, "\n".join(line for p in played for line in p.lines) + "\n")
