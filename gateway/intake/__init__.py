"""How mail gets in when no mail server is installed: the embedded SMTP intake."""
