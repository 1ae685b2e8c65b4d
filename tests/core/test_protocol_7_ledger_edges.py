"""Edges of the ledger and the dice stream that once survived every test (issue 26's mutants):
an unknown side in ``owes`` (§7.2), verify's per-entry summary (§7.2, docs/protocol.md "verify"),
the deadline's cap of 100000 hours (§7.1, §8.3) and the extreme arguments of ``randbelow``
(docs/random-stream.md). Each test was checked by applying the mutant and watching it fail.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from core_support import T0, Keys, order
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.core import game, identity, ledger
from pbem.core.drbg import Drbg
from pbem.core.errors import FormatError, LedgerError

CAP = 100_000  # the largest deadline in hours a game may have (protocol §7.1)


def run(*args: object) -> tuple[int, str]:
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def _resign(path: Path, signer: identity.PrivateIdentity, domain: bytes, **fields: Any) -> bytes:
    doc = tomllib.loads(path.read_text(encoding="utf-8"))
    doc.pop("signature")
    doc.update(fields)
    return ledger.dump_signed(doc, signer, domain)


# --- §7.2: owes names sides of the game ---------------------------------------------------------------

@pytest.mark.parametrize("owes", [{"west": "throw"}, {"north": "throw", "west": "throw"}, {"": "throw"}])
def test_protocol_7_2_an_unknown_side_in_owes_is_a_ledger_error(fresh: Path, keys: Keys, owes: dict[str, str]) -> None:
    path = ledger.entry_path(fresh, 0)
    path.write_bytes(_resign(path, keys.referee, ledger.ENTRY_DOMAIN, owes=owes))
    unknown = sorted(set(owes) - {"north", "south"})[0]
    with pytest.raises(LedgerError, match=rf"field owes names unknown side '{unknown}' \(protocol §7\.2\)"):
        ledger.verify_game(fresh, now=T0 + 60)
    code, out = run("verify", fresh)
    assert code == 1 and f"unknown side '{unknown}'" in out


# --- verify's summary: each entry says who owes next ---------------------------------------------------

def test_protocol_7_2_verify_says_who_owes_after_each_entry(fresh: Path, keys: Keys) -> None:
    game.adjudicate(fresh, keys.referee, [order(keys, fresh, "north", "paper"), order(keys, fresh, "south", "rock")],
                    now=T0 + 120)
    lines = ledger.verify_game(fresh, now=T0 + 180)["lines"]
    entries = [line for line in lines if line.startswith("entry ")]
    owes = ledger.latest(fresh, ledger.read_manifest(fresh)).owes
    after = ", ".join(f"{s} owes {k}" for s, k in sorted(owes.items())) or "nobody owes"
    assert entries == ["entry 0000: setup; next: north owes throw, south owes throw",
                       f"entry 0001: step 0, orders from north, south; next: {after}"]
    code, out = run("verify", fresh)
    assert code == 0 and "entry 0000: setup; next: north owes throw, south owes throw" in out


def test_protocol_7_2_verify_says_nobody_owes_once_the_game_is_over(played: Path) -> None:
    lines = [line for line in ledger.verify_game(played)["lines"] if line.startswith("entry ")]
    assert lines[0].endswith("; next: north owes throw, south owes throw")
    assert lines[-1].endswith("; next: nobody owes") and all("nobody owes" not in x for x in lines[:-1])


# --- §7.1, §8.3: the deadline is 0 to 100000 hours -----------------------------------------------------

def _new(d: Path, keys: Keys, hours: int) -> None:
    game.new_game(d, "rps", "standard", {}, keys.referee, {"north": keys.north.public, "south": keys.south.public},
                  game_id="rps-cap", chain_length=5, deadline_hours=hours, now=T0)


def test_protocol_8_3_a_deadline_of_100000_hours_is_the_largest_a_game_may_have(tmp_path: Path, keys: Keys) -> None:
    _new(tmp_path / "cap", keys, CAP)
    man = ledger.read_manifest(tmp_path / "cap")
    assert man.deadline_hours == CAP and ledger.latest(tmp_path / "cap", man).deadline == T0 + CAP * 3600
    with pytest.raises(FormatError, match=r"from 0 to 100000, not 100001 \(protocol §8\.3\)"):
        _new(tmp_path / "over", keys, CAP + 1)
    assert not (tmp_path / "over").exists()


def test_protocol_7_1_a_manifest_with_a_deadline_over_100000_hours_is_refused(tmp_path: Path, keys: Keys) -> None:
    _new(tmp_path / "g", keys, 72)
    path = tmp_path / "g" / "game.toml"
    at_cap = _resign(path, keys.referee, ledger.MANIFEST_DOMAIN, deadline={"policy": "default-orders", "hours": CAP})
    assert ledger.parse_manifest(at_cap, "game.toml").deadline_hours == CAP
    over = _resign(path, keys.referee, ledger.MANIFEST_DOMAIN, deadline={"policy": "default-orders", "hours": CAP + 1})
    with pytest.raises(FormatError, match=r"hours = a whole number from 0 to 100000 \(protocol §7\.1\)"):
        ledger.parse_manifest(over, "game.toml")


def test_protocol_8_3_cli_game_new_takes_at_most_100000_deadline_hours(tmp_path: Path, keys: Keys) -> None:
    kdir = tmp_path / "keys"
    identity.save_private(keys.referee, kdir / "referee.key")
    for side in ("north", "south"):
        identity.save_public(getattr(keys, side), kdir / f"{side}.pub.toml")
    common = ["--ruleset", "rps", "--scenario", "standard", "--referee", kdir / "referee.key",
              "--side", f"north={kdir / 'north.pub.toml'}", "--side", f"south={kdir / 'south.pub.toml'}"]
    code, out = run("game", "new", tmp_path / "cap", *common, "--deadline-hours", CAP)
    assert code == 0 and ledger.read_manifest(tmp_path / "cap").deadline_hours == CAP, out
    code, out = run("game", "new", tmp_path / "over", *common, "--deadline-hours", CAP + 1)
    assert code != 0 and "100000" in out and not (tmp_path / "over").exists()


# --- docs/random-stream.md: randbelow(n) for 1 <= n <= 2**32 ----------------------------------------------

KEY = bytes(range(32))


def test_random_stream_randbelow_1_is_0_and_reads_one_word() -> None:
    d = Drbg(KEY)
    assert [d.randbelow(1) for _ in range(5)] == [0] * 5 and d.position == 5


def test_random_stream_randbelow_2_pow_32_is_the_word_itself() -> None:
    words = [Drbg(KEY, i).word() for i in range(6)]
    d = Drbg(KEY)
    assert [d.randbelow(2**32) for _ in range(6)] == words and d.position == 6


@pytest.mark.parametrize("n", [0, -1, 2**32 + 1])
def test_random_stream_randbelow_outside_1_to_2_pow_32_is_refused(n: int) -> None:
    with pytest.raises(ValueError, match=r"randbelow needs 1 <= n <= 2\*\*32"):
        Drbg(KEY).randbelow(n)
