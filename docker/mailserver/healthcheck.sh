#!/bin/bash
# Health of the mailserver container (compose.yaml): Postfix listens on 25, Dovecot on 993,
# and the internal CA certificate the gateway trusts is in place. The gateway starts only
# once this passes.
set -euo pipefail

ports=$(ss --listening --tcp --numeric --no-header | awk '{ print $4 }')
grep -Eq ':25$' <<<"${ports}"
grep -Eq ':993$' <<<"${ports}"
test -s /etc/agentmail-tls/ca.pem
