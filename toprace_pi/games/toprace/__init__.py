"""Top Race: Wolfgang Kramer's race game, the first game of the table.

What the game brings to the table is its :data:`~toprace_pi.games.toprace.plugin.ENTRY`, which the
package's entry points declare; this package itself imports nothing, so that its light modules (its
commands) load without its rules.
"""
