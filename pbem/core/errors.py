"""One error tree for the whole project, so the CLI can print ``error: ...`` and never a traceback.

Every message is one sentence: what went wrong, where (file, field), and which rule or spec
section (docs/protocol.md) it breaks. ``hint`` is an optional second line for the player.
"""

from __future__ import annotations


class PbemError(Exception):
    """Root of every error the project raises on purpose."""

    kind = "error"

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return self.message


class FormatError(PbemError):
    """A file or field is not in the documented shape (TOML, base64, sizes, versions)."""

    kind = "format"


class ArmorError(FormatError):
    """ASCII armor is missing, truncated, doubled, oversized or not valid base64 (§3)."""

    kind = "armor"


class EnvelopeError(PbemError):
    """An envelope is well-formed but does not fit where it was used (§4): wrong game, step, kind."""

    kind = "envelope"


class SignatureError(EnvelopeError):
    """A signature does not verify, or the signer is not who the header says (§4.3)."""

    kind = "signature"


class DecryptError(EnvelopeError):
    """A sealed payload cannot be opened with the given key (§4.4)."""

    kind = "decrypt"


class ReplayError(EnvelopeError):
    """An envelope answers another game, another step or an old ledger entry (§4.5)."""

    kind = "replay"


class LedgerError(PbemError):
    """The public record is inconsistent: chain, numbering, dice, commitments, hashes (§7)."""

    kind = "ledger"


class AuditError(LedgerError):
    """A replay of the game from the reveal bundle diverges from the public record (§9)."""

    kind = "audit"


class InvalidOrder(PbemError):
    """An order cannot be read at all (syntax, unknown names)."""

    kind = "invalid-order"


class IllegalOrder(PbemError):
    """An order is readable but breaks a rule of the game."""

    kind = "illegal-order"


class GameBusy(PbemError):
    """Another pbem command is writing the same game folder right now (§7.5): try again."""

    kind = "busy"
