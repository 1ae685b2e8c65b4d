"""`pbem` with the tests' rock-paper-scissors ruleset registered: the judge under test as its own process.

With ``PBEM_TEST_KILL_AT="point:n"`` the process SIGKILLs itself just before the n-th call of one
named step of the judge's work (``KILL_POINTS``; ``"replace:n:text"`` counts only the files whose path
holds text): a crash aimed at a write boundary, not at a moment, so it lands where it is meant on a
fast machine and on a loaded one alike."""

import os
import signal
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # tests/: support.rps_game

from pbem.cli.main import app  # noqa: E402
from pbem.core import ruleset  # noqa: E402
from pbem.transport.mail.journal import Journal  # noqa: E402
from pbem.transport.mail.judge import Judge  # noqa: E402
from pbem.transport.mail.servers import MaildirInbox  # noqa: E402

ruleset.register("rps", "support.rps_game:RpsRuleset")

# point -> (owner, attribute) wrapped; the kill comes before the call
KILL_POINTS: dict[str, tuple[Any, str]] = {
    "handle": (Judge, "handle"),          # a mail read from the inbox, nothing of it written yet
    "replace": (os, "replace"),           # every file put in place: record files (ledger, state, receipts), the inbox
    "finish": (Journal, "finish"),        # the record written, the journal not yet noting the mail and its answers
    "done": (MaildirInbox, "done"),       # the journal noted the mail, the inbox still shows it new
    "announce": (Journal, "announce"),    # a step adjudicated, its reports not yet queued
    "sent": (Journal, "sent"),            # the SMTP server took a mail (250), the journal not yet noting it sent
}


def kill_at(spec: str) -> None:
    """Wrap the named point so that its n-th call kills this process (SIGKILL: no cleanup, no flush)."""
    name, nth, within = (spec.split(":") + [""])[:3]  # "replace:1:/ledger/": the first file put in ledger/
    owner, attr = KILL_POINTS[name]
    real = getattr(owner, attr)
    calls = [0]

    def before(*args: Any, **kwargs: Any) -> Any:
        calls[0] += within in (os.fspath(args[1]) if name == "replace" else "")
        if calls[0] == int(nth):
            if os.environ.get("PBEM_TEST_KILL_LOG"):  # where it landed, for the test to check
                target = os.fspath(args[1]) if name == "replace" else ""
                with open(os.environ["PBEM_TEST_KILL_LOG"], "a", encoding="utf-8") as log:
                    log.write(f"{spec} {target}\n")
            os.kill(os.getpid(), signal.SIGKILL)
        return real(*args, **kwargs)

    setattr(owner, attr, before)


if __name__ == "__main__":
    if os.environ.get("PBEM_TEST_KILL_AT"):
        kill_at(os.environ["PBEM_TEST_KILL_AT"])
    app()
