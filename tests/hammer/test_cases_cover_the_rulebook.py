"""docs/cases.md "Coverage": the rules cases against the rulebook's numbered clauses.

The clause list (tests/hammer/rulebook-clauses.toml, extracted once from the English rulebook) says
for each clause without a case why it has none. These tests keep that true in both directions and
keep the generated table in docs/cases.md current (regenerate it with
``python tests/hammer/rulebook_clauses.py docs``).
"""

from __future__ import annotations

import rulebook_clauses as rc

MIN_CASES = 60  # issue: at least 60 corpus cases pinning outcomes


def test_cases_md_coverage_table_is_generated_from_the_clause_list_and_the_corpus() -> None:
    doc = rc.DOC.read_text(encoding="utf-8")
    assert rc.generated_section(doc), "docs/cases.md lacks the coverage markers"
    assert rc.generated_section(doc) == rc.coverage_table(), \
        "docs/cases.md's coverage table is stale: run python tests/hammer/rulebook_clauses.py docs"


def test_cases_md_a_clause_listed_without_a_case_has_none_and_every_other_clause_has_one() -> None:
    by_rule = rc.cases_by_rule()
    for clause in rc.load():
        got = by_rule.get(clause.number, [])
        if clause.why:
            assert not got, f"{clause.number} now has cases ({', '.join(got)}): remove its why"
        else:
            assert got, f"{clause.number} {clause.title} has lost its last case: give it one, or a why"


def test_cases_md_every_case_is_about_a_clause_of_the_rulebook() -> None:
    numbers = {c.number for c in rc.load()}
    stray = sorted(r for r in rc.cases_by_rule() if r not in numbers)
    assert not stray, f"cases cite rules that are no clause of the rulebook: {stray}"


def test_cases_md_every_event_card_has_a_case() -> None:
    by_rule = rc.cases_by_rule()
    assert rc.event_cards() == ["Herald", "Pillage", "Sea Move", "Truce", "Victuals"]
    for name in rc.event_cards():
        assert rc.card_cases(name, by_rule), f"the Event card {name} has no 3.12 case naming it"


def test_cases_md_the_corpus_holds_at_least_60_cases() -> None:
    assert sum(len(v) for v in rc.cases_by_rule().values()) >= MIN_CASES


def test_cases_md_the_clause_list_is_what_the_extractor_finds_in_a_rulebook_text() -> None:
    text = "intro\n1.0 MAPBOARD\nbody\n1.3 CAThEDRALS\n<|x|>3.0 ThE CARDS\n5.31 Combat Turns\n5.4 COMBAT\n5.3 X\n"
    assert rc.extract(text) == [("1.0", "Mapboard"), ("1.3", "Cathedrals"), ("3.0", "The Cards"),
                                ("5.3", "X"), ("5.31", "Combat Turns"), ("5.4", "Combat")]
    numbers = [c.number for c in rc.load()]
    assert numbers == sorted(numbers, key=rc.clause_key) and len(numbers) == len(set(numbers))
    assert {"1.3", "3.12", "4.7", "5.9", "6.22", "7.63", "9.1"} <= set(numbers)
