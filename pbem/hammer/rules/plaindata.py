"""Plain data for reports: what the engine returns (records, tuples) as the dicts, lists and scalars a
report carries, so a report means the same in memory as after a round trip through its file."""

from __future__ import annotations

from typing import Any

_LEAVES = frozenset({str, int, bool, type(None)})  # kept as they are: no call for them (most of the data)


def plain(data: Any) -> Any:
    """``data`` with records turned into their ``to_dict()`` and tuples into lists, keys into strings."""
    kind = type(data)
    if kind in _LEAVES:
        return data
    if kind is dict:
        return {str(k): v if type(v) in _LEAVES else plain(v) for k, v in data.items()}
    if kind is list:
        return [v if type(v) in _LEAVES else plain(v) for v in data]
    if hasattr(data, "to_dict"):
        return data.to_dict()
    if isinstance(data, dict):
        return {str(k): plain(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [plain(v) for v in data]
    return data


__all__ = ["plain"]
