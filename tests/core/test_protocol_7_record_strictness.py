"""docs/protocol.md §7: the public record holds exactly what the ledger accounts for.

§7.2 a ledger entry is closed (a re-signed extra field is refused); §7.3 orders/ holds only the
orders entries consumed (an old order copied under the next step's name is refused); §7 unknown
files inside the record folders are refused, anything else in the game folder is ignored;
§7.5 the latest entry's sealed state is required, earlier ones may be absent.
"""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

import pytest
from core_support import Keys, order

from pbem.core import game, ledger
from pbem.core.errors import LedgerError, PbemError

SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"


def resign(path: Path, keys: Keys, change: object) -> None:
    """Edit a ledger entry and sign it again with the referee's key (the referee itself cheating)."""
    doc = tomllib.loads(path.read_text(encoding="utf-8"))
    doc.pop("signature")
    change(doc)  # type: ignore[operator]
    path.write_bytes(ledger.dump_signed(doc, keys.referee, ledger.ENTRY_DOMAIN))


def last_entry(d: Path) -> int:
    return int(game.status(d)["step"])


def test_protocol_7_2_a_re_signed_entry_with_an_extra_field_is_refused(played: Path, keys: Keys) -> None:
    n = last_entry(played)
    resign(ledger.entry_path(played, n), keys, lambda doc: doc.update(note="signed, but not an entry field"))
    man = ledger.read_manifest(played)
    with pytest.raises(LedgerError, match=r"field note is not a ledger entry field.*§7\.2"):
        ledger.read_entry(played, n, man)
    with pytest.raises(LedgerError, match=r"field note is not a ledger entry field.*§7\.2"):
        ledger.verify_game(played)


def test_protocol_7_2_a_re_signed_entry_missing_a_field_is_refused(played: Path, keys: Keys) -> None:
    resign(ledger.entry_path(played, 1), keys, lambda doc: doc.pop("defaulted"))
    with pytest.raises(LedgerError, match=r"field defaulted is missing.*§7\.2"):
        ledger.read_entry(played, 1, ledger.read_manifest(played))


def test_protocol_7_2_the_entry_fields_are_the_schema_s() -> None:
    schema = json.loads((SCHEMAS / "ledger-entry.schema.json").read_text(encoding="utf-8"))
    assert schema["additionalProperties"] is False
    assert set(schema["properties"]) - {"signature"} == set(ledger.ENTRY_FIELDS)
    assert set(schema["required"]) - {"signature"} == set(ledger.ENTRY_FIELDS)


def test_protocol_7_3_an_old_order_copied_to_the_next_step_s_name_is_refused(fresh: Path, keys: Keys) -> None:
    game.adjudicate(fresh, keys.referee, [order(keys, fresh, "north", "rock"), order(keys, fresh, "south", "paper")])
    assert game.status(fresh)["owes"]
    ledger.verify_game(fresh)
    shutil.copyfile(fresh / "orders" / "0000-north.pbem", fresh / "orders" / "0001-north.pbem")
    with pytest.raises(LedgerError, match=r"0001-north\.pbem is an order no ledger entry consumed.*§7"):
        ledger.verify_game(fresh)


def test_protocol_7_3_an_order_of_a_step_not_yet_adjudicated_is_refused(fresh: Path, keys: Keys) -> None:
    """The record holds consumed orders only; one waiting for its step stays with the referee."""
    (fresh / "orders").mkdir(exist_ok=True)
    (fresh / "orders" / "0000-south.pbem").write_text(order(keys, fresh, "south", "rock"), encoding="ascii")
    with pytest.raises(LedgerError, match=r"0000-south\.pbem is an order no ledger entry consumed"):
        ledger.verify_game(fresh)


@pytest.mark.parametrize("folder", ["ledger", "orders", "reports", "state"])
def test_protocol_7_an_unknown_file_in_a_record_folder_is_refused(played: Path, folder: str) -> None:
    (played / folder / "notes.txt").write_text("hello", encoding="utf-8")
    with pytest.raises(PbemError, match=r"notes\.txt.*§7"):
        ledger.verify_game(played)


@pytest.mark.parametrize("name", ["0001-north.pbem.bak", "0099.pbem", "0001-west.pbem"])
def test_protocol_7_a_stray_report_or_state_name_is_refused(played: Path, name: str) -> None:
    folder = "state" if name == "0099.pbem" else "reports"
    shutil.copyfile(played / "reports" / "0001-north.pbem", played / folder / name)
    with pytest.raises(PbemError, match=r"§7"):
        ledger.verify_game(played)


def test_protocol_7_a_joins_folder_in_a_game_without_joins_is_refused(played: Path) -> None:
    (played / "joins").mkdir()
    shutil.copyfile(played / "orders" / "0000-north.pbem", played / "joins" / "north.pbem")
    with pytest.raises(LedgerError, match=r"joins/north\.pbem is a file the ledger does not account for"):
        ledger.verify_game(played)


def test_protocol_7_a_folder_inside_a_record_folder_is_refused(played: Path) -> None:
    (played / "reports" / "old").mkdir()
    with pytest.raises(LedgerError, match=r"reports/old is a folder; the record folders hold only regular files"):
        ledger.verify_game(played)


def test_protocol_7_files_outside_the_record_folders_are_ignored(played: Path) -> None:
    (played / "README.md").write_text("our game", encoding="utf-8")
    (played / "notes").mkdir()
    (played / "notes" / "plan.txt").write_text("attack Fife", encoding="utf-8")
    (played / ".pbem").mkdir(exist_ok=True)
    (played / ".pbem" / "anything").write_text("private", encoding="utf-8")
    (played / "orders" / ".0004-north.pbem.tmp").write_text("an interrupted write", encoding="utf-8")
    assert ledger.verify_game(played)["entries"] == last_entry(played) + 1


def test_protocol_7_5_earlier_sealed_states_may_be_absent(played: Path) -> None:
    n = last_entry(played)
    for k in range(n):
        (played / "state" / f"{k:04d}.pbem").unlink(missing_ok=True)  # the referee prunes them itself
    assert sorted(p.name for p in (played / "state").iterdir()) == [f"{n:04d}.pbem"]
    assert ledger.verify_game(played)["step"] == n


def test_protocol_7_5_the_latest_sealed_state_is_required(played: Path) -> None:
    (played / "state" / f"{last_entry(played):04d}.pbem").unlink()
    with pytest.raises(LedgerError, match=r"sealed state of the latest entry is missing.*§7\.5"):
        ledger.verify_game(played)


def test_protocol_7_5_an_earlier_sealed_state_must_be_its_entry_s(played: Path) -> None:
    n = last_entry(played)
    shutil.copyfile(played / "state" / f"{n:04d}.pbem", played / "state" / "0000.pbem")
    with pytest.raises(PbemError, match=r"state/0000\.pbem"):
        ledger.verify_game(played)
