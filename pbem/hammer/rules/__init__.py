"""Hammer of the Scots as the rulebook has it: the game data, the state and its records, and the
engine that adjudicates (movement, battles, events, kings, winter, victory, standing plans).
It imports nothing from show/, play/ or the seam (tests/hammer/test_layers.py)."""
