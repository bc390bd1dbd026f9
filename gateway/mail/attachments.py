"""What is safe to do with an attachment: its file name, the type it is served as, its header.

Attachments are the sender's bytes, served to agents and browsers as downloads, never rendered.
Three independent layers keep them inert in a browser: the download route answers
``Content-Disposition: attachment`` (built by :func:`content_disposition`), with
``X-Content-Type-Options: nosniff`` and the /ui CSP; and :func:`served_type` keeps a declared
type only on an allow-list of types a browser never runs or renders as a document
(everything else, HTML, SVG, XML, JavaScript, PDF and mail included, is
``application/octet-stream``). The listing always shows the type the sender declared.

File names are the sender's text too: :func:`safe_filename` makes one that is safe to show,
to put in a header and to save as-is (no directories, no hidden or parent names, no control or
direction-changing characters, bounded).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final
from urllib.parse import quote

from gateway.mail.charsets import decode

__all__ = [
    "INERT_TYPES",
    "MAX_FILENAME_CHARS",
    "MESSAGE_TYPES",
    "attachment_text",
    "content_disposition",
    "fallback_filename",
    "is_text_like",
    "message_filename",
    "safe_filename",
    "served_type",
]

MAX_FILENAME_CHARS: Final = 200
"""Longest file name kept (characters); a longer one is cut before its extension. Filesystems
allow 255 bytes; 200 characters leaves room for a browser's " (1)" and most UTF-8 names."""

_MAX_EXTENSION_CHARS: Final = 16  # a longer "extension" is part of the name: cut like the rest
_MAX_INPUT_CHARS: Final = 4096  # work on a bounded prefix: the MIME parser caps fields at 8192

# Removed from names: C0/C1 controls (NUL included), line and paragraph separators, and the
# invisible formatting characters that reorder or hide text (bidi embeddings, overrides and
# isolates, LRM/RLM/ALM, zero-width characters, the BOM, interlinear annotations, tags):
# "invoice\u202Efdp.exe" shows as "invoiceexe.pdf".
_UNSAFE_CHARS: Final = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb"
    "\ud800-\udfff\U000e0000-\U000e007f]"
)

_CONTENT_TYPE: Final = re.compile(r"[a-z0-9][a-z0-9!#$&^_.+-]{0,126}/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}")

INERT_TYPES: Final = frozenset(
    {
        "application/gzip",
        "application/json",
        "application/octet-stream",
        "application/zip",
        "audio/mpeg",
        "audio/ogg",
        "audio/wav",
        "image/avif",
        "image/bmp",
        "image/gif",
        "image/jpeg",
        "image/png",
        "image/webp",
        "text/calendar",
        "text/csv",
        "text/plain",
        "video/mp4",
        "video/webm",
    }
)
"""Types served as declared: a browser shows them as media or plain text, or saves them, and
never runs script in them. Not here on purpose: HTML, XHTML, SVG and every XML (script),
JavaScript, PDF (viewers with script), and message/* (browsers that rendered MHTML)."""

_OCTET_STREAM: Final = "application/octet-stream"

_EXTENSIONS: Final = {
    "application/gzip": ".gz",
    "application/json": ".json",
    "application/pdf": ".pdf",
    "application/zip": ".zip",
    "image/gif": ".gif",
    "image/jpeg": ".jpg",
    "image/png": ".png",
    "image/webp": ".webp",
    "text/calendar": ".ics",
    "text/csv": ".csv",
    "text/plain": ".txt",
}
"""Extensions of the fallback name of an unnamed attachment (``.bin`` for any other type)."""

MESSAGE_TYPES: Final = frozenset({"message/rfc822", "message/global"})
"""Attached messages: downloaded as the embedded message's bytes, a ``.eml`` file."""

_TEXT_TYPES: Final = frozenset(
    {
        "application/json",
        "application/ld+json",
        "application/csv",
        "application/ics",
        "application/xml",
        "application/yaml",
        "application/x-yaml",
        "application/toml",
        "application/javascript",
        "application/ecmascript",
        "application/x-sh",
        "application/sql",
    }
)
_TEXT_EXTENSIONS: Final = frozenset(
    {"csv", "tsv", "txt", "text", "json", "ics", "ical", "md", "log", "xml", "yaml", "yml", "toml", "html", "htm"}
)
# A CSV or calendar file is often sent with a generic or spreadsheet type: its name decides.
_GENERIC_TYPES: Final = frozenset(
    {"application/octet-stream", "application/vnd.ms-excel", "application/x-csv", "application/download"}
)

_BOMS: Final = ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"))


def safe_filename(name: str | None) -> str | None:
    """``name`` made safe to show, put in a header and save: None when nothing usable is left.

    Control, bidi and invisible formatting characters are removed (line breaks and tabs become
    spaces), everything up to the last ``/`` or ``\\`` goes (a path is not a name), leading dots
    go (no hidden file, no ``..``), trailing dots and spaces go (Windows drops them), and names
    over MAX_FILENAME_CHARS are cut keeping their extension.
    """
    if not name:
        return None
    text = name[:_MAX_INPUT_CHARS].replace("\t", " ").replace("\r", " ").replace("\n", " ")
    text = _UNSAFE_CHARS.sub("", text)
    text = text[max(text.rfind("/"), text.rfind("\\")) + 1 :]
    text = text.lstrip(". ").rstrip(". ")
    if not text:
        return None
    if len(text) > MAX_FILENAME_CHARS:
        stem, dot, extension = text.rpartition(".")
        if dot and stem and 0 < len(extension) <= _MAX_EXTENSION_CHARS:
            text = stem[: MAX_FILENAME_CHARS - len(extension) - 1].rstrip(". ") + "." + extension
        else:
            text = text[:MAX_FILENAME_CHARS].rstrip(". ")
    return text or None


def message_filename(name: str | None, subject: str) -> str:
    """The name of an attached message: its own name, else its subject, else ``message``; ``.eml`` always."""
    # A subject is no path: its slashes ("Re: part 1/2") stay in the name, as underscores.
    base = safe_filename(name) or safe_filename(subject.replace("/", "_").replace("\\", "_")) or "message"
    if base.lower().endswith(".eml"):
        return base
    return safe_filename(base[: MAX_FILENAME_CHARS - 4] + ".eml") or "message.eml"


def fallback_filename(attachment_id: str, content_type: str) -> str:
    """The download name of an unnamed attachment: ``attachment-2.1.png``, ``.bin`` for unknown types."""
    extension = ".eml" if content_type in MESSAGE_TYPES else _EXTENSIONS.get(content_type, ".bin")
    return f"attachment-{attachment_id}{extension}"


def served_type(content_type: str) -> str:
    """The Content-Type a download is served with: the declared type when it is inert, else octet-stream.

    Parameters are dropped; a malformed or unknown type is ``application/octet-stream``.
    """
    essence = content_type.partition(";")[0].strip().lower()
    if not _CONTENT_TYPE.fullmatch(essence):
        return _OCTET_STREAM
    return essence if essence in INERT_TYPES else _OCTET_STREAM


def content_disposition(filename: str) -> str:
    """``attachment; filename="…"; filename*=UTF-8''…`` for ``filename`` (RFC 6266, RFC 8187).

    The quoted ``filename`` is an ASCII fallback for old clients (accents dropped, anything else
    outside printable ASCII, quotes, slashes, backslashes and percent signs as ``_``); ``filename*``
    carries the name exactly, percent-encoded. Neither can hold a line break or a bare quote.
    """
    name = safe_filename(filename) or "attachment"
    ascii_name = "".join(_ascii(c) for c in name).lstrip(". ").rstrip(" ") or "attachment"
    encoded = quote(name, safe="!#$&+-.^_`|~", encoding="utf-8")
    return f"attachment; filename=\"{ascii_name}\"; filename*=UTF-8''{encoded}"


def _ascii(char: str) -> str:
    """``char`` in the ASCII fallback name: its unaccented form when it has one, else ``_``."""
    folded = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode("ascii")
    # NFKD makes fullwidth solidi (U+FF0F) ASCII: no slash may reach the fallback name.
    return "".join(c if " " <= c <= "~" and c not in '"\\%/' else "_" for c in folded) or "_"


def is_text_like(content_type: str, filename: str | None) -> bool:
    """Whether ``…/text`` returns this attachment's text: text/*, JSON, CSV, calendars, XML, YAML.

    HTML and XML count: the text is returned as a JSON string (never rendered), and their
    source is what an agent reads. A generic type (octet-stream, Excel's CSV type) counts when
    the file name has a text extension (``.csv``, ``.ics``, ``.json``, ...).
    """
    essence = content_type.partition(";")[0].strip().lower()
    if essence.startswith("text/") or essence in _TEXT_TYPES or essence.endswith(("+json", "+xml")):
        return True
    if essence in _GENERIC_TYPES and filename:
        return filename.rpartition(".")[2].lower() in _TEXT_EXTENSIONS
    return False


def attachment_text(data: bytes, charset: str | None, cap: int) -> tuple[str, bool]:
    """The text of an attachment's bytes, at most ``cap`` characters, and whether it was cut.

    A byte order mark wins over the declared charset (then UTF-8 when none); unknown charsets
    and broken bytes become U+FFFD. Line breaks become ``\\n``. Only the bytes that can hold
    ``cap`` characters are decoded.
    """
    for bom, name in _BOMS:
        if data.startswith(bom):
            data, charset = data[len(bom) :], name
            break
    budget = cap * 4 + 4  # no charset we read needs more than 4 bytes a character, UTF-7 and ISO-2022 aside
    cut = len(data) > budget
    text = decode(data[:budget] if cut else data, charset).replace("\r\n", "\n")
    if len(text) > cap:
        return text[:cap], True
    return text, cut
