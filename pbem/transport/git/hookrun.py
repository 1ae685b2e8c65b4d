"""What the installed hooks run: ``python -m pbem.transport.git.hookrun NAME``.

Kept apart from the ``pbem`` command so a hook starts quickly (it imports the protocol and this
transport only). git shows everything a server-side hook prints to the pusher as ``remote:``
lines; a refusal is an ``error:`` line (and maybe a ``hint:``) and a non-zero exit, which makes
git refuse the whole push.
"""

from __future__ import annotations

import sys
from pathlib import Path

from pbem.core.errors import PbemError


def main(name: str) -> int:
    from pbem.transport.git import hooks, pushcheck

    here = Path(".").absolute()
    try:
        if name == "pre-receive":
            for ok in hooks.pre_receive(here, sys.stdin.read()):
                print(f"pbem: {ok.side}'s order for step {ok.step} checked and taken ({ok.path})", file=sys.stderr)
        elif name == "peer-pre-receive":  # a peer game's shared repository (protocol §13.14)
            from pbem.transport.git import peer_hook

            for t in peer_hook.pre_receive(here, sys.stdin.read()):
                print(f"pbem: the {t.phase} of {t.side} for step {t.step} checked and taken ({t.path})",
                      file=sys.stderr)
        elif name == "post-receive":
            sys.stdin.read()
            for line in hooks.post_receive(here).lines:
                print(f"pbem: {line}", file=sys.stderr)
        else:
            print(f"error: unknown hook {name!r}.", file=sys.stderr)
            return 1
    except PbemError as exc:
        refused = "refused: " if isinstance(exc, pushcheck.Refused) else ""
        print(f"error: {refused}{exc}", file=sys.stderr)
        if exc.hint:
            print(f"hint: {exc.hint}", file=sys.stderr)
        return 1
    except OSError as exc:  # a full disk, a key file gone: one line, never a traceback
        print(f"error: {exc.filename or 'a file'}: {exc.strerror or exc}.", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else ""))
