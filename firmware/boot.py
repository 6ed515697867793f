"""Runs before code.py at power-up: add the second USB serial port (data) beside the REPL console."""

import usb_cdc

usb_cdc.enable(console=True, data=True)
