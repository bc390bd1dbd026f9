"""Where mail is read from: the embedded Maildir (`local`) or Dovecot over IMAP (`imap`)."""
