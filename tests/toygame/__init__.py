"""Dash, a toy game for docs/adding-a-game.md: two to four players race to cell 10, each turn
walking one cell or rolling a die of 1 to 3. Everything the table needs of it lives in this folder."""
