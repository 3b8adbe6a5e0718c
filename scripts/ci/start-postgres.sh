#!/usr/bin/env bash
# Starts a local PostgreSQL for the integration tests that need one (installs it
# from Debian's packages when missing) and exports nothing: tests read
# FA_MCP_TEST_PG_URL, which defaults to the local socket setup below.
set -uo pipefail
if [ "$(id -u)" != "0" ]; then
  echo "[ci] not root: skipping PostgreSQL start (tests that need it will skip with a message)"
  exit 0
fi
if ! command -v pg_ctlcluster >/dev/null 2>&1; then
  echo "[ci] installing PostgreSQL"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null) || { echo "[ci] PostgreSQL install failed"; exit 0; }
fi
VERSION="$(ls /etc/postgresql 2>/dev/null | sort -n | tail -1)"
if [ -z "$VERSION" ]; then echo "[ci] no PostgreSQL cluster found"; exit 0; fi
pg_ctlcluster "$VERSION" main start 2>/dev/null || true
for i in $(seq 1 30); do
  if su postgres -c "psql -qAtc 'select 1'" >/dev/null 2>&1; then break; fi
  sleep 1
done
su postgres -c "psql -qAtc \"do \\\$\\\$ begin if not exists (select from pg_roles where rolname='fa_mcp') then create role fa_mcp login password 'fa_mcp' superuser; end if; end \\\$\\\$;\"" >/dev/null 2>&1 || true
su postgres -c "psql -qAtc \"select 1 from pg_database where datname='fa_mcp_test'\"" | grep -q 1 || su postgres -c "createdb -O fa_mcp fa_mcp_test" || true
echo "[ci] PostgreSQL $VERSION ready on 127.0.0.1:5432 (db fa_mcp_test, user fa_mcp)"
