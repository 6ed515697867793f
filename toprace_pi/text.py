"""Text from outside the program, made safe to print, log or speak.

Player names from a config or journal, a hub's error text and version string,
a tag's record: any of them may hold control characters, and an escape
sequence printed raw can rewrite a terminal or forge a line in the log. Every
such text passes :func:`printable` before it is shown; what is not printable is
written as a visible escape (``\\n``, ``\\x1b``), so nothing is hidden or lost.
"""

from __future__ import annotations


def printable(text: str) -> str:
    """``text`` with every character that is not printable (control characters,
    line and paragraph separators) written as a backslash escape.

    >>> printable("Anna\\x1b[2J")
    'Anna\\\\x1b[2J'
    >>> printable("oops\\nERROR forged")
    'oops\\\\nERROR forged'
    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else _escape(c) for c in text)


def printable_lines(text: str) -> str:
    """:func:`printable` line by line, keeping the line breaks of a longer message."""
    return "\n".join(printable(line) for line in text.split("\n"))


#: The escapes a reader knows best, as Python writes them.
_SHORT = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(char: str) -> str:
    if char in _SHORT:
        return _SHORT[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def ordinal(n: int) -> str:
    """``1`` -> ``"1st"``; places only run to 6th."""
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n, "th")
    return f"{n}{suffix}"
