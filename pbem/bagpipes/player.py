"""Swords and Bagpipes' player side of the seam (protocol §10.2), from drafts, bots and play.

A draft is TOML: the header (game, side, step, kind) and the order's own fields, exactly the
body that is sealed. No picture and no HTML page yet: ``report open`` writes text only.
"""

from __future__ import annotations

import dataclasses
import hashlib
import tomllib
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pbem.bagpipes import drafts
from pbem.bagpipes.bots import BOTS, referee_bot
from pbem.bagpipes.drafts import BagpipesDraft
from pbem.bagpipes.model import KIND_FIELDS, ORDER_KINDS, REFEREE, Options
from pbem.bagpipes.rules import SCENARIO, BagpipesRules
from pbem.core.board import BoardRules
from pbem.core.drbg import Drbg
from pbem.core.errors import FormatError, InvalidOrder
from pbem.core.order_hints import next_commands
from pbem.core.ruleset import DRAFT_HEADER, DemoResult, Draft

HEADER = DRAFT_HEADER
DEMO_PLAYERS = 5


def _typed_option(name: str, text: str) -> Any:
    """A ``--option`` string as the type the Options field takes."""
    kinds = typing.get_type_hints(Options)
    if name not in kinds:
        raise InvalidOrder(f"unknown option {name!r}; known: {', '.join(f.name for f in dataclasses.fields(Options))}.")
    kind = kinds[name]
    if kind is bool:
        if text.lower() not in ("true", "false"):
            raise InvalidOrder(f"option {name} = {text!r}: give true or false.")
        return text.lower() == "true"
    if kind is int:
        if not text.isdigit():
            raise InvalidOrder(f"option {name} = {text!r}: give a whole number.")
        return int(text)
    return text


class BagpipesPlayer:
    """What a clan's (and the referee seat's) tools need: drafts, their check, text reports, bots, demo."""

    default_scenario = SCENARIO
    bots = tuple(BOTS)
    order_kinds = tuple(ORDER_KINDS)
    scenario_help = SCENARIO
    option_help = "players=2..6, rounds=9, stay_home=true, ... (docs/bagpipes-notes.md §3)"

    def options_from_text(self, pairs: Mapping[str, str]) -> dict[str, Any]:
        """Typed manifest options, with the player count's consequences and the component file's hash."""
        typed = {k: _typed_option(k, v) for k, v in pairs.items()}
        players = typed.get("players", 4)
        if not isinstance(players, int) or not 2 <= players <= 6:
            raise InvalidOrder(f"option players = {players!r}: Swords and Bagpipes seats 2 to 6 players.")
        return BagpipesRules.for_options(typed).options(**typed)

    def parse_draft(self, text: str, source: str) -> Draft:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise InvalidOrder(f"{source}: not valid TOML ({exc})") from None
        if not isinstance(data.get("side"), str) or not isinstance(data.get("step"), int) \
                or data.get("kind") not in KIND_FIELDS:
            raise InvalidOrder(f"{source}: a draft names its side, step and kind ({', '.join(ORDER_KINDS)}) "
                               "at the top.")
        return BagpipesDraft(data["side"], data["step"], data["kind"], str(data.get("game", "")),
                             {k: v for k, v in data.items() if k not in HEADER})

    def dump_draft(self, draft: Draft) -> str:
        return drafts.dump(draft)

    def _draft(self, report: dict[str, Any], order: dict[str, Any]) -> BagpipesDraft:
        return BagpipesDraft(str(report["side"]), int(report["step"]), str(order["kind"]), str(report.get("game", "")),
                             {k: v for k, v in order.items() if k not in HEADER})

    def template(self, report: dict[str, Any], draft_path: str, report_path: str, key: str, game_dir: str) -> str:
        """The safe order (what the deadline would give) as a draft, with the fields this kind takes."""
        d = self._draft(report, drafts.template(report["view"], str(report["side"])))
        guide = drafts.guide(report["view"], d.side, d.kind, tuple(d.fields))
        return (f"# Swords and Bagpipes: a {d.kind} order for {d.side}, step {d.step} (round "
                f"{report['view']['round']}). As it stands it is the deadline's default.\n" + self.dump_draft(d)
                + "\n" + "".join(f"# {line}\n" for line in guide))

    def next_commands(self, report: dict[str, Any], draft_path: str, report_path: str, key: str,
                      game_dir: str) -> str:
        return next_commands(report, draft_path, report_path, key, game_dir)

    def check_draft(self, draft: Draft, report: dict[str, Any]) -> None:
        """The header must be the report's; the order is then checked on the player's view (drafts.check_draft)."""
        if draft.side != report.get("side") or draft.step != report.get("step"):
            raise InvalidOrder(f"the draft is for {draft.side}, step {draft.step}, but the report is for "
                               f"{report.get('side')}, step {report.get('step')}.")
        if draft.game and draft.game != report.get("game"):
            raise InvalidOrder(f"the draft is for game {draft.game}, but the report is of game {report.get('game')}.")
        drafts.check_draft(report["view"], draft.side, draft.body())

    def auto_draft(self, report: dict[str, Any], bot: str, seed: bytes, previous: Draft | None,
                   bot_plans: bool, where: str) -> tuple[Draft, str]:
        if bot not in BOTS:
            raise InvalidOrder(f"unknown bot {bot!r}; choose one of {', '.join(BOTS)}")
        side, kind = str(report["side"]), str(report.get("asks") or "")
        if not kind:
            raise InvalidOrder(f"report for {side} at step {report.get('step')}: nothing is owed")
        rng = Drbg(hashlib.sha256(b"pbem-bagpipes-auto|" + bot.encode() + b"|" + seed).digest())
        make = referee_bot if side == REFEREE else BOTS[bot]
        return self._draft(report, make(report["view"], side, kind, rng)), ""

    def render_text(self, report: dict[str, Any]) -> str:
        return drafts.render_text(report)

    def render_svg(self, report: dict[str, Any]) -> str:
        return ""

    def board(self) -> BoardRules:
        """The board in the browser: no map, every order a choice (pbem.bagpipes.board, docs/board.md)."""
        from pbem.bagpipes.board import BagpipesBoard
        return BagpipesBoard()

    def render_html(self, report: dict[str, Any], title: str, footer: str) -> str:
        return ""

    def default_note(self, step: int, owed: str, question: dict[str, Any] | None) -> str:
        return f"Your {owed} order of step {step - 1} did not arrive in time: the referee gave the default order."

    def check_demo(self, scenario: str, players: int, bots_: tuple[str, ...]) -> None:
        if scenario != SCENARIO:
            raise FormatError(f"unknown scenario {scenario!r}; Swords and Bagpipes has {SCENARIO!r}.")
        if players and not 2 <= players <= 6:
            raise FormatError(f"--players {players}: Swords and Bagpipes seats 2 to 6 players.")

    def demo_title(self, scenario: str, bots_: tuple[str, ...]) -> str:
        return ("Swords and Bagpipes: simple bots at every seat, every order sealed, every step adjudicated by a "
                "referee with committed dice ...")

    def peer_demo(self, folder: Path, scenario: str, players: int, bots_: tuple[str, ...], seed: bytes) -> DemoResult:
        """The same game with no referee: one folder per seat (pbem.bagpipes.peerdemo, protocol §13)."""
        from pbem.bagpipes.peerdemo import demo
        return demo(folder, players or DEMO_PLAYERS, seed)

    def demo(self, folder: Path, scenario: str, players: int, bots_: tuple[str, ...], seed: bytes) -> DemoResult:
        from pbem.bagpipes.play import demo
        s = demo(players or DEMO_PLAYERS, game_dir=folder / "game", seed=seed)
        return DemoResult(s.lines(), bool(s.verified), bool(s.audited), list(s.problems))
