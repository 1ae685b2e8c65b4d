"""Time the referee cannot fake (protocol §8.3, §9.2; issue 22, "The clock").

Each test plays a hostile referee with the library's own functions and a fake clock (every core
function that reads the clock takes ``now``), running patched code where honest code refuses, and
shows which of the players' tools catches it.
"""

from __future__ import annotations

import shutil
import time
import tomllib
from pathlib import Path
from typing import Any

import pytest
from core_support import Keys, order, snapshot
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.core import audit, game, identity, ledger, seen
from pbem.core.errors import AuditError, LedgerError, PbemError, ReplayError

NOW = (int(time.time()) // 3600 - 1) * 3600  # when the players look: an hour ago, on the hour
HOURS = 72
SIDES = ("north", "south")


def _new(d: Path, keys: Keys, written: int, hours: int = HOURS) -> None:
    game.new_game(d, "rps", "standard", {}, keys.referee, {"north": keys.north.public, "south": keys.south.public},
                  game_id="rps-clock", chain_length=20, deadline_hours=hours, now=written)


def _publish(referee: Path, player: Path) -> None:
    """The player's copy of the public record (the referee's private area stays behind)."""
    for name in ("game.toml", "ledger", "orders", "reports", "state"):
        src, dst = referee / name, player / name
        if src.is_dir():
            shutil.rmtree(dst, ignore_errors=True)
            shutil.copytree(src, dst)
        elif src.exists():
            player.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dst)


def _look(player: Path, now: int) -> None:
    """The player's client reads its folder at ``now``: it notes its first sight of the latest entry."""
    with seen.recording(now):
        ledger.read_manifest(player)


def _resign_last(d: Path, keys: Keys, **fields: Any) -> None:
    """A referee writing the latest entry by hand: new field values, signed with its key."""
    n = ledger.entry_numbers(d)[-1]
    path = ledger.entry_path(d, n)
    doc = tomllib.loads(path.read_text(encoding="utf-8"))
    doc.pop("signature")
    doc.update(fields)
    path.write_bytes(ledger.dump_signed(doc, keys.referee, ledger.ENTRY_DOMAIN))


def _hostile(monkeypatch: pytest.MonkeyPatch) -> None:
    """The referee runs patched code: it takes late orders and any first sight, and defaults at will."""
    monkeypatch.setattr(game, "_received_at", lambda man, entry, now, extended=None: max(now, entry.written),
                        raising=False)
    monkeypatch.setattr(game, "check_seen", lambda *a: None, raising=False)
    monkeypatch.setattr(game, "_check_deadline_passed", lambda *a: None)


def run(*args: object) -> tuple[int, str]:
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def test_protocol_8_3_a_backdated_entry_and_the_outcome_chosen_by_simulation_are_caught(
        tmp_path: Path, keys: Keys, monkeypatch: pytest.MonkeyPatch) -> None:
    """The referee's clock is set back 80 hours: entry 0's deadline has passed when the players first
    see it. It receives both orders, simulates play-both / default-north / default-south with both
    entropies in hand and publishes the one it likes. The public record alone verifies; the players'
    first sights, carried by their orders and echoed by their receipts, catch it."""
    ref, players = tmp_path / "referee", {s: tmp_path / s for s in SIDES}
    _new(ref, keys, written=NOW - 80 * 3600)
    deadline = ledger.latest(ref, ledger.read_manifest(ref)).deadline
    assert deadline == NOW - 8 * 3600  # already past when anyone but the referee sees it
    orders = {}
    for side, folder in players.items():
        _publish(ref, folder)
        _look(folder, NOW)  # the first sight of entry 0, in the player's own folder
        orders[side] = game.write_order(folder, getattr(keys, side), side, 0, {"side": side, "step": 0,
                                                                               "throw": "paper" if side == "north"
                                                                               else "rock"}, now=NOW + 60)
        assert f'"at":{NOW}' not in orders[side]  # sealed, so nothing shows; the referee reads it inside
    # Honest code refuses both orders unopened: the deadline has passed (§8.3).
    before = snapshot(ref)
    with pytest.raises(ReplayError, match="too late and was not opened"):
        game.receive_order(ref, keys.referee, orders["north"], now=NOW + 120)
    assert snapshot(ref) == before
    # The hostile referee takes them, with receipts, and plays each outcome on a copy.
    _hostile(monkeypatch)
    held = {s: game.receive_order(ref, keys.referee, orders[s], now=NOW + 120) for s in SIDES}
    outcomes = {}
    for choice in ("both", "default-north", "default-south"):
        trial = tmp_path / choice
        shutil.copytree(ref, trial)
        for side in SIDES:
            if choice == f"default-{side}":
                (trial / ".pbem" / "pending" / f"0000-{side}.pbem").unlink()
        outcomes[choice] = game.adjudicate(trial, keys.referee, [], deadline_passed=True, now=NOW + 180)["board"]
    chosen = tmp_path / "default-south"  # the outcome it likes
    ledger.verify_game(chosen, now=NOW + 200)  # the public record alone verifies
    bundle = audit.make_reveal(chosen, keys.referee, now=NOW + 200)
    # 1. The player's own verify refuses its folder, naming the entry, its deadline and the first sight.
    _publish(chosen, players["north"])
    code, out = run("verify", players["north"])
    assert code == 1 and "ledger/0000.toml: its deadline" in out and str(deadline) in out and str(NOW) in out
    assert "the referee's clock was behind or it backdated the entry" in out and "it is evidence" in out
    # 2. The audit, even without receipts: north's consumed order was written after a first sight
    #    past the deadline.
    with pytest.raises(AuditError, match=r"north's order consumed at step 0 was written after first seeing "
                                         r".*past its deadline .*\(protocol §8\.3, §9\.2\)"):
        audit.audit(chosen, bundle, now=NOW + 200)
    # 3. South's receipt: a receipted order defaulted, and its own first sight past the deadline.
    with pytest.raises(AuditError, match=r"south's order receipted at step 0 was written after first seeing"):
        from pbem.core import receipts
        receipts.check(chosen, ledger.read_manifest(chosen), [("south.asc", held["south"])])


def test_protocol_8_3_entry_write_times_increase(tmp_path: Path, keys: Keys, monkeypatch: pytest.MonkeyPatch) -> None:
    """A referee writing a later entry with an earlier time (its clock set back between steps)."""
    d = tmp_path / "g"
    _new(d, keys, written=NOW)
    with pytest.raises(LedgerError, match="a clock set back cannot write the next entry"):  # honest code
        game.adjudicate(d, keys.referee, [order(keys, d, "north"), order(keys, d, "south", "paper")],
                        now=NOW - 2 * 3600)
    monkeypatch.setattr(game, "_written", lambda previous, now: now, raising=False)  # patched code writes it
    game.adjudicate(d, keys.referee, [order(keys, d, "north"), order(keys, d, "south", "paper")], now=NOW - 10)
    with pytest.raises(LedgerError, match=r"ledger/0001\.toml: field written \(\d+\) is not after entry 0's "
                                          r"\(\d+\); write times strictly increase along the chain \(protocol §8\.3\)"):
        ledger.verify_game(d)
    # the same second is not later either
    _resign_last(d, keys, written=NOW, deadline=NOW + HOURS * 3600)
    with pytest.raises(LedgerError, match="write times strictly increase"):
        ledger.verify_game(d)


def test_protocol_8_3_a_default_at_the_step_that_ends_the_game_carries_its_date(
        tmp_path: Path, keys: Keys, monkeypatch: pytest.MonkeyPatch) -> None:
    """The entry that ends the game owes nothing, so its deadline is 0: its write time still dates
    the default, and a default before the deadline is refused."""
    d = tmp_path / "g"
    _new(d, keys, written=NOW - 3600)
    game.adjudicate(d, keys.referee, [order(keys, d, "north", "paper"), order(keys, d, "south", "rock")],
                    now=NOW - 3000)  # north 1-0
    monkeypatch.setattr(game, "_check_deadline_passed", lambda *a: None)  # a referee running patched code
    game.adjudicate(d, keys.referee, [order(keys, d, "north", "paper")], deadline_passed=True, now=NOW)
    last = ledger.latest(d, ledger.read_manifest(d))
    assert last.owes == {} and last.deadline == 0 and last.defaulted == ("south",)  # the game is over
    with pytest.raises(LedgerError, match=r"ledger/0002\.toml: defaults south, but was written before the step's "
                                          r"deadline: field written is .*\(protocol §8\.3\)"):
        ledger.verify_game(d)


def test_protocol_8_3_a_hand_written_deadline_where_a_side_owes_is_refused(tmp_path: Path, keys: Keys) -> None:
    """deadline = 0 where a side owes would let any later entry default it; a shorter deadline than
    the game's hours would cut the players' time. Both are refused, naming the rule."""
    d = tmp_path / "g"
    _new(d, keys, written=NOW)
    ledger.verify_game(d)
    _resign_last(d, keys, deadline=0)
    with pytest.raises(LedgerError, match=r"ledger/0000\.toml: field deadline is 0, but must be written \+ 72 hours "
                                          rf"= {NOW + HOURS * 3600}, since north, south owe \(protocol §8\.3\)"):
        ledger.verify_game(d)
    _resign_last(d, keys, deadline=NOW + 3600)
    with pytest.raises(LedgerError, match="field deadline is .*, but must be written"):
        ledger.verify_game(d)
    # a game with no deadline (hours = 0) records 0, and nothing else
    none = tmp_path / "none"
    _new(none, keys, written=NOW, hours=0)
    ledger.verify_game(none)
    _resign_last(none, keys, deadline=NOW + 3600)
    with pytest.raises(LedgerError, match="must be 0, since the game has no deadline"):
        ledger.verify_game(none)


def _cli_game(tmp_path: Path, keys: Keys, written: int) -> tuple[Path, Path]:
    g = tmp_path / "g"
    _new(g, keys, written=written)
    kdir = tmp_path / "keys"
    identity.save_private(keys.north, kdir / "north.key")
    return g, kdir


@pytest.mark.parametrize(("ago", "words"), [(80, "has PASSED"), (65, "is near: 6 h")])
def test_protocol_8_3_status_report_and_seal_warn_of_a_near_or_past_deadline(tmp_path: Path, keys: Keys,
                                                                            ago: int, words: str) -> None:
    g, kdir = _cli_game(tmp_path, keys, written=int(time.time()) - ago * 3600 - 60)
    code, out = run("status", g)
    assert code == 0 and "warning: the deadline of step 0" in out and words in out, out
    report = game.report_path(g, 0, "north")
    code, out = run("report", "open", report, "--key", kdir / "north.key", "--save", tmp_path / "r.json")
    assert code == 0 and "warning: the deadline of step 0" in out and words in out, out
    run("orders", "new", tmp_path / "r.json", "--out", tmp_path / "d.toml")
    code, out = run("orders", "seal", tmp_path / "d.toml", "--key", kdir / "north.key", "--game", g,
                    "--out", tmp_path / "o.asc")
    assert code == 0 and "warning: the deadline of step 0" in out and words in out, out


def test_protocol_8_3_no_warning_while_the_deadline_is_far(tmp_path: Path, keys: Keys) -> None:
    g, _ = _cli_game(tmp_path, keys, written=int(time.time()) - 60)
    code, out = run("status", g)
    assert code == 0 and "warning" not in out, out


def test_protocol_8_3_the_client_records_its_first_sight_once_and_orders_carry_it(tmp_path: Path,
                                                                                  keys: Keys) -> None:
    """The first sight is kept (a later look does not move it), lives in the private area, is not part
    of the record, and the next order carries it (§7.3)."""
    d = tmp_path / "g"
    _new(d, keys, written=NOW)
    _look(d, NOW + 5)
    _look(d, NOW + 500)
    entry = ledger.latest(d, ledger.read_manifest(d))
    assert seen.first_seen(d, entry) == NOW + 5
    assert (d / ".pbem" / "seen.json").is_file()
    ledger.verify_game(d)  # not part of the record
    receipt = game.receive_order(d, keys.referee, game.write_order(d, keys.north, "north", 0,
                                                                   {"side": "north", "step": 0, "throw": "rock"}),
                                 now=NOW + 600)
    assert (receipt.seen_entry, receipt.seen_at) == (entry.hash, NOW + 5)  # the receipt echoes it


@pytest.mark.parametrize(("at", "why"), [(-2 * 3600, "before"), (3 * 3600, "ahead")])
def test_protocol_8_3_the_referee_refuses_a_first_sight_outside_the_entry_s_time(tmp_path: Path, keys: Keys,
                                                                                 at: int, why: str) -> None:
    d = tmp_path / "g"
    _new(d, keys, written=NOW)
    o = game.write_order(d, keys.north, "north", 0, {"side": "north", "step": 0, "throw": "rock"}, now=NOW + at)
    before = snapshot(d)
    with pytest.raises(ReplayError, match="a first sight must fall between the entry's writing and the deadline"):
        game.receive_order(d, keys.referee, o, now=NOW + 60)
    assert snapshot(d) == before


def test_protocol_8_3_a_damaged_record_of_first_sights_is_refused_not_replaced(tmp_path: Path, keys: Keys) -> None:
    d = tmp_path / "g"
    _new(d, keys, written=NOW)
    (d / ".pbem" / "seen.json").write_text("{not json", encoding="utf-8")
    code, out = run("verify", d)
    assert code == 1 and out.startswith("error: ") and "is not a record of first sights" in out, out
    assert (d / ".pbem" / "seen.json").read_text(encoding="utf-8") == "{not json"
    with pytest.raises(PbemError, match="not a record of first sights"):
        seen.read(d)


def test_protocol_8_3_the_order_kept_sent_again_after_the_deadline_keeps_its_receipt(tmp_path: Path,
                                                                                     keys: Keys) -> None:
    """A referee reading its inbox again after the deadline (a git referee's pass) finds the order it
    took in time and its first receipt; any other order is late and refused unopened."""
    d = tmp_path / "g"
    _new(d, keys, written=NOW)
    first = game.write_order(d, keys.north, "north", 0, {"side": "north", "step": 0, "throw": "rock"}, now=NOW)
    r1 = game.receive_order(d, keys.referee, first, now=NOW + 60)
    deadline = ledger.latest(d, ledger.read_manifest(d)).deadline
    again = game.receive_order(d, keys.referee, first, now=deadline + 60)
    assert again.identical and again.armored == r1.armored
    other = game.write_order(d, keys.north, "north", 0, {"side": "north", "step": 0, "throw": "paper"}, now=NOW)
    with pytest.raises(ReplayError, match="too late"):
        game.receive_order(d, keys.referee, other, now=deadline + 60)


def test_protocol_8_3_a_verb_that_brings_the_folder_up_to_date_notes_the_new_entry(tmp_path: Path,
                                                                                   keys: Keys) -> None:
    """git pull and mail import read the folder, update it and read it again within one verb: the entry
    they bring is noted then, not at the next verb."""
    ref, player = tmp_path / "ref", tmp_path / "player"
    _new(ref, keys, written=NOW)
    _publish(ref, player)
    throws = [order(keys, ref, "north", "paper"), order(keys, ref, "south", "rock")]
    game.adjudicate(ref, keys.referee, throws, now=NOW + 20)
    with seen.recording(NOW + 30):
        ledger.read_manifest(player)  # before the update: entry 0
        _publish(ref, player)
        ledger.read_manifest(player)  # after it: entry 1
        assert not (player / ".pbem" / "seen.json").exists()  # written when the verb ends well
    assert sorted((s.number, s.at) for s in seen.read(player).values()) == [(0, NOW + 30), (1, NOW + 30)]
