# Pairlink's server (web app, wallet page, v1 bridge, v2 relay, API) as an image: the build stage builds the
# monorepo and packs @pairlink/server with the Pairlink packages it depends on; the runtime stage holds only that
# install (production dependencies) on a slim Node image, run by an unprivileged user. docs/container.md.
#
#   docker build -t pairlink .
#   docker run -p 127.0.0.1:8080:8080 -e PUBLIC_URL=http://localhost:8080 -e RPC_URL=https://… \
#     -v pairlink-data:/data pairlink
#
# BASE: any Debian-based Node 20.19+ image (glibc: libsql's prebuilt binary needs it), e.g. a local one where no
# registry is reachable. DEV_CHAIN=true also installs anvil, so the server starts its own dev chain when RPC_URL is
# unset (development and demos only). Behind a TLS-intercepting proxy, hand npm its CA as a build secret:
#   docker build --secret id=npm_ca,src=/path/to/ca.pem .
# podman/buildah: add --format docker (OCI images carry no HEALTHCHECK).
ARG BASE=node:20-bookworm-slim

FROM ${BASE} AS build
WORKDIR /src
ENV NPM_CONFIG_UPDATE_NOTIFIER=false
# The manifests alone first: `npm ci`'s layer stays cached until package-lock.json or a package.json changes.
COPY package.json package-lock.json .npmrc ./
COPY scripts/ scripts/
COPY packages/protocol/package.json packages/protocol/
COPY packages/bridge/package.json packages/bridge/
COPY packages/client/package.json packages/client/
COPY packages/provider/package.json packages/provider/
COPY packages/modal/package.json packages/modal/
COPY packages/wagmi/package.json packages/wagmi/
COPY packages/smart-account/package.json packages/smart-account/
COPY packages/test-kit/package.json packages/test-kit/
COPY apps/server/package.json apps/server/
COPY apps/wallet/package.json apps/wallet/
COPY apps/web/package.json apps/web/
RUN --mount=type=cache,target=/root/.npm --mount=type=secret,id=npm_ca \
    if [ -f /run/secrets/npm_ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/npm_ca; fi \
    && npm ci --no-audit --no-fund
COPY . .
# The server and every Pairlink package it depends on at run time, as tarballs (scripts/pack-server.mjs follows the
# manifests): the registry has none of them at this version, so the install below takes them all from there.
RUN npm run build && node scripts/pack-server.mjs /tarballs
ARG DEV_CHAIN=false
WORKDIR /app
RUN --mount=type=cache,target=/root/.npm --mount=type=secret,id=npm_ca \
    if [ -f /run/secrets/npm_ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/npm_ca; fi \
    && echo '{ "name": "pairlink-app", "private": true }' > package.json \
    && anvil="$(node -p "require('/src/package.json').devDependencies['@foundry-rs/anvil']")" \
    && npm install --omit=dev --no-audit --no-fund /tarballs/*.tgz \
       $([ "$DEV_CHAIN" = true ] && echo "@foundry-rs/anvil@$anvil")

FROM ${BASE} AS runtime
# HOST: the container's own interfaces (publish the port to choose who reaches it). DATA_DIR: the embedded SQLite
# database and the wallet explorer's cache, in the volume /data (a folder inside it: the server writes its lock file
# beside DATA_DIR, and / is not the server's to write).
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data/db \
    NPM_CONFIG_UPDATE_NOTIFIER=false
RUN groupadd --gid 10001 pairlink \
    && useradd --uid 10001 --gid pairlink --no-create-home --home-dir /nonexistent \
       --shell /usr/sbin/nologin pairlink \
    && mkdir /data \
    && chown pairlink:pairlink /data
# The code stays root's and read-only to the server: a compromised process cannot rewrite it.
COPY --from=build --chown=root:root /app /app
WORKDIR /app
USER 10001:10001
EXPOSE 8080
# /health answers while the process is alive (no dependency checks): a restart cures nothing a dependency's outage
# causes. Node's fetch, since slim images carry no curl.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["node", "/app/node_modules/@pairlink/server/bin/pairlink-server.js"]
