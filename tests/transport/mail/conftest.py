"""Fixtures of the mail transport's tests (the helpers are in mailworld)."""

from mailworld import world  # noqa: F401 (the fixture)
