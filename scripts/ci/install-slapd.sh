#!/usr/bin/env bash
# Installs OpenLDAP (Debian's slapd and ldap-utils) for the LDAP group tests,
# non-interactively and without configuring or starting the system daemon:
# the tests (packages/fa-mcp-sdk/test/auth/slapd.ts) start their own slapd on a
# free 127.0.0.1 port with a throw-away database, and stop it afterwards.
# Under CI (CI set, not "false"/"0") a slapd it cannot install is an error (exit 1).
set -uo pipefail
in_ci() { [ -n "${CI:-}" ] && [ "${CI}" != "false" ] && [ "${CI}" != "0" ]; }
fail() {
  echo "[ci] $1"
  if in_ci; then exit 1; fi
  exit 0
}
if command -v slapd >/dev/null 2>&1 || [ -x /usr/sbin/slapd ]; then
  echo "[ci] slapd present ($(/usr/sbin/slapd -VV 2>&1 | head -1))"
  exit 0
fi
if [ "$(id -u)" != "0" ]; then
  fail "not root: cannot install slapd (the LDAP tests fail in CI without it)"
fi
echo "[ci] installing slapd and ldap-utils"
echo "slapd slapd/no_configuration boolean true" | debconf-set-selections
# A policy-rc.d keeps the package from starting a system slapd on port 389 (an existing one is kept).
created_policy=""
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d && created_policy=1
fi
installed=1
(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slapd ldap-utils >/dev/null) || installed=""
[ -n "$created_policy" ] && rm -f /usr/sbin/policy-rc.d
[ -n "$installed" ] || fail "slapd install failed"
[ -x /usr/sbin/slapd ] || fail "slapd installed, but /usr/sbin/slapd is missing"
echo "[ci] slapd installed"
exit 0
