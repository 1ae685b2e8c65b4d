"""The mail judge (docs/judge.md): a robot referee serving many games by email.

- ``adapter``: every call into pbem.core (the only module that makes one).
- ``config``: ``judge.toml`` and the passwords (environment or owner-only file).
- ``inbound``: envelopes and commands out of what a real mail client sends; loop detection.
- ``compose``: the mails the judge writes (plain words, files attached).
- ``bundle``: the public files a mail carries, and ``pbem mail import``.
- ``journal``: SQLite: games, registered addresses, processed Message-IDs, outbox, deadlines.
- ``servers``: IMAP (poll, IDLE), Maildir, SMTP; standard library only.
- ``judge``: one mail in, answers out; ticking games (adjudicate, announce, remind).
- ``runner``: the loop, and sending the outbox with retries.
"""
