#!/usr/bin/env bash
# Build the bot's image and check it as someone hosting the bot would use it,
# then bring up docker-compose.yml. Needs a running Docker daemon (and root or
# the docker group); no Discord: the token is fake, and discord.com is a
# server next to the bots that accepts connections and never answers, so each
# bot stays at its login (migrated, open for signals) instead of being refused.
# So the bots never connect and never report healthy: the check reads what
# they do before connecting.
#
#   scripts/check-image.sh             against the official base images
#   scripts/check-image.sh --stand-in  first make local stand-ins for them
#                                      (no Docker Hub: scripts/stand-ins/make.sh)
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "$0")/.."
if [ "${1:-}" = --stand-in ]; then
    scripts/stand-ins/make.sh "${STAND_IN_DIR:-/var/tmp/spades-stand-ins}"
fi
image=spades-bot:check
project=spades-check
# A Discord that never answers: accepts connections on 443 and sends nothing.
silent_server='import socket; s = socket.create_server(("0.0.0.0", 443)); c = []; exec("while True: c.append(s.accept())")'
silent_hosts=(--add-host discord.com:127.0.0.1 --add-host gateway.discord.gg:127.0.0.1)
if docker compose version >/dev/null 2>&1; then compose=(docker compose); else compose=(docker-compose); fi

step() { printf '\n== %s\n' "$*"; }
fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }
run() { docker run --rm "$@"; }
cleanup() {
    # -v: with the anonymous volume of any container that made one.
    docker rm -f -v spades-check-stop spades-check-early spades-check-discord >/dev/null 2>&1 || true
    docker volume rm spades-check-data >/dev/null 2>&1 || true
    docker image rm spades-check-context >/dev/null 2>&1 || true
    rm -rf "${context:-}"
    if [ -n "${override:-}" ]; then
        # With both files: the never-answering Discord is a service of the
        # override, and a network it still holds would keep the volumes.
        dc down --volumes --remove-orphans >/dev/null 2>&1 || true
        rm -f "$env_file" "$override"
    fi
}
trap cleanup EXIT

step "build"
started=$(date +%s.%N)
docker build --tag "$image" . >/dev/null
printf 'built in %.0f s; size %s\n' "$(echo "$(date +%s.%N) - $started" | bc)" \
    "$(docker image inspect "$image" --format '{{.Size}}' | numfmt --to=si)"

step "the build context: no secrets, settings or databases, at any depth"
# A tree of the names .dockerignore is for, at the top and below it, beside
# sources that must go in; the image lists what the build received.
context=$(mktemp -d)
cp .dockerignore "$context/"
secrets=(.env .env.local config.toml spades.db spades.db-wal spades.db.heartbeat bot.sqlite3)
for dir in . bot bot/deeper; do
    mkdir -p "$context/$dir"
    for name in "${secrets[@]}"; do echo secret > "$context/$dir/$name"; done
done
mkdir -p "$context/db/migrations"
touch "$context/bot/deeper/module.py" "$context/db/migrations/001_tables.sqlite.sql"
printf 'FROM %s\nCOPY . /context/\n' "$image" > "$context/Dockerfile"
docker build --quiet --tag spades-check-context "$context" >/dev/null
received=$(run --entrypoint find spades-check-context /context -type f | sed 's|^/context/||' | sort)
printf '%s\n' "$received"
printf '%s\n' "$received" | grep -qx db/migrations/001_tables.sqlite.sql || fail "sources left out"
printf '%s\n' "$received" | grep -qx bot/deeper/module.py || fail "sources left out"
for name in "${secrets[@]}"; do
    printf '%s\n' "$received" | grep -q "\(^\|/\)$name\$" && fail "$name went into the build context"
done
echo ok

step "--help"
run "$image" python -m bot --help | grep -q "Run the Spades bot" || fail "--help"
echo ok

step "a missing token and a bad setting: one line each, status 2"
one_line_error() {  # EXPECTED-TEXT DOCKER-RUN-ARGS...: exit 2 and one line naming it
    local expected=$1 out status=0
    shift
    out=$(run "$@" 2>&1) || status=$?
    [ "$status" -eq 2 ] || fail "exit $status, not 2: $out"
    [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] || fail "more than one line: $out"
    printf '%s\n' "$out" | grep -q -- "$expected" || fail "no '$expected' in: $out"
    echo "$out"
}
one_line_error DISCORD_TOKEN "$image"
# One bad value, one problem (not "and 1 more" for its copy in [clock]).
one_line_error "computer_delay_s: .*(got '-1')$" \
    -e DISCORD_TOKEN=fake -e SPADES_TABLES__COMPUTER_DELAY_S=-1 "$image"

step "an unprivileged user; no sources or caches in /app"
[ "$(run "$image" id -u)" = 10001 ] || fail "not user 10001"
leftovers=$(run "$image" sh -c 'ls -A /app; find /app /venv /home \( -name .mypy_cache \
    -o -name "*.egg-info" -o -name .pytest_cache -o -name "*.c" \) 2>/dev/null; true')
[ -z "$leftovers" ] || fail "left in the image: $leftovers"
run "$image" sh -c 'touch /venv/x' 2>/dev/null && fail "the user can write the installation"
echo ok

step "the health check"
docker volume create spades-check-data >/dev/null
health() { run -v spades-check-data:/data "$image" python -m bot health "$@"; }
health >/dev/null && fail "healthy without a bot"
run -v spades-check-data:/data --entrypoint sh "$image" -c \
    'touch /data/spades.db /data/spades.db.shards-1-of-2.heartbeat'
health || fail "not healthy with a fresh heartbeat of the shards the bot ran with"
run -v spades-check-data:/data --entrypoint sh "$image" -c \
    'touch -d "1 hour ago" /data/spades.db.shards-1-of-2.heartbeat'
health >/dev/null && fail "healthy with a stale heartbeat"
echo ok

step "docker stop: exit 0 within 5 s"
docker run -d --name spades-check-discord "${silent_hosts[@]}" -v spades-check-data:/data \
    --entrypoint python "$image" -c "$silent_server" >/dev/null
docker run -d --name spades-check-stop --network container:spades-check-discord \
    -e DISCORD_TOKEN=fake -v spades-check-data:/data "$image" >/dev/null
for _ in $(seq 60); do
    docker logs spades-check-stop 2>&1 | grep -q "logging in" && break
    sleep 0.5
done
docker logs spades-check-stop 2>&1 | grep -q "logging in" || fail "the bot did not start"
started=$(date +%s.%N)
docker stop spades-check-stop >/dev/null
took=$(echo "$(date +%s.%N) - $started" | bc)
status=$(docker inspect spades-check-stop --format '{{.State.ExitCode}}')
printf 'stopped in %.2f s, exit %s\n' "$took" "$status"
[ "$status" -eq 0 ] || fail "exit $status: $(docker logs --tail 20 spades-check-stop 2>&1)"
[ "$(echo "$took < 5" | bc)" -eq 1 ] || fail "took $took s"
docker logs spades-check-stop 2>&1 | grep -q $'\e\\[' && fail "colour codes in docker logs"
echo "docker logs: plain text"

step "docker stop right after docker run: within 5 s, exit 0 from 0.2 s on"
for delay in 0 0.2 0.4; do
    docker run -d --name spades-check-early --network container:spades-check-discord \
        -e DISCORD_TOKEN=fake -v spades-check-data:/data "$image" >/dev/null
    sleep "$delay"
    started=$(date +%s.%N)
    docker stop spades-check-early >/dev/null
    took=$(echo "$(date +%s.%N) - $started" | bc)
    status=$(docker inspect spades-check-early --format '{{.State.ExitCode}}')
    log=$(docker logs spades-check-early 2>&1)
    docker rm -v spades-check-early >/dev/null
    printf 'after %s s: stopped in %.2f s, exit %s\n' "$delay" "$took" "$status"
    [ "$(echo "$took < 5" | bc)" -eq 1 ] || fail "took $took s: $log"
    # Before Python has its handler, tini's child dies of the signal (143).
    if [ "$delay" = 0 ] && [ "$status" -eq 143 ]; then continue; fi
    [ "$status" -eq 0 ] || fail "exit $status: $log"
    printf '%s\n' "$log" | grep -q "SIGTERM received" || fail "no word of the signal: $log"
done

step "docker compose: PostgreSQL healthy, both shards on one migrated database"
env_file=$(mktemp)
printf 'DISCORD_TOKEN=fake\nPOSTGRES_PASSWORD=%s\n' "$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')" > "$env_file"
override=$(mktemp --suffix=.yml)
cat > "$override" <<YAML
services:
  silent-discord:
    image: spades-bot
    pull_policy: never
    entrypoint: ["python", "-c", '$(printf '%s' "$silent_server" | sed "s/'/''/g")']
    extra_hosts: ["discord.com:127.0.0.1", "gateway.discord.gg:127.0.0.1"]
  bot-0:
    network_mode: service:silent-discord
  bot-1:
    network_mode: service:silent-discord
YAML
dc() { "${compose[@]}" --project-name "$project" --env-file "$env_file" \
    -f docker-compose.yml -f "$override" "$@"; }
# A run stopped before its cleanup may have left the project and its
# volumes (the database's password is set when its volume is made).
dc down --volumes --remove-orphans >/dev/null 2>&1 || true
dc build --quiet
dc up -d
for _ in $(seq 120); do
    [ "$(docker inspect "$(dc ps -q postgres)" --format '{{.State.Health.Status}}')" = healthy ] && break
    sleep 1
done
[ "$(docker inspect "$(dc ps -q postgres)" --format '{{.State.Health.Status}}')" = healthy ] \
    || fail "PostgreSQL not healthy"
echo "postgres: healthy"
[ "$(docker inspect "$(dc ps -q bot-0)" --format '{{.Image}}')" = \
  "$(docker inspect "$(dc ps -q bot-1)" --format '{{.Image}}')" ] || fail "two images"
for service in bot-0 bot-1; do
    for _ in $(seq 60); do dc logs "$service" 2>&1 | grep -q "logging in" && break; sleep 0.5; done
    dc logs "$service" 2>&1 | grep -q "logging in" || fail "$service did not start: $(dc logs --no-color "$service" 2>&1 | head -40)"
    restarts=$(docker inspect "$(dc ps -q "$service")" --format '{{.RestartCount}}')
    [ "$restarts" -eq 0 ] || fail "$service restarted $restarts times: $(dc logs --no-color "$service" 2>&1 | head -40)"
    echo "$service: migrated and logging in, no restart"
done
latest=$(find db/migrations -name '[0-9]*.sql' | sed 's|.*/0*||; s|_.*||' | sort -n | tail -1)
versions=$(dc exec -T postgres psql --username spades --dbname spades --tuples-only --no-align \
    --command 'SELECT version FROM schema_version')
[ "$versions" = "$latest" ] || fail "schema_version rows: '$versions', expected one: $latest"
echo "schema_version: $versions (one row, the latest migration)"

step "docker compose down: every service stops cleanly"
started=$(date +%s.%N)
dc stop bot-0 bot-1 postgres
printf 'stopped in %.1f s\n' "$(echo "$(date +%s.%N) - $started" | bc)"
for service in bot-0 bot-1 postgres; do
    status=$(docker inspect "$(dc ps -q "$service")" --format '{{.State.ExitCode}}')
    echo "$service: exit $status"
    [ "$status" -eq 0 ] || fail "$service exited $status"
done
dc kill silent-discord >/dev/null 2>&1
dc down --volumes
rm -f "$override"
printf '\nall checks passed\n'
