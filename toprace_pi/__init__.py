"""toprace_pi: an augmented table for Wolfgang Kramer's Top Race.

The package is layered, dependencies pointing down only::

    cli            argument parsing, reports, the terminal demo
    bots, render   players and pictures built on the engine
    rules          the pure rules engine (no I/O, no hardware)
    data           track layouts and speed-card decks as TOML files, and their loaders
"""

__version__ = "0.1.0"
