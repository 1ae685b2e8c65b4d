"""Writes the audit vectors beside this file (docs/protocol.md §9, §9.2, §2, §4.4, §8).

The reveal bundle holds the game's dice secret, drawn at random when the game is made, and every
order and report is sealed with HPKE (a random ephemeral key), so a finished game cannot be remade
byte for byte. One small rock-paper-scissors game, played from fixed keys (north's order received
in time, with its receipt; south defaulted after the deadline), was therefore played once and is
stored in ``game.toml`` (its public folder, its reveal bundle and north's receipt), and is reused on
every later run. ``audit-good.toml`` is that bundle; each other vector makes ONE edit to it (or adds
one receipt) and says which error kind and section the audit must answer with.

    python tests/core/audit_vectors/generate.py
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import tomli_w

HERE = Path(__file__).parent
T0 = 1_700_000_000  # when the stored game was made (unix seconds, in the past)
NOW = T0 + 86_400   # the clock its audit is run at


def _keys() -> Any:
    import sys
    sys.path[:0] = [str(HERE.parents[1]), str(HERE.parent)]  # tests/ (support.rps_game), tests/core
    from core_support import Keys, fixed
    return Keys(fixed("referee", 1), fixed("north", 2), fixed("south", 3), fixed("outsider", 4))


def play(out: Path) -> None:
    """Play the stored game once into ``out``/game.toml (run only when that file is missing)."""
    keys = _keys()
    from core_support import order

    from pbem.core import audit, game
    sides = {"north": keys.north.public, "south": keys.south.public}
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp) / "game"
        game.new_game(d, "rps", "standard", {}, keys.referee, sides, game_id="rps-audit", chain_length=20,
                      deadline_hours=1, now=T0)
        got = game.receive_order(d, keys.referee, order(keys, d, "north", "paper"), now=T0 + 60)
        game.adjudicate(d, keys.referee, [], deadline_passed=True, now=T0 + 3600 + 60)
        bundle = audit.dump_reveal(audit.make_reveal(d, keys.referee, now=NOW))
        files = {str(p.relative_to(d)): p.read_text(encoding="utf-8") for p in sorted(d.rglob("*"))
                 if p.is_file() and ".pbem" not in p.relative_to(d).parts}
    doc = {"description": "One rock-paper-scissors game played from fixed keys, stored once (see generate.py).",
           "files": files, "bundle": bundle, "receipt": got.armored}
    (out / "game.toml").write_text(tomli_w.dumps(doc, multiline_strings=True), encoding="utf-8")


def stored() -> dict[str, Any]:
    import tomllib
    if not (HERE / "game.toml").exists():
        play(HERE)
    return tomllib.loads((HERE / "game.toml").read_text(encoding="utf-8"))


def _edited(edit: Callable[[dict[str, Any]], None]) -> Callable[[str], str]:
    def make(text: str) -> str:
        from pbem.core import audit
        bundle = json.loads(text)
        edit(bundle)
        return audit.dump_reveal(bundle)
    return make


def _set(*path_and_value: Any) -> Callable[[dict[str, Any]], None]:
    *path, value = path_and_value
    def edit(bundle: dict[str, Any]) -> None:
        here = bundle
        for key in path[:-1]:
            here = here[key]
        here[path[-1]] = value
    return edit


def _forged_receipt(game: dict[str, Any]) -> str:
    """A receipt the referee signs for an in-time order of south, whom the ledger defaulted (§9.2):
    north's receipt with south's side and another order."""
    from pbem.core import ledger, receipts
    man = ledger.parse_manifest(game["files"]["game.toml"].encode("utf-8"), "game.toml")
    north = receipts.parse(game["receipt"], man)
    return receipts.issue(_keys().referee, north.game, north.step, "south", north.answers, 1, "cd" * 32,
                          north.received, north.deadline, "", north.seen_entry, north.seen_at).armored


# name: (what it tests, section, expected error kind or "ok", how the bundle text is made from the good one,
#        whether the vector carries the forged receipt)
VECTORS: dict[str, tuple[str, str, str, Callable[[str], str], bool]] = {
    "audit-good": ("The reveal bundle of the stored game, with north's receipt: the audit passes.", "9", "ok",
                   lambda text: text, False),
    "audit-wrong-dice-secret": ("The dice secret changed: it does not hash to the manifest's anchor.", "8", "audit",
                                _edited(_set("dice_secret", "00" * 32)), False),
    "audit-wrong-order-key": ("The content key of north's order changed: it does not match the envelope's kc.",
                              "4.4", "decrypt", _edited(_set("orders", "0000", "north", "key", "00" * 32)), False),
    "audit-altered-order": ("North's order in the bundle says scissors, not the paper it signed.", "9", "audit",
                            _edited(_set("orders", "0000", "north", "order", "throw", "scissors")), False),
    "audit-receipt-defaulted": ("A referee-signed receipt of an in-time order of south, whom the ledger defaulted.",
                                "9.2", "audit", lambda text: text, True),
    "audit-not-canonical": ("The bundle with a space after its first colon: not canonical JSON.", "2", "format",
                            lambda text: text.replace(":", ": ", 1), False),
}


def main(out: Path = HERE) -> None:
    game = stored()
    for name, (description, section, expect, make, forged) in VECTORS.items():
        doc = {"description": description, "section": section, "expect": expect, "bundle": make(game["bundle"]),
               "receipts": [game["receipt"]] + ([_forged_receipt(game)] if forged else [])}
        (out / f"{name}.toml").write_text(tomli_w.dumps(doc, multiline_strings=True), encoding="utf-8")
    if out != HERE:
        (out / "game.toml").write_bytes((HERE / "game.toml").read_bytes())


if __name__ == "__main__":
    main()
