#!/usr/bin/env bash
# The gateway's image for the `docker` sandbox backend, made where `docker build -f deploy/Dockerfile` cannot run:
# no image registry for its FROM, or no network its RUN steps may use (an air-gapped engine; a build container that
# does not trust the host's TLS interception). Debian bookworm's essential packages with tini and ca-certificates
# by mmdebstrap from this host's Debian mirrors, Node 24 from node_modules/node, dist/ from `npm run build`, and the
# production dependencies from `npm ci --omit=dev` on the host; imported with the Dockerfile's user, environment,
# health check and entry point, which this script keeps in step with deploy/Dockerfile's runtime stage. Without
# bubblewrap, Xvfb and Chromium: `local` sandboxes and the browser tool are not in it. Needs root (mmdebstrap) and
# the docker CLI (any engine: DOCKER_HOST).
#
#   bash scripts/gateway-image.sh [NAME:TAG]     # default parley:<version>; then deploy/compose.yaml runs it
set -euo pipefail
cd "$(dirname "$0")/.."
node=node_modules/node/bin/node
[ -x "$node" ] || { echo "gateway-image.sh: run npm ci first (it installs Node 24 into node_modules)" >&2; exit 1; }
tag="${1:-parley:$("$node" -p 'require("./package.json").version')}"
command -v mmdebstrap >/dev/null || { echo "gateway-image.sh: install mmdebstrap (apt-get install mmdebstrap)" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "==> npm run build; npm ci --omit=dev (the bundle's dependencies)"
npm run --silent build
mkdir -p "$work/app"
cp package.json package-lock.json .npmrc "$work/app/"
(cd "$work/app" && npm ci --omit=dev --no-audit --no-fund --loglevel=error)
cp -a dist "$work/app/dist"
install -m 0755 "$(readlink -f "$node")" "$work/node"

echo "==> mmdebstrap: Debian bookworm, tini, ca-certificates"
mirrors_text="$(bash scripts/debian-mirrors.sh bookworm)"
mapfile -t mirrors <<<"$mirrors_text"
mmdebstrap --variant=essential --include=tini,ca-certificates,libstdc++6 --format=tar \
  --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
  --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
  --customize-hook='echo "parley:x:999:999:parley:/data:/usr/sbin/nologin" >> "$1/etc/passwd"' \
  --customize-hook='echo "parley:x:999:" >> "$1/etc/group"' \
  --customize-hook='install -d -o 999 -g 999 -m 0711 "$1/data"' \
  --customize-hook="install -m 0755 '$work/node' \"\$1/usr/local/bin/node\"" \
  --customize-hook="mkdir -p \"\$1/opt\" && cp -a '$work/app' \"\$1/opt/parley\" && chown -R root:root \"\$1/opt/parley\"" \
  bookworm "$work/rootfs.tar" "${mirrors[@]}"

echo "==> docker import $tag"
health="fetch('http://127.0.0.1:'+process.env.PORT+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
docker import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV HOST=0.0.0.0' --change 'ENV PORT=8787' --change 'ENV DATABASE_URL=sqlite:/data/parley.db' \
  --change 'ENV PARLEY_SANDBOX_DIR=/data/sandboxes' --change 'ENV NODE_ENV=production' \
  --change 'WORKDIR /opt/parley' --change 'USER parley' --change 'EXPOSE 8787' --change 'VOLUME ["/data"]' \
  --change "HEALTHCHECK --interval=15s --timeout=3s --start-period=20s CMD [\"node\", \"-e\", \"$health\"]" \
  --change 'ENTRYPOINT ["/usr/bin/tini", "--", "node", "--max-semi-space-size=8", "--heap-growing-percent=100", "dist/src/main.js"]' \
  "$work/rootfs.tar" "$tag"
