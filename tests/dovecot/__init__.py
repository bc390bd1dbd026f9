"""Tests against a real Postfix + Dovecot stack (tests/mailstack)."""
