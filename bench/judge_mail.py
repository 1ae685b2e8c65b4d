"""Messages per second through the mail judge, with many games on one mailbox (docs/judge.md, limits).

    python bench/judge_mail.py                      # 1,000 games; orders measured at 10 and at 1,000 games
    python bench/judge_mail.py --games 200 --orders 400 --rounds 5
    python bench/judge_mail.py --tiny                # 20 games, 10 mails, one round: does it still run?

It sets up two judges, one with 10 started games and one with 1,000 (the tests'
rock-paper-scissors ruleset, so the game's own cost stays small; each game joined by mail), then
times each over the same order mails for 10 games (each checked, kept, and answered with a
signed receipt), and the large one over mails spread over all its games. Mail comes from a
Maildir the judge reads as it would in production; mail out stays queued (sending is the SMTP
server's cost, not the judge's). The cost of one mail must not grow with the number of games:
the first two rates should be about the same (the machine's disk and load make them noisy).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from email.utils import make_msgid
from pathlib import Path

from benchpath import TINY  # (the checkout and tests/ on sys.path: support.rps_game)

from pbem.core import game as core_game
from pbem.core import identity, ruleset
from pbem.transport.mail.journal import Journal
from pbem.transport.mail.judge import Judge
from pbem.transport.mail.servers import MaildirInbox

ruleset.register("rps", "support.rps_game:RpsRuleset")
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


def setup(root: Path, n_games: int, keys: dict[str, identity.PrivateIdentity]) -> tuple[Judge, MaildirInbox, list[str]]:
    """A judge with ``n_games`` started games on one mailbox."""
    judge = Judge(Journal(root / "journal.sqlite"), identity.generate("judge"), JUDGE, root / "games",
                  clock=lambda: 1_800_000_000)
    inbox = MaildirInbox(root / "Maildir")
    games = []
    for i in range(n_games):
        gid = judge.open_game("rps", "standard", {s: k.public for s, k in keys.items()}, game_id=f"rps-{i:05d}",
                              hours=0)
        games.append(gid)
        for s, k in keys.items():
            (root / "Maildir" / "new" / f"{i}-{s}.join").write_bytes(
                mail(f"{s}@bench.test", core_game.write_join(judge.games_dir / gid, k, s)))
    drain(judge, inbox)
    return judge, inbox, games


def batch(judge: Judge, inbox: MaildirInbox, games: list[str], orders: int,
          keys: dict[str, identity.PrivateIdentity]) -> float:
    """Order mails per second for ``orders`` mails of north spread evenly over ``games``."""
    for n in range(orders):
        d = judge.games_dir / games[n % len(games)]
        step = core_game.status(d)["step"]
        text = core_game.write_order(d, keys["north"], "north", step, {"side": "north", "step": step, "throw": "rock"})
        (inbox.path / "new" / f"o-{len(games)}-{n}").write_bytes(mail("north@bench.test", text))
    t = time.perf_counter()
    handled = drain(judge, inbox)
    return handled / (time.perf_counter() - t)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--orders", type=int, default=200, help="order mails timed in each batch")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds; the best of each is shown")
    ap.add_argument("--keep", action="store_true", help="keep the judges' folders (printed) after the run")
    ap.add_argument("--tiny", action="store_true", help=TINY + " (20 games, 10 mails, one round)")
    args = ap.parse_args()
    if args.tiny:
        args.games, args.orders, args.rounds = 20, 10, 1
    if args.keep:
        run(Path(tempfile.mkdtemp(prefix="pbem-judge-bench-")), args)
        return
    with tempfile.TemporaryDirectory(prefix="pbem-judge-bench-") as tmp:
        run(Path(tmp), args)


def run(root: Path, args: argparse.Namespace) -> None:
    keys = {s: identity.generate(s) for s in ("north", "south")}
    few = min(10, args.games)
    started = time.perf_counter()
    small = setup(root / "small", few, keys)
    large = setup(root / "large", args.games, keys)
    print(f"judges with {few} and {args.games} started games set up in {time.perf_counter() - started:.1f}s ({root})")
    rates: dict[str, list[float]] = {"small": [], "same": [], "spread": []}
    for _ in range(args.rounds):  # interleaved rounds, best of each: the disk and the load are noisy
        rates["small"].append(batch(*small, args.orders, keys))
        rates["same"].append(batch(large[0], large[1], large[2][:few], args.orders, keys))
        rates["spread"].append(batch(*large, args.orders, keys))
    best = {k: max(v) for k, v in rates.items()}
    print(f"order mails per second (best of {args.rounds}), {few} games on the mailbox, mails for {few} games: "
          f"{best['small']:.1f}")
    print(f"order mails per second (best of {args.rounds}), {args.games} games on the mailbox, mails for the same "
          f"{few} games: {best['same']:.1f}")
    print(f"order mails per second (best of {args.rounds}), {args.games} games on the mailbox, mails spread over "
          f"all of them: {best['spread']:.1f}")
    print(f"ratio ({few} games / {args.games} games, same mails; about 1.0 = the cost of a mail does not grow "
          f"with the number of games): {best['small'] / best['same']:.2f}")


if __name__ == "__main__":
    main()
