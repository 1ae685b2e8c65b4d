"""Writes the ledger entry and receipt vectors beside this file (docs/protocol.md §7.1, §7.2, §9.2): a
manifest and one signed entry 0 (or one receipt) each, made from fixed seeds (Ed25519 signs
deterministically), so the same bytes come out every run. One vector of each is good; each other
breaks exactly one rule and says which error kind and section the reader must answer with.

    python tests/core/ledger_vectors/generate.py
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import tomli_w

from pbem.core import armor, envelope, ledger
from pbem.core.canonical import canonical_bytes
from pbem.core.identity import PrivateIdentity, from_seeds

HERE = Path(__file__).parent
REFEREE = from_seeds("referee", bytes([1]) * 32, bytes([101]) * 32)
OTHER = from_seeds("outsider", bytes([4]) * 32, bytes([104]) * 32)
SIDES = {"north": from_seeds("north", bytes([2]) * 32, bytes([102]) * 32),
         "south": from_seeds("south", bytes([3]) * 32, bytes([103]) * 32)}
T0 = 1_700_000_000  # when entry 0 was written (unix seconds, in the past: verify refuses a future entry)


def manifest() -> bytes:
    body = ledger.manifest_body("rps-vectors", "rps", "1", "standard", {}, ("north", "south"),
                                {s: k.public for s, k in SIDES.items()}, REFEREE.public, bytes(range(32)), 20,
                                "default-orders", deadline_hours=72)
    return ledger.dump_signed(body, REFEREE, ledger.MANIFEST_DOMAIN)


def good_entry(man_hash: str) -> dict[str, Any]:
    return ledger.entry_body("rps-vectors", 0, man_hash, {"north": "throw", "south": "throw"}, {}, [],
                             bytes(range(32, 64)), "ab" * 32, {}, {}, {"scores": {}}, None,
                             deadline=T0 + 72 * 3600, written=T0)


def _signed(body: dict[str, Any], signer: PrivateIdentity = REFEREE) -> bytes:
    return ledger.dump_signed(body, signer, ledger.ENTRY_DOMAIN)


def _with(**fields: Any) -> Callable[[dict[str, Any]], bytes]:
    return lambda body: _signed({**body, **fields})


def _without(name: str) -> Callable[[dict[str, Any]], bytes]:
    return lambda body: _signed({k: v for k, v in body.items() if k != name})


def _tampered(body: dict[str, Any]) -> bytes:
    """Signed, then one byte of the signed text changed."""
    return _signed(body).replace(b'"throw"', b'"thrOw"', 1)


# name: (what it tests, section, expected error kind or "ok", how the entry is made from the good body)
VECTORS: dict[str, tuple[str, str, str, Callable[[dict[str, Any]], bytes]]] = {
    "entry-good": ("A good entry 0: every field of §7.2, signed by the referee.", "7.2", "ok", _signed),
    "entry-extra-field": ("A field §7.2 does not have, signed.", "7.2", "ledger", _with(extra="x")),
    "entry-missing-field": ("Field written left out, signed.", "7.2", "ledger", _without("written")),
    "entry-wrong-format": ("Format pbem-ledger-v1.", "7.2", "format", _with(format="pbem-ledger-v1")),
    "entry-other-game": ("Field game names another game.", "7.2", "ledger", _with(game="rps-elsewhere")),
    "entry-wrong-number": ("File 0000 says entry 1.", "7.2", "ledger", _with(entry=1)),
    "entry-wrong-kind": ("Entry 0 of kind step.", "7.2", "ledger", _with(kind="step")),
    "entry-dice-not-hex": ("Field dice is not 64 hex digits.", "8", "format", _with(dice="zz" * 32)),
    "entry-negative-deadline": ("Field deadline below 0.", "7.2", "format", _with(deadline=-1)),
    "entry-received-seq-0": ("A received seq of 0 (seqs start at 1).", "7.2", "format", _with(received={"north": 0})),
    "entry-defaulted-not-a-list": ("Field defaulted a string.", "7.2", "format", _with(defaulted="north")),
    "entry-tampered": ("One byte of the signed text changed after signing.", "7.1", "ledger", _tampered),
    "entry-signed-by-another-key": ("Signed by a key that is not the game's referee.", "7.1", "ledger",
                                    lambda body: _signed(body, OTHER)),
}


GOOD_RECEIPT: dict[str, Any] = {"order": "cd" * 32, "seq": 1, "received": T0 + 60, "deadline": T0 + 72 * 3600,
                                 "replaces": "", "seen": {"entry": "ef" * 32, "at": T0 + 30}}


def receipt(signer: PrivateIdentity = REFEREE, kind: str = "receipt", side: str = "north", game: str = "rps-vectors",
            **payload: Any) -> bytes:
    body = canonical_bytes({k: v for k, v in {**GOOD_RECEIPT, **payload}.items() if v is not None})
    return armor.armor(envelope.sign_only(signer, body, game=game, kind=kind, side=side, step=0,
                                          answers="ab" * 32)).encode("ascii")


# receipts (§9.2): name: (what it tests, section, expected error kind or "ok", the armored receipt)
RECEIPTS: dict[str, tuple[str, str, str, Callable[[], bytes]]] = {
    "receipt-good": ("A good receipt: sign-only, kind receipt, by the referee, every payload field.", "9.2", "ok",
                     receipt),
    "receipt-seq-0": ("Seq 0 (seqs start at 1).", "9.2", "format", lambda: receipt(seq=0)),
    "receipt-extra-field": ("A payload field §9.2 does not have.", "9.2", "format", lambda: receipt(extra=1)),
    "receipt-seen-missing": ("No seen in the payload.", "9.2", "format", lambda: receipt(seen=None)),
    "receipt-order-not-hex": ("Order not 64 hex digits.", "9.2", "format", lambda: receipt(order="xyz")),
    "receipt-negative-received": ("Received below 0.", "9.2", "format", lambda: receipt(received=-1)),
    "receipt-side-not-in-game": ("For a side the game does not have.", "9.2", "format",
                                 lambda: receipt(side="west")),
    "receipt-signed-by-another-key": ("Signed by a key that is not the referee's.", "4.5", "signature",
                                      lambda: receipt(signer=OTHER)),
}


def verify_summaries() -> str:
    """``verify``'s summary lines (§7.2, each entry with who owes next) of two games played from fixed
    keys: one of three steps to its end, one where south is given default orders after its deadline."""
    import sys
    import tempfile
    sys.path[:0] = [str(HERE.parents[1]), str(HERE.parent)]  # tests/ (support.rps_game), tests/core
    from core_support import Keys, fixed, order

    from pbem.core import game
    keys = Keys(fixed("referee", 1), fixed("north", 2), fixed("south", 3), fixed("outsider", 4))
    sides = {"north": keys.north.public, "south": keys.south.public}
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp) / "played"
        game.new_game(d, "rps", "standard", {}, keys.referee, sides, game_id="rps-played", chain_length=20, now=T0)
        for n, (north, south) in enumerate((("paper", "rock"), ("rock", "paper"), ("rock", "rock"))):
            game.adjudicate(d, keys.referee, [order(keys, d, "north", north), order(keys, d, "south", south)],
                            now=T0 + 600 * (n + 1))
        out += ledger.verify_game(d, now=T0 + 86_400)["lines"]
        d = Path(tmp) / "defaulted"
        game.new_game(d, "rps", "standard", {}, keys.referee, sides, game_id="rps-defaulted", chain_length=20,
                      deadline_hours=1, now=T0)
        game.receive_order(d, keys.referee, order(keys, d, "north", "paper"), now=T0 + 60)
        game.adjudicate(d, keys.referee, [], deadline_passed=True, now=T0 + 3600 + 60)
        out += ledger.verify_game(d, now=T0 + 86_400)["lines"]
    return "\n".join(out) + "\n"


def main(out: Path = HERE) -> None:
    man = manifest()
    man_hash = ledger.parse_manifest(man, "game.toml").hash
    for name, (description, section, expect, make) in VECTORS.items():
        doc = {"description": description, "section": section, "expect": expect, "number": 0,
               "manifest": man.decode("utf-8"), "entry": make(good_entry(man_hash)).decode("utf-8")}
        (out / f"{name}.toml").write_text(tomli_w.dumps(doc, multiline_strings=True), encoding="utf-8")
    (out / "verify-summary.txt").write_text(verify_summaries(), encoding="utf-8")
    for name, (description, section, expect, made) in RECEIPTS.items():
        doc = {"description": description, "section": section, "expect": expect, "manifest": man.decode("utf-8"),
               "receipt": made().decode("ascii")}
        (out / f"{name}.toml").write_text(tomli_w.dumps(doc, multiline_strings=True), encoding="utf-8")


if __name__ == "__main__":
    main()
