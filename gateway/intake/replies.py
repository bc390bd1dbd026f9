"""Every SMTP reply the embedded intake chooses itself (RFC 5321 codes, RFC 3463 status)."""

from typing import Final

OK: Final = "250 2.1.5 Ok"
TOO_MANY_RECIPIENTS: Final = "452 4.5.3 Error: too many recipients"
BAD_ADDRESS: Final = "553 5.1.3 Error: malformed recipient address"
RELAY_DENIED: Final = "554 5.7.1 Error: relay access denied (this server only accepts mail for its own domain)"
STORE_FAILED: Final = "451 4.3.0 Error: could not store the message, try again later"
TOO_MANY_CONNECTIONS: Final = "421 4.7.0 Error: too many connections to this server, try again later"
TOO_MANY_CONNECTIONS_FROM_CLIENT: Final = (
    "421 4.7.0 Error: too many connections from your address, close some and try again later"
)
