"""``pbem git``: turns through a git repository (docs/git.md).

Players: ``submit`` and ``pull``; ``sync`` for a game with no referee (docs/protocol.md §13.14).
Referee: ``init``, ``install-hooks`` (a self-hosted bare
repository), ``referee`` (a hosted CI job, or ``--watch``: from outside the players' repository),
``tick`` (deadlines, from cron or a scheduled job).
The installed hooks run pbem.transport.git.hookrun. The work lives in pbem.transport.git.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pbem.cli.errors import fails_cleanly, say
from pbem.cli.key import load_key, read_passphrase
from pbem.core.errors import FormatError
from pbem.transport.git import gitcmd, hooks, hosted, peer_hook, peer_sync, player, pushcaps, setup
from pbem.transport.git import watch as watch_mod
from pbem.transport.git.adapter import Key

git_app = typer.Typer(no_args_is_help=True, help="Play through a git repository: push orders, pull reports.")

RepoOpt = Annotated[Path, typer.Option("--repo", help="Your clone of the game repository.")]
PassOpt = Annotated[Path | None, typer.Option("--passphrase-file", help="The key's passphrase file.")]
NowOpt = Annotated[int | None, typer.Option("--now", help="The time to judge deadlines by (unix seconds; "
                                            "default: the clock).", hidden=True)]


def _echo(lines: list[str], prefix: str = "") -> None:
    for line in lines:
        say(f"{prefix}{line}")


@git_app.command("submit")
@fails_cleanly
def submit(order: Annotated[Path, typer.Argument(help="Your sealed order (pbem orders seal --out).")],
           repo: RepoOpt = Path("."),
           inbox: Annotated[str | None, typer.Option("--inbox", help="The players' repository a watching referee "
                                                     "reads (remembered in the clone as git config pbem.inbox)."
                                                     )] = None,
           own_identity: Annotated[bool, typer.Option("--own-identity", help="Commit with your own git name, "
                                                      "address and time zone instead of the neutral "
                                                      "'pbem <pbem@invalid>' in UTC.")] = False) -> None:
    """Add your sealed order to the inbox, commit it and push it to the game repository."""
    _echo(player.submit(repo, order, own_identity=own_identity, inbox=inbox).lines)


@git_app.command("pull")
@fails_cleanly
def pull(repo: RepoOpt = Path("."),
         side: Annotated[str | None, typer.Option("--side", help="Your side (default: every side).")] = None,
         key: Annotated[Path | None, typer.Option("--key", help="Your private key: opens your receipt (sealed to "
                                                  "your side).")] = None,
         passphrase_file: PassOpt = None) -> None:
    """Fetch the referee's news, verify the record, and say what you owe and where your report is."""
    _echo(player.pull(repo, side, [load_key(key, passphrase_file)] if key else None).lines)


@git_app.command("init")
@fails_cleanly
def init(game_dir: Annotated[Path, typer.Argument(help="The game folder the referee made (game new / start).",
                                                 envvar="PBEM_GAME")],
         bare: Annotated[Path | None, typer.Option("--bare", help="Also create this bare repository and push "
                                                   "the game to it.")] = None,
         branch: Annotated[str, typer.Option("--branch", help="The game's branch.")] = "main") -> None:
    """Make a game folder a repository: .gitignore and .gitattributes, the first commit, optionally a bare remote."""
    _echo(setup.init(game_dir, bare, branch))


@git_app.command("sync")
@fails_cleanly
def sync(game_dir: Annotated[Path, typer.Argument(help="Your peer game folder, a clone of the shared repository.",
                                                 envvar="PBEM_GAME")],
         key: Annotated[Path, typer.Option("--key", help="Your private key (it says which side you are; it never "
                                           "enters the repository).")],
         passphrase_file: PassOpt = None) -> None:
    """A game with no referee: commit and push your new messages, take the others', recompute the record."""
    _echo(peer_sync.sync(game_dir, load_key(key, passphrase_file)).lines)


@git_app.command("install-hooks")
@fails_cleanly
def install_hooks(bare: Annotated[Path, typer.Argument(help="The bare repository players push to.")],
                  key: Annotated[Path | None, typer.Option("--key", help="The referee's private key file (its path "
                                                           "is recorded; the key never enters the repository).")]
                  = None,
                  manifest: Annotated[Path | None, typer.Option("--manifest", help="A game with no referee: its "
                                                                "game.toml (public keys only), instead of --key.")]
                  = None,
                  passphrase_file: PassOpt = None,
                  max_push_bytes: Annotated[int, typer.Option("--max-push-bytes", help="The most bytes one push may "
                                                              "add (all its objects, uncompressed).")]
                  = pushcaps.DEFAULT_BYTES,
                  max_push_commits: Annotated[int, typer.Option("--max-push-commits", help="The most commits one "
                                                                "push may add.")] = pushcaps.DEFAULT_COMMITS) -> None:
    """Install the referee on push: a pre-receive hook that refuses bad pushes, a post-receive hook that adjudicates.
    With --manifest (a game with no referee): a pre-receive hook that lets a push only add signed messages."""
    caps = pushcaps.Caps(max_push_bytes, max_push_commits)
    if (key is None) == (manifest is None):
        raise FormatError("give exactly one of --key REFEREE.key (a refereed game) or --manifest game.toml (a game "
                          "with no referee, protocol §13.14).")
    if manifest is not None:
        branch = peer_hook.install(bare, manifest, caps=caps)
        say(f"hook installed in {bare}: a push to {branch} may only add game.toml once and messages signed by the "
            f"keys of {manifest}; no private key is on the server (protocol §13.14)")
        return
    assert key is not None
    settings = hooks.install(bare, key, passphrase_file, caps=caps)
    say(f"hooks installed in {bare}: pushes to {settings.branch} are checked and adjudicated with "
        f"the key {settings.key}; a push adds at most {settings.caps.bytes} bytes in {settings.caps.commits} commits")


@git_app.command("referee")
@fails_cleanly
def referee_(repo: RepoOpt = Path("."),
             key: Annotated[Path | None, typer.Option("--key", help="The referee's private key file.")] = None,
             key_env: Annotated[str | None, typer.Option("--key-env", help="Name of the environment variable "
                                                        "holding the key file's text (a CI secret).")] = None,
             since: Annotated[str, typer.Option("--since", help="The branch's tip before the push (CI: the "
                                                "push event's 'before'): refuse a rewritten history.")] = "",
             branch: Annotated[str | None, typer.Option("--branch", help="The game's branch.")] = None,
             watch: Annotated[str | None, typer.Option("--watch", help="The players' repository (URL or path): "
                                                       "read its inbox from outside, publish the record to "
                                                       "--publish; --repo is then the referee's own clone of the "
                                                       "record, made when missing.")] = None,
             publish: Annotated[str | None, typer.Option("--publish", help="With --watch: the record repository "
                                                         "only the referee writes.")] = None,
             once: Annotated[bool, typer.Option("--once", help="With --watch: one pass, then stop (cron, CI).")]
             = False,
             interval: Annotated[float, typer.Option("--interval", help="With --watch: seconds between passes.")]
             = 300.0,
             now: NowOpt = None,
             passphrase_file: PassOpt = None) -> None:
    """The referee in a checkout (a hosted CI job), or watching the players' repository from outside (--watch):
    take in the inbox, adjudicate, commit and push."""
    ref = _key(key, key_env, passphrase_file)
    if watch is None:
        if publish or once:
            raise FormatError("--publish and --once go with --watch PLAYERS_REPOSITORY (docs/git.md).")
        out = hosted.run(repo, ref, branch=branch, since=since)
    elif once:
        out = watch_mod.run(repo, ref, watch, publish=publish, branch=branch or "main", now=now)
    else:
        watch_mod.loop(repo, ref, watch, interval=interval, say=say, publish=publish, branch=branch or "main")
        return
    _echo(out.lines or ["nothing to do"])
    if out.commit:
        say(f"pushed {out.commit[:10]}")


@git_app.command("tick")
@fails_cleanly
def tick(repo: RepoOpt = Path("."),
         key: Annotated[Path | None, typer.Option("--key", help="The referee's private key file.")] = None,
         key_env: Annotated[str | None, typer.Option("--key-env", help="Environment variable holding the key.")]
         = None,
         now: NowOpt = None,
         branch: Annotated[str | None, typer.Option("--branch", help="The game's branch.")] = None,
         passphrase_file: PassOpt = None) -> None:
    """Deadlines (cron or a scheduled job): adjudicate steps past the ledger's deadline, default orders
    for the silent."""
    ref = _key(key, key_env, passphrase_file)
    if _is_bare(repo):
        out = hooks.tick(repo, ref, now=now)
    else:
        out = hosted.run(repo, ref, branch=branch, tick=True, now=now)
    _echo(out.lines or ["nothing to do"])


def _is_bare(repo: Path) -> bool:
    return gitcmd.run(["rev-parse", "--is-bare-repository"], repo, check=False).out.strip() == "true"


def _key(key: Path | None, key_env: str | None, passphrase_file: Path | None) -> Key:
    if (key is None) == (key_env is None):
        raise FormatError("give the referee's key with exactly one of --key FILE or --key-env NAME.")
    if key is not None:
        return load_key(key, passphrase_file)
    return hosted.key_from_env(key_env or "", read_passphrase(passphrase_file))
