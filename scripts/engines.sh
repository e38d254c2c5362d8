#!/usr/bin/env bash
# The container engines the `docker` sandbox backend's tests run on (docs/testing.md): Docker Engine and Podman's
# Docker-compatible service, from Debian's packages, and mmdebstrap, which makes the sandbox image; each engine
# started when it does not answer, then the default sandbox image built into both (`npx parley sandbox image`, which
# says "up to date" when it is). Run after `npm ci`. Idempotent: with everything installed, running and built it
# installs, writes and starts nothing and takes a few seconds. Installing and starting need root; otherwise it says
# what is missing.
#
#   bash scripts/engines.sh [ARGS]    # ARGS go to `parley sandbox image` (--force, --tag NAME)
set -euo pipefail
cd "$(dirname "$0")/.."

docker_socket=/var/run/docker.sock
podman_socket=/run/podman/podman.sock
podman_conf=/etc/containers/containers.conf
logs=/var/log/parley-engines
# Where the sandbox image's root filesystem is kept between builds: the second engine's build only imports it, and
# test/sandbox/docker/sandboxImage.test.ts builds from it too.
rootfs_cache="${TMPDIR:-/tmp}/parley-rootfs"

say() { echo "==> $*"; }
fail() { echo "scripts/engines.sh: $*" >&2; exit 1; }
root() { [ "$(id -u)" -eq 0 ]; }

# Whether the engine at a socket answers the Engine API's ping.
answers() { curl -sf --max-time 2 --unix-socket "$1" http://engine/_ping >/dev/null 2>&1; }

# --- packages -------------------------------------------------------------------------------------------------
# Debian package: the file that shows it is there. Checked with dpkg when the host has it: /usr/local/bin/docker (a
# newer CLI some machines carry) is not the engine.
packages=(
  docker.io:/usr/sbin/dockerd
  containerd:/usr/bin/containerd
  runc:/usr/sbin/runc
  podman:/usr/bin/podman
  conmon:/usr/bin/conmon
  containernetworking-plugins:/usr/lib/cni/bridge
  catatonit:/usr/bin/catatonit
  mmdebstrap:/usr/bin/mmdebstrap
  curl:/usr/bin/curl
)
installed() {
  if command -v dpkg-query >/dev/null; then
    [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]
  else
    [ -e "$2" ]
  fi
}
missing=()
for pair in "${packages[@]}"; do
  installed "${pair%%:*}" "${pair#*:}" || missing+=("${pair%%:*}")
done
if [ ${#missing[@]} -gt 0 ]; then
  if ! root || ! command -v apt-get >/dev/null; then
    fail "missing Debian packages: ${missing[*]}; install them with: sudo apt-get install ${missing[*]}"
  fi
  say "apt-get install ${missing[*]} (the docker sandbox backend's engines; mmdebstrap for its image)"
  apt-get update -qq
  # No recommends: they would add docker's and podman's optional tools. runc, named beside podman, satisfies its
  # `crun | runc` (crun refuses the hybrid cgroup layout of this machine kind). The packages' own start scripts may
  # fail where systemd does not run: the engines are started below.
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# --- Podman's configuration ------------------------------------------------------------------------------------
# What Podman needs on this machine kind (cgroup v1 with cgroupfs, no journald, root without CAP_SYS_RESOURCE, whose
# default rlimits fail): written only where no one else wrote the file, or parley wrote it (its first line says so).
mark="# Written by parley's scripts/engines.sh; delete this line to keep your own changes."
if [ ! -e "$podman_conf" ] || [ "$(head -n 1 "$podman_conf")" = "$mark" ]; then
  wanted="$(printf '%s\n' "$mark" \
    '[containers]' \
    'default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]' \
    '[engine]' \
    'cgroup_manager = "cgroupfs"' \
    'events_logger = "file"' \
    'runtime = "runc"')"
  if [ "$(cat "$podman_conf" 2>/dev/null)" != "$wanted" ]; then
    root || fail "$podman_conf is missing: run this as root to write it"
    say "writing $podman_conf (cgroupfs, file events, runc, rlimits within the hard limits)"
    mkdir -p "$(dirname "$podman_conf")"
    printf '%s\n' "$wanted" >"$podman_conf"
  fi
fi

# --- starting the engines --------------------------------------------------------------------------------------
# Started as the host starts services when systemd runs it; otherwise in the background, detached from this
# script, logging under $logs.
systemd() { [ -d /run/systemd/system ] && command -v systemctl >/dev/null; }
start() {
  local name="$1" unit="$2"
  shift 2
  root || fail "$name does not answer and only root can start it: sudo bash scripts/engines.sh"
  if systemd; then
    say "systemctl start $unit"
    systemctl start "$unit"
  else
    say "starting $name: $* (log: $logs/$name.log)"
    mkdir -p "$logs"
    # From /, not the checkout: Podman's conmon writes an `oom` file into its working directory when a
    # container is killed for memory (the sandbox tests' memory hog), and the engine would hold the folder.
    (cd / && setsid nohup "$@" >>"$logs/$name.log" 2>&1 </dev/null &)
  fi
}
wait_for() {
  local name="$1" socket="$2"
  for _ in $(seq 120); do
    answers "$socket" && return 0
    sleep 0.5
  done
  [ -e "$logs/$name.log" ] && tail -n 20 "$logs/$name.log" >&2
  fail "$name does not answer at $socket after 60 s (its log's last lines above, or journalctl -u for its unit)"
}

answers "$docker_socket" || start dockerd docker.service dockerd
answers "$podman_socket" || {
  mkdir -p "$(dirname "$podman_socket")"
  start podman podman.socket podman system service --time=0 "unix://$podman_socket"
}
wait_for dockerd "$docker_socket"
wait_for podman "$podman_socket"
say "engines answer: Docker Engine at unix://$docker_socket, Podman at unix://$podman_socket"

# --- the sandbox image -----------------------------------------------------------------------------------------
[ -x node_modules/.bin/node ] || fail "node_modules is missing: run npm ci first"
for socket in "$docker_socket" "$podman_socket"; do
  say "npx parley sandbox image (DOCKER_HOST=unix://$socket)"
  # What npx runs (bin/parley.js on the project's Node), without npm's own start: seconds on a loaded machine.
  DOCKER_HOST="unix://$socket" node_modules/.bin/node bin/parley.js sandbox image --rootfs-cache "$rootfs_cache" "$@"
done
