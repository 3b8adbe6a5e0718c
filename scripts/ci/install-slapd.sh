#!/usr/bin/env bash
# Installs OpenLDAP (Debian's slapd and ldap-utils) for the LDAP group tests,
# non-interactively and without configuring or starting the system daemon:
# the tests (packages/fa-mcp-sdk/test/auth/slapd.ts) start their own slapd on a
# free 127.0.0.1 port with a throw-away database, and stop it afterwards.
set -uo pipefail
if command -v slapd >/dev/null 2>&1 || [ -x /usr/sbin/slapd ]; then
  echo "[ci] slapd present ($(/usr/sbin/slapd -VV 2>&1 | head -1))"
  exit 0
fi
if [ "$(id -u)" != "0" ]; then
  echo "[ci] not root: cannot install slapd (the LDAP tests fail in CI without it)"
  exit 0
fi
echo "[ci] installing slapd and ldap-utils"
echo "slapd slapd/no_configuration boolean true" | debconf-set-selections
# A policy-rc.d keeps the package from starting a system slapd on port 389 (an existing one is kept).
created_policy=""
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d && created_policy=1
fi
(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slapd ldap-utils >/dev/null) || echo "[ci] slapd install failed"
[ -n "$created_policy" ] && rm -f /usr/sbin/policy-rc.d
command -v ldapsearch >/dev/null 2>&1 && echo "[ci] slapd installed"
exit 0
