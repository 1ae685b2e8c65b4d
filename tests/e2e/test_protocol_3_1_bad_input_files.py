"""Protocol §3.1, §7 and §9, bad input: what a game folder, a report, a key or a mail holds is not a file.

An outsider who can write a copy of a game folder (a shared drive, a pushed repository, a mail
bundle) plants a link to ``/dev/zero`` (``stat`` says 0 bytes; reading never ends), a link to an
identical copy outside the game (the record's bytes, but not the record), a FIFO (a read that
never returns), a folder where a file should be, or a file far over the limit. Every verb that
reads it — verify, audit, report open, orders seal, game receive, key loading, mail import — must
give one ``error:`` line naming the file and the rule, exit 1, no traceback, and change nothing.

One game is played one step through the CLI per module; each case attacks a copy of it.
"""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.core import game as core_game
from pbem.transport.mail import adapter as mail_adapter
from pbem.transport.mail import bundle

runner = CliRunner()


def cli(*args: object) -> str:
    result = runner.invoke(app, [str(a) for a in args], catch_exceptions=False)
    assert result.exit_code == 0, result.output + result.stderr
    return result.output


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Keys, game g (opened with joins, started, one step adjudicated), its reveal bundle, a draft and
    a sealed order for the step it is at, and a mail bundle of its whole record."""
    root = tmp_path_factory.mktemp("bad_files")
    k, g = root / "keys", root / "g"
    for name in ("referee", "england", "scotland"):
        cli("key", "new", name, "--dir", k)
    cli("game", "open", g, "--referee", k / "referee.key", "--side", f"england={k / 'england.pub.toml'}",
        "--side", f"scotland={k / 'scotland.pub.toml'}")
    for side in ("england", "scotland"):
        cli("game", "join", g, "--side", side, "--key", k / f"{side}.key", "--out", root / f"{side}.join")
    cli("game", "start", g, root / "england.join", root / "scotland.join", "--key", k / "referee.key")
    for step in (0, 1):
        owes = sorted(dict(core_game.status(g)["owes"]))
        for side in owes:
            cli("orders", "auto", core_game.report_path(g, step, side), "--key", k / f"{side}.key", "--seed", "07",
                "--out", root / f"{step}-{side}.toml")
            cli("orders", "seal", root / f"{step}-{side}.toml", "--game", g, "--key", k / f"{side}.key",
                "--out", root / f"{step}-{side}.asc")
        if step == 0:
            cli("game", "receive", g, root / f"0-{owes[0]}.asc", "--key", k / "referee.key")
            cli("adjudicate", g, *[root / f"0-{s}.asc" for s in owes[1:]], "--key", k / "referee.key")
    cli("game", "reveal", g, "--key", k / "referee.key", "--out", root / "reveal.json", "--mid-game")
    gid = core_game.status(g)["game"]
    (root / "record.pbem-files.json").write_bytes(bundle.dump(str(gid), mail_adapter.all_files(g)))
    return root


@dataclass(frozen=True)
class Case:
    """One attack: ``plant`` alters the copy, ``argv`` is the verb ({R}: the copy, {M}: the side that owes),
    ``says`` is in the error."""

    name: str
    plant: Callable[[Path, str], None]
    argv: tuple[str, ...]
    says: str


def _mover(root: Path) -> str:
    """The first side that owes at the step g is at (its draft and order are ready)."""
    return sorted(dict(core_game.status(root / "g")["owes"]))[0]


def _replace(path: Path, make: Callable[[Path], None]) -> None:
    path.unlink()
    make(path)


def _at(root: Path, rel: str, mover: str) -> Path:
    return root / rel.replace("{M}", mover)


def to_zero(rel: str) -> Callable[[Path, str], None]:
    return lambda root, m: _replace(_at(root, rel, m), lambda p: p.symlink_to("/dev/zero"))


def to_copy_outside(rel: str) -> Callable[[Path, str], None]:
    """The same bytes, kept outside the game, and linked in its place."""
    def plant(root: Path, m: str) -> None:
        outside = root / "elsewhere" / Path(rel).name
        outside.parent.mkdir(exist_ok=True)
        shutil.copy(_at(root, rel, m), outside)
        _replace(_at(root, rel, m), lambda p: p.symlink_to(outside))
    return plant


def folder_to_copy_outside(rel: str) -> Callable[[Path, str], None]:
    def plant(root: Path, m: str) -> None:
        shutil.copytree(root / rel, root / "elsewhere")
        shutil.rmtree(root / rel)
        (root / rel).symlink_to(root / "elsewhere", target_is_directory=True)
    return plant


def to_fifo(rel: str) -> Callable[[Path, str], None]:
    return lambda root, m: _replace(_at(root, rel, m), lambda p: os.mkfifo(p))


def to_folder(rel: str) -> Callable[[Path, str], None]:
    return lambda root, m: _replace(_at(root, rel, m), lambda p: p.mkdir())


def padded(rel: str) -> Callable[[Path, str], None]:
    """Over the 1 MiB limit with a TOML comment (the parsed entry, and so its hash, is unchanged)."""
    def plant(root: Path, m: str) -> None:
        with open(_at(root, rel, m), "ab") as fh:
            fh.write(b"#" + b" " * (1 << 20) + b"\n")
    return plant


REF = ("--key", "{R}/keys/referee.key")
MINE = ("--key", "{R}/keys/{M}.key")
CASES: list[Case] = []
for folder, rel in (("ledger", "g/ledger/0001.toml"), ("orders", "g/orders/0000-england.pbem"),
                    ("reports", "g/reports/0001-scotland.pbem"), ("state", "g/state/0001.pbem"),
                    ("joins", "g/joins/england.pbem")):
    CASES.append(Case(f"verify-{folder}-symlink-to-dev-zero", to_zero(rel), ("verify", "{R}/g"), "is a symbolic link"))
CASES += [
    Case("verify-order-linked-to-an-identical-copy-outside-the-game", to_copy_outside("g/orders/0000-england.pbem"),
         ("verify", "{R}/g"), "is a symbolic link"),
    Case("verify-entry-linked-to-an-identical-copy-outside-the-game", to_copy_outside("g/ledger/0000.toml"),
         ("verify", "{R}/g"), "is a symbolic link"),
    Case("verify-reports-folder-linked-to-an-identical-copy-outside-the-game", folder_to_copy_outside("g/reports"),
         ("verify", "{R}/g"), "is a symbolic link"),
    Case("verify-manifest-linked-to-an-identical-copy-outside-the-game", to_copy_outside("g/game.toml"),
         ("verify", "{R}/g"), "is a symbolic link"),
    Case("verify-ledger-entry-a-fifo", to_fifo("g/ledger/0001.toml"), ("verify", "{R}/g"), "is a FIFO"),
    Case("verify-report-a-fifo", to_fifo("g/reports/0001-england.pbem"), ("verify", "{R}/g"), "is a FIFO"),
    Case("verify-state-a-folder", to_folder("g/state/0001.pbem"), ("verify", "{R}/g"), "is a folder"),
    Case("verify-ledger-entry-over-the-limit", padded("g/ledger/0001.toml"), ("verify", "{R}/g"),
         "over the 1048576-byte limit"),
    Case("verify-manifest-over-the-limit", padded("g/game.toml"), ("verify", "{R}/g"), "over the 1048576-byte limit"),
    # §9: the audit reads the record and the bundle
    Case("audit-state-symlink-to-dev-zero", to_zero("g/state/0001.pbem"), ("audit", "{R}/g", "--reveal",
                                                                            "{R}/reveal.json"), "is a symbolic link"),
    Case("audit-reveal-symlink-to-dev-zero", to_zero("reveal.json"), ("audit", "{R}/g", "--reveal", "{R}/reveal.json"),
         "is a symbolic link"),
    Case("audit-reveal-a-fifo", to_fifo("reveal.json"), ("audit", "{R}/g", "--reveal", "{R}/reveal.json"), "is a FIFO"),
    # §7.4: a report, and the ledger it is checked against
    Case("report-open-report-symlink-to-dev-zero", to_zero("g/reports/0001-{M}.pbem"),
         ("report", "open", "{R}/g/reports/0001-{M}.pbem", *MINE, "--svg", "{R}/x.svg"), "is a symbolic link"),
    Case("report-open-entry-linked-to-an-identical-copy", to_copy_outside("g/ledger/0001.toml"),
         ("report", "open", "{R}/g/reports/0001-{M}.pbem", *MINE, "--svg", "{R}/x.svg"), "is a symbolic link"),
    Case("report-open-ledger-entry-a-fifo", to_fifo("g/ledger/0001.toml"),
         ("report", "open", "{R}/g/reports/0001-{M}.pbem", *MINE, "--svg", "{R}/x.svg"), "is a FIFO"),
    # orders seal: the draft, the key, the game it is sealed for
    Case("orders-seal-draft-symlink-to-dev-zero", to_zero("1-{M}.toml"),
         ("orders", "seal", "{R}/1-{M}.toml", "--game", "{R}/g", *MINE, "--out", "{R}/o.asc"), "is a symbolic link"),
    Case("orders-seal-key-symlink-to-dev-zero", to_zero("keys/{M}.key"),
         ("orders", "seal", "{R}/1-{M}.toml", "--game", "{R}/g", *MINE, "--out", "{R}/o.asc"), "is a symbolic link"),
    Case("orders-seal-ledger-entry-symlink-to-dev-zero", to_zero("g/ledger/0001.toml"),
         ("orders", "seal", "{R}/1-{M}.toml", "--game", "{R}/g", *MINE, "--out", "{R}/o.asc"), "is a symbolic link"),
    # game receive: the order, the referee's key, the record and its private area
    Case("receive-order-symlink-to-dev-zero", to_zero("1-{M}.asc"), ("game", "receive", "{R}/g", "{R}/1-{M}.asc", *REF),
         "is a symbolic link"),
    Case("receive-order-a-fifo", to_fifo("1-{M}.asc"), ("game", "receive", "{R}/g", "{R}/1-{M}.asc", *REF),
         "is a FIFO"),
    Case("receive-order-over-the-limit", padded("1-{M}.asc"), ("game", "receive", "{R}/g", "{R}/1-{M}.asc", *REF),
         "over the 1048576-byte limit"),
    Case("receive-referee-key-symlink-to-dev-zero", to_zero("keys/referee.key"),
         ("game", "receive", "{R}/g", "{R}/1-{M}.asc", *REF), "is a symbolic link"),
    Case("receive-referee-key-a-fifo", to_fifo("keys/referee.key"),
         ("game", "receive", "{R}/g", "{R}/1-{M}.asc", *REF), "is a FIFO"),
    Case("receive-ledger-entry-linked-to-an-identical-copy", to_copy_outside("g/ledger/0001.toml"),
         ("game", "receive", "{R}/g", "{R}/1-{M}.asc", *REF), "is a symbolic link"),
    # key loading: a public identity handed to game open
    Case("game-open-public-identity-symlink-to-dev-zero", to_zero("keys/england.pub.toml"),
         ("game", "open", "{R}/new", "--referee", "{R}/keys/referee.key", "--side", "england={R}/keys/england.pub.toml",
          "--side", "scotland={R}/keys/scotland.pub.toml"), "is a symbolic link"),
    # mail import: the saved mail or bundle, and the player's own copy it is applied to
    Case("mail-import-bundle-symlink-to-dev-zero", to_zero("record.pbem-files.json"),
         ("mail", "import", "{R}/record.pbem-files.json", "--game", "{R}/g"), "is a symbolic link"),
    Case("mail-import-bundle-a-fifo", to_fifo("record.pbem-files.json"),
         ("mail", "import", "{R}/record.pbem-files.json", "--game", "{R}/g"), "is a FIFO"),
    Case("mail-import-into-a-copy-whose-entry-is-symlink-to-dev-zero", to_zero("g/ledger/0001.toml"),
         ("mail", "import", "{R}/record.pbem-files.json", "--game", "{R}/g"), "is a symbolic link"),
]


def _snapshot(root: Path) -> dict[str, tuple[int, ...]]:
    """Every path under ``root``, links not followed, with what any write changes."""
    out: dict[str, tuple[int, ...]] = {}
    for folder, dirs, files in os.walk(root):
        for name in (*dirs, *files):
            st = os.lstat(os.path.join(folder, name))
            content = st.st_size if stat.S_ISREG(st.st_mode) else 0
            out[os.path.join(folder, name)] = (st.st_mode, st.st_ino, content, st.st_mtime_ns)
    return out


def test_protocol_3_1_bad_input_case_names_are_unique() -> None:
    assert len({c.name for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_protocol_7_9_bad_input_a_file_that_is_not_a_regular_file_is_refused_and_nothing_changes(
        played: Path, tmp_path: Path, case: Case) -> None:
    root = tmp_path / "w"
    shutil.copytree(played, root, symlinks=True)
    mover = _mover(root)
    case.plant(root, mover)
    before = _snapshot(root)
    argv = [a.replace("{R}", str(root)).replace("{M}", mover) for a in case.argv]
    result = runner.invoke(app, argv, catch_exceptions=False)
    lines = result.stderr.splitlines()
    assert result.exit_code == 1, (result.exit_code, result.output, result.stderr)
    assert lines and lines[0].startswith("error: "), lines
    assert len(lines) == 1 or (len(lines) == 2 and lines[1].startswith("hint: ")), lines
    assert case.says in lines[0] and "§3.1" in lines[0], lines[0]
    assert "Traceback" not in result.output + result.stderr
    assert _snapshot(root) == before
