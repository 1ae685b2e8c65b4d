"""The mail judge: a robot referee that runs many games from one mailbox (docs/judge.md).

One incoming mail is handled in three parts: read it (``inbound``), act on each envelope or
command through the protocol (``adapter``), then record its Message-ID and queue every answer
in one journal transaction. After that, the games it touched are *ticked*: a complete step (or
one past its deadline) is adjudicated, and every ledger entry not yet announced is mailed to
the players, again in one transaction. Both halves are safe to repeat, so a crash at any point
followed by a restart ends in the same place, with every mail queued once.
"""

from __future__ import annotations

import base64
import json
import logging
import re
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pbem.core.errors import FormatError, PbemError
from pbem.core.identity import PrivateIdentity, PublicIdentity
from pbem.transport.mail import adapter, bundle, compose, inbound, stepmail
from pbem.transport.mail.journal import GameRow, Journal, Outgoing

log = logging.getLogger("pbem.judge")
HANDLED_KINDS = ("order", "join", "message")
GAME_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
MESSAGE_ID = re.compile(r"<[!-;=?-~]{1,250}>")  # printable, no spaces or angle brackets inside
MAX_ENVELOPES = 20  # in one mail
# Answers that accept nothing, per address and clock hour, so that an auto-responder that ignores
# Auto-Submitted cannot loop with the judge. An address no game knows gets few, silently; a registered
# player gets more, and the last one it gets says so (docs/judge.md §7).
REFUSALS_PER_HOUR = 10
PLAYER_REFUSALS_PER_HOUR = 30


@dataclass
class _Answer:
    """What one incoming mail earns: lines of plain words, attachments, who may read them."""

    lines: list[str] = field(default_factory=list)
    files: list[tuple[str, bytes, str]] = field(default_factory=list)
    to: set[str] = field(default_factory=set)
    register: list[tuple[str, str, str]] = field(default_factory=list)
    accepted: bool = False
    touched: set[str] = field(default_factory=set)
    extra: list[Outgoing] = field(default_factory=list)
    riding: int = 0  # lines that are receipts of orders completing their step: they ride in its report mail


def _command_of(pv: adapter.Peek) -> str:
    """The ``command`` of a sign-only message envelope's JSON payload, or ""."""
    try:
        doc = json.loads(adapter.clear_payload(pv))
    except (ValueError, PbemError):
        return ""
    return str(doc.get("command", "")) if isinstance(doc, dict) else ""


def _b64(key: bytes) -> str:
    return base64.b64encode(key).decode("ascii")


class Judge:
    """The judge's state: its key, its journal and its clock."""

    def __init__(self, journal: Journal, referee: PrivateIdentity, address: str, games_dir: Path, *,
                 name: str = "pbem judge", max_bytes: int = 2_000_000, reminder_hours: int = 24,
                 clock: Callable[[], int] | None = None, hosts: Sequence[PublicIdentity] = ()) -> None:
        self.journal = journal
        self.hosts = {h.sign_key: h for h in hosts}  # identities that may open games by mail
        self.busy: set[str] = set()  # games whose tick met another writer: ticked again next pass
        self.referee = referee
        self.address = address.lower()
        self.games_dir = Path(games_dir)
        self.name = name
        self.max_bytes = max_bytes
        self.remind_before = reminder_hours * 3600
        self.clock = clock or (lambda: int(time.time()))
        self.domain = compose.domain_of(self.address)

    # opening
    def open_game(self, ruleset: str, scenario: str, sides: dict[str, PublicIdentity], *, host: str = "",
                  host_key: PublicIdentity | None = None, hours: int = 72, addresses: dict[str, str] | None = None,
                  options: dict[str, str] | None = None, game_id: str | None = None,
                  invites: Callable[[str, bytes], list[Outgoing]] | None = None) -> str:
        """Open a game with this judge as referee; players join by mail (protocol §8.1).

        ``invites(game id, manifest)`` gives mails queued in the same transaction as the game's row.
        """
        if game_id is not None and not GAME_ID.fullmatch(game_id):
            raise FormatError(f"game id {game_id!r} must be 1 to 64 letters, digits, '_' or '-' (docs/judge.md §2).")
        self.games_dir.mkdir(parents=True, exist_ok=True)
        tmp = self.games_dir / f".opening-{time.monotonic_ns()}"
        gid = adapter.open_game(tmp, ruleset, scenario, options or {}, self.referee, sides, game_id=game_id,
                                hours=hours)
        folder = self.games_dir / gid
        if folder.exists() and self.journal.game(gid) is None:
            shutil.rmtree(folder)  # a crash between the rename and the journal: nothing referenced it yet
        tmp.rename(folder)
        key = _b64(host_key.sign_key) if host_key is not None else ""
        mails = invites(gid, adapter.read_record_file(folder, folder / "game.toml")) if invites is not None else []
        self.journal.add_game(gid, folder, host, key, hours, dict(addresses or {}), mails, self.clock())
        return gid

    # one incoming mail
    def handle(self, raw: bytes) -> str:
        """Process one mail exactly once; returns a one-line outcome for the log."""
        inb = inbound.parse(raw, self.address, self.max_bytes)
        if self.journal.seen(inb.message_id):
            return f"{inb.message_id}: already processed"
        now = self.clock()
        if inb.automatic:
            self.journal.finish(inb.message_id, f"ignored ({inb.automatic})", [], now)
            return f"{inb.message_id}: not answered: {inb.automatic}"
        ans = _Answer()
        if inb.problem:
            ans.lines.append(f"Refused: {inb.problem}.")
        if len(inb.blocks) > MAX_ENVELOPES:
            ans.lines.append(f"Refused: your mail holds {len(inb.blocks)} envelopes; the judge reads at most "
                             f"{MAX_ENVELOPES} in one mail, so it read none. Send them in fewer mails.")
            inb.blocks = []
        for n, block in enumerate(inb.blocks, 1):
            where = f"envelope {n}" if len(inb.blocks) > 1 else "your envelope"
            self._envelope(block, where, inb, ans, now)
        for cmd, args in inb.commands:
            self._command(cmd, args, inb, ans, now)
        if not ans.to and self.journal.is_registered(inb.sender):
            ans.to.add(inb.sender)
        silent = "" if ans.to or not ans.lines else f"{inb.sender or 'the sender'} is not registered for any game"
        refused_to: list[str] = []
        if not ans.accepted and ans.to and ans.lines:
            silent = self._limit_refusals(ans, now)
            refused_to = sorted(ans.to)
        mails = []
        outcome = "; ".join(line.splitlines()[0] for line in ans.lines)[:300] or "nothing to do"
        if ans.riding and ans.riding == len(ans.lines):  # only receipts, which the step's report mail carries
            ans.lines = []
            outcome += " (the receipt rides in the step's report mail)"
        if ans.to and ans.lines:
            body = compose.prose(
                "\n\n".join(ans.lines) + "\n\n" + "Mail 'help' to the judge for the commands it knows.\n"
            )
            subject = "Re: " + (inbound.bare_subject(inb.subject) or "your mail to the judge")  # one "Re:", ever
            mails.append(compose.build(self.address, self.name, sorted(ans.to), subject[:150], body,
                                       compose.msgid(self.domain, "reply", inb.message_id),
                                       in_reply_to=inb.message_id if MESSAGE_ID.fullmatch(inb.message_id) else "",
                                       attachments=ans.files, now=now, auto="auto-replied"))
        for game, side, address in ans.register:  # a side registered after its game's reports went out
            row = self.journal.game(game)
            if row is not None and row.announced >= 0:
                late = self._report_mail(game, row.dir, row.announced, side, address, now)
                ans.extra += [late] if late is not None else []
        self.journal.finish(inb.message_id, outcome, mails + ans.extra, now, register=ans.register,
                            refused_to=refused_to if mails else [])
        for game in sorted(ans.touched):
            self.tick(game)
        return f"{inb.message_id}: {outcome}" + (f" (no reply: {silent})" if silent else "")

    def _limit_refusals(self, ans: _Answer, now: int) -> str:
        """Hold back refusals past the hour's limit; warn a player in the last one it gets. Returns why any was held."""
        held = []
        for address in sorted(ans.to):
            player = self.journal.is_registered(address)
            limit = PLAYER_REFUSALS_PER_HOUR if player else REFUSALS_PER_HOUR
            sent = self.journal.refusals(address, now)
            if sent >= limit:
                ans.to.discard(address)
                held.append(f"{address} had {sent} answers that accepted nothing this hour, the limit for "
                            + ("a player, who was told so" if player else "an address no game knows")
                            + " (a mail loop guard)")
            elif player and sent == limit - 1:
                until = compose.when((now // 3600 + 1) * 3600)
                ans.lines.append(f"Note: this is the judge's {limit}th answer this hour to {address} that accepted "
                                 f"nothing. So that an auto-responder cannot loop with it, the judge mails no more "
                                 f"such answers to this address until {until}; orders, joins and commands it "
                                 "accepts are still answered at once, each with its receipt.")
        return "; ".join(held)

    def _envelope(self, block: bytes, where: str, inb: inbound.Inbound, ans: _Answer, now: int) -> None:
        try:
            pv = adapter.peek(block, where)
        except PbemError as exc:
            ans.lines.append(f"Refused {where}: {exc}" + (
                " It was read from the HTML copy of your mail (your mail has no plain-text copy holding it), "
                "which your mail program may have changed: attach the file that pbem wrote instead, or send "
                "the mail as plain text." if block in inb.from_html else ""))
            return
        if pv.signer == self.referee.public.sign_key:
            return  # the judge's own receipt or report, quoted back in a reply: nothing to answer
        row = self.journal.game(pv.game)
        if pv.kind == "message" and pv.signer in self.hosts and _command_of(pv) == "open":
            self._open_by_mail(pv, row, where, inb, ans, now)
            return
        if row is None:
            ans.lines.append(f"Refused {where}: it is for game {pv.game!r}, which this judge does not run.")
            return
        if pv.kind not in HANDLED_KINDS:
            ans.lines.append(f"Ignored {where}: it is a {pv.kind} envelope; the judge takes orders, joins and "
                             "host commands.")
            return
        if pv.kind == "message":
            self._host_command(pv, row, where, inb, ans, now)
            return
        side = adapter.signer_side(row.dir, pv.signer)
        if side != pv.side:
            ans.lines.append(f"Refused {where}: it names side {pv.side!r} of game {pv.game} but is not signed by "
                             f"that side's key (protocol §4.5); nothing changed.")
            return
        players = self.journal.players(pv.game)
        register = pv.kind == "join" and side not in players and bool(inb.sender)
        ans.to.add(players[side] if side in players else inb.sender if register else "")
        ans.to.discard("")
        try:
            if pv.kind == "join":
                _, identical = adapter.accept_join(row.dir, self.referee, pv.raw, where, now)
            else:
                receipt = adapter.receive(row.dir, self.referee, pv.raw, where, now,  # until the host's extension
                                          self._deadline(row.game, row.dir, pv.step))
        except adapter.GameBusy:
            raise  # another writer holds the game: the whole mail is tried again on the next pass
        except PbemError as exc:
            if adapter.consumed(row.dir, pv):
                ans.lines.append(f"Already used: {where} ({pv.kind} of {side} for step {pv.step} of game "
                                 f"{pv.game}) was received before and its step is closed.")
                if register and pv.kind == "join":  # accepted before a crash, not yet registered: now
                    ans.register.append((pv.game, side, inb.sender))
            else:
                ans.lines.append(f"Refused {where}: {exc}" + (f" (hint: {exc.hint})" if exc.hint else "")
                                 + " Nothing changed.")
            return
        ans.touched.add(row.game)
        ans.accepted = True
        if register:  # the first accepted join of a side names the address the judge writes to for it
            ans.register.append((pv.game, side, inb.sender))
        if pv.kind == "join":
            ans.lines.append(f"Received: the join of {side} in game {pv.game}"
                             + (" (the same join as before)" if identical else "")
                             + ". The game starts when every side has joined.")
            return
        deadline = self._deadline(row.game, row.dir, receipt.step)
        line = (f"Received: the order of {side} for step {receipt.step} of game {pv.game}; receipt number "
                f"{receipt.seq}" + (" (the same order as before)" if receipt.identical else "")
                + (" (it replaces your earlier order)" if receipt.replaces else "")
                + f". Keep the attached signed receipt (pbem audit --receipt). Order hash {receipt.order[:16]}….")
        if deadline:
            line += f" Deadline {compose.when(deadline)}."
        ans.lines.append(line)
        ans.files.append((stepmail.receipt_name(pv.game, receipt.step, side, receipt.seq),
                          receipt.armored.encode("ascii"), "text/plain"))
        if self._completes(row.dir, receipt.step):
            ans.riding += 1

    def _completes(self, game_dir: Path, step: int) -> bool:
        """Whether every side owing at ``step`` has now sent its order: the step is adjudicated as soon as
        this mail is recorded (``tick``), and the report mail that follows carries the receipts, so no
        separate answer is needed (docs/judge.md "One mail per step")."""
        try:
            v = adapter.view(game_dir)
            return v.started and v.step == step and bool(v.owes) and \
                all(s in adapter.pending_sides(game_dir, v) for s in v.owes)
        except PbemError:
            return False

    def _host_command(self, pv: adapter.Peek, row: GameRow, where: str, inb: inbound.Inbound, ans: _Answer,
                      now: int) -> None:
        """A host-signed command: ``{"command": "extend", "hours": N}`` for the current step."""
        if not row.host_key or base64.b64decode(row.host_key) != pv.signer:
            ans.lines.append(f"Refused {where}: it is not signed by the host of game {pv.game}; nothing changed.")
            return
        if row.host:
            ans.to.add(row.host)
        try:
            cmd = json.loads(adapter.clear_payload(pv))
            hours = int(cmd["hours"])
            if cmd.get("command") != "extend" or not 0 < hours <= 24 * 60:
                raise ValueError
        except (ValueError, KeyError, TypeError, PbemError):
            ans.lines.append(f"Refused {where}: a host command is {{\"command\": \"extend\", \"hours\": N}} with "
                             "N from 1 to 1440; nothing changed.")
            return
        game = pv.game
        v = adapter.view(row.dir)
        if not v.started or v.over or pv.step != v.step:
            ans.lines.append(f"Refused {where}: it extends step {pv.step}, but game {game} is at step {v.step}; "
                             "nothing changed.")
            return
        dl = self.journal.deadline(game, v.step)
        if dl is None or dl[0] == 0:
            ans.lines.append(f"Refused {where}: step {v.step} of game {game} has no deadline to extend.")
            return
        new = dl[0] + hours * 3600
        text = (
            f"The host extended the deadline of step {v.step} of game {game} by {hours} hours, to {compose.when(new)}."
        )
        players = sorted(set(self.journal.players(game).values()))
        mail = compose.build(self.address, self.name, players, f"{game}: deadline extended", text + "\n",
                             compose.msgid(self.domain, "extend", inb.message_id), now=now)
        ans.lines.append(f"Done: {text}")
        ans.accepted = True
        self.journal.extend(game, v.step, hours, inb.message_id + "#extend", [mail], now)

    def _open_by_mail(self, pv: adapter.Peek, row: GameRow | None, where: str, inb: inbound.Inbound,
                      ans: _Answer, now: int) -> None:
        """A host's signed request ``{"command": "open", ...}`` (``pbem mail open-request``) opens a game."""
        host = self.hosts[pv.signer]
        try:
            req = json.loads(adapter.clear_payload(pv))
            if req.get("command") != "open":
                raise ValueError("not an open request")
            sides = {s: PublicIdentity.from_dict(d, f"{where}: sides.{s}") for s, d in dict(req["sides"]).items()}
            addresses = {str(s): str(a).lower() for s, a in dict(req.get("addresses", {})).items()}
            reply_to = str(req["host_address"]).lower()
            hours = int(req.get("hours", 72))
        except (ValueError, KeyError, TypeError, AttributeError, PbemError) as exc:
            ans.lines.append(f"Refused {where}: not a valid open request ({exc}); see docs/judge.md §2.")
            return
        ans.to.add(reply_to)

        def invitations(gid: str, manifest: bytes) -> list[Outgoing]:
            out = []
            for side, address in sorted(addresses.items()):
                body = (f"You are invited to game {gid} as {side}, refereed by this judge.\n\n"
                        f"1. Save the attached game.toml as {gid}/game.toml\n"
                        f"2. pbem game join {gid} --side {side} --key YOUR.key --out join.asc\n"
                        "3. Reply to this mail with join.asc attached or pasted.\n")
                out.append(compose.build(self.address, self.name, [address], f"{gid}: you are invited", body,
                                         compose.msgid(self.domain, "invite", gid, side),
                                         attachments=[("game.toml", manifest, "text/plain")], now=now))
            return out

        if row is not None:
            same = row.host_key == _b64(pv.signer)
            ans.lines.append(
                f"Already open: game {pv.game} "
                + ("was opened by this request before" if same else "exists; choose another game id")
                + "; nothing changed."
            )
            return
        try:
            self.open_game(str(req["ruleset"]), str(req["scenario"]), sides, host=reply_to, host_key=host,
                           hours=hours, addresses=addresses, options=dict(req.get("options", {})),
                           game_id=pv.game, invites=invitations)
        except (PbemError, KeyError, TypeError, ValueError) as exc:
            ans.lines.append(f"Refused {where}: the game cannot be opened: {exc}")
            return
        ans.accepted = True
        ans.lines.append(f"Opened: game {pv.game} ({req['ruleset']}, {req['scenario']}), {hours} hours a step. "
                         "The manifest is attached; the judge has invited the players it has addresses for; "
                         "each player joins by mailing the join envelope to the judge.")
        ans.files.append((f"{pv.game}-game.toml", adapter.read_record_file(self.games_dir / pv.game,
                                                                          self.games_dir / pv.game / "game.toml"),
                          "text/plain"))

    def _deadline(self, game: str, game_dir: Path, step: int) -> int:
        """The step's deadline: the ledger's, moved by the host's extensions (kept in the journal)."""
        dl = self.journal.deadline(game, step)
        if dl is not None:
            return dl[0]
        try:
            return adapter.entry_deadline(game_dir, step)
        except PbemError:
            return 0

    # commands
    def _command(self, cmd: str, args: list[str], inb: inbound.Inbound, ans: _Answer, now: int) -> None:
        mine = self.journal.games_of(inb.sender)
        if not mine:
            return  # only registered addresses get answers (no backscatter)
        ans.accepted = True
        if cmd == "help":
            ans.lines.append(compose.HELP)
            return
        games = [a for a in args[:1] if a != "all"] or mine
        unknown = [g for g in games if g not in mine]
        if unknown:
            ans.lines.append(f"Refused: you play in no game {unknown[0]!r} here (your games: {', '.join(mine)}).")
            return
        if cmd == "status":
            for g in games:
                ans.lines.append(self._status_text(g))
            return
        if cmd == "resend":
            whole = "all" in args
            for g in games:
                row = self.journal.game(g)
                sides = [s for s, a in self.journal.players(g).items() if a == inb.sender]
                if row is None or not sides:
                    continue
                v = adapter.view(row.dir)
                if not v.started:
                    ans.lines.append(f"Game {g} has not started yet; nothing to resend.")
                    continue
                attach: list[stepmail.Attachment] = []
                if whole:
                    attach.append((bundle.filename(g, "all"), bundle.dump(g, adapter.all_files(row.dir)),
                                   "application/json"))
                for side in sides:  # the step's mail again: report, record, receipts (stepmail)
                    attach += [a for a in stepmail.attachments(row.dir, g, v.step, side, self.referee)
                               if not (whole and a[0].endswith(bundle.SUFFIX)) and a not in attach]
                body = compose.report_body(g, sides[0], v.step, v.owes, v.ordered, v.defaulted, v.result,
                                           self._deadline(g, row.dir, v.step))
                ans.extra.append(compose.build(self.address, self.name, [inb.sender],
                                               f"{g}: step {v.step} (resent)", body,
                                               compose.msgid(self.domain, "resend", inb.message_id, g),
                                               attachments=attach, now=now))
                ans.lines.append(f"Resent: game {g}, step {v.step}" + (" with every public file" if whole else "")
                                 + " (in a separate mail).")

    def _status_text(self, game: str) -> str:
        row = self.journal.game(game)
        if row is None:
            return f"Game {game}: unknown."
        v = adapter.view(row.dir)
        if not v.started:
            joined = adapter.pending_sides(row.dir, v)
            return (f"Game {game}: waiting for joins; joined: {', '.join(joined) or 'nobody'}; "
                    f"sides: {', '.join(v.sides)}.")
        if v.over:
            return f"Game {game}: over after step {v.step - 1}; result {json.dumps(v.result, sort_keys=True)}."
        sent = adapter.pending_sides(row.dir, v)
        owes = ", ".join(f"{s} owes {k}" + (" (received)" if s in sent else "") for s, k in sorted(v.owes.items()))
        return f"Game {game}: step {v.step}; {owes}; deadline {compose.when(self._deadline(game, row.dir, v.step))}."

    # ticking games
    def tick(self, game: str) -> None:
        """Adjudicate a complete (or overdue) step, then announce every entry not yet mailed."""
        row = self.journal.game(game)
        if row is None:
            return
        now = self.clock()
        try:
            v = adapter.view(row.dir)
            if v.started and v.owes and row.announced >= v.step:
                pending = adapter.pending_sides(row.dir, v)
                complete = all(s in pending for s in v.owes)
                dl = self._deadline(game, row.dir, v.step)
                if complete or (dl > 0 and now >= dl):
                    try:
                        v = adapter.adjudicate(row.dir, self.referee, not complete, now)
                    except adapter.GameBusy:
                        raise
                    except PbemError as exc:
                        log.error("game %s: adjudication of step %s refused: %s", game, v.step, exc)
                        return
            while v.started and row.announced < v.step:
                self._announce(row.game, row.dir, row.announced + 1, now)
                row = self.journal.game(game)
                assert row is not None
        except adapter.GameBusy:
            log.warning("game %s busy; it is ticked again on the next pass", game)
            self.busy.add(game)

    def _announce(self, game: str, game_dir: Path, entry: int, now: int) -> None:
        """Mail every registered side the report of ``entry``, and record its deadline, at once."""
        players = self.journal.players(game)
        mails = [m for side, to in sorted(players.items()) if (m := self._report_mail(game, game_dir, entry, side,
                                                                                       to, now)) is not None]
        e = adapter.entry(game_dir, entry)
        self.journal.announce(game, entry, mails, now, e.deadline if e.owes else 0)

    def _report_mail(self, game: str, game_dir: Path, entry: int, side: str, to: str, now: int) -> Outgoing | None:
        """Side's one mail for ``entry``: the report, the entry's public files, its receipts for the step
        the entry closed (and the reveal at the end): stepmail, as ``pbem outbox`` writes it."""
        deadline = self._deadline(game, game_dir, entry)
        return stepmail.step_mail(game_dir, game, entry, side, self.referee, sender=self.address,
                                  sender_name=self.name, to=[to], deadline=deadline, now=now)

    def tick_due(self) -> None:
        """Deadlines: adjudicate overdue steps with default orders; remind those who still owe."""
        now = self.clock()
        again, self.busy = sorted(self.busy), set()
        for game in again:
            self.tick(game)
        for game, step, deadline, reminded in self.journal.due(now, self.remind_before):
            row = self.journal.game(game)
            if row is None:
                continue
            v = adapter.view(row.dir)
            if not v.started or v.over or v.step != step:
                self.journal.close_deadline(game, step)
                continue
            if now >= deadline:
                self.tick(game)
                continue
            if reminded:
                continue
            sent = adapter.pending_sides(row.dir, v)
            players = self.journal.players(game)
            mails = []
            for side in sorted(v.owes):
                if side in sent or side not in players:
                    continue
                body = compose.prose(f"Game {game}, you play {side}: your {v.owes[side]} orders for step {step} are "
                                     f"due by {compose.when(deadline)}. If none arrive by then, your side gets the "
                                     "default orders.\n\n" + compose.commands_for(game, side, step))
                mails.append(compose.build(self.address, self.name, [players[side]],
                                           f"{game}: reminder, step {step} due {compose.when(deadline)}", body,
                                           compose.msgid(self.domain, "remind", game, step, side, deadline),
                                           now=now))
            self.journal.reminded(game, step, mails, now)

    def tick_all(self) -> None:
        """On start: finish whatever a crash left (an adjudication not yet announced)."""
        for row in self.journal.games():
            self.tick(row.game)
