"""Write draws.toml beside this script: expected draws for fixed stream keys (docs/draws.md).

Run from the repository root: ``python tests/e2e/vectors/generate_draws.py``. Made with the
rulesets' own draw code (Hammer's set-up and Scottish draw, Bagpipes' set-up with the sample
component file), so tests/e2e/test_draws_vectors.py can hold both pbem and a verifier written
from the text to the same numbers.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import tomli_w

from pbem.core.drbg import Drbg

HERE = Path(__file__).parent
KEYS = (bytes(32), hashlib.sha256(b"pbem draws vector").digest())


def hammer_cases() -> list[dict[str, Any]]:
    from pbem.hammer.ruleset import HammerRuleset
    cases = []
    for key in KEYS:
        state = HammerRuleset().setup("braveheart", {}, Drbg(key))
        levy, eng, sco = state["setup_log"]
        cases.append({"key": key.hex(), "what": "hammer set-up, braveheart", "levy_from": levy["drawn_from"],
                      "levy": levy["drawn"], "england": eng["dealt"], "scotland": sco["dealt"]})
        pool = ["Badenoch", "Bruce", "Comyn", "Douglas", "French Knights", "Moray", "Norse"]
        label = "7.62:Lennox:2"
        cases.append({"key": key.hex(), "what": "pick one (a Scottish draw)", "label": label, "from": pool,
                      "picked": pool[Drbg(key).for_draw(label).randbelow(len(pool))]})
    return cases


def bagpipes_cases() -> list[dict[str, Any]]:
    from pbem.bagpipes.ruleset import BagpipesRuleset
    cases = []
    for key in KEYS:
        for players in (2, 4):
            rules = BagpipesRuleset(players)
            rng = Drbg(key)
            secrets = rules.secrets(rules.setup("standard", {"players": players}, rng))
            board = rules.public(rules.setup("standard", {"players": players}, Drbg(key)))
            cases.append({"key": key.hex(), "what": f"bagpipes set-up, {players} players, sample components",
                          "players": players, "badge": board["badge"], "round_deck_after_reveal": secrets["round_deck"],
                          "bagpipe_deck_after_deal": secrets["bagpipe_deck"],
                          "dagger_deck": secrets["dagger_deck"], "position_after": rng.position})
    return cases


def main(out: Path = HERE) -> None:
    doc = {"description": "expected draws for fixed stream keys (docs/draws.md); keys are the stream's own key "
                          "(seed_0 for a set-up)", "hammer": hammer_cases(), "bagpipes": bagpipes_cases()}
    (out / "draws.toml").write_text(tomli_w.dumps(doc), encoding="utf-8")


if __name__ == "__main__":
    main()
