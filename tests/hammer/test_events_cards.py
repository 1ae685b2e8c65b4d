"""3.12 and the event cards (texts from the French rulebook, data/cards.toml)."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from fakes import ScriptedDice, bare_state, game_positions, owed, put
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.core.drbg import Drbg
from pbem.hammer.rules import events, kings
from pbem.hammer.rules.decisions import FirstOption, Scripted
from pbem.hammer.rules.errors import IllegalOrder, InvalidOrder
from pbem.hammer.rules.log import PUBLIC
from pbem.hammer.rules.scenario import setup
from pbem.hammer.rules.state import POOL, GameState, Options


@pytest.fixture
def fights(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, list[str], str]]:
    """Record defection battles instead of fighting them: (area, defectors, their side)."""
    calls: list[tuple[str, list[str], str]] = []

    def fake(state: GameState, area: str, defectors: list[str], rng: Any, decider: Any) -> list[dict[str, Any]]:
        calls.append((area, list(defectors), state.blocks[defectors[0]].owner))
        return [{"what": "battle", "area": area}]

    monkeypatch.setattr(kings, "_fight_defection", fake)
    return calls


# --- Herald ----------------------------------------------------------------------------------------

def test_3_12_herald_converts_on_1_to_4_at_current_strength(fights: list) -> None:
    for roll in (1, 4):
        s = bare_state()
        put(s, "england", "Mar", "Mar", strength=2)
        log = events.resolve_event(s, "scotland", "herald", {"noble": "Mar"}, ScriptedDice([roll]), FirstOption())
        assert s.blocks["Mar"].owner == "scotland" and s.blocks["Mar"].strength == 2
        assert log[0].facts["converted"] is True and log[0].facts["die"] == roll
    assert fights == []  # alone in Mar: no battle


def test_3_12_herald_fails_on_5_or_6() -> None:
    for roll in (5, 6):
        s = bare_state()
        put(s, "england", "Mar", "Mar", strength=2)
        log = events.resolve_event(s, "scotland", "herald", {"noble": "Mar"}, ScriptedDice([roll]), FirstOption())
        assert s.blocks["Mar"].owner == "england"
        assert log[0].facts["converted"] is False


def test_3_12_herald_battle_among_former_friends_is_fought_at_once_with_him_attacking(fights: list) -> None:
    s = bare_state()
    put(s, "england", "Lanark", "Steward", "Westmor Infantry")
    events.resolve_event(s, "scotland", "herald", {"noble": "Steward"}, ScriptedDice([3]), FirstOption())
    assert fights == [("Lanark", ["Steward"], "scotland")]


@pytest.mark.parametrize("noble, why", [("Moray", "3.12"), ("Bruce", "3.12"), ("Douglas", "3.12")])
def test_3_12_herald_names_an_enemy_noble_on_the_map_never_moray(noble: str, why: str) -> None:
    s = bare_state()
    put(s, "scotland", "Moray", "Moray")
    put(s, "scotland", "Fife", "Douglas")
    with pytest.raises(IllegalOrder) as err:  # England names Moray; Bruce is dead; Douglas no noble
        events.resolve_event(s, "england", "herald", {"noble": noble}, ScriptedDice([1]), FirstOption())
    assert err.value.rule == why


# --- Pillage ---------------------------------------------------------------------------------------

def test_3_12_pillage_two_hits_to_the_strongest_and_steps_to_the_pillagers() -> None:
    s = bare_state()
    put(s, "scotland", "Fife", "Wallace", strength=2)
    put(s, "scotland", "Fife", "Douglas", strength=3)
    put(s, "england", "Mentieth", "York Knights", strength=4)
    put(s, "england", "Mentieth", "Cumbria Infantry", strength=2)
    params = {"from": "Fife", "target": "Mentieth", "steps_to": ["Wallace", "Douglas"]}
    events.resolve_event(s, "scotland", "pillage", params, ScriptedDice(), FirstOption())
    assert s.blocks["York Knights"].strength == 2 and s.blocks["Cumbria Infantry"].strength == 2
    assert s.blocks["Wallace"].strength == 3 and s.blocks["Douglas"].strength == 4


def test_3_12_pillage_owner_chooses_between_tied_blocks() -> None:
    s = bare_state()
    put(s, "scotland", "Fife", "Douglas")
    put(s, "england", "Mentieth", "York Knights", "Lancaster Knights", strength=3)
    d = Scripted({"england": ["Lancaster Knights"]})
    events.resolve_event(s, "scotland", "pillage", {"from": "Fife", "target": "Mentieth"}, ScriptedDice(), d)
    assert [q.kind for q in d.asked] == ["pillage_hit"]  # then York Knights is the strongest alone
    assert d.asked[0].options == ("Lancaster Knights", "York Knights")
    assert s.blocks["York Knights"].strength == 2 and s.blocks["Lancaster Knights"].strength == 2


def test_3_12_pillage_pillaged_steps_never_exceed_maximum() -> None:
    s = bare_state()
    put(s, "scotland", "Fife", "Douglas")  # at full strength
    put(s, "england", "Mentieth", "York Knights")
    events.resolve_event(s, "scotland", "pillage", {"from": "Fife", "target": "Mentieth", "steps_to": ["Douglas"]},
                         ScriptedDice(), FirstOption())
    assert s.blocks["Douglas"].strength == 4 and s.blocks["York Knights"].strength == 2


def test_5_8_pillage_removes_black_cross_blocks_to_the_draw_pool() -> None:
    s = bare_state()
    put(s, "england", "Mentieth", "York Knights")
    put(s, "scotland", "Fife", "Wallace", strength=1)
    put(s, "scotland", "Fife", "Douglas", strength=1)
    events.resolve_event(s, "england", "pillage", {"from": "Mentieth", "target": "Fife"}, ScriptedDice(),
                         Scripted({"scotland": ["Wallace"]}))
    assert s.blocks["Wallace"].location == POOL and s.blocks["Douglas"].location == POOL


def test_3_12_pillage_captures_a_noble_whose_last_step_is_hit_but_moray_disbands() -> None:
    s = bare_state()
    put(s, "england", "Mentieth", "York Knights")
    put(s, "scotland", "Fife", "Mar", strength=1)
    put(s, "scotland", "Fife", "Barclay", strength=1)
    events.resolve_event(s, "england", "pillage", {"from": "Mentieth", "target": "Fife"}, ScriptedDice(), FirstOption())
    assert s.blocks["Barclay"].location == POOL  # tied at 1: the owner's (first) choice
    b = s.blocks["Mar"]  # applied as in combat: captured (5.7), he joins the pillagers
    assert (b.owner, b.location, b.strength) == ("england", "Mentieth", 1)
    put(s, "scotland", "Fife", "Moray", strength=1)
    events.resolve_event(s, "england", "pillage", {"from": "Mentieth", "target": "Fife"}, ScriptedDice(), FirstOption())
    assert s.blocks["Moray"].location == POOL


@pytest.mark.parametrize("params", [
    {"from": "Fife", "target": "Lanark"},            # not adjacent
    {"from": "Fife", "target": "Angus"},             # no enemy there
    {"from": "Mar", "target": "Angus"},              # no friendly group in Mar
    {"from": "Fife", "target": "Mentieth", "steps_to": ["Keith"]},  # not of the pillaging group
])
def test_3_12_pillage_validation(params: dict[str, Any]) -> None:
    s = bare_state()
    put(s, "scotland", "Fife", "Douglas")
    put(s, "england", "Mentieth", "York Knights")
    put(s, "england", "Lanark", "Durham Knights")
    with pytest.raises(IllegalOrder, match=r"\(3\.12\)"):
        events.resolve_event(s, "scotland", "pillage", params, ScriptedDice(), FirstOption())


# --- Sea Move --------------------------------------------------------------------------------------

def test_3_12_sea_move_two_blocks_coast_to_friendly_coast_england_included() -> None:
    s = bare_state()
    put(s, "england", "Lothian", "York Knights", "Cumbria Infantry", "Durham Infantry")
    put(s, "england", "England", "Hobelars")
    events.resolve_event(s, "england", "sea_move",
                         {"from": "Lothian", "to": "England", "blocks": ["York Knights", "Durham Infantry"]},
                         ScriptedDice(), FirstOption())
    assert s.blocks["York Knights"].location == "England" and s.blocks["Durham Infantry"].location == "England"
    assert s.blocks["Cumbria Infantry"].location == "Lothian"


@pytest.mark.parametrize("params, rule", [
    ({"from": "Fife", "to": "Angus", "blocks": ["Douglas"]}, "3.12"),           # vacant
    ({"from": "Fife", "to": "Lothian", "blocks": ["Douglas"]}, "3.12"),         # enemy
    ({"from": "Fife", "to": "Badenoch", "blocks": ["Douglas"]}, "3.12"),        # inland
    ({"from": "Fife", "to": "Moray", "blocks": ["Norse"]}, "4.7"),               # never the Norse
    ({"from": "Fife", "to": "Moray", "blocks": ["Douglas", "Barclay", "Wallace"]}, "3.12"),
    ({"from": "Fife", "to": "Moray", "blocks": ["Fraser"]}, "3.12"),            # not in Fife
])
def test_3_12_sea_move_validation(params: dict[str, Any], rule: str) -> None:
    s = bare_state()
    put(s, "scotland", "Fife", "Douglas", "Barclay", "Wallace", "Norse")
    put(s, "scotland", "Moray", "Fraser")
    put(s, "scotland", "Badenoch", "Grant")
    put(s, "england", "Lothian", "York Knights")
    with pytest.raises(IllegalOrder) as err:
        events.resolve_event(s, "scotland", "sea_move", params, ScriptedDice(), FirstOption())
    assert err.value.rule == rule


# --- Truce, Victuals, passing --------------------------------------------------------------------

def test_3_12_truce_is_recorded_for_the_move_phase() -> None:
    s = bare_state()
    events.resolve_event(s, "scotland", "truce", {}, ScriptedDice(), FirstOption())
    assert s.current.truce == "scotland"
    t = bare_state()
    events.resolve_event(t, "scotland", "truce", {"pass": True}, ScriptedDice(), FirstOption())
    assert t.current.truce == ""


def test_3_12_victuals_three_steps_in_one_group() -> None:
    s = bare_state()
    put(s, "scotland", "Fife", "Wallace", "Douglas", strength=1)
    events.resolve_event(s, "scotland", "victuals", {"area": "Fife", "steps": ["Wallace", "Wallace", "Douglas"]},
                         ScriptedDice(), FirstOption())
    assert s.blocks["Wallace"].strength == 3 and s.blocks["Douglas"].strength == 2


@pytest.mark.parametrize("steps, rule", [
    (["Fraser"], "3.12"),                                   # not in the group
    (["Douglas", "Douglas", "Douglas", "Wallace"], "3.12"), # four steps
    (["Douglas", "Douglas", "Douglas", ], "2.11"),          # Douglas 2/4 takes 2 more only
])
def test_3_12_victuals_validation(steps: list[str], rule: str) -> None:
    s = bare_state()
    put(s, "scotland", "Fife", "Wallace", "Douglas", strength=2)
    put(s, "scotland", "Moray", "Fraser", strength=1)
    with pytest.raises(IllegalOrder) as err:
        events.resolve_event(s, "scotland", "victuals", {"area": "Fife", "steps": steps}, ScriptedDice(), FirstOption())
    assert err.value.rule == rule


def test_3_12_a_player_may_pass_instead_of_using_the_event() -> None:
    s = bare_state()
    put(s, "england", "Mar", "Mar")
    before = s.hash()
    for params in ({}, {"pass": True}):
        log = events.resolve_event(s, "scotland", "herald", params, ScriptedDice(), FirstOption())
        assert log[0].facts["passed"] is True and s.hash() == before


def test_3_12_malformed_parameters_are_invalid_and_move_cards_illegal() -> None:
    s = bare_state()
    with pytest.raises(InvalidOrder, match="unknown parameter"):
        events.resolve_event(s, "scotland", "herald", {"nobel": "Mar"}, ScriptedDice(), FirstOption())
    with pytest.raises(InvalidOrder):
        events.resolve_event(s, "scotland", "victuals", {"area": "Fife", "steps": "Wallace"}, ScriptedDice(),
                             FirstOption())
    with pytest.raises(IllegalOrder, match=r"\(3\.12\)"):
        events.resolve_event(s, "scotland", "move2-1", {}, ScriptedDice(), FirstOption())


def test_3_12_both_events_resolved_england_first() -> None:
    s = bare_state()
    put(s, "england", "Mar", "Mar", strength=2)
    put(s, "scotland", "Fife", "Douglas", strength=2)
    # England's Victuals first, then the Scots' Herald on Mar (now at full strength)
    log = events.resolve_events(s, {"scotland": ("herald", {"noble": "Mar"}),
                                    "england": ("victuals", {"area": "Mar", "steps": ["Mar"]})},
                                ScriptedDice([2]), FirstOption())
    assert [e.facts["by"] for e in log if e.visibility == PUBLIC] == ["england", "scotland"]
    assert s.blocks["Mar"].owner == "scotland" and s.blocks["Mar"].strength == 3


# --- legal options -------------------------------------------------------------------------------

@pytest.mark.parametrize("sid", ["braveheart", "the_bruce"])
@pytest.mark.parametrize("side", ["england", "scotland"])
@pytest.mark.parametrize("event", ["herald", "pillage", "sea_move", "truce", "victuals"])
def test_3_12_every_listed_event_option_is_legal(sid: str, side: str, event: str) -> None:
    s = setup(sid, Options(), Drbg(b"k" * 32))
    options = events.legal_events(s, side, event)
    assert options[-1] == {"pass": True}
    for params in options:
        assert events.validate_event(s, side, event, params) in ("use", "pass", "coronation")
    if event not in ("truce", "victuals"):  # everyone starts at full strength: nothing to victual
        assert len(options) > 1


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**16), sid=st.sampled_from(["braveheart", "the_bruce"]),
       side=st.sampled_from(["england", "scotland"]),
       event=st.sampled_from(["herald", "pillage", "sea_move", "truce", "victuals"]), pick=st.integers(0, 10**6))
def test_3_12_any_listed_option_resolves_to_a_valid_state(seed: int, sid: str, side: str, event: str,
                                                          pick: int) -> None:
    s = setup(sid, Options(), Drbg(seed.to_bytes(4, "big") * 8))
    for name, b in s.blocks.items():  # wear everyone down a little so Victuals has work
        if s.on_map(name) and b.strength > 1 and (seed + len(name)) % 3 == 0:
            b.strength -= 1
    options = events.legal_events(s, side, event)
    params = options[pick % len(options)]
    events.resolve_event(s, side, event, params, Drbg(b"e" * 16 + seed.to_bytes(4, "big") * 4), FirstOption())
    assert s.check() == []


@cache
def turn_positions() -> tuple[GameState, ...]:
    """Positions at the start of Game Turns of random games: wounded blocks, defections, kings."""
    found: list[GameState] = []
    for sid, seed in (("braveheart", 7), ("the_bruce", 8), ("campaign", 9)):
        found += game_positions(sid, seed, "card")[::3]
    return tuple(found)


@settings(max_examples=40, deadline=None)
@given(index=st.integers(0, 10**6), side=st.sampled_from(["england", "scotland"]),
       event=st.sampled_from(["herald", "pillage", "sea_move", "truce", "victuals"]), pick=st.integers(0, 10**6))
def test_3_12_mid_game_every_listed_option_validates_and_resolves(index: int, side: str, event: str,
                                                                  pick: int) -> None:
    positions = turn_positions()
    s = positions[index % len(positions)].copy()
    options = events.legal_events(s, side, event)
    for params in options:
        assert events.validate_event(s, side, event, params) in ("use", "pass", "coronation")
    events.resolve_event(s, side, event, options[pick % len(options)], Drbg(pick.to_bytes(8, "big") * 4),
                         FirstOption())
    assert s.check() == [] and not s.current.fight


@pytest.mark.parametrize("card, params", [
    ("pillage", {"from": "Fife", "target": "Lanark"}),
    ("sea_move", {"from": "Fife", "to": "Moray", "blocks": ["Norse"]}),
    ("victuals", {"area": "Fife", "steps": ["Douglas"] * 4}),
    ("herald", {"noble": "Moray"}),
    ("truce", {"coronation": "Bruce"}),
])
def test_3_12_a_rejected_event_changes_nothing_and_names_its_rule(card: str, params: dict[str, Any]) -> None:
    from pbem.hammer.rules import engine
    s = bare_state()
    put(s, "scotland", "Fife", "Douglas", "Norse", strength=1)
    put(s, "scotland", "Moray", "Moray")
    put(s, "england", "Mentieth", "York Knights")
    s.hands = {"england": ["move1-1"], "scotland": [card]}
    engine.submit_cards(s, {"england": "move1-1", "scotland": card}, ScriptedDice(), FirstOption())
    before = s.hash()
    with pytest.raises(IllegalOrder) as err:
        engine.submit_events(s, "scotland", params, ScriptedDice([1]), FirstOption())
    assert s.hash() == before and owed(s) == {"scotland": "event"}
    assert str(err.value).endswith(f"({err.value.rule})") and err.value.rule in ("3.12", "4.7", "5.7", "6.21")


def test_3_12_pass_and_a_coronation_take_no_other_parameters_and_say_which_rule() -> None:
    s = bare_state()
    put(s, "england", "Mar", "Mar")
    with pytest.raises(InvalidOrder) as passed:
        events.validate_event(s, "scotland", "herald", {"pass": True, "noble": "Mar"})
    assert str(passed.value) == "event herald: pass = true takes no other parameters (3.12)"
    with pytest.raises(InvalidOrder) as crowned:
        events.validate_event(s, "scotland", "herald", {"coronation": "Bruce", "noble": "Mar"})
    assert str(crowned.value) == "event herald: coronation takes no other parameters (6.21, 6.22)"
    with pytest.raises(InvalidOrder) as unknown:
        events.validate_event(s, "scotland", "herald", {"nobel": "Mar"})
    assert str(unknown.value) == "event herald: unknown parameter(s) nobel; herald takes noble (3.12)"
