"""Hammer with no referee, the set-up's split (pbem/hammer/peer_setup.py, docs/protocol.md §13.10): the public
state names handles, never a hidden block; each side's facts hide its blocks where the scenario puts them
(8.0); the English levy draws handles by the joint stream (7.7); the split goes back to the engine's game
and forth again unchanged."""

from __future__ import annotations

import pytest

from pbem.core.drbg import Drbg
from pbem.core.peer.rules import FactLie
from pbem.hammer.peer_setup import (
    card_deck,
    check_facts,
    full_state,
    hidden_labels,
    private_setup,
    public_of,
    public_setup,
)
from pbem.hammer.rules.blocks import SIDES, blocks, spec
from pbem.hammer.rules.board import ENGLAND
from pbem.hammer.rules.scenario import scenario, scenarios
from pbem.hammer.rules.state import POOL, Options

SCENARIOS = sorted(scenarios())


def _all_facts(sid: str, seed: int, options: Options = Options()) -> dict[str, str]:
    return {k: v for s in SIDES for k, v in private_setup(sid, options, s, Drbg(bytes([seed]) * 32)).items()}


def _facts(sid: str, seed: int, options: Options = Options()) -> dict[str, str]:
    """The blocks behind the handles (the noble indexes left out)."""
    return {k: v for k, v in _all_facts(sid, seed, options).items() if k.startswith("hidden.")}


@pytest.mark.parametrize("sid", SCENARIOS)
def test_rules_8_0_every_block_of_the_scenario_is_behind_one_handle_or_public(sid: str) -> None:
    public = public_setup(sid, Options(), Drbg(b"\x07" * 32))
    facts = _facts(sid, 1)
    for side in SIDES:
        check_facts(sid, Options(), side, {k: v for k, v in _all_facts(sid, 1).items() if k.split(".")[1] == side},
                    True)
    assert sorted([*facts.values(), *public["open_blocks"]]) == sorted(blocks())
    # blocks are named only in open_blocks, and none of those is hidden; areas and pools hold handles alone
    assert not set(public["open_blocks"]) & set(facts.values())
    held = [h for by in public["areas"].values() for hs in by.values() for h in hs]
    held += [h for hs in public["pool"].values() for h in hs]
    assert sorted(held) == sorted(facts) and all(h.startswith("hidden.") for h in held)


@pytest.mark.parametrize("sid", SCENARIOS)
def test_rules_8_0_the_engines_game_from_the_split_places_the_scenario_and_the_levy(sid: str) -> None:
    sc = scenario(sid)
    public = public_setup(sid, Options(), Drbg(b"\x07" * 32))
    facts = _facts(sid, 2)
    g = full_state(public, facts, Options())
    for side, placed in (("england", sc.english), ("scotland", sc.scottish)):
        for area, names in placed.items():
            for name in names:
                assert (g.blocks[name].owner, g.blocks[name].location, g.blocks[name].strength) == \
                    (side, area, spec(name).steps)
    levy = [n for n in g.blocks_in(ENGLAND, "england") if n not in sc.english.get(ENGLAND, ())]
    assert len(levy) == sc.english_levy == len(public["levy"])
    assert sorted(levy) == sorted(facts[h] for h in public["levy"])
    assert all(g.blocks[n].strength == spec(n).steps for n in levy)
    assert public_of(g, facts, public["levy"]) == public


def test_protocol_13_10_noninterference_englands_facts_change_nothing_public_at_the_set_up() -> None:
    """Two games whose English pools are in different orders (so the levy brings out different blocks):
    the same public state, which is also the projection of each one's full game."""
    public = public_setup("braveheart", Options(), Drbg(b"\x09" * 32))
    a, b = _facts("braveheart", 3), {**_facts("braveheart", 3), **{k: v for k, v in _facts("braveheart", 4).items()
                                                                      if k.startswith("hidden.england")}}
    drawn = [sorted(f[h] for h in public["levy"]) for f in (a, b)]
    assert drawn[0] != drawn[1]  # the levy's blocks differ ...
    assert public_of(full_state(public, a, Options()), a, public["levy"]) == \
        public_of(full_state(public, b, Options()), b, public["levy"]) == public  # ... and nothing public does


def test_rules_7_7_the_levy_draws_handles_by_the_joint_stream_not_by_englands_choice() -> None:
    """England's facts are not an input of the draw: the handles drawn are the stream's alone, and differ
    from stream to stream."""
    levies = {tuple(public_setup("braveheart", Options(), Drbg(bytes([i]) * 32))["levy"]) for i in range(1, 6)}
    assert len(levies) > 1
    pool = hidden_labels("braveheart", Options(), "england")
    assert all(set(levy) <= set(pool) for levy in levies)


def test_rules_9_2_an_e_bid_keeps_edward_face_up_and_public() -> None:
    options = Options(bid="E2")
    public = public_setup("braveheart", options, Drbg(b"\x05" * 32))
    assert public["open_blocks"]["Edward"] == POOL
    assert "Edward" not in _facts("braveheart", 1, options).values()


def test_rules_8_0_facts_that_cannot_be_the_sides_are_refused() -> None:
    facts = {k: v for k, v in private_setup("braveheart", Options(), "england", Drbg(b"\x01" * 32)).items()
             if k.startswith("hidden.")}
    first, second = sorted(facts)[:2]
    wrong_area = {**facts, first: facts[second]} if facts[first] != facts[second] else facts
    with pytest.raises(FactLie, match="puts no|two handles"):
        check_facts("braveheart", Options(), "england", wrong_area, True)
    with pytest.raises(FactLie, match="puts no"):
        check_facts("braveheart", Options(), "england", {first: "Wallace"}, False)
    with pytest.raises(FactLie, match="is not a handle of england"):
        check_facts("braveheart", Options(), "england", {"hidden.scotland.0": "Edward"}, False)
    with pytest.raises(FactLie, match="is no block"):  # a handle a winter seals (7.6) hides a block
        check_facts("braveheart", Options(), "england", {"hidden.england.999": "Nobody"}, False)
    with pytest.raises(FactLie, match="which it cannot have"):
        check_facts("braveheart", Options(), "england", {"hidden.england.999": {"block": "Edward", "strength": 9}},
                    False)
    with pytest.raises(FactLie, match="without a block"):
        check_facts("braveheart", Options(), "england", {first: facts[first]}, True)


def test_rules_3_0_the_years_deal_is_the_whole_deck_five_to_each_side() -> None:
    d = card_deck(Options())
    assert len(d.cards) == 25 and d.hands == {"england": 5, "scotland": 5}


def test_rules_3_12_a_noble_index_must_name_the_handle_the_noble_stands_behind() -> None:
    """Each side commits, per noble on the map, the handle he stands behind (the Herald's question, 3.12): an index
    naming a handle that opens as another block, a pool handle, or two nobles behind one handle is refused."""
    facts = private_setup("braveheart", Options(), "scotland", Drbg(b"\x01" * 32))
    check_facts("braveheart", Options(), "scotland", facts, True)
    bruce, galloway = facts["noble.scotland.Bruce"], facts["noble.scotland.Galloway"]
    with pytest.raises(FactLie, match="puts Bruce behind .*, which is Galloway"):
        check_facts("braveheart", Options(), "scotland", {"noble.scotland.Bruce": galloway, galloway: "Galloway"},
                    False)
    with pytest.raises(FactLie, match="two nobles behind one handle"):
        check_facts("braveheart", Options(), "scotland", {"noble.scotland.Bruce": bruce,
                                                          "noble.scotland.Galloway": bruce}, False)
    pool = next(k for k in hidden_labels("braveheart", Options(), "scotland")
                if k.startswith("hidden.") and k not in {h for h in facts.values()} and facts[k] == "Norse")
    with pytest.raises(FactLie, match="no handle of its on the map"):
        check_facts("braveheart", Options(), "scotland", {"noble.scotland.Bruce": pool}, False)
