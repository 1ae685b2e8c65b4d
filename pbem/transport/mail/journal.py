"""The judge's journal: games, registered addresses, processed Message-IDs and the outbox, in SQLite.

Exactly once: a mail's Message-ID and every mail it causes are written in one transaction, so
after a crash a mail is either fully handled (and skipped when seen again) or not at all
(and handled again; the game-folder writes it makes are idempotent). Reports are announced
per ledger entry, also in one transaction with the outbox rows, so an adjudication whose
announcement was lost to a crash is announced on restart, once.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    game TEXT PRIMARY KEY, dir TEXT NOT NULL, host TEXT NOT NULL DEFAULT '', host_key TEXT NOT NULL DEFAULT '',
    hours INTEGER NOT NULL DEFAULT 72, announced INTEGER NOT NULL DEFAULT -1);
CREATE INDEX IF NOT EXISTS games_by_host ON games (host);
CREATE TABLE IF NOT EXISTS players (
    game TEXT NOT NULL, side TEXT NOT NULL, address TEXT NOT NULL, PRIMARY KEY (game, side));
CREATE INDEX IF NOT EXISTS players_by_address ON players (address);
CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY, at INTEGER NOT NULL, outcome TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS outbox (
    id INTEGER PRIMARY KEY, message_id TEXT NOT NULL UNIQUE, recipients TEXT NOT NULL, data BLOB NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0, next_try INTEGER NOT NULL DEFAULT 0, sent INTEGER NOT NULL DEFAULT 0,
    last_error TEXT NOT NULL DEFAULT '');
CREATE INDEX IF NOT EXISTS outbox_due ON outbox (sent, next_try);
CREATE TABLE IF NOT EXISTS deadlines (
    game TEXT NOT NULL, step INTEGER NOT NULL, deadline INTEGER NOT NULL, reminded INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game, step));
CREATE INDEX IF NOT EXISTS deadlines_due ON deadlines (deadline);
CREATE TABLE IF NOT EXISTS refusals (
    address TEXT NOT NULL, hour INTEGER NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (address, hour));
"""


@dataclass(frozen=True)
class GameRow:
    game: str
    dir: Path
    host: str
    host_key: str
    hours: int
    announced: int


@dataclass(frozen=True)
class Outgoing:
    """One mail to send: its Message-ID, recipients and bytes."""

    message_id: str
    recipients: tuple[str, ...]
    data: bytes


@dataclass(frozen=True)
class Queued:
    id: int
    message_id: str
    recipients: tuple[str, ...]
    data: bytes
    attempts: int


class Journal:
    """One SQLite file; every method that writes commits before returning."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(str(path), isolation_level=None, timeout=30)
        self.db.execute("PRAGMA journal_mode=WAL")
        # NORMAL in WAL mode: a process crash loses nothing; a power cut may lose the last commits,
        # which only makes their mails be handled again (every step is safe to repeat).
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    # games and addresses
    def add_game(self, game: str, folder: Path, host: str, host_key: str, hours: int,
                 players: dict[str, str], mails: Sequence[Outgoing] = (), now: int = 0) -> None:
        with self.transaction() as db:
            self._queue(db, mails, now)
            db.execute("INSERT INTO games (game, dir, host, host_key, hours) VALUES (?, ?, ?, ?, ?)",
                       (game, str(folder), host.lower(), host_key, hours))
            for side, addr in players.items():
                db.execute("INSERT INTO players VALUES (?, ?, ?)", (game, side, addr.lower()))

    def game(self, game: str) -> GameRow | None:
        row = self.db.execute("SELECT game, dir, host, host_key, hours, announced FROM games WHERE game = ?",
                              (game,)).fetchone()
        return GameRow(row[0], Path(row[1]), row[2], row[3], row[4], row[5]) if row else None

    def games(self) -> list[GameRow]:
        return [GameRow(r[0], Path(r[1]), r[2], r[3], r[4], r[5]) for r in
                self.db.execute("SELECT game, dir, host, host_key, hours, announced FROM games ORDER BY game")]

    def players(self, game: str) -> dict[str, str]:
        return dict(self.db.execute("SELECT side, address FROM players WHERE game = ? ORDER BY side", (game,)))

    def games_of(self, address: str) -> list[str]:
        rows = self.db.execute("SELECT game FROM players WHERE address = ? UNION SELECT game FROM games "
                               "WHERE host = ? ORDER BY 1", (address.lower(), address.lower()))
        return [r[0] for r in rows]

    def is_registered(self, address: str) -> bool:
        return bool(address) and bool(self.games_of(address))

    # exactly once
    def give_up(self, message_id: str, why: str, now: int) -> None:
        """A mail that crashed the judge again and again is set aside (logged), so it cannot block the rest."""
        self.db.execute("INSERT OR IGNORE INTO processed VALUES (?, ?, ?)", (message_id, now, f"gave up: {why}"[:500]))

    def seen(self, message_id: str) -> bool:
        return self.db.execute("SELECT 1 FROM processed WHERE message_id = ?", (message_id,)).fetchone() is not None

    def finish(self, message_id: str, outcome: str, mails: Sequence[Outgoing], now: int,
               register: Sequence[tuple[str, str, str]] = (), refused_to: Sequence[str] = ()) -> None:
        """Mark a mail processed, register the addresses of its joins and queue the mails it caused, at once."""
        with self.transaction() as db:
            db.execute("INSERT OR IGNORE INTO processed VALUES (?, ?, ?)", (message_id, now, outcome[:500]))
            for reg in register:
                db.execute("INSERT OR IGNORE INTO players VALUES (?, ?, ?)", reg)
            for address in refused_to:
                db.execute("INSERT INTO refusals VALUES (?, ?, 1) ON CONFLICT (address, hour) DO UPDATE "
                           "SET n = n + 1", (address, now // 3600))
            if refused_to:  # the counts of past hours limit nothing any more
                db.execute("DELETE FROM refusals WHERE hour < ?", (now // 3600,))
            self._queue(db, mails, now)

    def announce(self, game: str, entry: int, mails: Sequence[Outgoing], now: int, deadline: int) -> None:
        """Queue the mails of a new ledger entry and record its deadline, in one transaction."""
        with self.transaction() as db:
            db.execute("UPDATE games SET announced = ? WHERE game = ?", (entry, game))
            db.execute("INSERT OR IGNORE INTO deadlines (game, step, deadline) VALUES (?, ?, ?)",
                       (game, entry, deadline))
            self._queue(db, mails, now)

    def queue(self, mails: Sequence[Outgoing], now: int) -> None:
        with self.transaction() as db:
            self._queue(db, mails, now)

    @staticmethod
    def _queue(db: sqlite3.Connection, mails: Sequence[Outgoing], now: int) -> None:
        for m in mails:
            if m.recipients:
                db.execute("INSERT OR IGNORE INTO outbox (message_id, recipients, data, next_try) "
                           "VALUES (?, ?, ?, ?)", (m.message_id, "\n".join(m.recipients), m.data, now))

    def refusals(self, address: str, now: int) -> int:
        """How many refusals went to ``address`` this hour (a cap stops loops with broken auto-responders)."""
        row = self.db.execute("SELECT n FROM refusals WHERE address = ? AND hour = ?",
                              (address, now // 3600)).fetchone()
        return int(row[0]) if row else 0

    # deadlines
    def deadline(self, game: str, step: int) -> tuple[int, bool] | None:
        row = self.db.execute("SELECT deadline, reminded FROM deadlines WHERE game = ? AND step = ?",
                              (game, step)).fetchone()
        return (int(row[0]), bool(row[1])) if row else None

    def extend(self, game: str, step: int, hours: int, message_id: str, mails: Sequence[Outgoing],
               now: int) -> None:
        with self.transaction() as db:
            db.execute("UPDATE deadlines SET deadline = deadline + ?, reminded = 0 WHERE game = ? AND step = ?",
                       (hours * 3600, game, step))
            db.execute("INSERT OR IGNORE INTO processed VALUES (?, ?, ?)", (message_id, now, "extend"))
            self._queue(db, mails, now)

    def due(self, now: int, remind_before: int) -> list[tuple[str, int, int, bool]]:
        """(game, step, deadline, reminded) of deadlines passed or due a reminder."""
        rows = self.db.execute("SELECT game, step, deadline, reminded FROM deadlines WHERE deadline > 0 AND "
                               "(deadline <= ? OR (reminded = 0 AND deadline <= ?)) ORDER BY deadline, game",
                               (now, now + remind_before))
        return [(r[0], int(r[1]), int(r[2]), bool(r[3])) for r in rows]

    def reminded(self, game: str, step: int, mails: Sequence[Outgoing], now: int) -> None:
        with self.transaction() as db:
            db.execute("UPDATE deadlines SET reminded = 1 WHERE game = ? AND step = ?", (game, step))
            self._queue(db, mails, now)

    def close_deadline(self, game: str, step: int) -> None:
        self.db.execute("UPDATE deadlines SET deadline = 0 WHERE game = ? AND step = ?", (game, step))

    # outbox
    def due_mail(self, now: int, limit: int = 100) -> list[Queued]:
        rows = self.db.execute("SELECT id, message_id, recipients, data, attempts FROM outbox "
                               "WHERE sent = 0 AND next_try <= ? ORDER BY id LIMIT ?", (now, limit))
        return [Queued(r[0], r[1], tuple(r[2].split("\n")), r[3], r[4]) for r in rows]

    def pending_mail(self) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM outbox WHERE sent = 0").fetchone()[0])

    def sent(self, row_id: int, now: int) -> None:
        self.db.execute("UPDATE outbox SET sent = ? WHERE id = ?", (now, row_id))

    def failed(self, row_id: int, next_try: int, error: str) -> None:
        self.db.execute("UPDATE outbox SET attempts = attempts + 1, next_try = ?, last_error = ? WHERE id = ?",
                        (next_try, error[:300], row_id))
