"""docs/playing.md "Each step": the drafts ``pbem orders new`` writes, pinned by golden files
(tests/hammer/golden/drafts/). Regenerate after a deliberate change with
``PBEM_REGOLD=1 pytest tests/hammer/test_draft_templates_golden.py`` and review the diff.

The positions are made by the ruleset from a seeded set-up, with the hand set by hand: England's
first card step holding Herald (first of its hand by name), and England's event step after
playing Sea Move without parameters.
"""

from __future__ import annotations

from typing import Any

from test_render_golden import golden

from pbem.core.drbg import Drbg
from pbem.hammer.play import drafts
from pbem.hammer.rules.cards import card
from pbem.hammer.ruleset import HammerRuleset, game_of

R = HammerRuleset()


def _with_english_hand(hand: list[str]) -> dict[str, Any]:
    s = R.setup("braveheart", {}, Drbg(b"t" * 32))
    g = game_of(s)
    g.hands["england"] = hand
    s["game"] = g.to_dict()
    return s


def card_report() -> dict[str, Any]:
    return R.report(_with_english_hand(["herald", "move2-1", "move3-1", "truce"]), "england", [], "g", 0)


def sea_move_report() -> dict[str, Any]:
    s = _with_english_hand(["sea_move", "move2-1", "move3-1"])
    scots = min(c for c in game_of(s).hands["scotland"] if not card(c).is_event)
    orders = {"england": {"game": "g", "side": "england", "step": 0, "kind": "card", "card": {"play": "sea_move"}},
              "scotland": {"game": "g", "side": "scotland", "step": 0, "kind": "card", "card": {"play": scots}}}
    after = R.adjudicate(s, orders, Drbg(b"u" * 32)).state
    assert after["owes"] == {"england": "event"}
    return R.report(after, "england", [], "g", after["step"])


def test_playing_md_a_fresh_card_draft_matches_its_golden_file() -> None:
    golden("drafts/card-england.toml", drafts.template(card_report()))


def test_orders_md_events_a_fresh_sea_move_draft_matches_its_golden_file() -> None:
    golden("drafts/event-sea-move-england.toml", drafts.template(sea_move_report()))
