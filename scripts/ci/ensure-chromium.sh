#!/usr/bin/env bash
# Installs Debian's chromium for the browser tests (the /docs reference page,
# packages/fa-mcp-sdk/test/ops2/docs-browser.test.ts; the Agent Tester pages,
# test/agent-tester/browser*.test.ts; examples/mcp-apps) when it is missing.
# Under CI (CI set, not "false"/"0") a chromium it cannot install is an error
# (exit 1): the browser tests would fail anyway, and the log says why here.
set -uo pipefail
in_ci() { [ -n "${CI:-}" ] && [ "${CI}" != "false" ] && [ "${CI}" != "0" ]; }
fail() {
  echo "[ci] $1"
  if in_ci; then exit 1; fi
  exit 0
}
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" != "0" ]; then
  fail "not root: cannot install chromium (the browser tests fail without it)"
fi
echo "[ci] installing chromium"
(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) || fail "chromium install failed"
[ -x /usr/bin/chromium ] || fail "chromium installed, but /usr/bin/chromium is missing"
echo "[ci] chromium installed"
