"""What every game of the table shares, and nothing of any one game.

:mod:`~toprace_pi.core.game` is the interface each game implements (in the spirit of
open_spiel's ``State`` and python-chess's ``Board``): its metadata, whose decision it
is, the legal actions, a checked ``apply``, listable chance outcomes, events that
say themselves, a per-seat view and a cheap ``clone``. :mod:`~toprace_pi.core.registry`
finds the games by name; :mod:`~toprace_pi.core.clone` copies a game's state;
:mod:`~toprace_pi.core.bots` finds a game's bot by name.
"""
