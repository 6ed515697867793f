"""One PN532 on the hub, kept usable: built on first use, built again after a failure, and able to read
the text record of the tag it found. Free of CircuitPython modules, so it runs under CPython in the tests."""

import ndef

#: Seconds a live PN532 takes at most to acknowledge a command.
ACK_TIMEOUT = 0.1


class TagReader:
    """``make()`` returns a ready adafruit PN532 (``SAM_configuration`` done); it is called again after any
    failure, so a reader plugged in late, or one that lost power, comes back by itself."""

    def __init__(self, make):
        self._make = make
        self._pn532 = None

    def read_passive_target(self, timeout=0.05):
        """The uid of the tag in the field, or None. Raises when the PN532 does not answer: the driver's
        own ``read_passive_target`` would pass that off as "no tag", and a dead reader would go unnoticed."""
        return self._use(lambda pn532: _read_uid(pn532, timeout))

    def read_record(self):
        """The text record of the tag just found, or None when it has none (or is no NTAG)."""
        return self._use(lambda pn532: ndef.read_record(pn532.mifare_classic_read_block))

    def _use(self, work):
        if self._pn532 is None:
            self._pn532 = self._make()
        try:
            return work(self._pn532)
        except Exception:
            self._pn532 = None
            raise


def _read_uid(pn532, timeout):
    if not pn532.listen_for_passive_target(timeout=ACK_TIMEOUT):
        raise RuntimeError("no answer from the PN532")
    return pn532.get_passive_target(timeout=timeout)
