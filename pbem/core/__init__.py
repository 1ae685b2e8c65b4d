"""Game-agnostic protocol: identities, envelopes, commitments, dice, ledger, audit.

Nothing under ``pbem.core`` may import a game package (``pbem.hammer``, ``pbem.bagpipes``).
"""
