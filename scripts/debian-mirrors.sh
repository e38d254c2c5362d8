#!/usr/bin/env bash
# The Debian mirrors this host's apt sources name for SUITE, its updates and its security fixes, as apt itself reads
# them (one-line and deb822 files alike), one `deb URI SUITE COMPONENT` line each, for mmdebstrap: images made from
# them need no registry and no network but the host's own mirror. Another suite's or a third party's repositories
# are left out. Fails, saying what to add, when there is none.
#
#   bash scripts/debian-mirrors.sh bookworm
set -euo pipefail
suite="${1:?usage: debian-mirrors.sh SUITE}"
mirrors="$(
  apt-get indextargets --format '$(REPO_URI) $(RELEASE) $(COMPONENT)' 'Identifier: Packages' 2>/dev/null \
    | awk -v suite="$suite" '$2 == suite || $2 == suite "-updates" || $2 == suite "-security" { print "deb " $0 }' \
    | sort -u
)"
if [ -z "$mirrors" ]; then
  echo "debian-mirrors.sh: this host's apt sources name no Debian $suite mirror (apt-get indextargets lists none):" \
    "add one to /etc/apt/sources.list.d/ (a local mirror on a host without network), then run apt-get update" >&2
  exit 1
fi
echo "$mirrors"
