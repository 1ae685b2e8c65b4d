"""Game-agnostic protocol: identities, envelopes, commitments, dice, ledger, audit.

Nothing under ``pbem.core`` imports or names a game: games plug in through the Ruleset seam
(pbem.core.ruleset), found by entry point.
"""
