"""``pbem sandbox``: positions in, the resulting position out; every failure one ``error:`` line."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.hammer.position import load_position, parse_position

EXAMPLES = Path(__file__).parents[2] / "examples" / "positions"
runner = CliRunner()


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["sandbox", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def test_sandbox_prints_the_position_it_loaded() -> None:
    code, out = run(str(EXAMPLES / "braveheart-opening.toml"))
    assert code == 0
    assert parse_position(out).hash() == load_position(EXAMPLES / "braveheart-opening.toml").hash()


@pytest.mark.parametrize(("args", "message"), [
    (["missing.toml"], "cannot be read"),
    ([str(EXAMPLES / "battle-fife.toml"), "--dice", "3,9"], "'9' is not a die roll 1-6"),
    ([str(EXAMPLES / "battle-fife.toml"), "--seed", "xyz"], "--seed xyz: not hexadecimal"),
    ([str(EXAMPLES / "battle-fife.toml"), "--seed", "00ff"], "at least 16 bytes"),
    ([str(EXAMPLES / "battle-fife.toml"), "--battle", "Annan"], "--battle Annan: no battle there"),
    ([str(EXAMPLES / "battle-fife.toml"), "--side", "wales"], "--side wales: expected england or scotland"),
    ([str(EXAMPLES / "battle-fife.toml"), "--battle", "Fife", "--dice", "abc"], "'abc' is not a die roll 1-6"),
    ([str(EXAMPLES / "battle-fife.toml"), "--battle", "Fife", "--dice", "0,3"], "'0' is not a die roll 1-6"),
    ([str(EXAMPLES / "battle-fife.toml"), "--battle", "Fife", "--dice", ","], "no dice given"),
    ([str(EXAMPLES / "battle-fife.toml"), "--battle", "Narnia"],
     "--battle Narnia: 'Narnia' is not an area of the map (1.1)"),
])
def test_sandbox_errors_are_one_line_and_exit_1(args: list[str], message: str) -> None:
    code, out = run(*args)
    assert code == 1
    assert out.startswith("error: ") and message in out and out.count("\n") == 1
    assert "Traceback" not in out


def test_sandbox_orders_need_a_side(tmp_path: Path) -> None:
    orders = tmp_path / "o.toml"
    orders.write_text('moves = []\n', encoding="utf-8")
    code, out = run(str(EXAMPLES / "buchan-4-2.toml"), "--orders", str(orders))
    assert code == 1 and "say whose moves these are" in out


def test_sandbox_fights_a_battle_with_given_dice_and_the_same_dice_give_the_same_result(tmp_path: Path) -> None:
    dice = ",".join(["4", "1", "6", "2", "3", "5"] * 12)
    code, out = run(str(EXAMPLES / "battle-fife.toml"), "--battle", "Fife", "--dice", dice)
    assert code == 0, out
    code2, out2 = run(str(EXAMPLES / "battle-fife.toml"), "--battle", "Fife", "--dice", dice)
    assert out == out2
    after = parse_position(out)
    assert "Fife" not in after.current.battles
    assert after.control("Fife") != "contested"
    before = load_position(EXAMPLES / "battle-fife.toml")
    assert after.hash() != before.hash()


def test_sandbox_battle_with_too_few_dice_says_so() -> None:
    code, out = run(str(EXAMPLES / "battle-fife.toml"), "--battle", "Fife", "--dice", "6")
    assert code == 1 and "more dice are needed than the 1 given" in out


def test_sandbox_applies_moves_from_an_orders_file(tmp_path: Path) -> None:
    orders = tmp_path / "moves.toml"
    orders.write_text('side = "england"\nmoves = [{ from = "Buchan", to = "Fife", blocks = ["Buchan"] },'
                      ' { from = "Buchan", to = "Strathspey", blocks = ["Lancaster Infantry"] }]\n',
                      encoding="utf-8")
    code, out = run(str(EXAMPLES / "buchan-4-2.toml"), "--orders", str(orders))
    assert code == 0, out
    after = parse_position(out)
    assert after.blocks["Buchan"].location == "Fife"
    assert after.blocks["Lancaster Infantry"].location == "Strathspey"
    assert after.blocks["York Infantry"].location == "Buchan"


def _orders(tmp_path: Path, text: str) -> str:
    path = tmp_path / "orders.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_sandbox_4_6_pinning_example_one_block_of_six_may_leave(tmp_path: Path) -> None:
    pos = str(EXAMPLES / "pinning-4-6.toml")
    one = _orders(tmp_path, 'side = "scotland"\nmoves = [{ from = "Buchan", to = "Mar", blocks = ["Wallace"] }]\n')
    code, out = run(pos, "--orders", one)
    assert code == 0, out
    assert parse_position(out).blocks["Wallace"].location == "Mar"
    two = _orders(tmp_path, 'side = "scotland"\nmoves = [{ from = "Buchan", to = "Mar", '
                            'blocks = ["Wallace", "Douglas"] }]\n')
    code, out = run(pos, "--orders", two)
    assert code == 1 and out.startswith("error: ") and "4.6" in out
    back = _orders(tmp_path, 'side = "scotland"\n'
                             'moves = [{ from = "Buchan", path = ["Angus"], blocks = ["Wallace"] }]\n')
    code, out = run(pos, "--orders", back)
    assert code == 1 and "border the enemy used to enter it (4.6)" in out


def test_sandbox_4_2_buchan_example_reaches_exactly_the_seven_areas() -> None:
    from pbem.hammer.movement import legal_group_moves
    state = load_position(EXAMPLES / "buchan-4-2.toml")
    reach = legal_group_moves(state, "england")["Buchan"]["Lancaster Infantry"]
    assert sorted(reach) == ["Angus", "Atholl", "Badenoch", "Fife", "Mar", "Moray", "Strathspey"]


@pytest.mark.parametrize(("text", "message"), [
    ("year = \n", "not valid TOML"),
    ('scenario = "braveheart"\n[scotland]\nFief = ["Wallace"]\n', "scotland.Fief: unknown area 'Fief' (1.1)"),
    ('scenario = "braveheart"\n[scotland]\nFife = ["Walace"]\n', "scotland.Fife: unknown block 'Walace' (2.0)"),
    ('scenario = "braveheart"\n[scotland]\nFife = ["Wallace:9"]\n', "Wallace has strength 9, not 1-4 (2.11)"),
])
def test_sandbox_a_malformed_position_is_one_error_line(tmp_path: Path, text: str, message: str) -> None:
    code, out = run(_orders(tmp_path, text))
    assert code == 1, out
    assert out.startswith("error: position ") and message in out and out.count("\n") == 1


@pytest.mark.parametrize(("text", "message"), [
    ('side = "england"\nmoves = [{ from = "Narnia", to = "Fife", blocks = ["Buchan"] }]\n',
     "'Narnia' is not an area of the map (1.1)"),
    ('side = "england"\nmoves = [{ from = "Buchan", to = "Fife", blocks = ["Gandalf"] }]\n',
     "'Gandalf' is not a block of the game (2.0)"),
    ('side = "england"\nmoves = [\n', "not valid TOML"),
    ('side = "england"\nmoves = [{ from = "Buchan", path = ["Badenoch", "Lochaber"], blocks = ["Buchan"] }]\n',
     "must stop in Badenoch: it crossed a red border (4.3)"),
    ('side = "england"\nmoves = [{ from = "Buchan", path = ["Angus"], blocks = ["Wallace"] }]\n',
     "Wallace: not one of your blocks on the map (4.2)"),
])
def test_sandbox_bad_or_illegal_orders_are_one_error_line_and_print_no_position(
        tmp_path: Path, text: str, message: str) -> None:
    code, out = run(str(EXAMPLES / "buchan-4-2.toml"), "--orders", _orders(tmp_path, text))
    assert code == 1, out
    assert out.startswith("error: ") and message in out and out.count("\n") == 1


def test_sandbox_battle_prints_the_log_with_the_given_dice_first(tmp_path: Path) -> None:
    """Wallace (A3, 4 steps) fires first in Fife: the first four dice given are his, 1 and 2 hit."""
    dice = ",".join(["4", "1", "6", "2", "3", "5"] * 12)
    saved = tmp_path / "after.toml"
    code, out = run(str(EXAMPLES / "battle-fife.toml"), "--battle", "Fife", "--dice", dice, "--out", str(saved))
    assert code == 0, out
    log = [line for line in out.splitlines() if line.startswith("# ") and ": " in line]
    assert log[0] == "# Battle in Fife: england attacks, scotland defends"
    fire = next(line for line in log if " fires " in line)
    assert fire == "# R1 Wallace (scotland) fires A3: 4[#0] 1*[#1] 6[#2] 2*[#3] -> 2 hit(s)"
    assert load_position(saved).hash() == parse_position(out).hash()


def test_sandbox_applies_the_4_4_border_movement_example(tmp_path: Path) -> None:
    """Move 2: two English blocks cross into Annan and attack Galloway, both in the Main Attack."""
    pos = str(EXAMPLES / "border-4-4.toml")
    orders = tmp_path / "moves.toml"
    orders.write_text('moves = [{ from = "England", path = ["Annan", "Galloway"], '
                      'blocks = ["York Knights", "Durham Knights"] }]\n', encoding="utf-8")
    code, out = run(pos, "--orders", str(orders), "--side", "england")
    assert code == 0, out
    battle = parse_position(out).current.battles["Galloway"]
    assert battle.main == ["Durham Knights", "York Knights"] and battle.attacker_reserves == []
    orders.write_text('moves = [{ from = "England", path = ["Annan"], '
                      'blocks = ["York Knights", "Durham Knights", "Hobelars"] }]\n', encoding="utf-8")
    code, out = run(pos, "--orders", str(orders), "--side", "england")
    assert code == 1 and "3 blocks crossing the Anglo-Scottish border cost one move point each" in out


def _printed_commands() -> list[tuple[str, list[str]]]:
    """Every ``pbem ...`` command printed in the comments of an example position."""
    import shlex
    out = []
    for path in sorted(EXAMPLES.glob("*.toml")):
        for text in path.read_text(encoding="utf-8").splitlines():
            body = text.lstrip("#").strip()
            if text.startswith("#") and "pbem sandbox " in body:
                command = body[body.index("pbem sandbox "):]
                out.append((f"{path.name}: {command}", shlex.split(command)[1:]))
    return out


@pytest.mark.parametrize(("where", "argv"), _printed_commands(), ids=[w for w, _ in _printed_commands()])
def test_every_command_printed_in_an_example_runs(where: str, argv: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(EXAMPLES.parents[1])
    result = runner.invoke(app, argv)
    assert result.exit_code == 0, f"{where}: {result.output}"


def test_the_examples_print_commands() -> None:
    names = {w.split(":")[0] for w, _ in _printed_commands()}
    assert {"battle-fife.toml", "border-4-4.toml", "buchan-4-2.toml"} <= names


def test_sandbox_without_answers_takes_the_referees_defaults() -> None:
    """docs/battles.md: pass when there is nothing to fire at, leaders hit last; not the first option."""
    code, out = run(str(EXAMPLES / "battle-fife.toml"), "--battle", "Fife", "--seed", "00" * 16)
    assert code == 0
    hits = [ln for ln in out.splitlines() if "asked hit (5.41): Edward" in ln]
    assert hits and all(not ln.endswith("-> Edward") for ln in hits)
