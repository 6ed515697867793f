"""The games of the table, one folder each: its rules, data, bots, pictures and its side of the table."""
