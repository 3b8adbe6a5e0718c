#!/usr/bin/env bash
# Installs Debian's chromium for the browser test of the /docs reference page
# (packages/fa-mcp-sdk/test/ops2/docs-browser.test.ts) when it is missing.
set -uo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" != "0" ]; then
  echo "[ci] not root: cannot install chromium (the /docs browser test will fail)"
  exit 0
fi
echo "[ci] installing chromium"
(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) || echo "[ci] chromium install failed"
