"""Frozen typed records that cost nothing to define (docs/architecture.md "Start-up").

``@record`` is what ``@dataclass(frozen=True)`` is to the type checker (PEP 681
``dataclass_transform``): the fields, the constructor's signature and the immutability are
checked as for a dataclass. At run time it does not write and compile the methods a dataclass
generates (about half a millisecond a class, which every command importing the module pays,
``pbem verify`` seven times): one constructor, equality, hash and repr, shared by every record,
read the class's field list. Fields are positional or keyword arguments in the order written,
those with a default last; ``field(default_factory=...)`` gives each record its own new value.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T")
C = TypeVar("C", bound=type)


class FrozenError(AttributeError):
    """A field of a record was assigned or deleted: records do not change once made."""


class _Factory:
    """The marker ``field(default_factory=...)`` leaves in a class body."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make


def field(*, default_factory: Callable[[], T]) -> T:
    """A field whose default is made new for each record (a dict, a list)."""
    return _Factory(default_factory)  # type: ignore[return-value]  # the type checker sees the field's value


class _Spec:
    """A record class's fields: names in order, constant defaults, and default factories."""

    __slots__ = ("names", "known", "defaults", "factories")

    def __init__(self, names: tuple[str, ...], defaults: dict[str, Any], factories: dict[str, Callable[[], Any]]):
        self.names = names
        self.known = frozenset(names)
        self.defaults = defaults
        self.factories = factories


def _init(self: Any, *args: Any, **kwargs: Any) -> None:
    spec: _Spec = type(self).__record__
    names = spec.names
    if len(args) > len(names):
        raise TypeError(f"{type(self).__name__}() takes {len(names)} fields, {len(args)} were given")
    values = self.__dict__
    values.update(zip(names, args))
    if len(values) == len(names) and not kwargs:
        return
    for name, value in kwargs.items():
        if name not in spec.known or name in values:
            raise TypeError(f"{type(self).__name__}() got {'an unknown' if name not in spec.known else 'a repeated'} "
                            f"field {name!r}")
        values[name] = value
    for name in names:
        if name in values:
            continue
        if name in spec.defaults:
            values[name] = spec.defaults[name]
        elif name in spec.factories:
            values[name] = spec.factories[name]()
        else:
            raise TypeError(f"{type(self).__name__}() is missing field {name!r}")


def _values(self: Any) -> tuple[Any, ...]:
    values = self.__dict__
    return tuple(values[name] for name in type(self).__record__.names)


def _eq(self: Any, other: object) -> Any:
    if other.__class__ is not self.__class__:
        return NotImplemented
    return _values(self) == _values(other)


def _hash(self: Any) -> int:
    return hash(_values(self))


def _repr(self: Any) -> str:
    return f"{type(self).__qualname__}(" + ", ".join(
        f"{name}={value!r}" for name, value in zip(type(self).__record__.names, _values(self))) + ")"


def _frozen(self: Any, name: str, value: Any = None) -> None:
    raise FrozenError(f"cannot change field {name!r} of a {type(self).__name__}: records are frozen")


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def record(cls: C) -> C:
    """Make ``cls`` a frozen record of the fields it annotates (see the module's docstring)."""
    if any(hasattr(base, "__record__") for base in cls.__mro__[1:]):
        raise TypeError(f"{cls.__name__}: a record cannot extend another record (its fields would be lost)")
    annotations = cls.__annotations__  # the class's own (Python 3.10 and later; 3.14 evaluates them lazily)
    if any("ClassVar" in str(kind) for kind in annotations.values()):
        raise TypeError(f"{cls.__name__}: a record has no class variables; keep constants outside it")
    names = tuple(annotations)
    defaults: dict[str, Any] = {}
    factories: dict[str, Callable[[], Any]] = {}
    for name in names:
        if name in cls.__dict__:
            value = cls.__dict__[name]
            if isinstance(value, _Factory):
                factories[name] = value.make
                delattr(cls, name)
            elif isinstance(value, (list, dict, set)):
                raise TypeError(f"{cls.__name__}: field {name!r} would share one {type(value).__name__} between "
                                "records; use field(default_factory=...)")
            else:
                defaults[name] = value
        elif defaults or factories:
            raise TypeError(f"{cls.__name__}: field {name!r} without a default follows one with a default")
    methods = {"__record__": _Spec(names, defaults, factories), "__init__": _init, "__eq__": _eq, "__hash__": _hash,
               "__repr__": _repr, "__setattr__": _frozen, "__delattr__": _frozen, "__match_args__": names}
    for name, value in methods.items():
        setattr(cls, name, value)
    return cls
