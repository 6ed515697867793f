"""Top Race."""
