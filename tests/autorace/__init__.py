"""AUTORACE's tests: its rules text example by example, and properties of random play."""
