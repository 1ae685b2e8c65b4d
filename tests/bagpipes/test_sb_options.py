"""Issue 16 item 1: the rule gaps (what the book leaves open) are game options with fixed defaults,
recorded in the manifest of every game and explained in docs/bagpipes-notes.md §3."""

from __future__ import annotations

from pathlib import Path

from pbem.bagpipes.player import BagpipesPlayer

GAPS = {"deserters_take_dagger": False, "deserters_count_in_split": False, "awards_before_purse_window": True,
        "window_order": "orbit", "gold_loss_is_cost": True, "two_player_badge_forces_scotland": False,
        "two_player_no_hand_back": False, "three_player_fields_bonus_phase": "invasion", "final_tie": "shared",
        "hand_counts_public": True, "actions_each_once": True}


def test_issue16_item1_rule_gap_options_are_in_every_manifest_with_their_defaults_and_explained() -> None:
    notes = (Path(__file__).parents[2] / "docs" / "bagpipes-notes.md").read_text(encoding="utf-8")
    section = notes.split("## 3. Options", 1)[1].split("\n## 4.", 1)[0]
    for players in ("2", "3", "4", "5", "6"):
        options = BagpipesPlayer().options_from_text({"players": players})
        assert {k: options[k] for k in GAPS} == GAPS
        assert options["components_sha256"] and int(players) == options["players"]
    for name in GAPS:
        assert f"`{name}`" in section, name
    changed = BagpipesPlayer().options_from_text({"players": "3", "window_order": "sealed", "final_tie": "none"})
    assert (changed["window_order"], changed["final_tie"]) == ("sealed", "none")
