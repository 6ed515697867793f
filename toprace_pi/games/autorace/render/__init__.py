"""AUTORACE drawn: the track in the terminal and the colours every output shares."""
