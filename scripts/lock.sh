#!/usr/bin/env bash
# Refresh the pinned versions the Docker image installs: constraints/runtime.txt
# (the bot's dependencies, from pyproject.toml) and constraints/build.txt (what
# compiles the rules engine: pyproject.toml's build-system requirements).
# Each is the newest release today, resolved in a fresh virtual environment.
# Run from anywhere; review the diff, build the image, commit.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
freeze() {  # VENV FILE HEADER [FREEZE OPTIONS]: write VENV's packages to FILE
    { echo "# $3"; echo "# Written by scripts/lock.sh; edit pyproject.toml, then run it again."
      "$1/bin/pip" freeze --exclude spades-bot "${@:4}"; } > "$2"
}
python3 -m venv "$work/runtime"
"$work/runtime/bin/pip" install --quiet --upgrade pip
SPADES_PURE_PYTHON=1 "$work/runtime/bin/pip" install --quiet .
freeze "$work/runtime" constraints/runtime.txt "What the bot runs with, pinned."
python3 -m venv "$work/build"
requires=$(python3 -c 'import tomllib; print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["build-system"]["requires"]))')
# shellcheck disable=SC2086
"$work/build/bin/pip" install --quiet --upgrade pip $requires
freeze "$work/build" constraints/build.txt "What compiles the rules engine (and pip itself), pinned." --all
git --no-pager diff --stat -- constraints/ || true
