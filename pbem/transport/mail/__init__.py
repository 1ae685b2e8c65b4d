"""The mail judge (docs/judge.md): a robot referee serving many games by email.

Only ``adapter`` calls pbem.core; the rest reads and writes mail, keeps the journal and loops.
"""
