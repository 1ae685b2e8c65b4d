"""Fixtures of the mail transport's tests (the helpers are in mailworld)."""

from mail_table import table  # noqa: F401 (the fixture)
from mailworld import pymap_server, smtp, world  # noqa: F401 (the fixtures)
