"""Pins of the reader hub (Raspberry Pi Pico, CircuitPython); change to match the wiring."""

# SPI bus shared by all PN532 boards
SPI_SCK = "GP18"
SPI_MOSI = "GP19"
SPI_MISO = "GP16"

# One chip-select pin per PN532, in reader-index order (0 = discard pile, 1 = cars, ...)
CS_PINS = ("GP17", "GP20", "GP21", "GP22")

READ_TIMEOUT = 0.05  # seconds per reader per poll, waiting for a tag
MAX_WAIT = 0.1  # seconds the chip may take to answer any command; a reader slower than that counts as missing
