"""Issue 16 "done when": every clause [SB-x] of the rules digest has a test named for it.

The clause ids are listed in docs/bagpipes-notes.md §10 (copied from the digest's headings, in
its order); a test for clause ``SB-5.2`` is named ``test_SB_5_2_<words>`` (a word, not a digit,
after the id, so ``test_SB_12_1_...`` does not count for ``SB-12``).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def clause_ids() -> list[str]:
    text = (ROOT / "docs" / "bagpipes-notes.md").read_text(encoding="utf-8")
    index = text.split("## 10. Clause index", 1)[1]
    return re.findall(r"^- \[(SB-[0-9.]+)\]", index, flags=re.M)


def named_tests() -> set[str]:
    names: set[str] = set()
    for path in (ROOT / "tests").rglob("test_*.py"):
        names |= set(re.findall(r"^def (test_SB_\w+)\(", path.read_text(encoding="utf-8"), flags=re.M))
    return names


def test_SB_every_clause_of_the_digest_has_a_test_named_for_it() -> None:
    ids = clause_ids()
    assert [i for i in ids if "." not in i] == [f"SB-{n}" for n in range(16)]   # SB-0 .. SB-15, none skipped
    assert len(ids) == len(set(ids)) == 30
    names = named_tests()
    missing = [i for i in ids
               if not any(re.match(rf"test_SB_{i[3:].replace('.', '_')}_[A-Za-z]", n) for n in names)]
    assert missing == [], f"clauses without a test named for them: {missing}"
