"""What one side may see (views) and how it is told and drawn: the text report, sentences, battle
log lines, the odds a report shows, the SVG map and the HTML page. It imports the rules only
(tests/hammer/test_layers.py)."""
