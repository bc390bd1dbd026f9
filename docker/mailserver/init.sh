#!/bin/bash
# Entrypoint of the mailserver container (compose.yaml): prepares docker-mailserver's config
# folder and the internal TLS certificate, then hands over to the image's own entrypoint
# (dumb-init -> supervisord -> DMS's start-mailserver.sh).
#
# Why a wrapper: DMS will not start Dovecot until postfix-accounts.cf holds an account, and
# that line must carry the hash of AGENTMAIL_IMAP_PASSWORD from .env; likewise the gateway's
# relay login (agentmail-relay, AGENTMAIL_RELAY_PASSWORD) for submission on 587. Writing them
# here, from the environment, keeps secrets out of the repository and off the host's disk. The override
# files beside this script are copied (dovecot.cf with the push secret filled in) into
# /tmp/docker-mailserver, DMS's documented config folder, which lives in the container only
# and is rebuilt at every start.
set -Eeuo pipefail
trap 'echo "agentmail init: failed at line ${LINENO}" >&2' ERR

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)   # docker/mailserver, mounted read-only at /agentmail
CONFIG=/tmp/docker-mailserver   # DMS's config folder
TLS=/etc/agentmail-tls          # named volume; the gateway mounts it read-only and trusts ca.pem

die() {
  echo "agentmail init: $*" >&2
  exit 1
}

domain=${AGENTMAIL_DOMAIN:-}
domain=${domain,,}
label='[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?'
[[ ${domain} =~ ^${label}(\.${label})+$ ]] ||
  die "AGENTMAIL_DOMAIN='${domain}' is not a public domain name (e.g. agents.example.com); set it in docker/.env"

password=${AGENTMAIL_IMAP_PASSWORD:-}
[[ ${#password} -ge 12 ]] || die "AGENTMAIL_IMAP_PASSWORD must be at least 12 characters (docker/.env)"
[[ ${password} != *$'\n'* ]] || die "AGENTMAIL_IMAP_PASSWORD must be a single line"

relay_password=${AGENTMAIL_RELAY_PASSWORD:-}
[[ ${#relay_password} -ge 12 ]] || die "AGENTMAIL_RELAY_PASSWORD must be at least 12 characters (docker/.env)"
[[ ${relay_password} != *$'\n'* ]] || die "AGENTMAIL_RELAY_PASSWORD must be a single line"
[[ ${relay_password} != "${password}" ]] || die "AGENTMAIL_RELAY_PASSWORD must differ from AGENTMAIL_IMAP_PASSWORD"

# The secret is the password part of the push URL and a sed replacement: unreserved URL
# characters only, so it needs no escaping anywhere.
secret=${AGENTMAIL_PUSH_SECRET:-}
[[ ${secret} =~ ^[A-Za-z0-9._~-]{16,}$ ]] ||
  die "AGENTMAIL_PUSH_SECRET must be at least 16 characters from A-Z a-z 0-9 . _ ~ - (e.g. openssl rand -hex 24)"

mx=$(hostname -f 2>/dev/null || hostname)

# --- DMS config folder ------------------------------------------------------------------
(
  umask 077
  mkdir -p "${CONFIG}"
  cp "${SRC}/postfix-main.cf" "${SRC}/postfix-master.cf" "${SRC}/user-patches.sh" "${CONFIG}/"
  sed "s|@AGENTMAIL_PUSH_SECRET@|${secret}|g" "${SRC}/dovecot.cf" >"${CONFIG}/dovecot.cf"
  # The one account: its domain becomes Postfix's virtual mailbox domain (/etc/postfix/vhost),
  # its line Dovecot's passdb, so catchall@ is the only IMAP login. SHA512-CRYPT is DMS's
  # default scheme (what `setup email add` writes); the password goes in on stdin, not argv.
  hash=$(printf '%s\n' "${password}" | openssl passwd -6 -stdin)
  printf 'catchall@%s|{SHA512-CRYPT}%s\n' "${domain}" "${hash}" >"${CONFIG}/postfix-accounts.cf"
)

# --- The gateway's relay login (dovecot.cf, second passdb) --------------------------------
# Keyed "smtp/<name>": Dovecot finds it only for Postfix's SASL checks (service smtp), never for
# an IMAP login. Not a DMS account, so it has no mailbox and DMS's own files never list it.
# Readable by Dovecot's auth process (group dovecot), like DMS's /etc/dovecot/userdb.
(
  umask 077
  relay_hash=$(printf '%s\n' "${relay_password}" | openssl passwd -6 -stdin)
  printf 'smtp/agentmail-relay:{SHA512-CRYPT}%s\n' "${relay_hash}" >/etc/dovecot/agentmail-relay.passwd
  chown root:dovecot /etc/dovecot/agentmail-relay.passwd
  chmod 0640 /etc/dovecot/agentmail-relay.passwd
)

# --- Internal TLS for IMAP (and, by default, port 25) -------------------------------------
# A private CA signs one server certificate for "mailserver" (the name the gateway connects
# to) and for the public host name (what port 25 presents when SSL_TYPE=manual). Only ca.pem
# and the certificate are readable by others; the key stays root-only in private/, and the
# CA key is thrown away once it has signed. Made again when missing, when it expires within
# 30 days or when the host name changed (restart the gateway afterwards: it reads ca.pem).
cert_is_current() {
  local name
  [[ -s ${TLS}/ca.pem && -s ${TLS}/server-cert.pem && -s ${TLS}/private/server-key.pem ]] || return 1
  openssl x509 -in "${TLS}/server-cert.pem" -noout -checkend 2592000 >/dev/null || return 1
  for name in mailserver "${mx}"; do
    openssl x509 -in "${TLS}/server-cert.pem" -noout -checkhost "${name}" | grep -q ' does match ' || return 1
  done
}

make_cert() {
  local work
  mkdir -p "${TLS}/private"
  work=$(mktemp -d "${TLS}/private/.new.XXXXXX")
  openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -sha256 \
    -subj "/CN=agentmail internal CA" \
    -addext "basicConstraints=critical,CA:TRUE" \
    -addext "keyUsage=critical,keyCertSign,cRLSign" \
    -keyout "${work}/ca-key.pem" -out "${work}/ca.pem" 2>/dev/null
  openssl req -newkey rsa:2048 -nodes -subj "/CN=mailserver" \
    -keyout "${work}/server-key.pem" -out "${work}/server.csr" 2>/dev/null
  printf '%s\n' \
    'basicConstraints=critical,CA:FALSE' \
    'keyUsage=critical,digitalSignature,keyEncipherment' \
    'extendedKeyUsage=serverAuth' \
    "subjectAltName=DNS:mailserver,DNS:${mx}" \
    'subjectKeyIdentifier=hash' \
    'authorityKeyIdentifier=keyid' >"${work}/server.ext"
  openssl x509 -req -sha256 -days 730 -set_serial "0x$(openssl rand -hex 16)" \
    -in "${work}/server.csr" -CA "${work}/ca.pem" -CAkey "${work}/ca-key.pem" \
    -extfile "${work}/server.ext" -out "${work}/server-cert.pem" 2>/dev/null
  chmod 0644 "${work}/ca.pem" "${work}/server-cert.pem"
  chmod 0600 "${work}/server-key.pem"
  mv -f "${work}/server-key.pem" "${TLS}/private/server-key.pem"
  mv -f "${work}/server-cert.pem" "${TLS}/server-cert.pem"
  mv -f "${work}/ca.pem" "${TLS}/ca.pem"
  rm -rf "${work}"
  echo "agentmail init: made the internal TLS certificate for mailserver and ${mx}"
}

mkdir -p "${TLS}/private"
chmod 0755 "${TLS}"
chmod 0700 "${TLS}/private"
cert_is_current || make_cert

# DMS needs none of the secrets in its environment any more (the domain stays for user-patches.sh).
unset AGENTMAIL_IMAP_PASSWORD AGENTMAIL_PUSH_SECRET AGENTMAIL_RELAY_PASSWORD password secret relay_password

if [[ $# -eq 0 ]]; then
  set -- supervisord -c /etc/supervisor/supervisord.conf
fi
exec /usr/bin/dumb-init -- "$@"
