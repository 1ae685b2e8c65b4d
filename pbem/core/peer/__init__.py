"""Peer mode: games with no referee (docs/protocol.md, part "Peer mode: no referee").

One job per module: ``chain`` (joint randomness from hash chains), ``handles`` (commit-reveal
with the owner's random salts), ``deal`` (a mental deal from one deck, SRA over P-256),
``proofs`` (signed evidence that convicts a cheater), ``record`` (the peer record, computed by
every client and replayed by verify). The core imports no game.
"""
