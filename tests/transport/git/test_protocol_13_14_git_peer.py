"""Peer games through a shared git repository (docs/protocol.md §13.14): ``pbem git sync`` on each player's
clone, and the bare repository's pre-receive hook that lets a push only add signed messages of this game.

Real git, a real bare repository on disk. Every attack is a cheating player (or an outsider) pushing by hand,
or a git host with no hook that lets anything through; each was checked by mutation (docs/protocol.md §13.14
lists the mutations tried)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from git_support import git
from peer_git_support import CLOCK, KEYS, SEATS, Shared, clone, push, shared
from support.peer_cli import run

from pbem.core.errors import PbemError
from pbem.core.identity import PrivateIdentity
from pbem.core.peer import folder, message
from pbem.transport.git import peer_sync


def _tip(g: Shared) -> str:
    return git("rev-parse", "main", cwd=g.bare).stdout.strip()


def _signed(g: Shared, key: PrivateIdentity, side: str, step: int, phase: str, body: dict[str, object]) -> str:
    man = folder.manifest(g.dirs["north"])
    return message.write(key, man.game, side, step, "", phase, CLOCK, body)


def _refused(g: Shared, side: str, *paths: str, said: str, force: bool = False) -> str:
    """``side`` pushes ``paths`` by hand; the hook refuses, saying ``said``, and the shared branch is as it was."""
    before = _tip(g)
    code, out = push(g.dirs[side], *paths, force=force)
    assert code != 0, out
    assert said in out, out
    assert _tip(g) == before
    return out


def test_protocol_13_14_three_players_play_rps_through_sync(tmp_path: Path) -> None:
    g = shared(tmp_path)
    g.play()
    names = sorted(p.name for p in (g.dirs["north"] / "ledger").iterdir())
    assert names == ["0000.json", "0001.json", "0002.json"]
    for s in SEATS:
        assert sorted(p.name for p in (g.dirs[s] / "ledger").iterdir()) == names
        assert all((g.dirs[s] / "ledger" / n).read_bytes() == (g.dirs["north"] / "ledger" / n).read_bytes()
                   for n in names)
        assert run("verify", g.dirs[s]).startswith("verify ok")
        assert "audit ok" in run("audit", g.dirs[s])
        assert g.tracked(s) == ["game.toml", *sorted(f"messages/{p.name}" for p in (g.dirs[s] / "messages").iterdir())]
    assert '"winner": "north"' in folder.verify(g.dirs["east"])[-1]
    # Nothing computed or private ever reached the shared repository: only the manifest and the messages.
    assert all(p == "game.toml" or p.startswith("messages/") for p in g.pushed_paths())


def test_protocol_13_14_sync_prints_what_it_sent_took_and_who_owes(tmp_path: Path) -> None:
    g = shared(tmp_path)
    g.owe("north")
    said = run("git", "sync", g.dirs["north"], "--key", _key_file(tmp_path, "north"))
    assert "sent messages/0000-start-north.pbem" in said
    said = run("git", "sync", g.dirs["south"], "--key", _key_file(tmp_path, "south"))
    assert "took the start of north for step 0 (messages/0000-start-north.pbem)" in said
    assert "step 0: east owes start, south owes start" in said


def _key_file(tmp_path: Path, side: str) -> Path:
    from pbem.core import identity
    path = tmp_path / "keys" / f"{side}.key"
    path.parent.mkdir(exist_ok=True)
    if not path.exists():
        identity.save_private(KEYS[side], path)
    return path


# --- The hook: a push may only add signed messages of this game (and game.toml once) ---------------------------


def test_protocol_13_14_hook_refuses_a_changed_message(tmp_path: Path) -> None:
    g = shared(tmp_path)
    man = folder.manifest(g.dirs["south"])
    # south signs another join for its own slot (a valid message: only the hook's "add only" rule stops it)
    other = _signed(g, KEYS["south"], "south", 0, "join", {"manifest": man.hash, "anchor": "ab" * 32})
    (g.dirs["south"] / "messages" / "0000-join-south.pbem").write_text(other, encoding="ascii")
    _refused(g, "south", "messages/0000-join-south.pbem",
             said="changes messages/0000-join-south.pbem, already in the repository; a push may only add files")


def test_protocol_13_14_hook_refuses_a_deleted_message(tmp_path: Path) -> None:
    g = shared(tmp_path)
    (g.dirs["south"] / "messages" / "0000-join-north.pbem").unlink()
    _refused(g, "south", "messages/0000-join-north.pbem",
             said="deletes messages/0000-join-north.pbem, already in the repository")


@pytest.mark.parametrize("signer", ["south", "outsider"])
def test_protocol_13_14_hook_refuses_a_forged_message(tmp_path: Path, signer: str) -> None:
    g = shared(tmp_path)
    forged = _signed(g, KEYS[signer], "north", 0, "start", {"link": "cd" * 32})
    (g.dirs["south"] / "messages" / "0000-start-north.pbem").write_text(forged, encoding="ascii")
    out = _refused(g, "south", "messages/0000-start-north.pbem", said="messages/0000-start-north.pbem in commit ")
    assert "is signed by a key that is not north's" in out and "(protocol §4.5)" in out, out


def test_protocol_13_14_hook_refuses_a_message_under_another_slot(tmp_path: Path) -> None:
    g = shared(tmp_path)
    text = _signed(g, KEYS["south"], "south", 0, "start", {"link": "cd" * 32})
    (g.dirs["south"] / "messages" / "0001-start-south.pbem").write_text(text, encoding="ascii")
    _refused(g, "south", "messages/0001-start-south.pbem",
             said="holds the start of south for step 0, whose file is messages/0000-start-south.pbem, "
                  "not messages/0001-start-south.pbem")


@pytest.mark.parametrize(("path", "said"), [
    ("notes.txt", "notes.txt is neither game.toml nor a message messages/NNNN-PHASE-SIDE.pbem"),
    ("messages/README", "messages/README is neither game.toml nor a message"),
    ("ledger/0000.json", "ledger/0000.json is computed by every player from the messages and is never committed"),
])
def test_protocol_13_14_hook_refuses_a_file_outside_messages(tmp_path: Path, path: str, said: str) -> None:
    g = shared(tmp_path)
    target = g.dirs["south"] / path
    target.parent.mkdir(exist_ok=True)
    target.write_text("{}\n", encoding="ascii")
    _refused(g, "south", path, said=said)


def test_protocol_13_14_hook_refuses_the_private_area(tmp_path: Path) -> None:
    g = shared(tmp_path)
    secrets = ".pbem/peer-south/secrets.json"
    assert (g.dirs["south"] / secrets).is_file()
    _refused(g, "south", secrets, said=f"{secrets} is in a player's private area (.pbem/), which never enters")
    assert secrets not in g.pushed_paths()


def test_protocol_13_14_hook_refuses_another_manifest_and_a_rewritten_history(tmp_path: Path) -> None:
    g = shared(tmp_path)
    manifest = g.dirs["south"] / "game.toml"
    manifest.write_text(manifest.read_text().replace("deadline_hours = 24", "deadline_hours = 1"))
    _refused(g, "south", "game.toml", said="changes game.toml, already in the repository")
    # a force-push that drops a message already there and adds a well-signed one of its own: the hook's own
    # check (git's receive.denyNonFastForwards, set by install, is turned off to reach it)
    git("config", "receive.denyNonFastForwards", "false", cwd=g.bare)
    git("reset", "-q", "--hard", "HEAD~2", cwd=g.dirs["south"])  # its refused commit, and east's join
    text = _signed(g, KEYS["south"], "south", 5, "commit", {"commitment": "ef" * 32})
    (g.dirs["south"] / "messages" / "0005-commit-south.pbem").write_text(text, encoding="ascii")
    _refused(g, "south", "messages/0005-commit-south.pbem", force=True, said="this push rewrites the game's history")
    git("config", "receive.denyNonFastForwards", "true", cwd=g.bare)
    _refused(g, "south", "messages/0005-commit-south.pbem", force=True, said="rejected")


def _empty_hooked_repository(tmp_path: Path, g: Shared) -> tuple[Path, Path]:
    """A second, empty bare repository that holds the peer hook of ``g``'s game, and a clone of it: a first push to
    it has no earlier tip to measure against."""
    from git_support import HOOK

    from pbem.transport.git import peer_hook

    bare = tmp_path / "second.git"
    git("init", "-q", "--bare", "-b", "main", str(bare))
    peer_hook.install(bare, g.dirs["north"] / "game.toml", command=HOOK)
    return bare, clone(bare, tmp_path / "second")


def test_protocol_13_14_hook_refuses_a_first_push_without_the_manifest(tmp_path: Path) -> None:
    g = shared(tmp_path)
    bare, mine = _empty_hooked_repository(tmp_path, g)
    shutil.copytree(g.dirs["north"] / "messages", mine / "messages")
    code, out = push(mine, "messages")
    assert code != 0 and "would not hold the game's game.toml" in out, out
    other = (g.dirs["north"] / "game.toml").read_text().replace("deadline_hours = 24", "deadline_hours = 1")
    (mine / "game.toml").write_text(other)
    code, out = push(mine, "game.toml")
    assert code != 0 and "game.toml in commit" in out and "is not the manifest this repository was set up with" in out
    assert not git("rev-parse", "--verify", "--quiet", "main", cwd=bare, check=False).stdout


def test_protocol_13_14_hook_takes_an_honest_sync(tmp_path: Path) -> None:
    g = shared(tmp_path)
    g.owe("south")
    assert g.sync("south").sent == ["messages/0000-start-south.pbem"]
    assert "messages/0000-start-south.pbem" in g.pushed_paths()


# --- sync: never commits the private area; refuses what a hook-less host lets through ---------------------------


def test_protocol_13_14_sync_never_commits_the_private_area(tmp_path: Path) -> None:
    g = shared(tmp_path, hook=False)  # a plain git host: only sync keeps .pbem/ out
    for s in SEATS:
        (g.dirs[s] / ".gitignore").unlink()  # sync writes it again; it adds files by name besides
        (g.dirs[s] / "proofs").mkdir()
        (g.dirs[s] / "proofs" / "0001-east.json").write_text("{}")
        (g.dirs[s] / "scratch.txt").write_text("mine")
    g.play()
    pushed = g.pushed_paths()
    assert not [p for p in pushed if not (p == "game.toml" or p.startswith("messages/"))], pushed
    for s in SEATS:
        assert (g.dirs[s] / ".pbem" / f"peer-{s}" / "secrets.json").is_file()
        assert all(p == "game.toml" or p.startswith("messages/") for p in g.tracked(s))


def test_protocol_13_14_sync_refuses_a_rewritten_history(tmp_path: Path) -> None:
    g = shared(tmp_path, hook=False)
    g.owe("north")
    g.sync("north")
    g.sync("south")  # south took north's start
    # east rewrites the shared branch: north's start is gone, and a commit of its own stands in its place
    east = g.dirs["east"]
    g.sync("east")
    git("reset", "-q", "--hard", "HEAD~1", cwd=east)
    (east / "notes.txt").write_text("x\n")
    code, out = push(east, "notes.txt", force=True)
    assert code == 0, out
    head = git("rev-parse", "HEAD", cwd=g.dirs["south"]).stdout
    held = sorted(p.name for p in (g.dirs["south"] / "messages").iterdir())
    with pytest.raises(PbemError, match=r"the shared repository's history was rewritten: commit [0-9a-f]{10}, which "
                                        r"this clone took, is no longer in origin/main, so nothing was taken"):
        g.sync("south")
    assert git("rev-parse", "HEAD", cwd=g.dirs["south"]).stdout == head
    assert sorted(p.name for p in (g.dirs["south"] / "messages").iterdir()) == held
    with pytest.raises(PbemError, match="history was rewritten"):  # and again: the refusal is not forgotten
        g.sync("south")


def test_protocol_13_14_sync_refuses_a_forged_message_a_host_let_through(tmp_path: Path) -> None:
    g = shared(tmp_path, hook=False)
    forged = _signed(g, KEYS["east"], "north", 0, "start", {"link": "cd" * 32})
    (g.dirs["east"] / "messages" / "0000-start-north.pbem").write_text(forged, encoding="ascii")
    code, out = push(g.dirs["east"], "messages/0000-start-north.pbem")
    assert code == 0, out
    head = git("rev-parse", "HEAD", cwd=g.dirs["south"]).stdout
    with pytest.raises(PbemError, match=r"messages/0000-start-north.pbem of origin/main is signed by a key that is "
                                        r"not north's .*\(protocol §4.5\)"):
        g.sync("south")
    assert git("rev-parse", "HEAD", cwd=g.dirs["south"]).stdout == head
    assert not (g.dirs["south"] / "messages" / "0000-start-north.pbem").exists()
    assert not (g.dirs["south"] / "ledger" / "0001.json").exists()


def test_protocol_13_14_sync_refuses_a_changed_file_a_host_let_through(tmp_path: Path) -> None:
    g = shared(tmp_path, hook=False)
    (g.dirs["east"] / "messages" / "0000-join-north.pbem").unlink()
    code, out = push(g.dirs["east"], "messages/0000-join-north.pbem")
    assert code == 0, out
    with pytest.raises(PbemError, match="the shared repository deletes messages/0000-join-north.pbem, a file "
                                        "already sent"):
        g.sync("south")
    assert (g.dirs["south"] / "messages" / "0000-join-north.pbem").is_file()


def test_protocol_13_14_sync_refuses_a_sent_message_changed_here(tmp_path: Path) -> None:
    g = shared(tmp_path)
    path = g.dirs["south"] / "messages" / "0000-join-north.pbem"
    path.write_bytes(path.read_bytes() + b"\n")
    with pytest.raises(PbemError, match="messages/0000-join-north.pbem differs from what this clone committed"):
        g.sync("south")


def test_protocol_13_14_sync_pushes_again_once_when_the_remote_moved_on(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    g = shared(tmp_path)
    g.owe("south")
    g.owe("north")
    real = peer_sync._commit_own
    calls: list[int] = []

    def meanwhile(*args: object) -> None:  # south pushes between north's fetch and north's push
        real(*args)  # type: ignore[arg-type]
        if not calls:
            calls.append(1)
            monkeypatch.setattr(peer_sync, "_commit_own", real)
            g.sync("south")

    monkeypatch.setattr(peer_sync, "_commit_own", meanwhile)
    done = g.sync("north")
    assert calls and done.retried
    assert done.sent == ["messages/0000-start-north.pbem"]
    assert done.took == ["the start of south for step 0 (messages/0000-start-south.pbem)"]
    assert "pushed again" in "\n".join(done.lines)
    assert {"messages/0000-start-north.pbem", "messages/0000-start-south.pbem"} <= g.pushed_paths()
    assert git("status", "--porcelain", cwd=g.dirs["north"]).stdout == ""


def test_protocol_13_14_sync_commits_only_this_side_s_messages(tmp_path: Path) -> None:
    g = shared(tmp_path)
    g.owe("north")
    sent = g.dirs["north"] / "messages" / "0000-start-north.pbem"
    # south gets north's start by mail before north pushes it: south's sync must not send it
    folder.take(g.dirs["south"], sent.read_bytes(), "mail")
    g.owe("south")
    assert g.sync("south").sent == ["messages/0000-start-south.pbem"]
    assert "messages/0000-start-north.pbem" not in g.pushed_paths()
    done = g.sync("north")  # north sends its own and takes south's
    assert done.sent == ["messages/0000-start-north.pbem"]
    done = g.sync("south")  # south takes north's start (the copy it holds is the same bytes)
    assert done.took == ["the start of north for step 0 (messages/0000-start-north.pbem)"]
    assert git("status", "--porcelain", cwd=g.dirs["south"]).stdout == ""


def test_protocol_13_14_sync_refuses_a_folder_that_is_not_a_clone(tmp_path: Path) -> None:
    g = shared(tmp_path)
    lone = tmp_path / "lone" / "rps"
    shutil.copytree(g.dirs["north"], lone, ignore=shutil.ignore_patterns(".git"))
    with pytest.raises(PbemError, match="is not a git clone of the game's shared repository"):
        peer_sync.sync(lone, KEYS["north"])


def test_protocol_13_14_two_players_play_hammer_s_first_game_turns_through_sync(tmp_path: Path) -> None:
    """England and Scotland play Braveheart's first two Game Turns (the deal, Move cards, battles: hidden blocks
    behind handles) with the peer bot, through sync alone; Scotland then resigns at the head of a step and both
    clones end with the same record, which verify and audit accept (the final audit opens every handle)."""
    from support.hammer_peer_bot import order

    from pbem.core.peer import resigning

    sides = ("england", "scotland")
    g = shared(tmp_path, sides=sides, ruleset="hammer", options={}, name="bh", length=256)

    def head_of_turn_3(out: folder.Outcome) -> bool:  # two Game Turns played; Scotland's card not chosen yet
        return bool(out.entries) and out.state["game"]["turn"] >= 2 and out.state["game"]["phase"] == "card" \
            and out.owes.get("scotland") == "commit"

    g.play(bot=lambda side, d, out: order(d, side), until=head_of_turn_3)
    g.sync("scotland")
    assert head_of_turn_3(folder.outcome(g.dirs["scotland"]))
    resigning.write_resign(g.dirs["scotland"], KEYS["scotland"], clock=CLOCK)
    g.play(bot=lambda side, d, out: order(d, side))
    names = sorted(p.name for p in (g.dirs["england"] / "ledger").iterdir())
    assert names == sorted(p.name for p in (g.dirs["scotland"] / "ledger").iterdir())
    assert all((g.dirs["england"] / "ledger" / n).read_bytes() == (g.dirs["scotland"] / "ledger" / n).read_bytes()
               for n in names)
    for s in sides:
        said = run("audit", g.dirs[s])
        assert "scotland resigned at step" in said and "audit ok" in said
        assert run("verify", g.dirs[s]).startswith("verify ok")
    assert all(p == "game.toml" or p.startswith("messages/") for p in g.pushed_paths())
    assert len(names) >= 6  # the set-up, four steps of two Game Turns, the end


def test_protocol_13_14_sync_waits_for_no_other_writer(tmp_path: Path) -> None:
    """Sync holds the game's lock (protocol §7.5): while another pbem command writes the folder, it refuses at
    once and changes nothing."""
    from pbem.core.errors import GameBusy
    from pbem.core.lock import game_lock

    g = shared(tmp_path)
    g.owe("north")
    head = git("rev-parse", "HEAD", cwd=g.dirs["north"]).stdout
    with game_lock(g.dirs["north"]), pytest.raises(GameBusy, match="is busy"):
        g.sync("north")
    assert git("rev-parse", "HEAD", cwd=g.dirs["north"]).stdout == head
    assert "messages/0000-start-north.pbem" not in g.pushed_paths()


def test_protocol_13_14_hook_refuses_a_big_file_on_a_first_push(tmp_path: Path) -> None:
    """A file over 1 MiB (no envelope is bigger, protocol §3) is refused by its size, before it is read; the first
    push, which has no earlier tip to measure against, too."""
    g = shared(tmp_path)
    _, mine = _empty_hooked_repository(tmp_path, g)
    shutil.copy(g.dirs["north"] / "game.toml", mine / "game.toml")
    (mine / "messages").mkdir()
    (mine / "messages" / "0009-commit-south.pbem").write_bytes(b"x" * ((1 << 20) + 1))
    code, out = push(mine, "game.toml", "messages")
    assert code != 0 and "holds 1048577 bytes, over the 1048576 a peer file may hold (protocol §3)" in out, out


def test_protocol_13_14_install_hooks_takes_a_manifest_and_no_key(tmp_path: Path) -> None:
    """``pbem git install-hooks BARE --manifest game.toml``: the hook holds the public manifest and nothing else;
    exactly one of --key and --manifest; a clone is not a bare repository; the branch's game.toml must be it."""
    from support.peer_cli import runner

    from pbem.cli.main import app

    g = shared(tmp_path, hook=False)
    said = run("git", "install-hooks", g.bare, "--manifest", g.dirs["north"] / "game.toml")
    assert "may only add game.toml once and messages signed by the keys of" in said
    assert (g.bare / "pbem-peer" / "game.toml").read_bytes() == (g.dirs["north"] / "game.toml").read_bytes()
    assert not [p for p in (g.bare / "pbem-peer").iterdir() if p.suffix == ".key"]
    for args, said in ((["install-hooks", str(g.bare)], "give exactly one of --key"),
                       (["install-hooks", str(g.dirs["south"]), "--manifest", str(g.dirs["north"] / "game.toml")],
                        "is not a bare git repository")):
        res = runner.invoke(app, ["git", *args])
        assert res.exit_code != 0 and said in res.output, res.output
    other = tmp_path / "other.toml"
    other.write_text((g.dirs["north"] / "game.toml").read_text().replace("deadline_hours = 24", "deadline_hours = 2"))
    res = runner.invoke(app, ["git", "install-hooks", str(g.bare), "--manifest", str(other)])
    assert res.exit_code != 0 and "holds another game.toml than" in res.output, res.output
    assert (g.bare / "pbem-peer" / "game.toml").read_bytes() == (g.dirs["north"] / "game.toml").read_bytes()


def test_protocol_13_14_a_side_that_cloned_the_empty_repository_joins_by_sync(tmp_path: Path) -> None:
    """Both players clone the shared repository while it is still empty; the joiner copies game.toml by hand. Its
    first sync takes the opener's commit over its own copy (the same bytes) and pushes its join on top; a copy
    with other bytes (another game) is refused, with nothing changed."""
    bare = tmp_path / "shared.git"
    git("init", "-q", "--bare", "-b", "main", str(bare))
    two = ("north", "south")
    dirs = {s: clone(bare, tmp_path / s / "rps") for s in two}
    folder.open_game(dirs["north"], "rps", "standard", {"players": 2}, {s: KEYS[s].public for s in two}, 24, length=32)
    folder.write_join(dirs["north"], KEYS["north"], "north", CLOCK)
    assert peer_sync.sync(dirs["north"], KEYS["north"]).sent == ["game.toml", "messages/0000-join-north.pbem"]
    manifest = (dirs["north"] / "game.toml").read_text()
    (dirs["south"] / "game.toml").write_text(manifest.replace("deadline_hours = 24", "deadline_hours = 3"))
    with pytest.raises(PbemError, match="game.toml of origin/main is not this folder's game.toml"):
        peer_sync.sync(dirs["south"], KEYS["south"])
    assert not git("rev-parse", "--verify", "--quiet", "HEAD", cwd=dirs["south"], check=False).stdout
    (dirs["south"] / "game.toml").write_text(manifest)
    folder.write_join(dirs["south"], KEYS["south"], "south", CLOCK)
    done = peer_sync.sync(dirs["south"], KEYS["south"])
    assert done.sent == ["messages/0000-join-south.pbem"]
    assert done.took == ["the join of north for step 0 (messages/0000-join-north.pbem)"]
    assert peer_sync.sync(dirs["north"], KEYS["north"]).owes == "step 0: north owes start, south owes start"
