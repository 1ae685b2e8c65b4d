"""Making a game folder a repository (``pbem git init``), optionally with a bare remote to push to."""

from __future__ import annotations

from pathlib import Path

from pbem.core import inputs
from pbem.transport.git import adapter, gitcmd, layout


def init(game_dir: Path, bare: Path | None = None, branch: str = "main") -> list[str]:
    """git init the game folder, write .gitignore/.gitattributes, commit the public record as the referee."""
    game_dir = Path(game_dir)
    pos = adapter.position(game_dir)  # refuses a folder that is not a started game
    if (game_dir / ".git").exists():
        raise gitcmd.GitError(f"{game_dir} is already a git repository (docs/git.md).")
    lines = [f"wrote {name}" for name in layout.write_repo_files(game_dir)]
    gitcmd.run(["init", "-q", "-b", branch], game_dir)
    gitcmd.run(["add", "-A"], game_dir)
    staged = gitcmd.run(["diff", "--cached", "--name-only", "-z"], game_dir).out
    for name in [n for n in staged.split("\0") if n]:
        if layout.find_private_key(inputs.read_input(game_dir / name, layout.MAX_SCANNED, "a file to commit")):
            gitcmd.run(["rm", "-q", "-r", "--cached", "."], game_dir)
            raise gitcmd.GitError(f"{game_dir / name} holds a private key; move it out of the game folder first "
                                  "(docs/git.md).")
    gitcmd.run([*gitcmd.referee_identity(), "commit", "-q", "-m", f"referee: game {pos.game}, step {pos.step}"],
               game_dir, env=gitcmd.referee_env())
    lines.append(f"{game_dir}: repository of game {pos.game} on branch {branch}")
    if bare is not None:
        bare = Path(bare)
        if not bare.exists():
            gitcmd.run(["init", "-q", "--bare", "-b", branch, str(bare.absolute())])
            lines.append(f"{bare}: new bare repository")
        gitcmd.run(["remote", "add", "origin", str(bare.absolute())], game_dir)
        gitcmd.run(["push", "-q", "-u", "origin", branch], game_dir, what="git push")
        lines.append(f"pushed to {bare}; next: pbem git install-hooks {bare} --key REFEREE.key")
    return lines
