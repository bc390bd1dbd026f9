#!/bin/bash
# docker-mailserver runs this script (as root, with the container's environment) at the end
# of its setup, just before it starts the daemons (DMS _setup_run_user_patches).
#
# Why each step exists:
# 1. /etc/dovecot/local.conf is DMS's copy of dovecot.cf and holds the push secret: root only
#    (Dovecot's config process runs as root and serves the settings to the other processes).
# 2. Dovecot's OX push driver (dovecot.cf) fires only for users whose INBOX carries the server
#    metadata /private/vendor/vendor.dovecot/http-notify. `doveadm mailbox metadata set` needs
#    a running Dovecot, which starts after this script returns, so a background job retries
#    for up to three minutes and logs the outcome to mail.log (shown by `docker compose logs`).
#    The value persists in the catch-all's home (dovecot-attributes, on the mail-data volume).
#    Without it delivery is unchanged; the gateway just learns of new mail from IMAP IDLE.
set -euo pipefail

chmod 0600 /etc/dovecot/local.conf

user="catchall@${AGENTMAIL_DOMAIN,,}"

report() {
  logger -p mail.info -t agentmail "$1" 2>/dev/null || echo "agentmail: $1"
}

(
  for _ in $(seq 90); do
    if doveadm mailbox metadata set -u "${user}" -s '' \
      /private/vendor/vendor.dovecot/http-notify "user=${user}" 2>/dev/null; then
      report "push notifications enabled for ${user}"
      exit 0
    fi
    sleep 2
  done
  report "could not set the push metadata for ${user}; the gateway falls back to IMAP IDLE"
) </dev/null >/dev/null 2>&1 &
