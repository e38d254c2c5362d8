#!/usr/bin/env bash
# Debian packages parley's tools need: bubblewrap jails and Xvfb desktops for the sandbox tools
# (bash, computer), Debian's Chromium for the browser tool (Playwright never downloads a browser),
# and the X clients the tests open. Installs what is missing when run as root; otherwise says how.
set -euo pipefail

missing=()
for pair in bwrap:bubblewrap Xvfb:xvfb xdotool:xdotool xwd:x11-apps xmessage:x11-utils xev:x11-utils chromium:chromium; do
  command -v "${pair%%:*}" >/dev/null || missing+=("${pair#*:}")
done
[ ${#missing[@]} -eq 0 ] && exit 0

# Unique package names, in order.
mapfile -t packages < <(printf '%s\n' "${missing[@]}" | awk '!seen[$0]++')
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
  echo "parley: missing system packages: ${packages[*]}" >&2
  echo "        the sandbox and browser tools need them; install with: sudo apt-get install ${packages[*]}" >&2
  exit 0
fi
echo "==> apt-get install ${packages[*]} (sandbox and browser tools)"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}" >/dev/null
