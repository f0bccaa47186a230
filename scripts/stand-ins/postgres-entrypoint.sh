#!/bin/sh
# The stand-in postgres:15's entrypoint: the official image's environment
# (POSTGRES_USER, POSTGRES_PASSWORD, POSTGRES_DB, PGDATA), read only when the
# data folder is empty, as there. The first start initialises the cluster
# behind a server that listens on its socket only, then starts the real one.
set -eu
: "${POSTGRES_USER:=postgres}" "${POSTGRES_DB:=$POSTGRES_USER}"
: "${PGDATA:=/var/lib/postgresql/data}"
bin=/usr/lib/postgresql/15/bin
as_postgres() { setpriv --reuid=postgres --regid=postgres --init-groups "$@"; }

mkdir -p "$PGDATA" /var/run/postgresql
chown -R postgres:postgres "$PGDATA" /var/run/postgresql
chmod 700 "$PGDATA"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
    : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD must be set for a new database}"
    pwfile=$(mktemp)
    printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
    chown postgres "$pwfile"
    as_postgres "$bin/initdb" -D "$PGDATA" --username="$POSTGRES_USER" --pwfile="$pwfile" \
        --auth-local=trust --auth-host=scram-sha-256 >/dev/null
    rm -f "$pwfile"
    echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
    as_postgres "$bin/pg_ctl" -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
    if [ "$POSTGRES_DB" != postgres ]; then
        as_postgres psql -v ON_ERROR_STOP=1 --username="$POSTGRES_USER" --dbname=postgres \
            -c "CREATE DATABASE \"$POSTGRES_DB\"" >/dev/null
    fi
    as_postgres "$bin/pg_ctl" -D "$PGDATA" -m fast -w stop >/dev/null
    echo "initialised the database $POSTGRES_DB for $POSTGRES_USER"
fi
exec setpriv --reuid=postgres --regid=postgres --init-groups \
    "$bin/postgres" -D "$PGDATA" -c listen_addresses='*' "$@"
