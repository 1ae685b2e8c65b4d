"""A hostile user's review of the command line: every file pbem reads, attacked.

The promise (docs/protocol.md §1): every file pbem reads — order, report, key, manifest, ledger,
join, reveal bundle, position, draft — may be malformed, tampered with, replayed, meant for
another game or step, or signed by the wrong side. pbem refuses it with one ``error:`` sentence
(and maybe one ``hint:``), exit code 1, no traceback, and changes nothing in any game folder.

One real game is built once per module through the CLI itself (keys, game open, join, start,
orders auto / seal, game receive, adjudicate); every case below then attacks one verb with one
bad input and checks the outcome and that the game folders are byte-identical afterwards.
"""

from __future__ import annotations

import base64
import copy
import datetime
import hashlib
import json
import os
import shutil
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from support.run_once import run_once
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.core import game as core_game
from pbem.core import identity
from pbem.hammer.play.demo import play_bot_game
from pbem.hammer.rules.board import board

runner = CliRunner()
# The folders whose every byte must survive each refused command.
DAMAGED = ("g_cut", "g_gap", "g_extra", "g_renamed", "g_stray", "g_edited", "g_noorder", "g_foreign_entry",
           "g_foreign_manifest", "g_foreign_report")
WATCHED = ("g", "g2", "g3", "over", "keys", "junk", "out", *DAMAGED)
EXAMPLE_POSITION = Path(__file__).resolve().parents[2] / "examples" / "positions" / "battle-fife.toml"


def cli(*args: object) -> str:
    """Run a verb that must succeed (building the games under attack)."""
    result = runner.invoke(app, [str(a) for a in args], catch_exceptions=False)
    assert result.exit_code == 0, result.output + result.stderr
    return result.output


@dataclass(frozen=True)
class World:
    """The folder of games and files under attack; ``names`` fills {R} (the folder), {M} (the
    side that owes moves in game g), {O} (the other side) and {MR} (the report asking {M} for
    those moves, in g's record) in a case's arguments."""

    root: Path
    names: dict[str, str]

    def argv(self, argv: tuple[str, ...]) -> list[str]:
        out = []
        for a in argv:
            for k, v in self.names.items():
                a = a.replace(k, v)
            out.append(a)
        return out


def _snapshot(root: Path) -> dict[str, tuple[int, ...]]:
    """Every file and folder of the watched folders with its inode, size and change time: any
    write, even atomic (a new inode renamed in place), changes one of them."""
    out: dict[str, tuple[int, ...]] = {}
    for name in WATCHED:
        for folder, dirs, files in os.walk(root / name):
            for entry in (folder, *(os.path.join(folder, f) for f in files)):
                st = os.stat(entry)
                out[entry] = (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    return out


def _contents(root: Path) -> dict[str, str]:
    """Every file of the watched folders with the hash of its bytes."""
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for name in WATCHED for p in sorted((root / name).rglob("*")) if p.is_file()}


def _far_area(origin: str) -> str:
    """An area more than three borders from ``origin``: no block reaches it in one move (4.2)."""
    seen, frontier = {origin}, [origin]
    for _ in range(4):
        frontier = sorted({n for a in frontier for n in board().neighbours(a)} - seen)
        seen |= set(frontier)
    return frontier[0]


def _draft_variants(base: dict[str, Any]) -> dict[str, str]:
    """File name -> TOML text: the mover's real draft, each with one thing wrong."""
    def variant(path: tuple[Any, ...], value: Any) -> str:
        d = copy.deepcopy(base)
        inner: Any = d
        for key in path[:-1]:
            inner = inner.setdefault(key, {}) if isinstance(key, str) else inner[key]
        inner[path[-1]] = value
        return tomli_w.dumps(d)

    move = ("moves", "moves", 0)
    first = base["moves"]["moves"][0]
    other = "england" if base["side"] == "scotland" else "scotland"
    text = tomli_w.dumps(base)
    return {
        "d_old_step.toml": variant(("step",), base["step"] - 1),
        "d_huge_step.toml": text.replace(f"step = {base['step']}", "step = 99999999999999999999", 1),
        "d_negative_step.toml": variant(("step",), -1),
        "d_string_step.toml": variant(("step",), str(base["step"])),
        "d_other_side.toml": variant(("side",), other),
        "d_no_such_side.toml": variant(("side",), "wales"),
        "d_other_game.toml": variant(("game",), "hammer-0000000000000000"),
        "d_unknown_key.toml": variant(("colour",), "red"),
        "d_wrong_kind.toml": variant(("kind",), "card"),
        "d_moves_string.toml": variant(("moves", "moves"), "Fife to Lothian"),
        "d_blocks_string.toml": variant((*move, "blocks"), first["blocks"][0]),
        "d_blocks_numbers.toml": variant((*move, "blocks"), [1, -5]),
        "d_no_such_block.toml": variant((*move, "blocks"), ["Nobody"]),
        "d_from_number.toml": variant((*move, "from"), 7),
        "d_too_far.toml": variant((*move, "to"), _far_area(first["from"])),
        "d_no_such_area.toml": variant((*move, "to"), "Atlantis"),
        "d_huge_round.toml": variant(("plans", "battle", "retreat_from_round"), 2**70),
        "d_negative_round.toml": variant(("plans", "battle", "retreat_from_round"), -3),
        "d_string_bool.toml": variant(("plans", "battle", "retreat_if_outnumbered"), "yes"),
        "d_float.toml": variant(("plans", "battle", "retreat_from_round"), 2.5),
        "d_date.toml": variant(("plans", "battle", "retreat_from_round"), datetime.date(1979, 5, 27)),
        "d_plans_list.toml": variant(("plans",), ["retreat"]),
        "d_repeated_key.toml": f'kind = "{base["kind"]}"\n' + text,
        "d_nul.toml": variant(("kind",), "moves\x00"),
        "d_card_when_moves_are_owed.toml": tomli_w.dumps({**{k: base[k] for k in ("game", "side", "step")},
                                                          "kind": "card", "card": {"play": "move1-1"}}),
    }


def _position_variant(root: Path, name: str, old: str, new: str) -> None:
    text = EXAMPLE_POSITION.read_text(encoding="utf-8")
    assert old in text, old
    (root / "junk" / name).write_text(text.replace(old, new, 1), encoding="utf-8")


def _open_and_start(root: Path, name: str) -> None:
    k = root / "keys"
    cli("game", "open", root / name, "--referee", k / "referee.key", "--side", f"england={k / 'england.pub.toml'}",
        "--side", f"scotland={k / 'scotland.pub.toml'}")
    for side in ("england", "scotland"):
        cli("game", "join", root / name, "--side", side, "--key", k / f"{side}.key",
            "--out", root / f"{name}-{side}.join")
    cli("game", "start", root / name, root / f"{name}-england.join", root / f"{name}-scotland.join",
        "--key", k / "referee.key")


def _play_until_someone_moves(root: Path) -> str:
    """Play game g with the bots through the CLI until a side owes moves and its bot moves a block.

    Leaves that side's report (``m-report.pbem``), draft (``m.toml``) and sealed order (``m.asc``),
    unsent, and the envelopes of the last adjudicated step (``last-SIDE.asc``, replays now).
    """
    g, k = root / "g", root / "keys"
    for n in range(40):
        info = core_game.status(g)
        step, owes = int(info["step"]), dict(info["owes"])
        assert owes, "the game ended before anyone moved"
        for side, kind in sorted(owes.items()):
            draft, env = root / f"s{step}-{side}.toml", root / f"s{step}-{side}.asc"
            cli("orders", "auto", core_game.report_path(g, step, side), "--key", k / f"{side}.key",
                "--seed", f"{n:02x}", "--out", draft)
            if kind == "moves" and step > 0 and tomllib.loads(draft.read_text(encoding="utf-8"))["moves"]["moves"]:
                shutil.copy(draft, root / "m.toml")
                cli("orders", "seal", draft, "--game", g, "--key", k / f"{side}.key", "--out", root / "m.asc")
                shutil.copy(core_game.report_path(g, step, side), root / "m-report.pbem")
                return side
            cli("orders", "seal", draft, "--game", g, "--key", k / f"{side}.key", "--out", env)
        sides = sorted(owes)
        cli("game", "receive", g, root / f"s{step}-{sides[0]}.asc", "--key", k / "referee.key")
        cli("adjudicate", g, *[root / f"s{step}-{s}.asc" for s in sides[1:]], "--key", k / "referee.key")
        for s in sides:
            shutil.copy(root / f"s{step}-{s}.asc", root / f"last-{s}.asc")
    raise AssertionError("no side moved in 40 steps")


def _build(root: Path) -> dict[str, str]:
    """Keys, games g (played to a moves step), g2 (another game), g3 (opened), over (finished),
    damaged copies of g, and junk; returns the names a case's arguments use."""
    k = root / "keys"
    (root / "pass.txt").write_text("secret words\n", encoding="utf-8")
    for name in ("referee", "england", "scotland"):
        cli("key", "new", name, "--dir", k)
    cli("key", "new", "locked", "--dir", k, "--passphrase-file", root / "pass.txt")
    _open_and_start(root, "g")
    mover = _play_until_someone_moves(root)
    g = root / "g"
    cli("report", "open", root / "m-report.pbem", "--game", g, "--key", k / f"{mover}.key",
        "--save", root / "m-report.json", "--svg", root / "m-report.svg")
    cli("game", "reveal", g, "--key", k / "referee.key", "--out", root / "g-reveal.json", "--mid-game")
    _open_and_start(root, "g2")
    cli("orders", "auto", root / "g2" / "reports" / "0000-england.pbem", "--key", k / "england.key", "--seed", "02",
        "--out", root / "g2-england0.toml")
    cli("orders", "seal", root / "g2-england0.toml", "--game", root / "g2", "--key", k / "england.key",
        "--out", root / "g2-england0.asc")
    cli("game", "reveal", root / "g2", "--key", k / "referee.key", "--out", root / "g2-reveal.json", "--mid-game")
    cli("game", "open", root / "g3", "--referee", k / "referee.key", "--side", f"england={k / 'england.pub.toml'}",
        "--side", f"scotland={k / 'scotland.pub.toml'}")
    for side in ("england", "scotland"):
        cli("game", "join", root / "g3", "--side", side, "--key", k / f"{side}.key", "--out", root / f"g3-{side}.join")
    play_bot_game(root / "over", seed=b"hostile")
    for name in DAMAGED:
        shutil.copytree(g, root / name)
    last = max(int(p.stem) for p in (g / "ledger").glob("*.toml"))
    (root / "g_cut" / "ledger" / f"{last:04d}.toml").unlink()
    (root / "g_gap" / "ledger" / "0000.toml").unlink()
    shutil.copy(g / "ledger" / "0001.toml", root / "g_extra" / "ledger" / f"{last + 1:04d}.toml")
    (root / "g_renamed" / "ledger" / "0001.toml").rename(root / "g_renamed" / "ledger" / f"{last + 2:04d}.toml")
    (root / "g_stray" / "ledger" / "notes.txt").write_text("hello\n", encoding="utf-8")
    entry = root / "g_edited" / "ledger" / "0001.toml"
    entry.write_text(entry.read_text(encoding="utf-8").replace("england", "scotland", 1), encoding="utf-8")
    for p in (root / "g_noorder" / "orders").glob("0000-*.pbem"):
        p.unlink()
    shutil.copy(root / "g2" / "ledger" / "0000.toml", root / "g_foreign_entry" / "ledger" / "0000.toml")
    shutil.copy(root / "g2" / "game.toml", root / "g_foreign_manifest" / "game.toml")
    report = Path("reports") / "0000-england.pbem"
    shutil.copy(root / "g2" / report, root / "g_foreign_report" / report)
    (root / "out").mkdir()  # where refused commands were told to write: it must stay empty
    j = root / "junk"
    j.mkdir()
    (j / "folder").mkdir()
    (j / "ledger-link").symlink_to(root / "g" / "ledger", target_is_directory=True)
    (j / "entry-link.toml").symlink_to(root / "g" / "ledger" / "0001.toml")
    (j / "empty.txt").write_bytes(b"")
    (j / "zero-link").symlink_to("/dev/zero")
    os.mkfifo(j / "fifo")
    (j / "garbage.bin").write_bytes(bytes(range(256)) * 8)
    (j / "latin1.txt").write_bytes("côté = \"é\"\n".encode("latin-1"))
    (j / "huge.txt").write_bytes(b"a" * (3 << 20))
    (j / "other.toml").write_text('kind = "report"\nfoo = 1\n', encoding="utf-8")
    armored = (root / "m.asc").read_text(encoding="ascii").splitlines()
    line = list(armored[3])
    line[10] = "A" if line[10] != "A" else "B"
    (j / "tampered.asc").write_text("\n".join([*armored[:3], "".join(line), *armored[4:]]) + "\n", encoding="ascii")
    (j / "truncated.asc").write_text("\n".join(armored[:4]) + "\n", encoding="ascii")
    (j / "double.asc").write_text(2 * ("\n".join(armored) + "\n"), encoding="ascii")
    (j / "rewrapped.asc").write_text("\n".join([armored[0], "".join(armored[1:-1]), armored[-1]]) + "\n",
                                     encoding="ascii")
    raw = base64.b64decode("".join(armored[1:-1]))
    (j / "binary.pbem").write_bytes(raw)
    (j / "cut.bin").write_bytes(raw[:-10])
    (j / "flipped.bin").write_bytes(raw[:100] + bytes([raw[100] ^ 1]) + raw[101:])
    base = tomllib.loads((root / "m.toml").read_text(encoding="utf-8"))
    for name, text in _draft_variants(base).items():
        (j / name).write_text(text, encoding="utf-8")
    # orders sealed without ``orders check`` (a modified client): the referee must refuse them too
    me = identity.load_private(k / f"{mover}.key")
    for name in SEALED_UNCHECKED:
        body = tomllib.loads((j / f"d_{name}.toml").read_text(encoding="utf-8"))
        (j / f"sealed-{name}.asc").write_text(core_game.write_order(g, me, mover, base["step"], body), encoding="ascii")
    for name, old, new in POSITION_VARIANTS:
        _position_variant(root, name, old, new)
    saved = json.loads((root / "m-report.json").read_text(encoding="utf-8"))
    for name, (path, value) in SAVED_REPORT_VARIANTS.items():
        bad = copy.deepcopy(saved)
        inner = bad
        for key in path[:-1]:
            inner = inner[key]
        inner[path[-1]] = value
        (j / f"saved-{name}.json").write_text(json.dumps(bad), encoding="utf-8")
    _build_issue_10_item_9(root, mover, me)
    step = int(core_game.status(g)["step"])
    return {"{M}": mover, "{O}": "england" if mover == "scotland" else "scotland", "{R}": str(root),
            "{MR}": str(core_game.report_path(g, step, mover)), "{ST}": str(core_game.state_path(g, step))}


def _with_header(raw: bytes, old: bytes, new: bytes) -> bytes:
    """The binary envelope with its header text edited (lengths fixed, signature left stale)."""
    hlen = int.from_bytes(raw[8:12], "big")
    hb = raw[12 : 12 + hlen]
    assert old in hb, hb
    hb = hb.replace(old, new, 1)
    return raw[:8] + len(hb).to_bytes(4, "big") + hb + raw[12 + hlen :]


def _build_issue_10_item_9(root: Path, mover: str, me: identity.PrivateIdentity) -> None:
    """Hostile input that used to crash with a traceback (issue 10 item 9) and names (item 13)."""
    from pbem.core import armor, envelope
    from pbem.core import ledger as led

    j, g, k = root / "junk", root / "g", root / "keys"
    order = armor.dearmor((root / "m.asc").read_text(encoding="ascii"))
    report = armor.dearmor((root / "m-report.pbem").read_text(encoding="ascii"))
    for name, raw in (("order", order), ("report", report)):  # "\ud800" in the header, before the signature check
        bad = _with_header(raw, b'"game":"', b'"game":"\\ud800')
        (j / f"surrogate-header-{name}.asc").write_text(armor.armor(bad), encoding="ascii")
    man = led.read_manifest(g)
    entry = led.latest(g, man)
    entropy = '"entropy":"' + "ab" * 32 + '"'
    for name, payload in {"surrogate": '{' + entropy + ',"order":{"kind":"\\ud800"}}',
                          "nested": '{' + entropy + ',"order":' + "[" * 100_000 + "]" * 100_000 + '}'}.items():
        sealed = envelope.seal(me, [man.referee], payload.encode("ascii"), game=man.game, kind="order", side=mover,
                               step=entry.number, answers=entry.hash)
        (j / f"order-{name}.asc").write_text(armor.armor(sealed), encoding="ascii")
    other = identity.load_private(k / f"{'england' if mover == 'scotland' else 'scotland'}.key")
    mine = envelope.open_sealed(envelope.parse(report), me)  # the opponent forges a report for me (item 6)
    forged = envelope.seal(other, [me.public], mine.replace(b'"hand":[', b'"hand":["truce",', 1), game=man.game,
                           kind="report", side=mover, step=entry.number, answers=entry.hash)
    (j / "forged-report.pbem").write_text(armor.armor(forged), encoding="ascii")
    bundle = json.loads((root / "g-reveal.json").read_text(encoding="utf-8"))
    step = sorted(bundle["orders"])[0]
    side = sorted(bundle["orders"][step])[0]
    bundle["orders"][step][side]["order"] = "\ud800"
    (j / "reveal-surrogate.json").write_text(json.dumps(bundle, sort_keys=True, separators=(",", ":")),
                                             encoding="ascii")
    text = (root / "g-reveal.json").read_text(encoding="utf-8")
    (j / "reveal-nested.json").write_text(text.replace('"joins":{', '"joins":{"x":' + "[" * 100_000 + "]" * 100_000
                                                       + ",", 1), encoding="utf-8")
    saved = json.loads((root / "m-report.json").read_text(encoding="utf-8"))
    saved["view"] = "VIEW"
    (j / "saved-nested.json").write_text(json.dumps(saved).replace('"VIEW"', "[" * 100_000 + "]" * 100_000),
                                         encoding="utf-8")
    locked = (k / "locked.key").read_text(encoding="utf-8")
    assert "n = 32768" in locked
    (j / "greedy.key").write_text(locked.replace("n = 32768", "n = 1048576"), encoding="utf-8")  # 1 GiB
    pub = (k / "england.pub.toml").read_text(encoding="utf-8")
    (j / "cr-name.pub.toml").write_text(pub.replace('name = "england"', 'name = "england\\rok"'), encoding="utf-8")


# An opened report saved as JSON is unsigned: a player may edit it out of shape.
SAVED_REPORT_VARIANTS: dict[str, tuple[tuple[str, ...], Any]] = {
    "game-null": (("game",), None), "step-negative": (("step",), -1), "step-string": (("step",), "1"),
    "asks-unknown": (("asks",), "lunch"), "log-string": (("log",), "x"), "options-list": (("options",), []),
    "view-null": (("view",), None), "result-number": (("result",), 7),
    "moves-null": (("options", "moves"), None), "moves-list": (("options", "moves"), [1]),
}

POSITION_VARIANTS = [
    ("p_strength.toml", '"York Knights:3"', '"York Knights:-2"'),
    ("p_huge_strength.toml", '"York Knights:3"', '"York Knights:99999999999999999999"'),
    ("p_no_such_block.toml", '"Edward", "Lancaster', '"Nobody", "Lancaster'),
    ("p_no_such_area.toml", "Lothian = [", "Atlantis = ["),
    ("p_year_string.toml", "year = 1297", 'year = "1297"'),
    ("p_turn.toml", "turn = 3", "turn = -1"),
    ("p_phase.toml", 'phase = "battle"', 'phase = "lunch"'),
    ("p_hand.toml", '"move2-2", "move1-6"', '"move2-2", "joker"'),
    ("p_block_twice.toml", 'Annan = ["Bruce"]', 'Annan = ["Bruce", "Wallace"]'),
    ("p_hands_string.toml", 'england = ["move2-2", "move1-6"]', 'england = "move2-2"'),
]


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    """Built once per run (tests/support/run_once.py) and copied for each test worker: a case that
    fails to refuse must not disturb the other worker's, nor its snapshot of folder times."""
    shared, names = run_once(tmp_path_factory, "hostile-world", lambda root: (root, _build(root)))
    root = tmp_path_factory.mktemp("hostile")
    _copy_world(shared, root)
    world = World(root, {k: v.replace(str(shared), str(root)) for k, v in names.items()})
    before = _contents(root)
    yield world
    assert _contents(root) == before, "a refused command changed a game folder"


def _copy_world(shared: Path, root: Path) -> None:
    """The world's folder copied whole: links kept as links (those into the world pointed into the copy),
    the named pipe made again (copying one would read it)."""
    fifos = [p for p in shared.rglob("*") if p.is_fifo()]
    shutil.copytree(shared, root, symlinks=True, dirs_exist_ok=True,
                    ignore=lambda folder, names: [n for n in names if (Path(folder) / n).is_fifo()])
    for fifo in fifos:
        os.mkfifo(root / fifo.relative_to(shared))
    for link in [p for p in root.rglob("*") if p.is_symlink()]:
        target = os.readlink(link)
        if target.startswith(str(shared)):
            link.unlink()
            link.symlink_to(target.replace(str(shared), str(root), 1), target_is_directory=Path(target).is_dir())


# (id, argv with {R} {M} {O} to fill, a fragment the error line must hold)
CASES: list[tuple[str, tuple[str, ...], str]] = []


def case(name: str, fragment: str, *argv: str) -> None:
    CASES.append((name, argv, fragment))


REF = ("--key", "{R}/keys/referee.key")
MINE = ("--key", "{R}/keys/{M}.key")

# Every reading verb against files that are missing, folders, empty, binary, huge, not UTF-8, or a
# pbem file of the wrong kind (a public key, a join, a ledger entry, a manifest, a reveal, a draft).
JUNK = {"missing": ("{R}/junk/nope.toml", "no such file"),
        "folder": ("{R}/junk/folder", "is a folder"),
        "empty": ("{R}/junk/empty.txt", ""),
        "garbage": ("{R}/junk/garbage.bin", ""),
        "latin1": ("{R}/junk/latin1.txt", ""),
        "huge": ("{R}/junk/huge.txt", ""),
        "other_toml": ("{R}/junk/other.toml", ""),
        "pub_key": ("{R}/keys/england.pub.toml", ""),
        "join": ("{R}/g-england.join", ""),
        "ledger": ("{R}/g/ledger/0000.toml", ""),
        "manifest": ("{R}/g/game.toml", ""),
        "other_game_reveal": ("{R}/g2-reveal.json", ""),
        "draft": ("{R}/m.toml", ""),
        # protocol §3.1: the one reader refuses a link (here to a device stat calls empty) and a FIFO, unread
        "link_to_dev_zero": ("{R}/junk/zero-link", "is a symbolic link"),
        "fifo": ("{R}/junk/fifo", "is a FIFO")}
for what, (path, frag) in JUNK.items():
    case(f"receive-{what}", frag, "game", "receive", "{R}/g", path, *REF)
    case(f"adjudicate-{what}", frag, "adjudicate", "{R}/g", path, *REF)
    case(f"report-open-{what}", frag, "report", "open", path, *MINE, "--svg", "{R}/out/x.svg")
    case(f"orders-new-{what}", frag, "orders", "new", path, *MINE, "--out", "{R}/out/n.toml")
    case(f"orders-auto-{what}", frag, "orders", "auto", path, *MINE, "--out", "{R}/out/n.toml")
    case(f"audit-reveal-{what}", frag, "audit", "{R}/g", "--reveal", path)
    case(f"sandbox-position-{what}", frag, "sandbox", path)
    if what != "empty":  # an empty orders file is no orders: the position is printed as it is
        case(f"sandbox-orders-{what}", frag, "sandbox", str(EXAMPLE_POSITION), "--orders", path, "--side", "england")
    case(f"start-join-{what}", frag, "game", "start", "{R}/g3", path, "{R}/g3-none.join", *REF)
    if what != "pub_key":
        case(f"key-show-{what}", frag, "key", "show", path)
        case(f"open-side-{what}", frag, "game", "open", "{R}/out/new", "--referee", "{R}/keys/referee.key",
             "--side", f"england={path}", "--side", "scotland={R}/keys/scotland.pub.toml")
    if what != "draft":
        case(f"orders-check-{what}", frag, "orders", "check", path, "--report", "{MR}", *MINE)
        case(f"orders-seal-{what}", frag, "orders", "seal", path, "--game", "{R}/g", *MINE, "--out", "{R}/out/o.asc")
        case(f"orders-check-report-{what}", frag, "orders", "check", "{R}/m.toml", "--report", path, *MINE)
    # every verb that reads a private key, against the keys most likely in a player's folder
    full = what in ("missing", "folder", "garbage", "pub_key", "join", "link_to_dev_zero", "fifo")
    for verb, argv in [("adjudicate", ("adjudicate", "{R}/g", "{R}/m.asc")),
                       ("receive", ("game", "receive", "{R}/g", "{R}/m.asc")),
                       ("reveal", ("game", "reveal", "{R}/g", "--out", "{R}/out/r.json")),
                       ("start", ("game", "start", "{R}/g3", "{R}/g-england.join")),
                       ("join", ("game", "join", "{R}/g3", "--side", "england", "--out", "{R}/out/j.asc")),
                       ("seal", ("orders", "seal", "{R}/m.toml", "--game", "{R}/g", "--out", "{R}/out/o.asc")),
                       ("check", ("orders", "check", "{R}/m.toml", "--report", "{MR}")),
                       ("report-open", ("report", "open", "{MR}", "--svg", "{R}/out/x.svg"))]:
        if full or verb in ("adjudicate", "seal", "report-open"):
            case(f"{verb}-key-{what}", frag, *argv, "--key", path)
    case(f"open-referee-{what}", frag, "game", "open", "{R}/out/new", "--referee", path,
         "--side", "england={R}/keys/england.pub.toml", "--side", "scotland={R}/keys/scotland.pub.toml")
    if what in ("missing", "folder", "empty", "garbage", "latin1", "link_to_dev_zero", "fifo"):
        case(f"passphrase-file-{what}", frag, "adjudicate", "{R}/g", "{R}/m.asc", *REF, "--passphrase-file", path)
    if what in ("missing", "folder", "empty", "ledger"):
        case(f"status-{what}", "game folder", "status", path)
        case(f"verify-{what}", "game folder", "verify", path)

# Envelopes altered in the mail, replayed, for another game or step, signed by the wrong key.
for what, (path, frag) in {"tampered": ("{R}/junk/tampered.asc", "the envelope was altered"),
                           "truncated": ("{R}/junk/truncated.asc", "truncated"),
                           "two-in-one": ("{R}/junk/double.asc", "more than one envelope"),
                           "rewrapped": ("{R}/junk/rewrapped.asc", "re-wrapped"),
                           "cut-binary": ("{R}/junk/cut.bin", "length does not match"),
                           "flipped-binary": ("{R}/junk/flipped.bin", "signature does not verify")}.items():
    case(f"receive-{what}", frag, "game", "receive", "{R}/g", path, *REF)
    case(f"adjudicate-{what}", frag, "adjudicate", "{R}/g", path, *REF)
    case(f"report-open-{what}", frag, "report", "open", path, *MINE, "--svg", "{R}/out/x.svg")
case("report-open-a-report-of-another-game", "is for game", "report", "open",
     "{R}/g_foreign_report/reports/0000-england.pbem", "--key", "{R}/keys/england.key", "--svg", "{R}/out/x.svg")
case("report-open-an-order-in-binary", "an order envelope, not a report (protocol §4.5)",
     "report", "open", "{R}/junk/binary.pbem", *MINE, "--svg", "{R}/out/x.svg")
case("receive-a-report", "a report envelope, not an order (protocol §4.5)", "game", "receive", "{R}/g",
     "{MR}", *REF)
case("receive-the-sealed-state", "a state envelope, not an order", "game", "receive", "{R}/g", "{ST}",
     *REF)
case("receive-replayed-order", "already adjudicated", "game", "receive", "{R}/g", "{R}/last-{M}.asc", *REF)
case("adjudicate-replayed-order", "already adjudicated", "adjudicate", "{R}/g", "{R}/last-{M}.asc", *REF)
case("adjudicate-order-of-another-game", "is for game", "adjudicate", "{R}/g", "{R}/g2-england0.asc", *REF)
case("adjudicate-by-a-player", "is not this game's referee", "adjudicate", "{R}/g", "{R}/m.asc",
     "--key", "{R}/keys/{M}.key")
case("adjudicate-same-order-twice", "second order", "adjudicate", "{R}/g", "{R}/m.asc", "{R}/m.asc", *REF)
case("start-joins-of-another-game", "is for game", "game", "start", "{R}/g3", "{R}/g2-england.join",
     "{R}/g2-scotland.join", *REF)
case("start-by-a-player", "is not this game's referee", "game", "start", "{R}/g3", "{R}/g-england.join",
     "--key", "{R}/keys/england.key")
case("start-an-order-as-join", "not a join", "game", "start", "{R}/g3", "{R}/m.asc", *REF)
case("start-the-same-join-twice", "second join from england", "game", "start", "{R}/g3", "{R}/g3-england.join",
     "{R}/g3-england.join", *REF)
case("start-with-one-join-missing", "scotland sent no join (protocol §8.1)", "game", "start", "{R}/g3",
     "{R}/g3-england.join", *REF)
NOT_STARTED = "has not started yet"
case("status-not-started", NOT_STARTED, "status", "{R}/g3")
case("verify-not-started", NOT_STARTED, "verify", "{R}/g3")
case("receive-not-started", NOT_STARTED, "game", "receive", "{R}/g3", "{R}/m.asc", *REF)
case("adjudicate-not-started", NOT_STARTED, "adjudicate", "{R}/g3", *REF)
case("reveal-not-started", NOT_STARTED, "game", "reveal", "{R}/g3", *REF, "--out", "{R}/out/r.json")
case("seal-not-started", "is a draft for game", "orders", "seal", "{R}/m.toml", "--game", "{R}/g3", *MINE,
     "--out", "{R}/out/o.asc")
case("join-a-started-game", "already started", "game", "join", "{R}/g", "--side", "england",
     "--key", "{R}/keys/england.key", "--out", "{R}/out/j.asc")
case("join-with-the-other-side-key", "is not england's identity", "game", "join", "{R}/g3",
     "--side", "england", "--key", "{R}/keys/scotland.key", "--out", "{R}/out/j.asc")
case("join-no-such-side", "not in game", "game", "join", "{R}/g3", "--side", "wales",
     "--key", "{R}/keys/scotland.key", "--out", "{R}/out/j.asc")
case("audit-with-another-game-reveal", "is for game", "audit", "{R}/g2", "--reveal", "{R}/g-reveal.json")
case("reveal-by-a-player", "is not this game's referee", "game", "reveal", "{R}/g", "--key", "{R}/keys/{M}.key",
     "--out", "{R}/out/r.json")

# Keys: the other player's, a public identity, a protected key without or with the wrong passphrase.
case("seal-with-the-other-side-key", "is not {M}'s identity", "orders", "seal", "{R}/m.toml",
     "--game", "{R}/g", "--key", "{R}/keys/{O}.key", "--out", "{R}/out/o.asc")
case("seal-without-key", "needs --key", "orders", "seal", "{R}/m.toml", "--game", "{R}/g", "--out", "{R}/out/o.asc")
case("report-open-with-the-other-side-key", "is not sealed to {O}", "report", "open", "{MR}",
     "--key", "{R}/keys/{O}.key", "--svg", "{R}/out/x.svg")
case("report-open-with-a-public-key", "is a public identity, not a private key", "report", "open",
     "{MR}", "--key", "{R}/keys/{M}.pub.toml", "--svg", "{R}/out/x.svg")
case("report-open-without-key", "--key", "report", "open", "{MR}", "--svg", "{R}/out/x.svg")
for verb, argv in [("adjudicate", ("adjudicate", "{R}/g", "{R}/m.asc")),
                   ("seal", ("orders", "seal", "{R}/m.toml", "--game", "{R}/g", "--out", "{R}/out/o.asc")),
                   ("report-open", ("report", "open", "{MR}", "--svg", "{R}/out/x.svg")),
                   ("orders-new", ("orders", "new", "{MR}", "--out", "{R}/out/n.toml")),
                   ("join", ("game", "join", "{R}/g3", "--side", "england", "--out", "{R}/out/j.asc"))]:
    case(f"{verb}-locked-key-without-passphrase", "protected by a passphrase", *argv, "--key", "{R}/keys/locked.key")
    case(f"{verb}-locked-key-wrong-passphrase", "wrong passphrase", *argv, "--key", "{R}/keys/locked.key",
         "--passphrase-file", "{R}/junk/other.toml")
    case(f"{verb}-locked-key-right-passphrase-wrong-person", "is not", *argv, "--key", "{R}/keys/locked.key",
         "--passphrase-file", "{R}/pass.txt")

# Drafts for the wrong step, side or game, with unknown keys or wrong types, or breaking a rule.
DRAFT_FRAGMENTS = {"d_old_step.toml": "", "d_huge_step.toml": "", "d_negative_step.toml": "step -1",
                   "d_string_step.toml": "step '", "d_other_side.toml": "", "d_no_such_side.toml": "'wales'",
                   "d_other_game.toml": "hammer-0000000000000000", "d_unknown_key.toml": "[colour]",
                   "d_wrong_kind.toml": "", "d_moves_string.toml": "", "d_blocks_string.toml": "",
                   "d_blocks_numbers.toml": "", "d_no_such_block.toml": "Nobody", "d_from_number.toml": "",
                   "d_too_far.toml": "out of reach (2.", "d_no_such_area.toml": "Atlantis", "d_huge_round.toml": "",
                   "d_negative_round.toml": "", "d_string_bool.toml": "", "d_float.toml": "", "d_date.toml": "",
                   "d_plans_list.toml": "", "d_repeated_key.toml": "not valid TOML", "d_nul.toml": "",
                   "d_card_when_moves_are_owed.toml": "asks for moves"}
# ``orders seal`` refuses what cannot be an order of this game, side, step and kind at all, before
# it checks the rules against the report (as ``orders check``; the referee judges them again, below).
SEAL_REFUSES = {"d_old_step.toml": "not wanted", "d_huge_step.toml": "not wanted", "d_negative_step.toml": "step -1",
                "d_string_step.toml": "step '", "d_other_side.toml": "identity", "d_no_such_side.toml": "'wales'",
                "d_other_game.toml": "is a draft for game hammer-0000000000000000", "d_unknown_key.toml": "[colour]",
                "d_wrong_kind.toml": "cannot carry", "d_float.toml": "float", "d_date.toml": "date",
                "d_plans_list.toml": "must be a table", "d_repeated_key.toml": "not valid TOML",
                "d_nul.toml": "is not one of", "d_card_when_moves_are_owed.toml": "owes moves orders at step"}
for name, frag in DRAFT_FRAGMENTS.items():
    case(f"check-{name[2:-5]}", frag, "orders", "check", f"{{R}}/junk/{name}", "--report", "{MR}", *MINE)
for name, frag in SEAL_REFUSES.items():
    case(f"seal-{name[2:-5]}", frag, "orders", "seal", f"{{R}}/junk/{name}", "--game", "{R}/g", *MINE,
         "--out", "{R}/out/o.asc")
# Orders sealed without checking: the referee refuses them on arrival, naming the rule (or the binding).
SEALED_UNCHECKED = {"too_far": "out of reach (2.", "no_such_block": "(2.0)", "from_number": "(1.1)",
                    "no_such_area": "(1.1)", "blocks_string": "list of block names", "wrong_kind": "cannot carry",
                    "huge_round": "1-3", "other_game": "names game 'hammer-0000000000000000'",
                    "old_step": "names step", "other_side": "names side"}
for name, frag in SEALED_UNCHECKED.items():
    case(f"receive-unchecked-{name}", frag, "game", "receive", "{R}/g", f"{{R}}/junk/sealed-{name}.asc", *REF)
    case(f"adjudicate-unchecked-{name}", frag, "adjudicate", "{R}/g", f"{{R}}/junk/sealed-{name}.asc", *REF)
case("seal-into-another-game", "is a draft for game", "orders", "seal", "{R}/m.toml", "--game", "{R}/g2", *MINE,
     "--out", "{R}/out/o.asc")

# A finished game takes no more orders.
case("over-adjudicate", "is over", "adjudicate", "{R}/over/game", "--key", "{R}/over/keys/referee.key")
case("over-receive", "already adjudicated", "game", "receive", "{R}/over/game", "{R}/over/outbox/0000-england.asc",
     "--key", "{R}/over/keys/referee.key")
case("over-seal", "is over", "orders", "seal", "{R}/over/drafts/0000-england.toml", "--game", "{R}/over/game",
     "--key", "{R}/over/keys/england.key", "--out", "{R}/out/o.asc")

# Game folders whose ledger lost, gained or renamed an entry, holds a stray file, or was edited.
# (Damage to the past — a missing consumed order, an old entry swapped — is found by verify, audit and
# reveal; adjudicate and receive read only the last entry, and the numbering of all of them.)
for game, frag in {"g_cut": "an entry was removed (protocol §7.2)", "g_gap": "ledger entry 0 is missing",
                   "g_extra": "field entry is 1", "g_renamed": "ledger entry 1 is missing",
                   "g_stray": "notes.txt: not a ledger entry", "g_edited": "signature does not verify",
                   "g_noorder": "is missing (protocol §7.3)", "g_foreign_entry": "field game is",
                   "g_foreign_manifest": "field game is", "g_foreign_report": "is for game"}.items():
    case(f"verify-{game}", frag, "verify", f"{{R}}/{game}")
    case(f"audit-{game}", frag, "audit", f"{{R}}/{game}", "--reveal", "{R}/g-reveal.json")
    case(f"reveal-{game}", frag, "game", "reveal", f"{{R}}/{game}", *REF, "--out", "{R}/out/r.json")
    if game not in ("g_noorder", "g_foreign_report", "g_foreign_entry"):
        case(f"adjudicate-{game}", "", "adjudicate", f"{{R}}/{game}", "{R}/m.asc", *REF)
        case(f"receive-{game}", "", "game", "receive", f"{{R}}/{game}", "{R}/m.asc", *REF)

# A reveal before the game's end gives away every hidden fact and the dice to come (protocol §9).
case("reveal-a-running-game-without-mid-game", "is not over (", "game", "reveal", "{R}/g", *REF,
     "--out", "{R}/out/r.json")

# --out into a folder, a game's signed record, or below a file.
for verb, argv in [("seal", ("orders", "seal", "{R}/m.toml", "--game", "{R}/g", *MINE)),
                   ("new", ("orders", "new", "{MR}", *MINE)),
                   ("auto", ("orders", "auto", "{MR}", *MINE)),
                   ("reveal", ("game", "reveal", "{R}/g", "--mid-game", *REF)),
                   ("join", ("game", "join", "{R}/g3", "--side", "england", "--key", "{R}/keys/england.key")),
                   ("sandbox", ("sandbox", str(EXAMPLE_POSITION)))]:
    case(f"{verb}-out-a-folder", "is a folder", *argv, "--out", "{R}/junk/folder")
    case(f"{verb}-out-over-the-ledger", "record of the game", *argv, "--out", "{R}/g/ledger/0000.toml")
    case(f"{verb}-out-over-the-manifest", "record of the game", *argv, "--out", "{R}/g3/game.toml")
    case(f"{verb}-out-a-new-report", "record of the game", *argv, "--out", "{R}/g/reports/0999-england.pbem")
    case(f"{verb}-out-below-a-file", "is a file, not a folder", *argv, "--out", "{R}/junk/empty.txt/x.txt")
    # issue 10 item 10: a symlinked folder or file leads into the record; any name inside it counts
    case(f"{verb}-out-through-a-symlinked-folder", "record of the game", *argv,
         "--out", "{R}/junk/ledger-link/0001.toml")
    case(f"{verb}-out-through-a-symlinked-file", "record of the game", *argv, "--out", "{R}/junk/entry-link.toml")
    case(f"{verb}-out-an-odd-name-in-the-ledger", "record of the game", *argv, "--out", "{R}/g/ledger/0003.TOML")
    case(f"{verb}-out-a-note-in-the-orders", "record of the game", *argv, "--out", "{R}/g/orders/notes.txt")
    case(f"{verb}-out-into-the-private-area", "record of the game", *argv, "--out", "{R}/g/.pbem/pending/x.pbem")
case("report-open-svg-over-the-ledger", "record of the game", "report", "open", "{MR}", *MINE,
     "--svg", "{R}/g/ledger/0000.toml")
case("report-open-save-a-folder", "is a folder", "report", "open", "{MR}", *MINE,
     "--save", "{R}/junk/folder", "--svg", "{R}/out/x.svg")

# Options and arguments of the wrong shape.
case("auto-seed-not-hex", "not hexadecimal", "orders", "auto", "{MR}", *MINE, "--seed", "zz",
     "--out", "{R}/out/a.toml")
case("auto-no-such-bot", "unknown bot", "orders", "auto", "{MR}", *MINE, "--bot", "clever",
     "--out", "{R}/out/a.toml")
case("key-new-exists", "already exists", "key", "new", "england", "--dir", "{R}/keys")
case("key-new-bad-name", "cannot be a file name", "key", "new", "../x", "--dir", "{R}/keys")
case("key-new-dir-is-a-file", "is a file, not a folder", "key", "new", "zed", "--dir", "{R}/junk/empty.txt")
GAME_OPEN = ("--referee", "{R}/keys/referee.key", "--side", "england={R}/keys/england.pub.toml",
             "--side", "scotland={R}/keys/scotland.pub.toml")
for verb in ("open", "new"):
    case(f"game-{verb}-folder-not-empty", "is not empty", "game", verb, "{R}/g", *GAME_OPEN)
    case(f"game-{verb}-folder-is-a-file", "is a file", "game", verb, "{R}/junk/empty.txt", *GAME_OPEN)
    case(f"game-{verb}-bad-bid", "(9.2)", "game", verb, "{R}/out/new", *GAME_OPEN, "--option", "bid=E99999999999")
    case(f"game-{verb}-no-such-ruleset", "unknown ruleset", "game", verb, "{R}/out/new", *GAME_OPEN,
         "--ruleset", "chess")
    case(f"game-{verb}-no-such-scenario", "unknown scenario", "game", verb, "{R}/out/new", *GAME_OPEN,
         "--scenario", "waterloo")

# The demo makes keys and a game: never in a used folder (it would write over keys), never half-done.
case("demo-in-a-used-folder", "not a new or empty folder", "demo", "--folder", "{R}")
case("demo-in-a-file", "not a new or empty folder", "demo", "--folder", "{R}/junk/empty.txt")
case("demo-no-such-scenario", "unknown scenario", "demo", "--folder", "{R}/out/demo", "--scenario", "waterloo")
case("demo-no-such-bot", "unknown bot", "demo", "--folder", "{R}/out/demo", "--scotland", "clever")

for name in SAVED_REPORT_VARIANTS:
    saved_report = f"{{R}}/junk/saved-{name}.json"
    case(f"orders-new-saved-report-{name}", "is not an opened report as pbem saves it", "orders", "new", saved_report)
    case(f"orders-auto-saved-report-{name}", "is not an opened report as pbem saves it", "orders", "auto",
         saved_report, "--out", "{R}/out/a.toml")
    if name not in ("moves-null", "moves-list"):  # the check, the map and the text need no listed moves
        case(f"orders-check-saved-report-{name}", "is not an opened report", "orders", "check", "{R}/m.toml",
             "--report", saved_report)
        case(f"report-open-saved-report-{name}", "is not an opened report as pbem saves it", "report", "open",
             saved_report, "--svg", "{R}/out/x.svg")

# Positions with bad values, and sandbox options of the wrong shape.
for name, _, _ in POSITION_VARIANTS:
    case(f"sandbox-{name[2:-5]}", "", "sandbox", f"{{R}}/junk/{name}")
case("sandbox-die-of-seven", "1-6", "sandbox", str(EXAMPLE_POSITION), "--battle", "Fife", "--dice", "7")
case("sandbox-seed-not-hex", "not hexadecimal", "sandbox", str(EXAMPLE_POSITION), "--seed", "xyz")
case("sandbox-no-such-area", "(1.1)", "sandbox", str(EXAMPLE_POSITION), "--battle", "Atlantis")
case("sandbox-no-such-side", "england or scotland", "sandbox", str(EXAMPLE_POSITION), "--side", "wales")
case("sandbox-too-few-dice", "more dice", "sandbox", str(EXAMPLE_POSITION), "--battle", "Fife", "--dice", "1")


# Issue 10 item 9: input that crashed with a traceback before v2.
for verb in (("game", "receive", "{R}/g"), ("adjudicate", "{R}/g")):
    case(f"{verb[-2]}-header-with-a-lone-surrogate", "canonical", *verb, "{R}/junk/surrogate-header-order.asc", *REF)
    case(f"{verb[-2]}-order-with-a-lone-surrogate", "", *verb, "{R}/junk/order-surrogate.asc", *REF)
    case(f"{verb[-2]}-order-nested-100000-deep", "", *verb, "{R}/junk/order-nested.asc", *REF)
case("report-open-header-with-a-lone-surrogate", "canonical", "report", "open",
     "{R}/junk/surrogate-header-report.asc", *MINE, "--svg", "{R}/out/x.svg")
case("audit-reveal-with-a-lone-surrogate", "surrogate", "audit", "{R}/g", "--reveal", "{R}/junk/reveal-surrogate.json")
case("audit-reveal-nested-100000-deep", "not a JSON reveal bundle", "audit", "{R}/g", "--reveal",
     "{R}/junk/reveal-nested.json")
for verb in (("report", "open"), ("orders", "new"), ("orders", "auto")):
    case(f"{verb[0]}-{verb[1]}-saved-report-nested-100000-deep", "nests too deeply", *verb,
         "{R}/junk/saved-nested.json", "--svg" if verb[0] == "report" else "--out", "{R}/out/x.out")
case("report-open-with-a-key-asking-scrypt-for-a-gibibyte", "256 MiB", "report", "open", "{MR}",
     "--key", "{R}/junk/greedy.key", "--passphrase-file", "{R}/pass.txt", "--svg", "{R}/out/x.svg")
# Issue 10 item 6: a report forged by the opponent and saved outside the game folder.
case("report-open-forged-saved-outside-the-game", "holds no game.toml (protocol §7.4)", "report", "open",
     "{R}/junk/forged-report.pbem", *MINE, "--svg", "{R}/out/x.svg")
case("report-open-forged-with-the-game", "is signed by a key that is not referee's", "report", "open",
     "{R}/junk/forged-report.pbem", "--game", "{R}/g", *MINE, "--svg", "{R}/out/x.svg")
case("orders-new-forged-with-the-game", "is signed by a key that is not referee's", "orders", "new",
     "{R}/junk/forged-report.pbem", "--game", "{R}/g", *MINE)
# Issue 10 item 13: names reach the terminal, so they are printable.
case("key-new-a-name-with-a-carriage-return", "printable", "key", "new", "eve\rok", "--dir", "{R}/out/keys")
case("game-open-a-side-named-with-a-carriage-return", "printable", "game", "open", "{R}/out/new",
     "--referee", "{R}/keys/referee.key", "--side", "england={R}/junk/cr-name.pub.toml",
     "--side", "scotland={R}/keys/scotland.pub.toml")
case("key-show-a-name-with-a-carriage-return", "printable", "key", "show", "{R}/junk/cr-name.pub.toml")


def test_cli_hostile_case_names_are_unique() -> None:
    names = [c[0] for c in CASES]
    assert len(names) == len(set(names))


@pytest.mark.parametrize(("name", "argv", "fragment"), CASES, ids=[c[0] for c in CASES])
def test_protocol_1_a_bad_input_is_one_error_line_and_changes_nothing(
        world: World, name: str, argv: tuple[str, ...], fragment: str) -> None:
    assert_refused(world, argv, world.argv((fragment,))[0])


def assert_refused(world: World, argv: tuple[str, ...], fragment: str) -> str:
    """Exit 1, one ``error:`` line (and maybe one ``hint:``) naming the problem, every game folder unchanged."""
    before = _snapshot(world.root)
    result = runner.invoke(app, world.argv(argv), catch_exceptions=False)
    lines = result.stderr.splitlines()
    assert result.exit_code == 1, (result.exit_code, result.output, result.stderr)
    assert lines and lines[0].startswith("error: "), lines
    assert len(lines) == 1 or (len(lines) == 2 and lines[1].startswith("hint: ")), lines
    assert fragment in lines[0], lines[0]
    assert "Traceback" not in result.output + result.stderr
    assert ".tmp" not in lines[0], lines[0]  # never the name of a temporary file
    assert _snapshot(world.root) == before
    return lines[0]


def test_5_1_a_player_with_a_protected_key_opens_checks_and_seals_with_passphrase_file(tmp_path: Path) -> None:
    """Every player verb that reads the key takes --passphrase-file, as the refusal without it says."""
    k = tmp_path / "keys"
    (tmp_path / "pass.txt").write_text("a long passphrase\n", encoding="utf-8")
    cli("key", "new", "referee", "--dir", k)
    cli("key", "new", "scotland", "--dir", k)
    cli("key", "new", "england", "--dir", k, "--passphrase-file", tmp_path / "pass.txt")
    g = tmp_path / "g"
    cli("game", "new", g, "--referee", k / "referee.key", "--side", f"england={k / 'england.pub.toml'}",
        "--side", f"scotland={k / 'scotland.pub.toml'}")
    report, key = g / "reports" / "0000-england.pbem", ("--key", k / "england.key")
    secret = ("--passphrase-file", tmp_path / "pass.txt")
    result = runner.invoke(app, ["report", "open", str(report), "--key", str(k / "england.key")])
    assert result.exit_code == 1 and "--passphrase-file" in result.stderr
    assert "you owe: card" in cli("report", "open", report, *key, *secret, "--svg", tmp_path / "e.svg")
    cli("orders", "new", report, *key, *secret, "--out", tmp_path / "new.toml")
    cli("orders", "auto", report, *key, *secret, "--seed", "0a", "--out", tmp_path / "e.toml")
    cli("orders", "check", tmp_path / "e.toml", "--report", report, *key, *secret)
    cli("orders", "seal", tmp_path / "e.toml", "--game", g, *key, *secret, "--out", tmp_path / "e.asc")
    cli("game", "receive", g, tmp_path / "e.asc", "--key", k / "referee.key")


def test_protocol_7_an_out_file_that_exists_is_replaced_whole_or_not_at_all(world: World, tmp_path: Path) -> None:
    """--out is written atomically: a refused seal leaves an existing file as it was; a good one replaces it."""
    out = tmp_path / "order.asc"
    out.write_text("my earlier envelope\n", encoding="utf-8")
    assert_refused(world, ("orders", "seal", "{R}/junk/d_other_game.toml", "--game", "{R}/g", *MINE,
                           "--out", str(out)), "is a draft for game hammer-0000000000000000")
    assert out.read_text(encoding="utf-8") == "my earlier envelope\n"
    cli(*world.argv(("orders", "seal", "{R}/m.toml", "--game", "{R}/g", *MINE, "--out", str(out))))
    assert out.read_text(encoding="ascii").startswith("-----BEGIN PBEM ENVELOPE-----")
    assert [p.name for p in tmp_path.iterdir()] == ["order.asc"]  # no temporary file left behind


def test_protocol_7_a_write_that_fails_midway_keeps_the_old_file_and_leaves_no_temporary(
        world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A full disk while writing --out: one error line, the old file intact, no ``.tmp`` left behind."""
    out = tmp_path / "join.asc"
    out.write_text("the join I mailed yesterday\n", encoding="utf-8")

    def disk_full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("pbem.core.identity.os.fsync", disk_full)
    result = runner.invoke(app, world.argv(("game", "join", "{R}/g3", "--side", "england", "--key",
                                            "{R}/keys/england.key", "--out", str(out))), catch_exceptions=False)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [f"error: {out}: No space left on device."]
    assert out.read_text(encoding="utf-8") == "the join I mailed yesterday\n"
    assert [p.name for p in tmp_path.iterdir()] == ["join.asc"]


def test_protocol_7_5_a_full_disk_while_adjudicating_changes_nothing_and_names_the_file(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """The step's files are all written or none: a failed write is one error line and no change."""
    calls = []

    def disk_full_on_the_third_file(fd: int) -> None:
        calls.append(fd)
        if len(calls) == 3:
            raise OSError(28, "No space left on device")

    monkeypatch.setattr("pbem.core.game.os.fsync", disk_full_on_the_third_file)
    before = _contents(world.root)
    result = runner.invoke(app, world.argv(("adjudicate", "{R}/g", "{R}/m.asc", *REF)), catch_exceptions=False)
    assert result.exit_code == 1 and len(calls) == 3
    [line] = result.stderr.splitlines()
    assert line.startswith("error: ") and line.endswith(": No space left on device.") and "/g/" in line
    assert ".tmp" not in line
    assert _contents(world.root) == before  # every byte as it was, and no temporary file left
