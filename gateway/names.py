"""Local-part rules and readable random names for identities."""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterable
from typing import Final

from gateway.errors import InvalidName

__all__ = ["ALWAYS_RESERVED", "MAX_LOCAL_PART", "check_local_part", "random_local_part"]

MAX_LOCAL_PART: Final = 64  # RFC 5321 §4.5.3.1.1
_LOCAL_PART_RE: Final = re.compile(r"^[a-z0-9][a-z0-9._-]{0,63}$")
# RFC 2142 role mailboxes plus the ones MTAs treat specially: never an agent's address.
ALWAYS_RESERVED: Final = frozenset(
    {"postmaster", "abuse", "hostmaster", "webmaster", "mailer-daemon", "root", "noc", "security"}
)

_ADJECTIVES: Final = [
    "amber",
    "brave",
    "bright",
    "calm",
    "clever",
    "cosmic",
    "crisp",
    "dapper",
    "eager",
    "early",
    "fancy",
    "fast",
    "fluffy",
    "gentle",
    "glad",
    "golden",
    "grand",
    "happy",
    "hardy",
    "honest",
    "jolly",
    "keen",
    "kind",
    "lively",
    "lucky",
    "mellow",
    "merry",
    "mighty",
    "nimble",
    "noble",
    "polite",
    "proud",
    "quick",
    "quiet",
    "rapid",
    "ready",
    "rosy",
    "royal",
    "rustic",
    "shiny",
    "silent",
    "silver",
    "sleek",
    "smart",
    "snowy",
    "solar",
    "sunny",
    "super",
    "swift",
    "tidy",
    "tiny",
    "witty",
    "zesty",
    "bold",
    "cheery",
    "cozy",
    "dandy",
    "dewy",
    "frosty",
    "hazy",
    "misty",
    "neat",
    "plucky",
    "sturdy",
    "velvet",
    "vivid",
]
_ANIMALS: Final = [
    "otter",
    "badger",
    "beaver",
    "bison",
    "crane",
    "eagle",
    "falcon",
    "ferret",
    "finch",
    "fox",
    "gecko",
    "heron",
    "ibex",
    "jaguar",
    "koala",
    "lemur",
    "lynx",
    "marmot",
    "mole",
    "moose",
    "newt",
    "ocelot",
    "orca",
    "osprey",
    "owl",
    "panda",
    "puffin",
    "puma",
    "quail",
    "raven",
    "robin",
    "salmon",
    "seal",
    "shrew",
    "sloth",
    "stoat",
    "swan",
    "tapir",
    "tiger",
    "toucan",
    "trout",
    "turtle",
    "viper",
    "walrus",
    "weasel",
    "whale",
    "wolf",
    "wombat",
    "wren",
    "yak",
    "zebra",
    "bear",
    "hawk",
    "kiwi",
    "llama",
    "mink",
    "okapi",
    "panther",
    "pika",
]
_SUFFIX_ALPHABET: Final = "abcdefghijkmnpqrstuvwxyz23456789"  # no 0/o, 1/l: read aloud safely
_SUFFIX_LEN: Final = 6  # 30 bits; with the two words the name carries > 40 bits


def random_local_part() -> str:
    """A readable random local part such as `swift-otter-k7d2mq` (more than 40 bits)."""
    suffix = "".join(secrets.choice(_SUFFIX_ALPHABET) for _ in range(_SUFFIX_LEN))
    return f"{secrets.choice(_ADJECTIVES)}-{secrets.choice(_ANIMALS)}-{suffix}"


def check_local_part(raw: str, *, reserved: Iterable[str]) -> str:
    """The lowercased local part, or InvalidName saying which rule it breaks."""
    if "@" in raw:  # a whole address pasted where the name goes: say so, not "bad characters"
        raise InvalidName("local_part is the local part only, without @domain (the gateway adds its own domain)")
    if not raw.isascii():
        # Refused before lowercasing: Unicode folds look-alikes into ASCII (KELVIN SIGN U+212A
        # lowercases to "k"), and the name created would not be the one asked for.
        bad = next(ch for ch in raw if not ch.isascii())
        raise InvalidName(
            f"local_part must be ASCII: it contains U+{ord(bad):04X} (look-alikes of a-z are refused, not folded)"
        )
    local = raw.strip().lower()
    if not local:
        raise InvalidName("local_part is empty")
    if len(local) > MAX_LOCAL_PART:
        raise InvalidName(f"local_part is longer than {MAX_LOCAL_PART} characters")
    if "+" in local:
        raise InvalidName("local_part may not contain '+' (sub-addresses never match an identity)")
    if not _LOCAL_PART_RE.match(local) or ".." in local or local.endswith("."):
        raise InvalidName(
            "local_part must start with a-z or 0-9 and contain only a-z, 0-9, '.', '_' and '-'"
            " (no '..', no trailing '.')"
        )
    if local in ALWAYS_RESERVED or local in set(reserved):
        raise InvalidName(f"local_part {local!r} is reserved")
    return local
