#!/usr/bin/env bash
# Makes sure what the test suite needs outside npm is present: Debian's Chromium and a
# PostgreSQL server answering on 127.0.0.1:5432 with trust auth and a database "test".
# Installs them from Debian's packages when missing (needs root), or says what to run.
set -euo pipefail

need_root() {
  if [ "$(id -u)" != 0 ]; then
    echo "ensure-services: $1 is missing; run as root: apt-get update && apt-get install -y $2" >&2
    exit 1
  fi
}

if [ ! -x /usr/bin/chromium ]; then
  need_root "Chromium" "chromium"
  echo "ensure-services: installing Debian's chromium"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

pg_up() { pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null || (exec 3<>/dev/tcp/127.0.0.1/5432) 2>/dev/null; }

if ! pg_up; then
  if ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then
    need_root "PostgreSQL" "postgresql"
    echo "ensure-services: installing Debian's postgresql"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  fi
  version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
  if [ -d "/etc/postgresql/$version/main" ]; then
    hba="/etc/postgresql/$version/main/pg_hba.conf"
    # Local test server only: trust connections from this machine, as CI's server does.
    if ! grep -q '^host all all 127.0.0.1/32 trust' "$hba"; then
      sed -i '1i host all all 127.0.0.1/32 trust\nhost all all ::1/128 trust' "$hba"
    fi
    pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
  else
    echo "ensure-services: no PostgreSQL cluster found; run: pg_createcluster $version main --start" >&2
    exit 1
  fi
  for _ in $(seq 1 30); do pg_up && break; sleep 1; done
fi

# PostgreSQL backups (npm run backup, issue 40) and their tests need pg_dump and pg_restore, which
# Debian ships in postgresql-client (a dependency of the server package, but a server elsewhere
# leaves it out).
if ! command -v pg_dump >/dev/null 2>&1 || ! command -v pg_restore >/dev/null 2>&1; then
  need_root "pg_dump (PostgreSQL's client tools)" "postgresql-client"
  echo "ensure-services: installing Debian's postgresql-client"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-client >/dev/null
fi

if ! psql -h 127.0.0.1 -U postgres -d test -c 'select 1' >/dev/null 2>&1; then
  psql -h 127.0.0.1 -U postgres -d postgres -c 'create database test' >/dev/null 2>&1 ||
    runuser -u postgres -- psql -c 'create database test' >/dev/null
fi
echo "ensure-services: chromium, postgresql and pg_dump ready"
