"""CircuitPython entry point of the reader hub: PN532 readers on SPI, lines to the host over USB serial."""

import time

import settings
from hub import Hub
from reader import TagReader


def main():
    import board
    import busio
    import digitalio
    import usb_cdc
    from adafruit_pn532.spi import PN532_SPI

    spi = busio.SPI(
        getattr(board, settings.SPI_SCK), MOSI=getattr(board, settings.SPI_MOSI), MISO=getattr(board, settings.SPI_MISO)
    )

    def maker(pin_name):
        cs = digitalio.DigitalInOut(getattr(board, pin_name))

        def make():
            pn532 = PN532_SPI(spi, cs, debug=False)
            pn532.SAM_configuration()
            return pn532

        return make

    readers = [TagReader(maker(name)) for name in settings.CS_PINS]
    port = usb_cdc.data or usb_cdc.console

    def write(line):
        try:
            port.write(line)
        except Exception:
            pass  # host not listening; the heartbeat tells it we are alive when it is

    hub = Hub(readers, write, time.monotonic, read_timeout=settings.READ_TIMEOUT,
              read_record=lambda reader, uid: reader.read_record())
    pending = b""
    while True:
        hub.step()
        waiting = port.in_waiting
        if waiting:
            pending += port.read(waiting)
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                hub.command(line)
            if len(pending) > 64:
                pending = b""


if __name__ == "__main__":
    main()
