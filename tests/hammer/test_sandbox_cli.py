"""``pbem sandbox``: positions in, the resulting position out; every failure one ``error:`` line."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.hammer.play.position import load_position, parse_position

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
    (["missing.toml"], "missing.toml: no such file"),
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
    from pbem.hammer.rules.movement import legal_group_moves
    state = load_position(EXAMPLES / "buchan-4-2.toml")
    reach = legal_group_moves(state, "england")["Buchan"]["Lancaster Infantry"]
    assert sorted(reach) == ["Angus", "Atholl", "Badenoch", "Fife", "Mar", "Moray", "Strathspey"]


# A battle begun and not finished (docs/battles.md "Pausing and resuming"), and a Winter Turn under way.
FIGHTING = """scenario = "braveheart"
turn = 1
phase = "battle"
[current]
fighting = "Fife"
[current.fight]
area = "Fife"
attacker = "england"
defender = "scotland"
original_attacker = "england"
round = 1
stage = "turns"
line = ["Edward", "Wallace"]
reserves = []
captured = []
order = ["Wallace", "Edward"]
index = 1
queue = []
used = {}
lost = { england = 0, scotland = 1 }
revealed = ["Edward", "Wallace"]
winner = ""
log = [{ what = "battle", public = true, area = "Fife", attacker = "england", defender = "scotland" }]
[england]
Fife = ["Edward"]
[scotland]
Fife = ["Wallace:3"]
"""
WINTERING = 'scenario = "braveheart"\nturn = 5\nphase = "winter"\n[winter]\ndone = ["7.1", "7.2"]\n'


def test_sandbox_5_a_battle_and_7_0_a_winter_in_progress_load_and_print_back(tmp_path: Path) -> None:
    for text in (FIGHTING, WINTERING):
        code, out = run(_orders(tmp_path, text))
        assert code == 0, out
        assert parse_position(out).hash() == parse_position(text).hash()
    state = parse_position(FIGHTING)
    assert state.current.fight is not None and state.current.fight.stage == "turns"
    assert state.current.fight.lost == {"england": 0, "scotland": 1} and state.current.fight.log[0].what == "battle"
    assert parse_position(WINTERING).winter is not None


@pytest.mark.parametrize(("text", "message"), [
    (FIGHTING.replace('attacker = "england"\n', "", 1),
     "current.fight.attacker: missing; a battle in progress records every field"),
    (FIGHTING.replace('stage = "turns"', 'stage = "melee"'),
     "current.fight.stage: unknown battle stage 'melee'; the battle stages are round_start, turns,"),
    (WINTERING.replace('done = ["7.1", "7.2"]', "done = 5"), "winter.done: expected a list of strings, found 5"),
    ('scenario = "braveheart"\n[current]\nfight = 3\n', "current.fight: expected a table, found 3"),
    ('scenario = "braveheart"\nwinter = "7.1"\n', "winter: expected a table, found '7.1'"),
    (FIGHTING.replace("index = 1", "index = 1\ncolour = 1"), "current.fight.colour: unknown key; expected one of"),
    (FIGHTING.replace('area = "Fife"', 'area = "Narnia"'), "current.fight.area: unknown area 'Narnia' (1.1)"),
    (FIGHTING.replace('defender = "scotland"', 'defender = "wales"'), "current.fight.defender: unknown side 'wales'"),
    (FIGHTING.replace("round = 1", 'round = "one"'), "current.fight.round: expected a whole number, found 'one'"),
    (FIGHTING.replace('reserves = []', 'reserves = ["Gandalf"]'),
     "current.fight.reserves: unknown block 'Gandalf' (2.0)"),
    (FIGHTING.replace("used = {}", "used = []"), "current.fight.used: expected a table of counts, found []"),
    (FIGHTING.replace("scotland = 1 }", 'scotland = "1" }'),
     "current.fight.lost.scotland: expected a count, found '1'"),
    (FIGHTING.replace("index = 1", "index = 1\npending = { by = \"Edward\" }"),
     "current.fight.pending.left: missing; hits still to apply say how many are left"),
    (FIGHTING.replace("index = 1", "index = 1\npending = { left = 1, side = \"wales\" }"),
     "current.fight.pending.side: unknown side 'wales'"),
    (FIGHTING.replace("log = [{", 'log = ["battle", {'), "current.fight.log[0]: expected a table, found 'battle'"),
    (FIGHTING.replace("public = true,", "public = true, odds = 0.5,"),
     "current.fight.log[0].odds: expected text, a whole number, true or false, found 0.5"),
    (WINTERING.replace('"7.2"]', '"7.4"]'),
     "winter.done: unknown Winter Turn step '7.4'; the steps are 7.1, 7.2, 7.3, 7.5, 7.6, 7.7, 7.8, 9.0"),
    (WINTERING + 'edward = "Narnia"\n', "winter.edward: unknown area 'Narnia' (1.1)"),
    (WINTERING + "final = 1\n", "winter.final: expected true or false, found 1"),
    (WINTERING + "count = 1\n", "winter.count: unknown key; expected one of done, edward, final"),
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
