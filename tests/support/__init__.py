"""Test helpers shared across the test folders (on sys.path as ``support``: pytest's ``pythonpath``).

Helpers used by one folder stay in it (core_support, e2e_support, bp_support, git_support, mailworld...).
"""
