"""The rules case corpus (docs/cases.md): every case under tests/hammer/cases/ comes out as it says.

One file per case, named after its rule; each is a position, the steps played on it (orders,
answers, dice) and the expected result. ``pbem sandbox CASE.toml`` runs one the same way.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.hammer.play.cases import load_case, mismatches, run_case

CASES = sorted((Path(__file__).parent / "cases").glob("*.toml"))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_rules_case(path: Path) -> None:
    state, case = load_case(path)
    assert path.stem.split("-")[0].replace("_", ".") == case.rule.split()[0], \
        f"{path.name}: the file is named after its rule ({case.rule})"
    outcome = run_case(state, case)
    wrong = mismatches(outcome, case)
    shown = "\n".join(outcome.lines)
    assert not wrong, f"{path.name} ({case.shows}):\n" + "\n".join(wrong) + f"\n--- log ---\n{shown}"
    assert outcome.dice_left == 0, f"{path.name}: {outcome.dice_left} listed dice were not needed"


def test_the_corpus_holds_the_rulebook_examples_and_the_step_7_cases() -> None:
    rules = {load_case(p)[1].rule.split()[0] for p in CASES}
    assert {"4.2", "4.3", "4.4", "4.6", "5.31", "5.32", "5.33", "5.41", "5.5", "9.0", "3.12", "8.3", "7.5",
            "9.1"} <= rules


def test_a_case_runs_in_the_sandbox() -> None:
    from typer.testing import CliRunner

    from pbem.cli.main import app
    path = next(p for p in CASES if p.stem.startswith("9_0"))
    result = CliRunner().invoke(app, ["sandbox", str(path)])
    assert result.exit_code == 0, result.output
    assert "# as expected" in result.output
