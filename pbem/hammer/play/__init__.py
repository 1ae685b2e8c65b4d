"""The player's tools: the game as a side's report shows it (known), drafts and their check, the
order kinds, bots, the demo, the player's side of the seam (player), and the rules workbench
(positions, rules cases, the sandbox and odds tools). It imports the rules and show/, never the
seam (tests/hammer/test_layers.py)."""
