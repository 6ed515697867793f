"""The games of the table, one folder each: its rules, data, bots, drawings and its side of the table."""
