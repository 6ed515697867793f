"""TOP SPEED: a Formula 1 race on Montmeló, each player drawing minicards from a deck of their
own (push on, or pass before two identical trouble cards end the round), with pit stops, the
safety car and four advanced rules.

What the game brings to the table is its :data:`~toprace_pi.games.topspeed.plugin.ENTRY`, which the
package's entry points declare.
"""
