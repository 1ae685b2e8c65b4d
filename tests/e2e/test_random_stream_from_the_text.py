"""docs/random-stream.md and docs/protocol.md §8, read as a third party reads them: every die
shown in every report of a finished game is recomputed from the reveal bundle and the public
folder with code written here from the text alone (its own HMAC-SHA256 stream and its own seed
derivation), never with pbem.core.drbg, pbem.core.beacon or the engine's random code.

The game is a real one (``pbem demo``'s bot game through sealed files, with fresh keys and game
id, so a new game each run); the reports are opened with each side's key, as the player would.
Whether that game pauses a battle for a question is chance: tests/hammer/test_random_stream_replay.py
checks the replay of a paused call with its old key on a battle that always pauses.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import tomllib
from pathlib import Path
from typing import Any

import pytest

from pbem.core import audit as audit_mod
from pbem.core import game as core_game
from pbem.core import identity
from pbem.hammer.demo import play_bot_game

SIDES = ("england", "scotland")
LIMIT_D6 = 2**32 - 2**32 % 6


# --- protocol.md §1, §8: the seed of entry e (the one function that changes with the protocol) ---

def lp(data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + data


def u64be(n: int) -> bytes:
    return n.to_bytes(8, "big")


def seed(dice_secret: bytes, game: str, e: int, r_e: bytes, entropies: list[tuple[str, bytes]]) -> bytes:
    """§8, protocol v2: k_e = HMAC(x, "pbem-step-key-v2" || lp(game) || u64be(e));
    seed_e = HMAC(k_e, "pbem-seed-v2" || lp(game) || u64be(e) || lp(r_e) || u32be(n)
                  || n x (lp(side) || lp(entropy)))."""
    g = game.encode()
    k_e = hmac.new(dice_secret, b"pbem-step-key-v2" + lp(g) + u64be(e), hashlib.sha256).digest()
    msg = b"pbem-seed-v2" + lp(g) + u64be(e) + lp(r_e) + len(entropies).to_bytes(4, "big")
    for side, entropy in entropies:
        msg += lp(side.encode()) + lp(entropy)
    return hmac.new(k_e, msg, hashlib.sha256).digest()


def entropy_of(item: dict[str, Any]) -> bytes:
    """A side's raw 32-byte entropy from its bundle item (§8.2, §9): H("pbem-entropy-v2" || proof),
    where proof is the raw 64-byte signature (base64 in the bundle); it must equal the item's entropy."""
    if "proof" not in item:
        return bytes.fromhex(item["entropy"])
    entropy = hashlib.sha256(b"pbem-entropy-v2" + base64.b64decode(item["proof"])).digest()
    assert "entropy" not in item or item["entropy"] == entropy.hex()
    return entropy


# --- docs/random-stream.md ------------------------------------------------------------------------

def block(key: bytes, i: int) -> bytes:
    return hmac.new(key, b"pbem-drbg-v1" + u64be(i), hashlib.sha256).digest()


def word(key: bytes, w: int) -> int:
    b = block(key, w // 8)
    return int.from_bytes(b[4 * (w % 8): 4 * (w % 8) + 4], "big")


def call_key(step_seed: bytes, k: int) -> bytes:
    """"Engine calls": call k's key is words 8k .. 8k+7 of the step stream, i.e. its block k."""
    return b"".join(word(step_seed, 8 * k + j).to_bytes(4, "big") for j in range(8))


def h_n(data: bytes, n: int) -> bytes:
    for _ in range(n):
        data = hashlib.sha256(data).digest()
    return data


# --- the dice a report shows -------------------------------------------------------------------------

def dice_of(report: dict[str, Any]) -> list[tuple[list[int], int, int, str]]:
    """Every die in the report's log and paused battle: (stream, value, index, where)."""
    lines = list(report.get("log", [])) + list(((report.get("view") or {}).get("fight") or {}).get("log", []))
    out = []
    for e in lines:
        if e.get("what") == "fire":
            out += [(e["stream"], d["value"], d["index"], f"fire {e.get('block')}") for d in e["dice"]]
        elif "die" in e:
            out.append((e["stream"], e["die"], e["index"] if "index" in e else e["die_index"], str(e.get("what"))))
    return out


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any], dict[str, Any]]:
    folder = tmp_path_factory.mktemp("dice")
    summary = play_bot_game(folder, "braveheart", bot={"england": "random", "scotland": "random"}, seed=b"dice")
    assert summary.winner and summary.verified and summary.audited
    keys = {n: identity.load_private(folder / "keys" / f"{n}.key") for n in ("referee", *SIDES)}
    return folder / "game", audit_mod.make_reveal(folder / "game", keys["referee"]), keys


@pytest.mark.slow
def test_random_stream_every_die_of_a_finished_game_is_recomputed_from_the_text(finished: Any) -> None:
    game_dir, bundle, keys = finished
    manifest = tomllib.loads((game_dir / "game.toml").read_text(encoding="utf-8"))
    x, n = bytes.fromhex(bundle["dice_secret"]), int(manifest["dice"]["length"])
    game = manifest["game"]
    assert h_n(x, n).hex() == manifest["dice"]["anchor"]
    entries = [tomllib.loads(p.read_text(encoding="utf-8")) for p in sorted((game_dir / "ledger").glob("*.toml"))]
    seeds: dict[int, bytes] = {}
    for e, entry in enumerate(entries):
        r_e = h_n(x, n - 1 - e)
        assert r_e.hex() == entry["dice"]
        if e == 0:
            items = bundle["joins"]
            owed = [s for s in manifest["sides"] if s in items]
        else:
            items = bundle["orders"].get(f"{e - 1:04d}", {})
            owed = [s for s in manifest["sides"] if s in entries[e - 1]["owes"]]
        entropies = [(s, entropy_of(items[s]) if s in items else b"") for s in owed]
        assert [s for s in owed if s not in items] == sorted(entry.get("defaulted", []))
        seeds[e] = seed(x, game, e, r_e, entropies)
    checked = 0
    for e in range(len(entries)):
        for side in SIDES:
            path = game_dir / "reports" / f"{e:04d}-{side}.pbem"
            if not path.exists():
                continue
            report = core_game.open_report(path, keys[side], game_dir)
            for (at, k), value, index, where in dice_of(report):
                assert 1 <= at <= e, (e, side, where)
                w = word(call_key(seeds[at], k), index)
                assert w < LIMIT_D6 and w % 6 + 1 == value, (e, side, where, at, k, index)
                checked += 1   # dice of a call resumed after a decision (at < e) included
    assert checked > 100
