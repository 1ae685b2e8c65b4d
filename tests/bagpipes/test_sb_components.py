"""[SB-2], [SB-14], docs/bagpipes-notes.md §2: the component file, its checks, and the invented sample."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

from pbem.bagpipes.components import load_components, parse_components, sample_components
from pbem.core.errors import FormatError

SAMPLE = resources.files("pbem.bagpipes").joinpath("data", "sample-components.toml").read_text()
REAL_TITLES = ("Bruce's Trick", "Wallace's Gratitude", "Lamberton's Help", "Bruces vs Comyns", "The Guardians",
               "David's Lineage", "Vive la France", "Treaty with Eric II", "Balliol's Plan", "Pope's Influence",
               "Irvine Capitulation", "Bruce Joins Us Again")


def test_SB_2_components_sample_matches_the_book_counts() -> None:
    comps = sample_components()
    assert sum(1 for c in comps.round_cards if c.back == "red") == 2
    assert sum(1 for c in comps.round_cards if c.back == "grey") == 8
    assert len(comps.bagpipe_copies()) == 22 and len(comps.dagger_cards()) == 16
    assert len(comps.defeat_track) == 5 and comps.defeat_track[0] == "Glasgow"


def test_SB_2_components_counts_that_do_not_add_up_are_refused_naming_the_line(tmp_path: Path) -> None:
    bad = SAMPLE.replace("bagpipe = 22", "bagpipe = 23")
    line = bad.splitlines().index("bagpipe = 23") + 1
    with pytest.raises(FormatError, match=rf"bad.toml:{line}: bagpipe = 23 but the file lists 22"):
        parse_components(bad.encode(), "bad.toml")
    bad = SAMPLE.replace("1 = 5", "1 = 4")
    with pytest.raises(FormatError, match="dagger = 16 but the file lists 15"):
        parse_components(bad.encode(), "bad.toml")


def test_SB_2_components_missing_grey_card_is_refused_at_the_count_line() -> None:
    start = SAMPLE.index("[[round_cards]]\nid = \"sample-arms-1\"")
    end = SAMPLE.index("[[round_cards]]", start + 5)
    bad = SAMPLE[:start] + SAMPLE[end:]
    line = bad.splitlines().index("english_arms = 8") + 1
    with pytest.raises(FormatError, match=rf"x.toml:{line}: english_arms = 8 but the file lists 7 grey"):
        parse_components(bad.encode(), "x.toml")


def test_SB_2_components_unknown_operation_names_the_card_line() -> None:
    bad = SAMPLE.replace('{ op = "fields_troops", n = 2 }', '{ op = "summon_dragon", n = 2 }')
    line = next(i for i, ln in enumerate(bad.splitlines(), 1) if "summon_dragon" in ln)
    with pytest.raises(FormatError, match=rf"x.toml:{line}: round card sample-arms-4: unknown operation"):
        parse_components(bad.encode(), "x.toml")


def test_SB_2_components_a_short_sample_under_full_counts_fails_the_count_check() -> None:
    """A file that declares the full counts but lists a short sample fails the count check."""
    short = SAMPLE.split("[[round_cards]]")[0].replace("bagpipe = 22", "bagpipe = 4")
    with pytest.raises(FormatError, match="king_edward = 2 but the file lists 0"):
        parse_components(short.encode(), "short.toml")


def test_SB_2_components_file_hash_is_what_the_manifest_records(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(SAMPLE)
    import hashlib
    assert load_components(path).sha256 == hashlib.sha256(SAMPLE.encode()).hexdigest() == sample_components().sha256
    from pbem.bagpipes.ruleset import BagpipesRuleset
    assert BagpipesRuleset(4, path).options()["components_sha256"] == sample_components().sha256


def test_SB_2_components_manual_effect_is_allowed() -> None:
    comps = sample_components()
    assert comps.round_card("sample-arms-6").effect == "manual"
    assert comps.bagpipe("sample-omen").effect == "manual"


def test_SB_14_sample_says_it_is_invented_in_its_first_lines_and_every_title() -> None:
    head = "\n".join(SAMPLE.splitlines()[:3])
    assert "INVENTED" in head and "NOT THE PUBLISHED CARDS" in head
    comps = sample_components()
    for card in comps.round_cards + comps.bagpipe_cards:
        assert "INVENTED SAMPLE" in card.title, card.id
    assert "INVENTED" in comps.name


def test_SB_14_no_real_card_title_in_the_repository_data() -> None:
    for title in REAL_TITLES:
        assert title not in SAMPLE
    data_dir = Path(str(resources.files("pbem.bagpipes").joinpath("data")))
    assert sorted(p.name for p in data_dir.glob("*.toml")) == ["component-format.toml", "sample-components.toml"]
    fmt = (data_dir / "component-format.toml").read_text()   # the format holds no card at all
    assert "[[round_cards]]" not in fmt and "[[bagpipe_cards]]" not in fmt
    assert not any(title in fmt for title in REAL_TITLES)


def test_SB_15_credits_kept_and_no_published_card_data_claimed() -> None:
    notes = (Path(__file__).parents[2] / "docs" / "bagpipes-notes.md").read_text()
    assert "Yan Egorov" in notes and "No card data of the published game is in this repository" in notes


def test_SB_14_sample_is_labelled_invented_in_reports_and_the_demo_summary() -> None:
    from bp_support import new

    from pbem.bagpipes import drafts, views
    from pbem.bagpipes.play import play_engine_game
    t = new(3)
    for seat in ("clan1", "clan2", "clan3", "referee"):
        report = views.report(t, sample_components(), seat, "g", 0)
        assert report["cards"] == "INVENTED SAMPLE - not the published cards"
        assert "Cards: INVENTED SAMPLE - not the published cards" in drafts.render_text(report)
    assert "cards: INVENTED SAMPLE - not the published cards" in play_engine_game(3, seed=b"label").lines()[0]


def test_SB_14_the_sample_is_the_only_card_data_in_the_repository() -> None:
    """No other file of the project lists card faces: only the sample has ``[[round_cards]]``/``[[bagpipe_cards]]``
    tables."""
    root = Path(__file__).parents[2]
    folders = [root / f for f in ("pbem", "docs", "tests", "examples") if (root / f).is_dir()]
    holders = sorted(str(p.relative_to(root)) for folder in folders
                     for p in (root / folder).rglob("*") if p.is_file() and p.suffix in (".toml", ".json", ".md", ".py")
                     and any(line.strip() in ("[[round_cards]]", "[[bagpipe_cards]]")
                             for line in p.read_text(encoding="utf-8", errors="replace").splitlines()))
    assert holders == ["pbem/bagpipes/data/sample-components.toml"]


# Issue 25 point 1: each broken file a real group would write, refused at parse (so at open) in one
# sentence naming FILE:LINE, the card and the field; never in the middle of a game.
BROKEN = [
    ('{ op = "gain_gold", who = "self", n = 1 }', '{ op = "gain_gold", who = "self", n = "two" }',
     "bagpipe card sample-tax: operation gain_gold: n must be a whole number"),
    ("crown_split = false", 'crown_split = "false"', "round card sample-arms-2: crown_split must be true or false"),
    ("x2 = true", 'x2 = "true"', "bagpipe card sample-tax: x2 must be true or false"),
    ("refers_to_badge = true", 'refers_to_badge = "true"', "round card sample-arms-5: refers_to_badge must be true"),
    ("excluded_players = [2]", 'excluded_players = ["two"]',
     "round card sample-arms-7: excluded_players must be a list"),
    ('copies = 1\ntiming = "purse"', 'copies = 0\ntiming = "purse"',
     "bagpipe card sample-confession: copies must be a whole number 1 to 99, not 0"),
    ('{ op = "fields_troops", n = 2 }', '{ op = "fields_troops", n = 2, who = "self" }',
     "operation fields_troops takes no parameter 'who'"),
    ('{ op = "english_strength", delta = 2, duration = "round" } ]\n\n[[round_cards]]\nid = "sample-arms-4"',
     '{ op = "english_strength", delta = "+2", duration = "round" } ]\n\n[[round_cards]]\nid = "sample-arms-4"',
     "operation english_strength: delta must be a whole number -99 to 99"),
    ('{ op = "discard_camp", who = "target", n = 2 }', '{ op = "discard_camp", who = "opponent", n = 2 }',
     "operation discard_camp: who = 'opponent' is not one of self, target"),
    ('if = "scotland_won", then = [ { op = "gain_gold", who = "self", n = 2 } ]',
     'if = "scotland_won", then = [ { op = "gain_gold", who = "self", n = -2 } ]',
     "operation gain_gold: n must be a whole number 1 to 99, not -2"),
    ("english_strength = 7\n", "english_strength = 7\ncrown_splt = true\n", "unknown field 'crown_splt'"),
    ('{ op = "gain_gold", who = "badge_holder", n = 1 } ]\n\n[[round_cards]]',
     '{ op = "gain_gold", who = "self", n = 1 } ]\n\n[[round_cards]]',
     "round card sample-arms-5: operation gain_gold: who = 'self' finds nobody on a round card"),
]


@pytest.mark.parametrize("good,bad,says", BROKEN, ids=[b[1][:30] for b in BROKEN])
def test_SB_2_components_every_field_and_operation_parameter_is_typed(good: str, bad: str, says: str) -> None:
    assert good in SAMPLE
    text = SAMPLE.replace(good, bad, 1)
    first = next(i for i, (a, b) in enumerate(zip(bad.splitlines() + [""], good.splitlines() + [""])) if a != b)
    line = text[:text.index(bad)].count("\n") + 1 + first
    with pytest.raises(FormatError) as caught:
        parse_components(text.encode(), "bad.toml")
    message = str(caught.value)
    assert message.startswith(f"bad.toml:{line}: ") and says in message, message
    assert "\n" not in message and message.endswith("(component file format, docs/bagpipes-notes.md §2).")


def test_SB_2_components_operation_types_are_declared_as_data() -> None:
    """The vocabulary and every parameter's type live in data/component-format.toml, not in code."""
    from pbem.bagpipes.components import FORMAT, OPS
    fmt = resources.files("pbem.bagpipes").joinpath("data", "component-format.toml").read_text()
    assert "[ops.gain_gold]" in fmt and OPS["gain_gold"]["n"] == {"type": "int", "min": 1, "max": 99,
                                                                   "required": True}
    assert FORMAT["round_card"]["crown_split"] == {"type": "bool"}
    assert FORMAT["bagpipe_card"]["copies"]["min"] == 1


def test_SB_6_components_an_operation_on_the_target_of_a_card_without_one_is_refused_at_its_line() -> None:
    bad = SAMPLE.replace('targets = "one_player"\ntext = "(invented) A player',
                         'targets = "all_players"\ntext = "(invented) A player', 1)
    line = next(i for i, ln in enumerate(bad.splitlines(), 1) if 'op = "discard_camp", who = "target"' in ln)
    with pytest.raises(FormatError, match=rf'^x.toml:{line}: bagpipe card sample-ambush: operation discard_camp: '
                                          r'who = "target" needs targets = "one_player"'):
        parse_components(bad.encode(), "x.toml")
