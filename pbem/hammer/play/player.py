"""Hammer's player side of the seam (protocol §10.2): it delegates to drafts, bots, render, svg,
htmlpage, sentences and demo, so the CLI names no game and behaves exactly as before."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pbem.core.board import BoardRules
from pbem.core.errors import FormatError, PbemError
from pbem.core.order_hints import next_commands
from pbem.core.ruleset import DemoResult, Draft
from pbem.hammer.play import bots, drafts
from pbem.hammer.play.demo import check_demo_args, play_bot_game
from pbem.hammer.play.order_kinds import rules_for

PLAN_SECTIONS = ("plans", "winter")  # what a player writes to stand for more than one step
SIDES = ("england", "scotland")


class HammerPlayer:
    """What a Hammer player's tools need: drafts, their check, the report as text, map and page, bots, demo."""

    default_scenario = "braveheart"
    bots = bots.BOTS
    order_kinds = drafts.KINDS
    scenario_help = "braveheart, the_bruce or campaign"
    option_help = "schiltroms=true, bid=E2"

    def options_from_text(self, pairs: Mapping[str, str]) -> dict[str, Any]:
        return dict(pairs)  # the ruleset's setup reads the strings itself

    def parse_draft(self, text: str, source: str) -> Draft:
        return drafts.parse_draft(text, source)

    def dump_draft(self, draft: Draft) -> str:
        assert isinstance(draft, drafts.Draft)
        return drafts.dump_draft(draft)

    def template(self, report: dict[str, Any], draft_path: str, report_path: str, key: str, game_dir: str) -> str:
        return drafts.template(report, draft_path, report_path, key, game_dir)

    def next_commands(self, report: dict[str, Any], draft_path: str, report_path: str, key: str,
                      game_dir: str) -> str:
        return next_commands(report, draft_path, report_path, key, game_dir)

    def check_draft(self, draft: Draft, report: dict[str, Any]) -> list[str]:
        """The referee's check; a refusal names every error of the draft, not only the first
        (drafts.every_error), each with its rule, the first as the referee words it."""
        assert isinstance(draft, drafts.Draft)
        try:
            return drafts.check_draft(draft, report)
        except PbemError as exc:
            more = drafts.every_error(draft, report, exc)
            if not more:
                raise
            count = f"{len(more)} more {'error' if len(more) == 1 else 'errors'}"
            exc.message = "\n".join([exc.message, f"and {count} in this draft:", *[f"  - {m}" for m in more]])
            raise

    def auto_draft(self, report: dict[str, Any], bot: str, seed: bytes, previous: Draft | None,
                   bot_plans: bool, where: str) -> tuple[Draft, str]:
        d = bots.auto_draft(report, bot, seed)
        mine = {k: v for k, v in previous.sections.items() if k in PLAN_SECTIONS} \
            if isinstance(previous, drafts.Draft) else {}
        return d, _keep_player_plans(d, mine, bot_plans, where)

    def render_text(self, report: dict[str, Any]) -> str:
        from pbem.hammer.show import render  # start-up: a verb that only checks or seals loads no renderer
        return render.render_report(report)

    def render_svg(self, report: dict[str, Any]) -> str:
        from pbem.hammer.show import render  # start-up, as render_text
        from pbem.hammer.show.svg import render_svg  # start-up
        return str(render_svg(render.report_view(report)))

    def render_html(self, report: dict[str, Any], title: str, footer: str) -> str:
        from pbem.hammer.show.htmlpage import render_html  # start-up, as render_text
        return render_html(report, title, footer)

    def board(self) -> BoardRules:
        """The board in the browser (pbem.core.board, docs/board.md)."""
        from pbem.hammer.play.boardview import HammerBoard  # start-up, as render_text
        return HammerBoard()

    def default_note(self, step: int, owed: str, question: dict[str, Any] | None) -> str:
        from pbem.hammer.show.sentences import default_note  # start-up, as render_text
        return default_note(step, owed, question)

    def check_demo(self, scenario: str, players: int, bots_: tuple[str, ...]) -> None:
        if players not in (0, 2):
            raise FormatError(f"--players {players}: Hammer of the Scots is played by exactly 2 (England and "
                              "Scotland).")
        check_demo_args(None, scenario, bots_)

    def demo(self, folder: Path, scenario: str, players: int, bots_: tuple[str, ...], seed: bytes) -> DemoResult:
        chosen = dict(zip(SIDES, bots_ or ("simple", "simple")))
        s = play_bot_game(folder, scenario, chosen, seed)
        lines = s.lines()
        return DemoResult(lines[:-1], s.verified, s.audited, s.problems, footer=lines[-1:])

    def demo_title(self, scenario: str, bots_: tuple[str, ...]) -> str:
        england, scotland = bots_ or ("simple", "simple")
        return (f"Hammer of the Scots, {scenario}: England ({england} bot) against Scotland ({scotland} bot), "
                "every order sealed, every step adjudicated by a referee with committed dice ...")


def _keep_player_plans(d: drafts.Draft, mine: dict[str, Any], bot_plans: bool, out: str) -> str:
    """The player's plans win over the bot's (docs/plans.md): kept from ``out``, and otherwise the bot
    sends none, so the standing plans sent earlier stay in force. ``--bot-plans`` lets the bot's replace them."""
    allowed = rules_for(d.kind).sections
    kept = [k for k in PLAN_SECTIONS if k in mine and k in allowed and not bot_plans]
    for k in kept:
        d.sections[k] = mine[k]
    if kept:
        return (f"kept your {', '.join(f'[{k}]' for k in kept)} from {out}; to let the bot's replace them, "
                "run again with --bot-plans")
    if "plans" in d.sections and not bot_plans:
        del d.sections["plans"]
        return ("the bot sent no [plans]: the standing plans you sent before stay in force (docs/plans.md); "
                "--bot-plans sends the bot's own in their place")
    return ""
