"""What several test modules share: drivers, fakes, observers and helpers.

A test module imports from here, never from another test module, so each one stands on its own and
can move or go without breaking the others.
"""
