#!/usr/bin/env bash
# Starts a local PostgreSQL for the integration tests that need one (installs it
# from Debian's packages when missing) and exports nothing: tests read
# FA_MCP_TEST_PG_URL, which defaults to the local socket setup below.
# Under CI (CI set, not "false"/"0") a PostgreSQL it cannot install or start is
# an error (exit 1); as non-root it only checks that one answers on 127.0.0.1:5432.
set -uo pipefail
in_ci() { [ -n "${CI:-}" ] && [ "${CI}" != "false" ] && [ "${CI}" != "0" ]; }
fail() {
  echo "[ci] $1"
  if in_ci; then exit 1; fi
  exit 0
}
answers() { (exec 3<>/dev/tcp/127.0.0.1/5432) 2>/dev/null; }
if [ "$(id -u)" != "0" ]; then
  answers && { echo "[ci] not root: PostgreSQL answers on 127.0.0.1:5432, nothing to start"; exit 0; }
  fail "not root: cannot start PostgreSQL, and none answers on 127.0.0.1:5432 (the tests that need it fail)"
fi
if ! command -v pg_ctlcluster >/dev/null 2>&1; then
  echo "[ci] installing PostgreSQL"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null) || fail "PostgreSQL install failed"
fi
VERSION="$(ls /etc/postgresql 2>/dev/null | sort -n | tail -1)"
if [ -z "$VERSION" ]; then fail "no PostgreSQL cluster found"; fi
pg_ctlcluster "$VERSION" main start 2>/dev/null || true
ready=""
for _ in $(seq 1 30); do
  if su postgres -c "psql -qAtc 'select 1'" >/dev/null 2>&1; then ready=1; break; fi
  sleep 1
done
[ -n "$ready" ] || fail "PostgreSQL $VERSION did not answer within 30 s"
su postgres -c "psql -qAtc \"do \\\$\\\$ begin if not exists (select from pg_roles where rolname='fa_mcp') then create role fa_mcp login password 'fa_mcp' superuser; end if; end \\\$\\\$;\"" >/dev/null 2>&1 || true
su postgres -c "psql -qAtc \"select 1 from pg_database where datname='fa_mcp_test'\"" | grep -q 1 || su postgres -c "createdb -O fa_mcp fa_mcp_test" || true
echo "[ci] PostgreSQL $VERSION ready on 127.0.0.1:5432 (db fa_mcp_test, user fa_mcp)"
