"""Hammer of the Scots through git: a bot game by pushes through its first winter (the referee as the CI job runs it),
and a step through a bare repository whose hooks were installed as ``pbem git install-hooks`` does."""

from __future__ import annotations

from pathlib import Path

import pytest
from git_support import git, pbem

from pbem.core import game, identity
from pbem.core.identity import PrivateIdentity
from pbem.hammer.play import bots
from pbem.transport.git import adapter, hooks, referee, setup

SIDES = ("england", "scotland")


def _keys() -> dict[str, PrivateIdentity]:
    return {n: identity.from_seeds(n, bytes([i]) * 32, bytes([i + 100]) * 32)
            for i, n in enumerate(("referee", *SIDES), 1)}


def _repository(tmp_path: Path, keys: dict[str, PrivateIdentity], players: tuple[str, ...]) -> Path:
    g = tmp_path / "referee-game"
    game.new_game(g, "hammer", "braveheart", {}, keys["referee"], {s: keys[s].public for s in SIDES},
                  game_id="hammer-git", chain_length=400, deadline_hours=72)
    bare = tmp_path / "game.git"
    setup.init(g, bare)
    for name in players:
        git("clone", "-q", str(bare), str(tmp_path / name))
        git("config", "user.name", name, cwd=tmp_path / name)
        git("config", "user.email", f"{name}@example.invalid", cwd=tmp_path / name)
    return bare


def _bot_order(clone: Path, key: PrivateIdentity, side: str, step: int, out: Path) -> str:
    """What a player with a bot does: open the report in the clone, let the bot draft, seal. Returns
    what the report asked."""
    report = game.open_report(adapter.report_path(clone, step, side), key, clone)
    draft = bots.auto_draft(report, "simple", f"git|{step}|{side}".encode())
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(game.write_order(clone, key, side, step, draft.body()), encoding="ascii")
    return str(report["asks"])


# The questions of a Hammer year (pbem/hammer/ruleset.py): a card (both sides owe), moves (one side owes), the
# winter. A battle's decision is one side's step like moves: git sees only who owes (docs/git.md).
ASKS = {"card", "moves", "winter"}


@pytest.mark.slow
def test_git_hammer_bot_game_by_pushes_through_its_first_winter_ends_in_verify_and_audit_from_a_fresh_clone(
        tmp_path: Path) -> None:
    """Each bot pushes its order as one commit; after each push the referee runs as the post-receive hook
    runs it (in this process: it spares two interpreters per push). The game goes on until it ends or
    every kind of question (ASKS) has been answered by git and the first winter adjudicated, some fifteen
    steps of a whole game's hundred: the rest asks nothing new of git, whose end of a game the whole
    rock-paper-scissors game by pushes proves (test_git_turns.py), and whole Hammer games are played
    through the protocol by the self-play tests."""
    keys = _keys()
    bare = _repository(tmp_path, keys, SIDES)
    space = referee.BareWorkspace(bare, "main")
    steps, asked, one_side = 0, set(), False
    while True:
        git("pull", "-q", "--ff-only", cwd=tmp_path / SIDES[0])
        pos = adapter.position(tmp_path / SIDES[0])
        if pos.over or ASKS <= asked:
            break
        one_side = one_side or len(pos.owes) == 1
        for side in sorted(pos.owes):
            clone = tmp_path / side
            git("pull", "-q", "--ff-only", cwd=clone)  # the referee committed the other side's receipt meanwhile
            path = f"inbox/{pos.step:04d}-{side}.pbem"
            asked.add(_bot_order(clone, keys[side], side, pos.step, clone / path))
            git("add", path, cwd=clone)
            git("commit", "-q", "-m", f"{side}: order for step {pos.step}", cwd=clone)
            git("push", "-q", "origin", "HEAD:main", cwd=clone)
            out = referee.referee(space, keys["referee"])
        assert out.adjudicated == [pos.step] and out.commit
        steps += 1
        assert steps < 60
    assert one_side  # a step only one side owed (the other's push was not awaited)
    assert ASKS <= asked or (pos.result["winner"] in SIDES and {"card", "moves"} <= asked)  # the orders' entropy
    # makes each run's game its own: some end (9.1) in the first year, and then end by git
    fresh = tmp_path / "fresh"
    git("clone", "-q", str(bare), str(fresh))
    verified = pbem("verify", fresh)
    assert verified.returncode == 0 and f"ok: {steps + 1} entries" in verified.stdout
    bundle = tmp_path / "reveal.json"
    bundle.write_text(adapter.reveal(fresh, keys["referee"]), encoding="utf-8")
    audited = pbem("audit", fresh, "--reveal", bundle)
    assert audited.returncode == 0, audited.stderr


def test_git_hooks_as_installed_by_the_cli_adjudicate_a_hammer_step(tmp_path: Path) -> None:
    keys = _keys()
    bare = _repository(tmp_path, keys, SIDES)
    identity.save_private(keys["referee"], tmp_path / "referee.key")
    installed = pbem("git", "install-hooks", bare, "--key", tmp_path / "referee.key")
    assert installed.returncode == 0, installed.stderr
    hooks.load_settings(bare)
    for side in SIDES:
        clone = tmp_path / side
        order = tmp_path / f"0000-{side}.asc"
        _bot_order(clone, keys[side], side, 0, order)
        sent = pbem("git", "submit", order, "--repo", clone)
        assert sent.returncode == 0, sent.stderr
    assert "pbem: step 0 adjudicated; step 1:" in sent.stdout
    pulled = pbem("git", "pull", "--repo", tmp_path / "england", "--side", "england")
    assert pulled.returncode == 0 and "ok: 2 entries" in pulled.stdout
    assert "reports/0001-england.pbem" in pulled.stdout
