"""AUTORACE: Derek Hohls's race on a track of 0 to 72, on Knizia's card system; the
table's second game, and its first of sealed simultaneous choices.

What the game brings to the table is its :data:`~toprace_pi.games.autorace.plugin.ENTRY`, which the
package's entry points declare.
"""
