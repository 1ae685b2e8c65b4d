"""examples/game, replayed (examples/game/make_example.py wrote it; the example keys are fixed).

Every draft checks against the report it answered and is what its envelope carries; every draft
and every decrypted report matches its JSON Schema; the ledger verifies; and re-adjudicating the
envelopes in a fresh copy of the game's first step reproduces the same ledger, byte for byte."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from e2e_support import run, runner

from pbem.cli.main import app
from pbem.core import envelope, identity
from pbem.core import game as core_game
from pbem.hammer.play import drafts

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "game"
GAME, KEYS = EXAMPLE / "game", EXAMPLE / "keys"
DRAFT_SCHEMA = json.loads((ROOT / "schemas" / "draft.schema.json").read_text())
PLAN_SCHEMA = json.loads((ROOT / "schemas" / "plan.schema.json").read_text())
REPORT_SCHEMA = json.loads((ROOT / "schemas" / "report.schema.json").read_text())
DRAFTS = sorted((EXAMPLE / "drafts").glob("*.toml"))
REPORTS = sorted((GAME / "reports").glob("*.pbem"))
LAST = max(int(p.stem) for p in (GAME / "ledger").glob("*.toml"))
# The set-up's sealed state: in game/ while the example predates pruning (protocol §7.5), else
# the copy make_example.py keeps.
FIRST_STATE = next(p for p in (GAME / "state" / "0000.pbem", EXAMPLE / "start" / "0000.pbem") if p.exists())


def key(side: str) -> identity.PrivateIdentity:
    return identity.load_private(KEYS / f"{side}.key")


def opened(path: Path) -> dict[str, Any]:
    return core_game.open_report(path, key(path.stem.split("-")[1]))


def test_examples_the_game_is_there_with_every_kind_of_step_it_shows() -> None:
    assert DRAFTS and REPORTS and LAST >= 6
    assert {p.stem for p in DRAFTS} == {p.stem for p in (EXAMPLE / "envelopes").glob("*.asc")}
    kinds = {drafts.parse_draft(p.read_text()).kind for p in DRAFTS}
    assert {"card", "moves", "decide"} <= kinds, kinds
    assert any("plans" in drafts.parse_draft(p.read_text()).sections for p in DRAFTS)


@pytest.mark.parametrize("draft", DRAFTS, ids=lambda p: p.stem)
def test_examples_each_draft_checks_against_its_report_through_the_cli(draft: Path) -> None:
    step, side = draft.stem.split("-")
    rep = core_game.report_path(GAME, int(step), side)
    out = run("orders", "check", draft, "--report", rep, "--key", KEYS / f"{side}.key")
    assert ": ok" in out


@pytest.mark.parametrize("draft", DRAFTS, ids=lambda p: p.stem)
def test_examples_each_envelope_carries_its_draft_signed_by_its_side(draft: Path) -> None:
    step, side = draft.stem.split("-")
    env = envelope.read((EXAMPLE / "envelopes" / f"{draft.stem}.asc").read_bytes(), draft.stem)
    assert (env.header.side, env.header.step, env.header.kind) == (side, int(step), "order")
    _, body = core_game.parse_order_payload(envelope.open_sealed(env, key("referee"), draft.stem), draft.stem)
    assert body == drafts.parse_draft(draft.read_text()).body()


def test_examples_every_draft_matches_the_draft_and_plan_schemas() -> None:
    import tomllib
    for draft in DRAFTS:
        data = tomllib.loads(draft.read_text())
        jsonschema.validate(data, DRAFT_SCHEMA)
        if "plans" in data:
            jsonschema.validate(data["plans"], PLAN_SCHEMA)


def test_examples_a_tampered_draft_fails_the_draft_schema() -> None:
    import tomllib
    data = tomllib.loads(DRAFTS[0].read_text())
    v = jsonschema.Draft202012Validator(DRAFT_SCHEMA)
    assert v.is_valid(data)
    for bad in ({**data, "kind": "surrender"}, {**data, "side": "france"}, {**data, "step": -1},
                {**data, "winter": {}}, {k: v for k, v in data.items() if k != "side"}):
        assert not v.is_valid(bad), bad


def test_examples_every_decrypted_report_matches_the_report_schema_and_a_tampered_one_fails() -> None:
    v = jsonschema.Draft202012Validator(REPORT_SCHEMA)
    reports = [opened(p) for p in REPORTS]
    for path, rep in zip(REPORTS, reports):
        errors = [f"{e.json_path}: {e.message}" for e in v.iter_errors(rep)]
        assert not errors, (path.name, errors[:3])
    assert any(e.get("what") == "fire" for rep in reports for e in rep["log"]), "the example fights a battle"
    tampered = json.loads(json.dumps(reports[-1]))
    tampered["view"]["enemy_hand"] = ["move1-1"]
    assert not v.is_valid(tampered)


def test_examples_the_ledger_verifies() -> None:
    r = runner.invoke(app, ["verify", str(GAME)])
    assert r.exit_code == 0, r.output


START = 1_735_689_600  # make_example.py's clock


def test_examples_re_adjudicating_the_envelopes_reproduces_the_ledger(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    fresh = tmp_path / "game"
    for rel in ("game.toml", "ledger/0000.toml", "reports/0000-england.pbem", "reports/0000-scotland.pbem"):
        (fresh / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(GAME / rel, fresh / rel)
    (fresh / "state").mkdir()
    shutil.copyfile(FIRST_STATE, fresh / "state" / "0000.pbem")
    for step in range(LAST):
        envs = sorted((EXAMPLE / "envelopes").glob(f"{step:04d}-*.asc"))
        assert envs, f"step {step}"
        with monkeypatch.context() as clock:  # the example's clock (make_example.py): START plus an hour a step
            clock.setattr("time.time", lambda: float(START + (step + 1) * 3600))
            run("adjudicate", fresh, *envs, "--key", KEYS / "referee.key")
    for entry in sorted((GAME / "ledger").glob("*.toml")):
        assert (fresh / "ledger" / entry.name).read_bytes() == entry.read_bytes(), entry.name
    for rep in REPORTS:  # sealed afresh, so other bytes; the same report inside
        assert opened(fresh / "reports" / rep.name) == opened(rep), rep.name


def test_examples_a_tampered_envelope_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    fresh = tmp_path / "game"
    shutil.copytree(GAME, fresh)
    shutil.copyfile(FIRST_STATE, fresh / "state" / "0000.pbem")
    for later in range(1, LAST + 1):
        for sub, pattern in (("ledger", f"{later:04d}.toml"), ("state", f"{later:04d}.pbem"),
                             ("reports", f"{later:04d}-*.pbem"), ("orders", f"{later - 1:04d}-*.pbem")):
            for p in (fresh / sub).glob(pattern):
                p.unlink()
    env = (EXAMPLE / "envelopes" / "0000-england.asc").read_text().splitlines()
    body = [i for i, line in enumerate(env) if line and not line.startswith("-----") and ":" not in line]
    line = env[body[len(body) // 2]]
    env[body[len(body) // 2]] = ("B" if line[0] != "B" else "C") + line[1:]
    bad = tmp_path / "bad.asc"
    bad.write_text("\n".join(env) + "\n")
    def record() -> list[Path]:  # the private area (.pbem/, where the writer's lock lives) is not the record
        return sorted(p.relative_to(fresh) for p in fresh.rglob("*") if p.relative_to(fresh).parts[0] != ".pbem")

    before = record()
    r = runner.invoke(app, ["adjudicate", str(fresh), str(bad), str(EXAMPLE / "envelopes" / "0000-scotland.asc"),
                            "--key", str(KEYS / "referee.key")])
    assert r.exit_code == 1 and "error: " in r.output and "Traceback" not in r.output
    assert record() == before


def test_examples_the_readme_commands_run_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import re
    import shlex
    monkeypatch.chdir(ROOT)
    text = (EXAMPLE / "README.md").read_text()
    lines = [line for line in re.search(r"```sh\n(.*?)```", text, re.S).group(1).splitlines() if line.strip()]
    assert len(lines) >= 4
    for line in lines:
        words = [w.replace("/tmp/", f"{tmp_path}/") for w in shlex.split(line)]
        assert words[0] == "pbem"
        run(*words[1:])
