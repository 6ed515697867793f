"""How the reader hub is wired (Raspberry Pi Pico, CircuitPython); change to match your board."""

# The readers' bus: "spi" (every PN532 on one SPI bus, each with its own chip-select pin) or "i2c" (every PN532
# on its own channel of a TCA9548A I2C multiplexer: all PN532s answer at address 0x24, so they cannot share a bus).
BUS = "spi"

# --- SPI ---
SPI_SCK = "GP18"
SPI_MOSI = "GP19"
SPI_MISO = "GP16"
# One chip-select pin per PN532, in reader order (0 = discard pile, 1 = cars, ...). List only the readers you wired.
CS_PINS = ("GP17", "GP20", "GP21", "GP22")

# --- I2C through a TCA9548A ---
I2C_SCL = "GP5"
I2C_SDA = "GP4"
MUX_ADDRESS = 0x70
# The multiplexer channel of each PN532, in reader order. List only the readers you wired.
MUX_CHANNELS = (0, 1, 2, 3)

READ_TIMEOUT = 0.05  # seconds per reader per poll, waiting for a tag
MAX_WAIT = 0.1  # seconds the chip may take to answer any command; a reader slower than that counts as missing
