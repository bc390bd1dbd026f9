"""What threads a message: its Message-ID, the chain it answers, its subject and people. Pure.

A message joins a thread of one identity through any Message-ID of its `References` /
`In-Reply-To` chain that the identity already holds (sent or received); with neither header,
through its normalized subject, but only when it comes from someone already in that thread
(recent: `SUBJECT_WINDOW`). A new thread's id is derived from the identity's address and the
chain's root (the first Message-ID of `References`, else `In-Reply-To`, else the message's own),
so rebuilding the index from the mailbox gives every thread the same id again, whatever order
a reply and its original are read in (the original's own Message-ID *is* the reply's root).
"""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import dataclass
from typing import Final

from gateway.mail.models import ParsedMessage

__all__ = [
    "MAX_REFERENCES",
    "SUBJECT_WINDOW",
    "ThreadKeys",
    "message_ids_in",
    "normalize_subject",
    "strip_prefixes",
    "thread_id_for",
    "thread_keys",
]

MAX_REFERENCES: Final = 20
"""Message-IDs kept of a chain: the root and the latest ones (RFC 5322 §3.6.4 lets it grow forever)."""
SUBJECT_WINDOW: Final = 30 * 86400.0
"""A subject-only match joins a thread only if the thread saw mail this recently (seconds)."""
MAX_ID_CHARS: Final = 998  # one header line: a longer "id" is noise, never a thread key

# Reply and forward prefixes in the languages mail clients write them in (Outlook's German
# "AW"/"WG", Nordic "SV", Dutch "Antw", French "TR", Chinese 回复/答复/转发), with an optional
# counter ("Re[2]:", "Re^2:") and full-width colons. Casefolded before matching.
_PREFIX: Final = re.compile(
    r"^\s*(?:re|aw|sv|antw|vs|ref|rif|odp|fwd?|fw|wg|tr|rv|enc|doorst|vl|回复|答复|回覆|转发|轉寄)"
    r"\s*(?:\[\d{1,4}\]|\^\d{1,4}|\(\d{1,4}\))?\s*[:\uff1a]\s*",
    re.IGNORECASE,
)
_LIST_TAG: Final = re.compile(r"^\s*\[[^\[\]]{1,64}\]\s*")  # "[team-list] ..."
_ID: Final = re.compile(r"<([^<>\s]{1,990})>")
_SPACES: Final = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class ThreadKeys:
    """The parts of one message that threading reads."""

    message_id: str | None
    """Its own Message-ID with angle brackets, or None."""
    references: tuple[str, ...]
    """The chain it answers, root first, `In-Reply-To` last; empty when it answers nothing."""
    subject: str
    """Normalized subject (`normalize_subject`): '' when nothing is left."""
    sender: str | None
    """The From addr-spec, lowercased."""
    participants: frozenset[str]
    """From, To and Cc addr-specs, lowercased."""

    @property
    def root(self) -> str | None:
        """The Message-ID a new thread for this message is named after."""
        return self.references[0] if self.references else self.message_id


def message_ids_in(value: str) -> list[str]:
    """The `<id>`s of a References / In-Reply-To value, in order, without repeats."""
    found: dict[str, None] = {}
    for match in _ID.finditer(value[: 64 * MAX_ID_CHARS]):
        found.setdefault(f"<{match[1]}>")
    return list(found)


def strip_prefixes(subject: str) -> str:
    """`subject` without its leading reply/forward prefixes and list tags (`Re: [dev] AW: x` → `x`)."""
    text = subject
    for _ in range(32):  # bounded: hostile subjects stack thousands
        stripped = _LIST_TAG.sub("", _PREFIX.sub("", text, count=1), count=1)
        if stripped == text:
            break
        text = stripped
    return text.strip()


def normalize_subject(subject: str) -> str:
    """The subject threads compare: prefixes and list tags stripped, spaces collapsed, casefolded."""
    return _SPACES.sub(" ", strip_prefixes(subject)).strip().casefold()


def thread_keys(parsed: ParsedMessage) -> ThreadKeys:
    """The threading keys of a parsed message (its headers decide; the body never does)."""
    references: list[str] = []
    reply_to: list[str] = []
    for header in parsed.headers:
        name = header.name.lower()
        if name == "references" and not references:
            references = message_ids_in(header.value)
        elif name == "in-reply-to" and not reply_to:
            reply_to = message_ids_in(header.value)
    chain = _capped([*references, *(i for i in reply_to[:1] if i not in references)])
    own = parsed.message_id
    chain = [i for i in chain if i != own]  # a message never answers itself
    people = set(parsed.to) | set(parsed.cc)
    if parsed.from_address:
        people.add(parsed.from_address)
    return ThreadKeys(
        message_id=own,
        references=tuple(chain),
        subject=normalize_subject(parsed.subject),
        sender=parsed.from_address,
        participants=frozenset(people),
    )


def thread_id_for(address: str, root: str) -> str:
    """The id of `address`'s thread rooted at the Message-ID (or message key) `root`: stable, per identity."""
    digest = hashlib.sha256(f"{address.lower()}\0{root}".encode("utf-8", "surrogatepass")).digest()
    return "t_" + base64.b32encode(digest[:15]).decode().lower()


def _capped(chain: list[str]) -> list[str]:
    """The root and the latest ids of a chain longer than MAX_REFERENCES."""
    if len(chain) <= MAX_REFERENCES:
        return chain
    return [chain[0], *chain[-(MAX_REFERENCES - 1) :]]
