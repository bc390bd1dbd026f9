"""MIME charset names to text: a bounded set of codecs, every byte sequence tolerated.

Shared by the parse (bodies, encoded words, file names) and the attachment text reader, so
both decode a part alike.
"""

from __future__ import annotations

import re
from encodings import normalize_encoding
from encodings.aliases import aliases as _codec_aliases
from typing import Final

__all__ = ["clean", "codec", "decode"]

# Charsets are looked up only by names Python lists as aliases (plus a few common ones it
# lacks). An arbitrary name would reach codecs.lookup, whose cache keeps every name it is
# ever asked about, and would allow codecs that are not charsets (punycode is quadratic).
# Codecs that are not text encodings (base64, zlib, ...) are refused by bytes.decode itself.
# ASCII is read as UTF-8, its superset: 8-bit text mislabelled as ASCII is common.
_CODECS: Final = frozenset(_codec_aliases.values()) | {"koi8_u", "koi8_t", "cp874"}
_EXTRA_ALIASES: Final = {"windows_874": "cp874", "x_sjis": "shift_jis", "ascii": "utf_8"}

_SURROGATES: Final = re.compile("[\ud800-\udfff]")


def codec(charset: str | None) -> str:
    """The Python codec for a MIME charset name; UTF-8 for unknown, missing or ASCII names."""
    if not charset or len(charset) > 64:
        return "utf_8"
    name = normalize_encoding(charset.strip().lower()).replace(".", "_")
    name = _codec_aliases.get(name, name)
    name = _EXTRA_ALIASES.get(name, name)
    return name if name in _CODECS else "utf_8"


def decode(data: bytes, charset: str | None) -> str:
    """Decode with the named charset; unknown charsets and broken bytes become U+FFFD."""
    try:
        return clean(data.decode(codec(charset), "replace"))
    except (LookupError, UnicodeError, ValueError):
        return data.decode("utf-8", "replace")


def clean(text: str) -> str:
    """``text`` without surrogates: escaped raw bytes are read as UTF-8, others become U+FFFD."""
    if text.isascii():
        return text
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except UnicodeEncodeError:
        return _SURROGATES.sub("\ufffd", text)
