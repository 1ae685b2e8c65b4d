"""Issue 25 point 3: a new player's drafts and reports [SB-5.2]..[SB-11], docs/bagpipes-orders.md.

A field that would be ignored is refused (same sentence from the player's check and the referee's);
drafts list only the fields that apply, with legal values; reports show what cards do, your sealed
choice, the order of turns and whom the game waits for; refusals caused by a badge rule name it.
"""

from __future__ import annotations

import tomllib

import pytest
from bp_support import COMPS, go, new, until

from pbem.bagpipes import drafts
from pbem.bagpipes.engine import check
from pbem.bagpipes.model import parse_order
from pbem.bagpipes.player import BagpipesPlayer
from pbem.bagpipes.views import report
from pbem.core.errors import IllegalOrder


def refused_alike(t: object, seat: str, body: dict[str, object], says: str) -> None:
    """The referee's check and the player's draft check refuse ``body`` with the same reason."""
    full = {"kind": t.pending.owes[seat], "round": t.round, **body}   # type: ignore[attr-defined]
    with pytest.raises(IllegalOrder, match=says) as referee:
        check(t, COMPS, seat, parse_order(full))   # type: ignore[arg-type]
    with pytest.raises(IllegalOrder, match=says) as player:
        drafts.check_draft(report(t, COMPS, seat)["view"], seat, full)   # type: ignore[arg-type]
    assert str(referee.value).split(": ", 1)[1] == str(player.value)


def test_SB_10_giveaway_in_a_4_player_game_is_refused_not_ignored() -> None:
    t = until(new(4), "choice")
    refused_alike(t, "clan3", {"loyalty": "scotland", "giveaway": "give"},
                  r"the field giveaway would be ignored for clan3: only the 2-player game has the badge give-away")
    refused_alike(t, "clan3", {"loyalty": "scotland", "giveaway_if_camp_at_least": 3}, "giveaway_if_camp_at_least")


def test_SB_5_3_badge_preferences_of_a_seat_without_the_badge_are_refused() -> None:
    t = new(4)
    refused_alike(t, "clan2", {"badge": {"prefer": ["clan3"]}},
                  r"only the Badge of Honour holder \(clan1\) names who gets it next \[SB-5.3\]")
    refused_alike(t, "clan2", {"if_sent_home": ["collect_taxes"] * 3},
                  r"this game plays without the Stay Home! badge")


def test_SB_11_the_home_seat_playing_cards_and_the_stay_home_holder_planning_a_return_are_refused() -> None:
    t = new(6)
    refused_alike(t, "clan6", {"if_sent_home": ["collect_taxes"] * 3},
                  "you hold the Stay Home! badge and must pass it on")
    t = until(t, "choice")
    t.seat(t.at_home).hand.append("sample-rally#1")
    refused_alike(t, t.at_home, {"tokens": {"play": [{"card": "sample-rally"}]}},
                  r"you stay home this round and play no bagpipe cards \[SB-11\]")


def test_SB_5_3_a_badge_refusal_names_the_no_hand_back_rule() -> None:
    t = go(new(4), {"clan1": {"badge": {"prefer": ["clan3"]}}})
    t = until(go(t), "plan")
    refused_alike(t, "clan3", {"badge": {"prefer": ["clan1"]}},
                  r"clan1 gave it to you last round and may not get it straight back \[SB-5.3\]")


def test_SB_5_2_a_fresh_plan_draft_lists_the_legal_values_and_only_the_fields_that_apply() -> None:
    t = new(4)
    rep = {**report(t, COMPS, "clan1", "g", t.step), "step": t.step}
    text = BagpipesPlayer().template(rep, "", "", "", "")
    body = tomllib.loads(text)
    assert body["kind"] == "plan" and body["side"] == "clan1"
    for value in ("collect_taxes", "raise_militia", "assemble_troops", "hire_mercenaries", "strength_at_least",
                  'on_fail = "default"', "badge = { prefer = ", "[[program]]", "legal now clan2, clan3, clan4"):
        assert value in text, value
    for never in ("if_sent_home", "stay_home", "giveaway", "dagger"):   # 4 players, no Stay Home!: never used
        assert never not in text, never
    uncommented = "\n".join(line[2:] if line.startswith("# ") and " = " in line and not line.startswith("#  ")
                            else line for line in text.splitlines())
    tomllib.loads(uncommented.split("# Your Actions-phase")[0])   # the top-level lines uncomment to valid TOML
    other = BagpipesPlayer().template({**report(t, COMPS, "clan2", "g", t.step), "step": t.step}, "", "", "", "")
    assert "badge = { prefer" not in other and "Not for you now: badge: only the Badge of Honour holder" in other


def test_SB_5_4_reports_show_card_texts_the_sealed_choice_the_turn_order_and_whom_the_game_waits_for() -> None:
    t = until(new(4), "choice")
    t = go(t, {"clan3": {"loyalty": "england", "tokens": {"ask": True}}})
    text = drafts.render_text(report(t, COMPS, "clan3", "g", t.step))
    hand = report(t, COMPS, "clan3")["view"]["hand"]
    assert hand and all(f"(card = \"{c['card']}\"): {c['text']}" in text for c in hand)
    assert "Your sealed choice this round: england" in text
    order = report(t, COMPS, "clan3")["view"]["turn_order"]
    assert order[0] == t.badge and f"Order of turns and card windows this round: {', '.join(order)}" in text
    owing = sorted(t.pending.owes)
    assert owing and report(t, COMPS, "clan2")["owes"] == t.pending.owes     # the CLI reads who is awaited here
    if "clan3" in owing:
        assert "the game waits for: clan3 (window)" in text
    assert "england" not in drafts.render_text(report(t, COMPS, "clan4", "g", t.step)).split("What happened")[0] \
        .split("Your daggers")[1]


def test_SB_6_a_seat_that_owes_nothing_is_told_whom_the_game_waits_for_never_nobody() -> None:
    from pbem.cli.report import _next
    t = until(new(4), "choice")
    t = go(t, {"clan3": {"loyalty": "england", "tokens": {"ask": True}}})
    waiting = sorted(t.pending.owes)
    idle = next(s for s in t.ids if s not in t.pending.owes)
    line = _next(report(t, COMPS, idle, "g", t.step))
    assert line == "you owe nothing now; waiting for " + ", ".join(waiting) and "nobody" not in line
