#!/usr/bin/env bash
# Local stand-ins for the two base images, for a machine that cannot reach
# Docker Hub: python:3.11-slim and postgres:15, each a Debian bookworm root
# made with debootstrap from this machine's apt mirror, laid out as the
# official image is (python and pip in /usr/local/bin; postgres's
# POSTGRES_USER, POSTGRES_PASSWORD and POSTGRES_DB). Needs root, debootstrap
# and a running Docker daemon. Usage: scripts/stand-ins/make.sh [WORKDIR]
set -euo pipefail
shopt -s inherit_errexit
here=$(cd "$(dirname "$0")" && pwd)
work=${1:-$(mktemp -d)}
mkdir -p "$work"
# The first deb line of the apt configuration (one-line or deb822 format).
mirror=$(grep -hs -m1 -oE '^deb +(\[[^]]*\] +)?https?://[^ ]+' /etc/apt/sources.list \
    | awk '{print $NF}' || true)
if [ -z "$mirror" ]; then
    mirror=$(grep -hs -m1 -E '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}')
fi
echo "stand-ins: Debian bookworm from $mirror in $work"

root_of() {  # NAME PACKAGES: a bookworm root with these packages, apt lists removed
    local root="$work/$1"
    if [ ! -e "$root/.done" ]; then
        rm -rf "$root"
        debootstrap --variant=minbase --include="$2" bookworm "$root" "$mirror" >"$work/$1.log"
        chroot "$root" apt-get clean
        rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin
        touch "$root/.done"
    fi
    echo "$root"
}

python_root=$(root_of python ca-certificates,python3,python3-dev,python3-pip,python3-venv)
# python:3.11-slim has python, python3, pip and pip3 in /usr/local/bin, and
# pip installs into the system's Python: Debian's "externally managed" mark goes.
for name in python python3; do ln -sf /usr/bin/python3 "$python_root/usr/local/bin/$name"; done
for name in pip pip3; do ln -sf /usr/bin/pip3 "$python_root/usr/local/bin/$name"; done
rm -f "$python_root"/usr/lib/python3.*/EXTERNALLY-MANAGED
# This machine's certificate authorities, so that pip in a build trusts what
# this machine trusts (a proxy's own authority, say).
cp /etc/ssl/certs/ca-certificates.crt "$python_root/etc/ssl/certs/ca-certificates.crt"
tar -C "$python_root" --exclude=./.done -c . | docker import \
    -c 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    -c 'ENV LANG=C.UTF-8' -c 'CMD ["python3"]' - python:3.11-slim

postgres_root=$(root_of postgres postgresql-15)
install -m 755 "$here/postgres-entrypoint.sh" "$postgres_root/usr/local/bin/docker-entrypoint.sh"
tar -C "$postgres_root" --exclude=./.done -c . | docker import \
    -c 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/usr/lib/postgresql/15/bin' \
    -c 'ENV PGDATA=/var/lib/postgresql/data' -c 'ENV LANG=C.UTF-8' \
    -c 'VOLUME /var/lib/postgresql/data' -c 'EXPOSE 5432' \
    -c 'ENTRYPOINT ["docker-entrypoint.sh"]' - postgres:15
docker image ls python:3.11-slim
docker image ls postgres:15
