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

# The host's sources for this suite, its updates and its security fixes, as apt itself reads them (one-line and
# deb822 files alike); another suite's or a third party's repositories are left out.
mapfile -t mirrors < <(
  apt-get indextargets --format '$(REPO_URI) $(RELEASE) $(COMPONENT)' 'Identifier: Packages' 2>/dev/null \
    | awk -v suite="$suite" '$2 == suite || $2 == suite "-updates" || $2 == suite "-security" { print "deb " $0 }' \
    | sort -u
)
if [ ${#mirrors[@]} -eq 0 ]; then
  echo "rootfs.sh: this host's apt sources name no Debian $suite mirror (apt-get indextargets lists none):" \
    "add one to /etc/apt/sources.list.d/ (a local mirror on a host without network), then run apt-get update" >&2
  exit 1
fi
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
