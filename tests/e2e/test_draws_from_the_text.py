"""docs/draws.md, docs/random-stream.md and docs/protocol.md (§3, §4, §6, §8, §9), read as a third
party reads them: with nothing but the public folder of a finished game and its reveal bundle (no
player's key), every report is opened with the content key the bundle reveals, and every die and
every draw of the game is recomputed with code written here from the text alone (hashlib, hmac,
an AEAD library; never pbem's stream, seeds, envelopes or rules).

The games are real ones played through the protocol by pbem's bots (a whole Hammer game; whole
Swords and Bagpipes games at 2 and 4 players); pbem makes them and the bundle, and nothing else.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

LIMIT_D6 = 2**32 - 2**32 % 6
CARDS = ("herald move1-1 move1-2 move1-3 move1-4 move1-5 move1-6 move1-7 move2-1 move2-10 move2-2 move2-3 "
         "move2-4 move2-5 move2-6 move2-7 move2-8 move2-9 move3-1 move3-2 move3-3 pillage sea_move truce "
         "victuals").split()  # docs/draws.md "Card ids"


# --- protocol.md §1, §2 ------------------------------------------------------------------------------

def lp(data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + data


def u64be(n: int) -> bytes:
    return n.to_bytes(8, "big")


def canonical(x: Any) -> bytes:
    return json.dumps(x, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


# --- docs/random-stream.md ----------------------------------------------------------------------------

class Stream:
    """The words of stream(key) read from ``at``; randbelow, d6 and shuffled as the text defines them."""

    def __init__(self, key: bytes, at: int = 0) -> None:
        self.key, self.at = key, at

    def word(self) -> int:
        block = hmac.new(self.key, b"pbem-drbg-v1" + u64be(self.at // 8), hashlib.sha256).digest()
        w = int.from_bytes(block[4 * (self.at % 8): 4 * (self.at % 8) + 4], "big")
        self.at += 1
        return w

    def randbelow(self, n: int) -> int:
        limit = 2**32 - 2**32 % n
        while (v := self.word()) >= limit:
            pass
        return v % n

    def shuffled(self, items: list[Any]) -> list[Any]:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.randbelow(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


def h_n(data: bytes, n: int) -> bytes:
    for _ in range(n):
        data = hashlib.sha256(data).digest()
    return data


# --- protocol.md §8: seed_e; random-stream.md: the key a line's "stream" names ---------------------------

def seeds(game_dir: Path, bundle: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]], dict[int, bytes]]:
    manifest = tomllib.loads((game_dir / "game.toml").read_text(encoding="utf-8"))
    x, n, game = bytes.fromhex(bundle["dice_secret"]), int(manifest["dice"]["length"]), manifest["game"]
    assert h_n(x, n).hex() == manifest["dice"]["anchor"]
    entries = [tomllib.loads(p.read_text(encoding="utf-8")) for p in sorted((game_dir / "ledger").glob("*.toml"))]
    out: dict[int, bytes] = {}
    for e, entry in enumerate(entries):
        r_e = h_n(x, n - 1 - e)
        assert r_e.hex() == entry["dice"]
        items = bundle["joins"] if e == 0 else bundle["orders"].get(f"{e - 1:04d}", {})
        owed = [s for s in manifest["sides"] if (s in items if e == 0 else s in entries[e - 1]["owes"])]
        entropies = []
        for s in owed:
            entropy = hashlib.sha256(b"pbem-entropy-v2" + base64.b64decode(items[s]["proof"])).digest() \
                if s in items else b""
            entropies.append((s, entropy))
        k_e = hmac.new(x, b"pbem-step-key-v2" + lp(game.encode()) + u64be(e), hashlib.sha256).digest()
        msg = b"pbem-seed-v2" + lp(game.encode()) + u64be(e) + lp(r_e) + len(entropies).to_bytes(4, "big")
        for side, entropy in entropies:
            msg += lp(side.encode()) + lp(entropy)
        out[e] = hmac.new(k_e, msg, hashlib.sha256).digest()
    return manifest, entries, out


def key_of(stream: list[int], seed: dict[int, bytes]) -> bytes:
    """[e]: the stream of seed_e itself; [e, k]: call k's key, block k of stream(seed_e)."""
    if len(stream) == 1:
        return seed[stream[0]]
    e, k = stream
    return hmac.new(seed[e], b"pbem-drbg-v1" + u64be(k), hashlib.sha256).digest()


# --- protocol.md §3, §4, §6, §7.4, §9: a report opened with the key the bundle reveals --------------------

def dearmor(text: str) -> bytes:
    lines = [line.rstrip("\r") for line in text.split("\n")]
    body = lines[lines.index("-----BEGIN PBEM ENVELOPE-----") + 1: lines.index("-----END PBEM ENVELOPE-----")]
    return base64.b64decode("".join(body), validate=True)


def open_report(path: Path, k: bytes, entry: dict[str, Any], state_secret: bytes, game: str) -> dict[str, Any]:
    raw = dearmor(path.read_text(encoding="ascii"))
    assert raw[:8] == b"PBEMenv2"
    hlen = int.from_bytes(raw[8:12], "big")
    header_bytes = raw[12:12 + hlen]
    header = json.loads(header_bytes)
    blen = int.from_bytes(raw[12 + hlen:16 + hlen], "big")
    body = raw[16 + hlen:16 + hlen + blen]
    assert header["kc"] == hashlib.sha256(b"pbem-envelope-v2-key-commitment" + k).hexdigest()  # §4.4
    hh = hashlib.sha256(header_bytes).digest()
    padded = ChaCha20Poly1305(k).decrypt(bytes(12), body[80 * len(header["to"]):], hh)
    payload = json.loads(padded[4:4 + int.from_bytes(padded[:4], "big")])
    label = f"report.{header['side']}".encode()
    salt = hmac.new(state_secret, b"pbem-salt-v2" + lp(game.encode()) + u64be(header["step"]) + lp(label),
                    hashlib.sha256).digest()
    assert payload["salt"] == salt.hex()  # §6: and the report is the one the ledger commits to
    commit = hashlib.sha256(b"pbem-commit-v2" + lp(label) + salt + canonical(payload["report"])).hexdigest()
    assert commit == entry["reports"][header["side"]]
    report: dict[str, Any] = payload["report"]
    return report


def reports(game_dir: Path, bundle: dict[str, Any], manifest: dict[str, Any],
            entries: list[dict[str, Any]]) -> dict[tuple[int, str], dict[str, Any]]:
    """Every report of the game, opened with the bundle's keys alone."""
    out = {}
    for e, entry in enumerate(entries):
        for side in manifest["sides"]:
            k = bytes.fromhex(bundle["reports"][f"{e:04d}"][side])
            out[(e, side)] = open_report(game_dir / "reports" / f"{e:04d}-{side}.pbem", k, entry,
                                         bytes.fromhex(bundle["state_secret"]), manifest["game"])
    return out


def bundle_of(game_dir: Path, referee_key: Path, tmp: Path) -> dict[str, Any]:
    """The referee publishes the bundle (``pbem game reveal``); from here on only its text is read."""
    from typer.testing import CliRunner

    from pbem.cli.main import app
    out = tmp / "reveal.json"
    result = CliRunner().invoke(app, ["game", "reveal", str(game_dir), "--key", str(referee_key), "--out", str(out)])
    assert result.exit_code == 0, result.output
    raw = out.read_bytes()
    bundle: dict[str, Any] = json.loads(raw)
    assert canonical(bundle) == raw  # §9: the bundle is canonical JSON
    return bundle


# --- Hammer -------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def hammer_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """The run's finished Hammer game with more than 100 dice, played by pbem's bots (shared with the
    random-stream test: e2e_support.finished_hammer_game), copied here before its bundle is made."""
    import shutil

    from e2e_support import finished_hammer_game
    folder = tmp_path_factory.mktemp("hammer-draws")
    shutil.copytree(finished_hammer_game(tmp_path_factory), folder, dirs_exist_ok=True)
    return folder / "game", bundle_of(folder / "game", folder / "keys" / "referee.key", folder)


def hammer_dice(line: dict[str, Any]) -> list[tuple[int, int]]:
    if line.get("what") == "fire":
        return [(d["value"], d["index"]) for d in line["dice"]]
    if "die" in line:
        return [(line["die"], line["index"] if "index" in line else line["die_index"])]
    return []


def draw_key(key: bytes, label: str) -> bytes:
    """docs/draws.md "Common rules": a Hammer draw reads the stream keyed HMAC(K, "pbem-draw-v1" || label)."""
    return hmac.new(key, b"pbem-draw-v1" + label.encode(), hashlib.sha256).digest()


def check_hammer_draw(line: dict[str, Any], side: str, seed: dict[int, bytes]) -> str:
    """docs/draws.md "Checking a line"; returns what was checked."""
    w = Stream(draw_key(key_of(line["stream"], seed), line["draw"]))
    if "dealt" in line:
        s = w.shuffled(CARDS)
        assert line["dealt"] == sorted(s[0:5] if side == "england" else s[5:10])
        return "deal"
    if isinstance(line["drawn"], list):
        assert line["drawn"] == sorted(w.shuffled(line["drawn_from"])[:len(line["drawn"])])
        assert line["drawn_from"] == sorted(line["drawn_from"])
        return "levy"
    assert line["drawn"] == line["drawn_from"][w.randbelow(len(line["drawn_from"]))]
    return "scottish draw"


@pytest.mark.slow
def test_draws_every_die_and_draw_of_a_hammer_game_is_recomputed_from_the_text(hammer_game: Any) -> None:
    game_dir, bundle = hammer_game
    manifest, entries, seed = seeds(game_dir, bundle)
    opened = reports(game_dir, bundle, manifest, entries)
    dice = 0
    draws: dict[str, int] = {}
    for (e, side), report in sorted(opened.items()):
        lines = list(report.get("log", [])) + list(((report.get("view") or {}).get("fight") or {}).get("log", []))
        for line in lines:
            assert "stream" in line, line
            for value, index in hammer_dice(line):
                w = Stream(key_of(line["stream"], seed), index).word()
                assert w < LIMIT_D6 and w % 6 + 1 == value, (e, side, line)
                dice += 1
            if "dealt" in line or "drawn_from" in line:
                what = check_hammer_draw(line, side, seed)
                draws[what] = draws.get(what, 0) + 1
        if e == 0:  # the set-up's own draws (docs/draws.md "Set-up")
            setup = [line for line in report["log"] if line.get("what") == "setup"]
            assert [line.get("rule") for line in setup] == (["8.0", "3.0"] if side == "england" else ["3.0"])
            assert all(line["stream"] == [0] for line in setup)
            assert report["view"]["hand"] == setup[-1]["dealt"] if "hand" in report["view"] else True
    years = sum(1 for (_, side), r in opened.items() if side == "england"
                for line in r["log"] if line.get("step") == "7.8" and "year" in line)
    assert draws["deal"] == 2 * (1 + years)  # every hand of the game was dealt by a checked shuffle
    assert draws["levy"] >= 1 + min(years, 1) and dice > 100
    assert bundle["lines"] == {} and all("line" not in line for r in opened.values() for line in r["log"])


# --- Swords and Bagpipes ---------------------------------------------------------------------------------

def components(game_dir: Path) -> dict[str, Any]:
    return tomllib.loads((game_dir / "components.toml").read_text(encoding="utf-8"))


def bagpipes_setup(comps: dict[str, Any], options: dict[str, Any], seed0: bytes) -> dict[str, Any]:
    """docs/draws.md, Swords and Bagpipes "Set-up": the stream of seed_0 from word 0."""
    w = Stream(seed0)
    n = int(options["players"])
    seats = [f"clan{i}" for i in range(1, n + 1)]
    badge = options.get("start_seat") or seats[w.randbelow(n)]
    stay_home = ""
    if options.get("stay_home"):
        others = [s for s in seats if s != badge]
        stay_home = options.get("stay_home_first") or others[w.randbelow(len(others))]
    cards = comps["round_cards"]
    out = [c["id"] for c in cards if n in c.get("excluded_players", [])
           or (n == 3 and c.get("refers_to_badge", False) and c["back"] == "grey")]
    reds = [c["id"] for c in cards if c["back"] == "red" and c["id"] not in out]
    greys = [c["id"] for c in cards if c["back"] == "grey" and c["id"] not in out]
    red = reds[w.randbelow(len(reds))]
    greys = w.shuffled(greys)
    rounds = int(options.get("rounds", 7))
    pipes = w.shuffled([f"{c['id']}#{k}" for c in comps["bagpipe_cards"] for k in range(1, int(c["copies"]) + 1)])
    daggers = [f"d{v}#{k}" for v in (1, 2, 3) for k in range(1, int(comps["daggers"].get(str(v), 0)) + 1)]
    if n == 2:
        dagger_deck: list[str] = []
    elif options.get("precise_daggers"):
        pool, dagger_deck = list(daggers), []
        for _ in range(2):
            five = []
            for value, m in ((1, 1), (2, 2), (3, 2)):
                picks = [c for c in pool if c.startswith(f"d{value}#")][:m]
                five += picks
                for c in picks:
                    pool.remove(c)
            dagger_deck += w.shuffled(five)
        dagger_deck += w.shuffled(pool)
    else:
        dagger_deck = w.shuffled(daggers)
    return {"badge": badge, "stay_home": stay_home, "round_deck": greys[:rounds - 1] + [red], "bagpipe_deck": pipes,
            "dagger_deck": dagger_deck}


@pytest.fixture(scope="module", params=[2, 4])
def bagpipes_game(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Any:
    from pbem.bagpipes.play import play_protocol_game
    root = tmp_path_factory.mktemp(f"bagpipes-{request.param}")
    sample = Path(__file__).resolve().parents[2] / "pbem" / "bagpipes" / "data" / "sample-components.toml"
    summary = play_protocol_game(root / "game", request.param, seed=b"draws", components=sample)
    assert summary.verified and summary.audited, summary.problems
    from pbem.core import identity
    seed = b"draws"
    digest = hashlib.sha256(seed + b"referee").digest()
    key = identity.from_seeds("referee", digest, hashlib.sha256(digest + bytes([0])).digest())
    identity.save_private(key, root / "referee.key")
    return root / "game", bundle_of(root / "game", root / "referee.key", root)


@pytest.mark.slow
def test_draws_every_draw_of_a_bagpipes_game_is_recomputed_from_the_text(bagpipes_game: Any) -> None:
    game_dir, bundle = bagpipes_game
    manifest, entries, seed = seeds(game_dir, bundle)
    options = json.loads(manifest["options"])
    opened = reports(game_dir, bundle, manifest, entries)
    made = bagpipes_setup(components(game_dir), options, seed[0])
    pipes, daggers, rounds = made["bagpipe_deck"], made["dagger_deck"], made["round_deck"]
    pile: list[str] = []   # the dagger discard pile since the last reshuffle (docs/draws.md "During play")
    checked: dict[str, int] = {}
    for e in range(len(entries)):
        merged: dict[int, dict[str, Any]] = {}  # docs/draws.md "Line numbers": the bundle's lines place each line
        for side in manifest["sides"]:
            log, places = opened[(e, side)]["log"], bundle["lines"][f"{e:04d}"][side]
            assert len(places) == len(log) and places == sorted(set(places))
            for n, (line, at) in enumerate(zip(log, places)):
                assert line["stream"] == [e], line   # every line names its stream
                assert line["line"] == n, line       # numbered among the lines this seat sees, no gap
                line = {k: v for k, v in line.items() if k != "line"}
                assert merged.setdefault(at, line) == line
        assert sorted(merged) == list(range(len(merged)))  # the reports of all seats give the step's whole log
        for _, line in sorted(merged.items()):
            event = line["event"]
            if event == "setup":
                assert (line["badge"], line["stay_home"], line["stream_at"]) == (made["badge"], made["stay_home"], 0)
            elif event in ("you_draw", "redraw"):
                assert line["card"] == pipes.pop(0), line
            elif event == "your_dagger":
                assert line["card"] == daggers.pop(0), line
            elif event == "invasion":
                assert line["card"] == rounds.pop(0), line
            elif event == "reshuffle":
                w = Stream(key_of(line["stream"], seed), line["stream_at"])
                if line["deck"] == "bagpipe":
                    pipes = w.shuffled(line["drawn_from"])
                else:
                    daggers, pile = w.shuffled(sorted(pile)), []
            elif event in ("your_discard", "random_dagger"):
                if "draw" in line:
                    w = Stream(draw_key(key_of(line["stream"], seed), line["draw"]))
                    assert line["card"] == line["drawn_from"][w.randbelow(len(line["drawn_from"]))], line
                    checked["pick"] = checked.get("pick", 0) + 1
                if event == "your_discard":
                    pile.append(line["card"])
            else:
                continue
            checked[event] = checked.get(event, 0) + 1
    assert checked["setup"] == 1 and checked["you_draw"] >= len(manifest["sides"]) - 1 and checked["invasion"] >= 2
