"""The mail judge (docs/judge.md): a robot referee serving many games by email; and the mail a
player takes in (``intake``, ``pbem inbox``) or a referee writes by hand (``stepmail``, ``pbem outbox``).

- ``adapter``: every call the judge makes into pbem.core.
- ``config``: ``judge.toml`` and the passwords (environment or owner-only file).
- ``inbound``: envelopes and commands out of what a real mail client sends; loop detection.
- ``compose``: the mails the judge writes (plain words, files attached).
- ``stepmail``: one mail per player per step (report, receipts, the record's changes), the judge's
  and ``pbem outbox``'s.
- ``intake``: the player's side: a mail, mailbox, maildir or folder taken in (bundles applied, receipts
  filed through pbem.core's one reader and receipt checks), for ``pbem inbox`` and ``pbem mail import``.
- ``bundle``: the public files a mail carries, and ``pbem mail import``.
- ``player_mail``: a player's own mail account and order mail (``pbem mail account``, ``pbem mail send``,
  the board's Submit by mail), built and read back with ``compose`` and ``inbound``.
- ``journal``: SQLite: games, registered addresses, processed Message-IDs, outbox, deadlines.
- ``servers``: IMAP (poll, IDLE), Maildir, SMTP; standard library only.
- ``judge``: one mail in, answers out; ticking games (adjudicate, announce, remind).
- ``runner``: the loop, and sending the outbox with retries.
"""
