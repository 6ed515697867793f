"""CircuitPython entry point of the reader hub: PN532 readers on SPI (or I2C through a multiplexer), lines to
the host over USB serial."""

import time

import settings
from hub import Hub
from reader import TagReader

#: A host line longer than this without a newline is noise: it is dropped.
MAX_COMMAND = 64


def make_hub():
    """The hub with the readers of settings.py, writing to the USB data port.

    Returns the hub and the port; no reader is touched yet (each is set up at its first poll)."""
    import usb_cdc

    makers = spi_makers() if settings.BUS == "spi" else i2c_makers()
    readers = [TagReader(make) for make in makers]
    port = usb_cdc.data or usb_cdc.console

    def write(line):
        try:
            port.write(line)
        except Exception:
            pass  # host not listening; the heartbeat tells it we are alive when it is

    hub = Hub(readers, write, time.monotonic, read_timeout=settings.READ_TIMEOUT,
              read_record=lambda reader, uid: reader.read_record())
    return hub, port


def spi_makers():
    """One function per chip-select pin that sets up the PN532 behind it."""
    import board
    import busio
    import digitalio
    from adafruit_pn532.spi import PN532_SPI

    spi = busio.SPI(
        getattr(board, settings.SPI_SCK), MOSI=getattr(board, settings.SPI_MOSI), MISO=getattr(board, settings.SPI_MISO)
    )
    driver = impatient(PN532_SPI)

    def maker(pin_name):
        cs = digitalio.DigitalInOut(getattr(board, pin_name))
        return lambda: ready(driver(spi, cs, debug=False))

    return [maker(name) for name in settings.CS_PINS]


def i2c_makers():
    """One function per multiplexer channel that sets up the PN532 on it."""
    import adafruit_tca9548a
    import board
    import busio
    from adafruit_pn532.i2c import PN532_I2C

    i2c = busio.I2C(getattr(board, settings.I2C_SCL), getattr(board, settings.I2C_SDA))
    mux = adafruit_tca9548a.TCA9548A(i2c, address=settings.MUX_ADDRESS)
    driver = impatient(PN532_I2C)
    return [lambda channel=channel: ready(driver(mux[channel], debug=False)) for channel in settings.MUX_CHANNELS]


def impatient(driver_class):
    """The driver, waiting at most settings.MAX_WAIT for the chip: a live PN532 answers within milliseconds, and
    one that is missing must not hold up the other readers for the driver's own 1.5 s at every try."""

    class Impatient(driver_class):
        def _wait_ready(self, timeout=1):
            return super()._wait_ready(min(timeout, settings.MAX_WAIT))

    return Impatient


def ready(pn532):
    pn532.SAM_configuration()
    return pn532


def serve(hub, port, pending=b""):
    """One turn of the main loop: poll every reader once, answer the host's commands.

    ``pending`` is the start of a command line not yet ended; the new one is returned."""
    hub.step()
    waiting = port.in_waiting
    if waiting:
        pending += port.read(waiting)
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            hub.command(line)
        if len(pending) > MAX_COMMAND:
            pending = b""
    return pending


def main():
    hub, port = make_hub()
    pending = b""
    while True:
        pending = serve(hub, port, pending)


if __name__ == "__main__":
    main()
