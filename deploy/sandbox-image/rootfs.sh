#!/usr/bin/env bash
# The default sandbox image's root filesystem, as a tarball: Debian bookworm's `essential` variant and the packages
# listed in ./packages, made by mmdebstrap from the Debian mirrors of this host's own apt sources (a local mirror on a
# host that reaches nothing else works as well), so neither an image registry nor the engine's network is used.
# `npx parley sandbox image` runs it and imports the tarball with ./changes; by hand:
#
#   deploy/sandbox-image/rootfs.sh rootfs.tar
#   docker import $(sed -n 's/^\([A-Z]\)/--change=\1/p' deploy/sandbox-image/changes | tr '\n' ' ') rootfs.tar parley-sandbox:0.1.0
#
# Needs root (mmdebstrap's root mode) or unprivileged user namespaces (its unshare mode), and mmdebstrap:
# apt-get install mmdebstrap.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:?usage: rootfs.sh OUT.tar}"
suite=bookworm

if ! command -v mmdebstrap >/dev/null; then
  echo "rootfs.sh: mmdebstrap is missing: install it with \`apt-get install mmdebstrap\` (Debian's package)" >&2
  exit 127
fi

# The Debian mirrors of this host's apt sources for the suite.
mirrors_text="$(bash "$here/../../scripts/debian-mirrors.sh" "$suite")"
mapfile -t mirrors <<<"$mirrors_text"
printf "rootfs.sh: from %s\n" "${mirrors[@]}" >&2

packages="$(sed -e 's/#.*//' -e '/^\s*$/d' "$here/packages" | tr -s ' \n' ',' | sed 's/,$//')"

# The sandbox user owns the workspace; documentation, manuals and translations are left out (copyrights kept).
exec mmdebstrap --variant=essential --include="$packages" --format=tar \
  --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
  --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
  --dpkgopt='path-include=/usr/share/doc/*/copyright' \
  --customize-hook='echo "sandbox:x:1000:1000:parley sandbox:/workspace:/bin/bash" >> "$1/etc/passwd"' \
  --customize-hook='echo "sandbox:x:1000:" >> "$1/etc/group"' \
  --customize-hook='install -d -o 1000 -g 1000 -m 0755 "$1/workspace"' \
  "$suite" "$out" "${mirrors[@]}"
