#!/usr/bin/env bash
# Installs HAProxy (Debian's haproxy package) for the cluster tests and `npm run cluster`,
# without starting the system service: the tests (test/clients/cluster.test.ts) and scripts/cluster/ run their
# own haproxy process (`haproxy -f <generated cfg> -db`) on free 127.0.0.1 ports, and stop it.
# Idempotent: a haproxy already there is kept. Under CI (CI set, not "false"/"0") a haproxy it
# cannot install is an error (exit 1); elsewhere it says what it skipped and exits 0.
set -uo pipefail
in_ci() { [ -n "${CI:-}" ] && [ "${CI}" != "false" ] && [ "${CI}" != "0" ]; }
fail() {
  echo "[ci] $1"
  if in_ci; then exit 1; fi
  exit 0
}
if command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ]; then
  echo "[ci] haproxy present ($( (command -v haproxy >/dev/null 2>&1 && haproxy -v || /usr/sbin/haproxy -v) 2>&1 | head -1))"
  exit 0
fi
if [ "$(id -u)" != "0" ]; then
  fail "not root: cannot install haproxy (the cluster tests fail in CI without it)"
fi
echo "[ci] installing haproxy"
# A policy-rc.d keeps the package from starting the system haproxy (an existing one is kept).
created_policy=""
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d && created_policy=1
fi
installed=1
(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy >/dev/null) || installed=""
[ -n "$created_policy" ] && rm -f /usr/sbin/policy-rc.d
[ -n "$installed" ] || fail "haproxy install failed"
[ -x /usr/sbin/haproxy ] || fail "haproxy installed, but /usr/sbin/haproxy is missing"
echo "[ci] haproxy installed"
exit 0
