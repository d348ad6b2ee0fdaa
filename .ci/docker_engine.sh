#!/usr/bin/env bash
# A local Docker engine and the test image for the Docker code-execution tests.
#
# Idempotent: when `docker info` answers and the image exists, nothing is done.
# Otherwise (as root) it installs docker.io and debootstrap with apt-get, starts dockerd
# in the background (default flags first, then flags for restricted sandboxes), and
# builds the image from a Debian minbase root file system (no image registry needed).
#
# Exit 0: the engine answers and the image exists. Otherwise exit 1 and the last line
# printed starts with "docker_engine.sh: " and gives the reason.
#
# Environment:
#   AUTOGEN_CLASSIC_TEST_IMAGE  image to build (default autogen-classic-test:bookworm)
#   DOCKERD_LOG                 dockerd's log (default /var/log/autogen-classic-dockerd.log)
#   DEBIAN_MIRROR               mirror for debootstrap (default: the one apt uses)
set -uo pipefail

IMAGE="${AUTOGEN_CLASSIC_TEST_IMAGE:-autogen-classic-test:bookworm}"
SUITE="bookworm"
LOG="${DOCKERD_LOG:-/var/log/autogen-classic-dockerd.log}"
LOCK="/tmp/autogen-classic-docker-engine.lock"
WAIT_SECONDS=30

fail() { echo "docker_engine.sh: $*" >&2; exit 1; }
say() { echo "docker_engine.sh: $*"; }

engine_up() { timeout 10 docker info >/dev/null 2>&1; }
image_present() { timeout 20 docker image inspect "$IMAGE" >/dev/null 2>&1; }

# Two test sessions may start at once: one of them does the work, the other waits.
# (A user who cannot write the lock file cannot start dockerd either: go on without it.)
if { exec 9>>"$LOCK"; } 2>/dev/null; then
    flock -w 900 9 || fail "another run of this script holds $LOCK for more than 15 minutes"
fi

if engine_up && image_present; then
    exit 0
fi

is_root() { [ "$(id -u)" = "0" ]; }

# install_packages COMMAND:PACKAGE ...: apt-get install the packages whose command is missing.
install_packages() {
    local missing=() pair
    for pair in "$@"; do
        command -v "${pair%%:*}" >/dev/null 2>&1 || missing+=("${pair#*:}")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    is_root || fail "${missing[*]} missing and not root: install them (apt-get install ${missing[*]}) or run as root"
    command -v apt-get >/dev/null 2>&1 || fail "${missing[*]} missing and apt-get not available on this system"
    say "installing ${missing[*]} with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    if ! apt-get install -y -q "${missing[@]}" >/tmp/autogen-classic-apt.log 2>&1; then
        apt-get update -q >>/tmp/autogen-classic-apt.log 2>&1
        apt-get install -y -q "${missing[@]}" >>/tmp/autogen-classic-apt.log 2>&1 \
            || fail "apt-get install ${missing[*]} failed; see /tmp/autogen-classic-apt.log: $(tail -n 3 /tmp/autogen-classic-apt.log | tr '\n' ' ')"
    fi
}

# A dockerd that died leaves its pid file behind, and a new one then refuses to start.
clear_stale_pidfiles() {
    local f pid
    for f in /var/run/docker.pid /var/run/docker/containerd/containerd.pid; do
        [ -f "$f" ] || continue
        pid="$(cat "$f" 2>/dev/null)"
        if [ -z "$pid" ] || ! kill -0 "$pid" 2>/dev/null; then rm -f "$f"; fi
    done
}

# Start dockerd with the given flags; succeed when `docker info` answers in time.
try_dockerd() {
    clear_stale_pidfiles
    say "starting dockerd $* (log: $LOG)"
    echo "=== $(date -u +%FT%TZ) dockerd $*" >>"$LOG"
    # fd 9 (the lock) is closed for dockerd, or the lock would outlive this script.
    setsid nohup dockerd "$@" >>"$LOG" 2>&1 </dev/null 9>&- &
    local pid=$! waited=0
    while [ $waited -lt $WAIT_SECONDS ]; do
        if engine_up; then say "dockerd (pid $pid) answers"; return 0; fi
        if ! kill -0 "$pid" 2>/dev/null; then
            say "dockerd $* exited; last log lines:"
            tail -n 5 "$LOG" | sed 's/^/    /'
            return 1
        fi
        sleep 1; waited=$((waited + 1))
    done
    say "dockerd $* did not answer within ${WAIT_SECONDS}s; stopping it"
    kill "$pid" 2>/dev/null; sleep 2; kill -9 "$pid" 2>/dev/null
    return 1
}

start_engine() {
    case "${DOCKER_HOST:-}" in
        ""|unix:///var/run/docker.sock|unix:///run/docker.sock) ;;
        *) fail "DOCKER_HOST=$DOCKER_HOST does not answer (docker info); this script only starts a local engine: start that one, or unset DOCKER_HOST" ;;
    esac
    is_root || fail "no Docker engine answers (docker info) and not root, so dockerd cannot be started here; start Docker or set DOCKER_HOST"
    mkdir -p "$(dirname "$LOG")"
    # A dockerd of ours may be running but still starting up.
    if pgrep -x dockerd >/dev/null 2>&1; then
        for _ in $(seq 1 $WAIT_SECONDS); do engine_up && return 0; sleep 1; done
        fail "a dockerd process runs but 'docker info' does not answer; see $LOG"
    fi
    try_dockerd && return 0
    # Sandboxes without netfilter or overlayfs: no bridge network, plain copies for layers.
    try_dockerd --iptables=false --ip6tables=false --bridge=none && return 0
    try_dockerd --iptables=false --ip6tables=false --bridge=none --storage-driver=vfs && return 0
    try_dockerd --iptables=false --ip6tables=false --bridge=none --storage-driver=vfs \
        --exec-opt native.cgroupdriver=cgroupfs && return 0
    fail "dockerd does not start in this environment with any of the tried flags; see $LOG: $(grep -E 'level=(error|fatal)|failed to start' "$LOG" | tail -n 2 | tr '\n' ' ')"
}

# The Debian mirror apt uses here (deb822 .sources or the one-line format).
debian_mirror() {
    if [ -n "${DEBIAN_MIRROR:-}" ]; then echo "$DEBIAN_MIRROR"; return; fi
    local uri
    uri="$(grep -hE '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}' | grep -v security | grep -E '/debian/?$' | head -n 1)"
    [ -z "$uri" ] && uri="$(grep -hE '^deb ' /etc/apt/sources.list 2>/dev/null | awk '{print $2}' | grep -v security | grep -E '/debian/?$' | head -n 1)"
    echo "${uri:-http://deb.debian.org/debian}"
}

build_image() {
    is_root || fail "image $IMAGE is missing and building it needs root (debootstrap)"
    local mirror root
    mirror="$(debian_mirror)"
    root="$(mktemp -d /tmp/autogen-classic-rootfs.XXXXXX)"
    say "building $IMAGE: debootstrap --variant=minbase $SUITE from $mirror (about a minute)"
    if ! debootstrap --variant=minbase --include=python3,python-is-python3 "$SUITE" "$root" "$mirror" \
            >/tmp/autogen-classic-debootstrap.log 2>&1; then
        rm -rf "$root"
        fail "debootstrap failed; see /tmp/autogen-classic-debootstrap.log: $(tail -n 2 /tmp/autogen-classic-debootstrap.log | tr '\n' ' ')"
    fi
    # Keep the image small: apt's downloaded packages are not needed inside it.
    rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
    if ! tar -C "$root" -c . | docker import -c 'CMD ["/bin/sh"]' -c 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' - "$IMAGE" >/dev/null; then
        rm -rf "$root"
        fail "docker import of the root file system as $IMAGE failed"
    fi
    rm -rf "$root"
    say "built $IMAGE"
}

if ! engine_up; then
    install_packages dockerd:docker.io
    start_engine
fi
if ! image_present; then
    install_packages debootstrap:debootstrap
    build_image
fi
image_present || fail "image $IMAGE still missing after the build"
exit 0
