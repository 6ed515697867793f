"""Device emulators the tests drive the real hardware libraries against."""
