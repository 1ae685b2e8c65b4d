"""pbem: play block wargames by email, with fog of war and dice nobody can bias."""

__version__ = "0.1.0"
