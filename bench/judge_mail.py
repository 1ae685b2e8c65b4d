"""Messages per second through the mail judge, with many games on one mailbox (docs/judge.md, limits).

    python bench/judge_mail.py                      # 1,000 games; orders measured at 10 and at 1,000 games
    python bench/judge_mail.py --games 200 --orders 400

It opens the games (the tests' rock-paper-scissors ruleset, so the game's own cost stays small),
joins both sides of each by mail, then times the judge over a batch of order mails spread over
the first 10 games, and over a batch spread over all of them (each an order of north, checked,
kept and answered with a signed receipt). Mail comes from a Maildir the
judge reads as it would in production; mail out goes to a sink (sending is the SMTP server's
cost, not the judge's). The cost of one message must not grow with the number of games: the
two rates printed should be about the same.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from email.utils import make_msgid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "core"))

from pbem.core import game as core_game  # noqa: E402
from pbem.core import identity, ruleset  # noqa: E402
from pbem.transport.mail.journal import Journal  # noqa: E402
from pbem.transport.mail.judge import Judge  # noqa: E402
from pbem.transport.mail.servers import MaildirInbox  # noqa: E402

ruleset.register("rps", "rps_game:RpsRuleset")
JUDGE = "judge@bench.test"


def mail(sender: str, text: str) -> bytes:
    return (f"From: {sender}\nTo: {JUDGE}\nSubject: orders\nMessage-ID: {make_msgid(domain='bench.test')}\n\n"
            f"{text}").encode()


def drain(judge: Judge, inbox: MaildirInbox) -> int:
    n = 0
    while True:
        batch = inbox.fetch(200)
        if not batch:
            return n
        for key, raw in batch:
            judge.handle(raw)
            inbox.done(key)
            n += 1


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--orders", type=int, default=500, help="order mails timed in each batch")
    args = ap.parse_args()
    root = Path(tempfile.mkdtemp(prefix="pbem-judge-bench-"))
    keys = {s: identity.generate(s) for s in ("north", "south")}
    judge = Judge(Journal(root / "journal.sqlite"), identity.generate("judge"), JUDGE, root / "games",
                  clock=lambda: 1_800_000_000)
    inbox = MaildirInbox(root / "Maildir")
    md_new = root / "Maildir" / "new"
    started = time.perf_counter()
    games = []
    for i in range(args.games):
        gid = judge.open_game("rps", "standard", {s: k.public for s, k in keys.items()}, game_id=f"rps-{i:05d}",
                              hours=0)
        games.append(gid)
        for s, k in keys.items():
            (md_new / f"{i}-{s}.join").write_bytes(mail(f"{s}@bench.test", core_game.write_join(
                judge.games_dir / gid, k, s)))
    joined = drain(judge, inbox)
    print(f"{args.games} games opened and {joined} joins handled in {time.perf_counter() - started:.1f}s "
          f"({root})")

    def batch(spread: int) -> float:
        for n in range(args.orders):
            gid = games[n % spread]
            d = judge.games_dir / gid
            step = core_game.status(d)["step"]
            side = "north"  # kept until its step closes; a later one replaces it (the receive path)
            text = core_game.write_order(d, keys[side], side, step, {"side": side, "step": step, "throw": "rock"})
            (md_new / f"o-{spread}-{n}").write_bytes(mail(f"{side}@bench.test", text))
        t = time.perf_counter()
        handled = drain(judge, inbox)
        return handled / (time.perf_counter() - t)

    small = batch(min(10, args.games))
    large = batch(args.games)
    print(f"order mails per second, spread over {min(10, args.games)} games: {small:.1f}")
    print(f"order mails per second, spread over {args.games} games: {large:.1f}")
    print(f"ratio (1.0 = the cost of a message does not grow with the number of games): {small / large:.2f}")


if __name__ == "__main__":
    main()
