"""Fixtures of the git transport's tests (the helpers are in git_support)."""

from git_support import _templates, arena, arena_at_step_1, hosted  # noqa: F401
