"""The pure core: bytes in, values out. No I/O, no globals, no logging setup."""
