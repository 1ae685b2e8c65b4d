"""Protocol §10.3 / issue 16 item 2: a game's own component file, given at open with ``--components``.

The referee copies it into the game folder as ``components.toml`` (public, part of the record) and
the manifest records its SHA-256; every later verb (join, start, report open, orders, adjudicate,
verify, audit) uses that copy and refuses one whose hash differs, in one ``error:`` line.
"""

from __future__ import annotations

import hashlib
import tomllib
from importlib import resources
from pathlib import Path

import pytest
from e2e_support import run, runner

from pbem.cli.main import app
from pbem.core import game as core_game
from pbem.core import identity
from pbem.core import ledger as led
from pbem.core import ruleset as rs
from pbem.core.errors import FormatError

SAMPLE = resources.files("pbem.bagpipes.data").joinpath("sample-components.toml").read_text(encoding="utf-8")
SIDES = ("clan1", "clan2", "referee")


def _own_file(path: Path) -> Path:
    """Our group's (invented) copy: the sample with one round card's English strength changed."""
    first = next(line for line in SAMPLE.splitlines() if line.startswith("english_strength = "))
    path.write_text(SAMPLE.replace(first, f"english_strength = {int(first.split()[-1]) + 1}", 1), encoding="utf-8")
    return path


def _keys(k: Path) -> list[str]:
    k.mkdir(parents=True)
    for name in SIDES:
        priv = identity.generate(name)
        identity.save_private(priv, k / f"{name}.key")
        identity.save_public(priv, k / f"{name}.pub.toml")
    return [a for s in SIDES for a in ("--side", f"{s}={k / (s + '.pub.toml')}")]


def _fails(*args: str | Path) -> str:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code == 1, result.output
    assert result.output.startswith("error: ") and "Traceback" not in result.output
    assert sum(line.startswith("error:") for line in result.output.splitlines()) == 1
    return result.output


def _open(tmp_path: Path, components: Path) -> tuple[Path, Path, Path]:
    k, g, work = tmp_path / "keys", tmp_path / "g", tmp_path / "work"
    sides = _keys(k)
    out = run("game", "open", g, "--ruleset", "bagpipes", "--option", "players=2", "--referee", k / "referee.key",
              "--components", components, *sides)
    assert "components.toml" in out
    work.mkdir()
    return k, g, work


def _join_and_start(k: Path, g: Path, work: Path) -> None:
    for side in SIDES:
        run("game", "join", g, "--side", side, "--key", k / f"{side}.key", "--out", work / f"join-{side}.asc")
    run("game", "start", g, *[work / f"join-{s}.asc" for s in SIDES], "--key", k / "referee.key")


def _play_to_the_end(k: Path, g: Path, work: Path) -> None:
    for _ in range(300):
        info = core_game.status(g)
        if not info["owes"]:
            return
        step, envelopes = int(info["step"]), []
        for side in sorted(info["owes"]):
            report = core_game.report_path(g, step, side)
            run("report", "open", report, "--key", k / f"{side}.key", "--save", work / f"{step}-{side}.json")
            draft = work / f"{step:04d}-{side}.toml"
            run("orders", "auto", work / f"{step}-{side}.json", "--out", draft, "--seed", "01" * 8)
            run("orders", "check", draft, "--report", report, "--key", k / f"{side}.key")
            env = work / f"{step:04d}-{side}.asc"
            run("orders", "seal", draft, "--key", k / f"{side}.key", "--game", g, "--out", env)
            envelopes.append(env)
        run("adjudicate", g, *envelopes, "--key", k / "referee.key")
    raise AssertionError("the game did not end")


@pytest.mark.slow
def test_protocol_10_3_components_file_is_copied_hashed_and_used_by_every_verb(tmp_path: Path) -> None:
    own = _own_file(tmp_path / "our-cards.toml")
    k, g, work = _open(tmp_path, own)
    man = led.read_manifest(g)
    assert (g / "components.toml").read_bytes() == own.read_bytes()
    assert man.options["components_sha256"] == hashlib.sha256(own.read_bytes()).hexdigest()
    assert "components_sha256" in (g / "game.toml").read_text(encoding="utf-8")
    # Without the game's file the ruleset refuses: the verbs below can only succeed by using the folder's copy.
    with pytest.raises(FormatError, match="components_sha256"):
        rs.load(man.ruleset, man.options)
    _join_and_start(k, g, work)
    step = int(core_game.status(g)["step"])
    envelopes = []
    for side in sorted(core_game.status(g)["owes"]):
        report = core_game.report_path(g, step, side)
        run("orders", "new", report, "--key", k / f"{side}.key", "--out", work / f"first-{side}.toml")
        run("orders", "seal", work / f"first-{side}.toml", "--key", k / f"{side}.key", "--game", g,
            "--out", work / f"first-{side}.asc")
        envelopes.append(work / f"first-{side}.asc")
    sent = run("adjudicate", g, *envelopes, "--key", k / "referee.key")
    to_all = next(line for line in sent.splitlines() if line.strip().startswith("to everyone"))
    assert str(g) in to_all and "components.toml" in to_all  # the referee sends the component file with the record
    _play_to_the_end(k, g, work)
    run("verify", g)
    bundle = tmp_path / "reveal.json"
    run("game", "reveal", g, "--key", k / "referee.key", "--out", bundle)
    run("audit", g, "--reveal", bundle)


def test_protocol_10_3_components_a_different_file_in_the_folder_is_refused_by_every_verb(tmp_path: Path) -> None:
    own = _own_file(tmp_path / "our-cards.toml")
    k, g, work = _open(tmp_path, own)
    want = led.parse_manifest((g / "game.toml").read_bytes(), "game.toml").options["components_sha256"]
    good = (g / "components.toml").read_bytes()
    (g / "components.toml").write_bytes(good + b"# changed by someone\n")
    out = _fails("game", "join", g, "--side", "clan1", "--key", k / "clan1.key", "--out", work / "j.asc")
    assert "components.toml" in out and want in out and "SHA-256" in out
    assert not (work / "j.asc").exists()
    (g / "components.toml").unlink()   # not sent with game.toml: the player cannot join without the game's cards
    out = _fails("game", "join", g, "--side", "clan1", "--key", k / "clan1.key", "--out", work / "j.asc")
    assert want in out and "components.toml" in out and not (work / "j.asc").exists()
    (g / "components.toml").write_bytes(good)
    _join_and_start(k, g, work)
    step = int(core_game.status(g)["step"])
    report = core_game.report_path(g, step, "clan1")
    (g / "components.toml").write_bytes(good + b"# changed by someone\n")
    before = sorted(p.name for p in g.rglob("*"))
    for verb in (("verify", g), ("report", "open", report, "--key", k / "clan1.key"),
                 ("adjudicate", g, "--key", k / "referee.key", "--deadline-passed"),
                 ("game", "start", g, work / "join-clan1.asc", "--key", k / "referee.key")):
        assert want in _fails(*verb)
    (g / "components.toml").unlink()   # no file at all: the shipped sample is not the game's file either
    assert want in _fails("adjudicate", g, "--key", k / "referee.key", "--deadline-passed")
    (g / "components.toml").write_bytes(good)
    assert sorted(p.name for p in g.rglob("*")) == before   # nothing was changed by a refused verb
    run("verify", g)


@pytest.mark.slow
def test_protocol_10_3_components_audit_refuses_a_changed_file(tmp_path: Path) -> None:
    own = _own_file(tmp_path / "our-cards.toml")
    k, g, work = _open(tmp_path, own)
    _join_and_start(k, g, work)
    _play_to_the_end(k, g, work)
    bundle = tmp_path / "reveal.json"
    run("game", "reveal", g, "--key", k / "referee.key", "--out", bundle)
    (g / "components.toml").write_text(SAMPLE, encoding="utf-8")   # swapped for the sample after the game
    assert "components.toml" in _fails("audit", g, "--reveal", bundle)


def test_protocol_10_3_components_counts_that_do_not_add_up_are_refused_at_open_naming_the_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    text = SAMPLE.replace("bagpipe = 22", "bagpipe = 23")
    bad.write_text(text, encoding="utf-8")
    line = text.splitlines().index("bagpipe = 23") + 1
    sides = _keys(tmp_path / "keys")
    out = _fails("game", "open", tmp_path / "g", "--ruleset", "bagpipes", "--option", "players=2",
                 "--referee", tmp_path / "keys" / "referee.key", "--components", bad, *sides)
    assert f"bad.toml:{line}: bagpipe = 23 but the file lists 22" in out
    assert not (tmp_path / "g").exists()
    out = _fails("game", "new", tmp_path / "g", "--ruleset", "bagpipes", "--option", "players=2",
                 "--referee", tmp_path / "keys" / "referee.key", "--components", tmp_path / "missing.toml", *sides)
    assert "missing.toml" in out and not (tmp_path / "g").exists()


def test_protocol_10_3_components_game_new_copies_the_file_too(tmp_path: Path) -> None:
    own = _own_file(tmp_path / "our-cards.toml")
    sides = _keys(tmp_path / "keys")
    g = tmp_path / "g"
    run("game", "new", g, "--ruleset", "bagpipes", "--option", "players=2", "--referee",
        tmp_path / "keys" / "referee.key", "--components", own, *sides)
    assert (g / "components.toml").read_bytes() == own.read_bytes()
    assert tomllib.loads((g / "game.toml").read_text(encoding="utf-8"))
    run("verify", g)


def test_protocol_10_3_components_a_ruleset_without_component_files_refuses_the_option(tmp_path: Path) -> None:
    own = _own_file(tmp_path / "our-cards.toml")
    from pbem.hammer.play.demo import make_keys
    make_keys(tmp_path / "k")
    out = _fails("game", "new", tmp_path / "g", "--ruleset", "hammer", "--referee", tmp_path / "k" / "referee.key",
                 "--side", f"england={tmp_path / 'k' / 'england.pub.toml'}",
                 "--side", f"scotland={tmp_path / 'k' / 'scotland.pub.toml'}", "--components", own)
    assert "takes no component file" in out and not (tmp_path / "g").exists()
