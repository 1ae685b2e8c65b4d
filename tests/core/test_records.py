"""pbem.core.records: a record behaves as the frozen dataclass the type checker takes it for
(docs/architecture.md "Start-up"), on the core's own records and on a record with every kind of field."""

from __future__ import annotations

import copy
import pickle
from pathlib import Path
from typing import ClassVar

import pytest

from pbem.core import ledger
from pbem.core.identity import PublicIdentity
from pbem.core.records import FrozenError, field, record


@record
class Sample:
    """Fields without a default, with one, and with a factory."""

    name: str
    count: int
    tags: tuple[str, ...] = ()
    seen: dict[str, int] = field(default_factory=dict)


def test_records_take_fields_by_position_or_keyword_with_defaults_and_a_new_factory_value_each() -> None:
    a = Sample("a", 1)
    b = Sample(count=1, name="a")
    assert (a.name, a.count, a.tags, a.seen) == ("a", 1, (), {})
    assert a == b and a is not b
    assert a.seen is not b.seen  # a factory's value is each record's own
    c = Sample("c", 2, ("x",), {"k": 1})
    assert (c.tags, c.seen) == (("x",), {"k": 1})
    assert repr(c) == "Sample(name='c', count=2, tags=('x',), seen={'k': 1})"


@pytest.mark.parametrize("args, kwargs", [((), {}), (("a",), {}), (("a", 1, (), {}, 5), {}), (("a", 1), {"name": "b"}),
                                          (("a", 1), {"other": 2})])
def test_records_refuse_a_missing_an_extra_a_repeated_or_an_unknown_field(args: tuple[object, ...],
                                                                          kwargs: dict[str, object]) -> None:
    with pytest.raises(TypeError):
        Sample(*args, **kwargs)  # type: ignore[arg-type]


def test_records_are_frozen_and_compare_by_class_and_fields() -> None:
    a = Sample("a", 1)
    with pytest.raises(FrozenError):
        a.name = "b"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del a.count  # type: ignore[misc]
    assert a != ("a", 1, (), {}) and a == Sample("a", 1, (), {})  # type: ignore[comparison-overlap]
    assert hash(PublicIdentity("x", b"1", b"2")) == hash(PublicIdentity("x", b"1", b"2"))
    with pytest.raises(TypeError):
        hash(a)  # a dict field is unhashable, as in a frozen dataclass
    assert {PublicIdentity("x", b"1", b"2"), PublicIdentity("x", b"1", b"2")} == {PublicIdentity("x", b"1", b"2")}


def test_records_copy_and_pickle_as_a_dataclass_would(played: Path) -> None:
    man = ledger.read_manifest(played)
    assert copy.deepcopy(man) == man and pickle.loads(pickle.dumps(man)) == man
    entry = ledger.read_entry(played, 1, man)
    assert copy.copy(entry) == entry and entry.received == pickle.loads(pickle.dumps(entry)).received


def test_records_refuse_a_field_without_default_after_one_with_a_default() -> None:
    with pytest.raises(TypeError, match="follows"):
        @record
        class Bad:
            first: int = 0
            second: int  # type: ignore[misc]


def test_records_refuse_what_a_dataclass_refuses_or_would_get_wrong() -> None:
    """A record extending a record (its fields would be dropped), a shared mutable default, and a
    class variable taken for a field: each refused when the class is made."""
    @record
    class Base:
        a: int

    with pytest.raises(TypeError, match="cannot extend"):
        @record
        class Child(Base):
            b: int
    with pytest.raises(TypeError, match="default_factory"):
        @record
        class Shared:
            items: list[int] = []
    with pytest.raises(TypeError, match="class variables"):
        @record
        class Constant:
            LIMIT: ClassVar[int] = 3
            a: int
