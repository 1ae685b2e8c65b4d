"""Write ``hidden_game/``: one whole peer game with hidden facts and a deal (docs/protocol.md §13.8, §13.10, §13.11).

Run from the repository root: ``python tests/core/vectors/generate_hidden_game.py``. The game is the
tests' hidden duel (tests/support/hidden_duel.py: its rules are in its docstring), two rounds, with a
deal of four cards, played by the tests' two-folder harness; the script keeps north's public folder
(``game.toml``, ``messages/``, ``ledger/``). Salts, deal keys and signing keys are fresh each run, so a
new run writes another game: a third party checks the stored one by recomputing every entry from the
manifest and the messages (13.4, 13.10, 13.11), and tests/core/test_protocol_13_10_vectors.py does.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).parent
sys.path[:0] = [str(HERE.parent), str(HERE.parents[1])]  # tests/core (the harness) and tests/ (support)


def main() -> None:
    from test_protocol_13_10_hidden_facts import SIDES, Duel, order

    from pbem.core.peer import folder as peer

    out = HERE / "hidden_game"
    with tempfile.TemporaryDirectory() as tmp:
        d = Duel(Path(tmp), rounds=2, cards=True)
        d.start()
        d.round({"north": order("north", "hidden.north.0", card="card.north.0"),
                 "south": order("south", "hidden.south.0", charge=True)})
        d.play_out()
        assert peer.audit(d.dirs["south"])[-1].startswith("audit ok")
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir()
        shutil.copy(d.dirs["north"] / "game.toml", out / "game.toml")
        for sub in ("messages", "ledger"):
            shutil.copytree(d.dirs["north"] / sub, out / sub)
    print(f"wrote {out} ({len(list((out / 'messages').iterdir()))} messages, "
          f"{len(list((out / 'ledger').iterdir()))} entries); sides {', '.join(SIDES)}")


if __name__ == "__main__":
    main()
