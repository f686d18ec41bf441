# The API's image, built from the repository root (deploy/image/test.sh builds and checks it):
#   docker build --build-arg VERSION=0.1.0 --build-arg REVISION="$(git rev-parse HEAD)" -t animal-store-api .
# BASE_IMAGE: any Debian-like image with Node.js 24 and npm on PATH. The default is the official
# image pinned by the digest of its multi-arch index (amd64 and arm64), so a rebuild gets the same
# bytes; how it was chosen and how to move it: apps/api/README.md, "The image".
ARG BASE_IMAGE=node:24.18.0-bookworm-slim@sha256:6f7b03f7c2c8e2e784dcf9295400527b9b1270fd37b7e9a7285cf83b6951452d

FROM ${BASE_IMAGE} AS build
ARG PNPM_VERSION=10.34.9
RUN npm install --global --no-fund --no-audit "pnpm@${PNPM_VERSION}"
WORKDIR /src
COPY . .
# The API and the workspace packages it needs, built; then only its production dependencies,
# the workspace's included, copied into /out (`pnpm deploy`).
# What only a developer or a compiler reads stays out: source maps, declarations and TypeScript
# sources (the workspace packages' and the dependencies').
RUN pnpm install --frozen-lockfile --ignore-scripts \
 && pnpm --filter "@animal-store/api..." run build \
 && pnpm --filter @animal-store/api deploy --legacy --prod /out \
 && find /out -type f \( -name '*.map' -o -name '*.ts' -o -name '*.mts' -o -name '*.cts' \) -delete

FROM ${BASE_IMAGE}
ARG VERSION=unknown
ARG REVISION=unknown
LABEL org.opencontainers.image.title="animal-store-api" \
      org.opencontainers.image.description="The Animal Store HTTP API" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.licenses="MIT"
# HOST 0.0.0.0: reachable from outside the container. The revision is also what the process
# reports (--version, animal_store_build_info).
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    ANIMAL_STORE_REVISION="${REVISION}"
# The process needs Node.js alone: the base's package managers (npm, npx, corepack, yarn) go, so
# nothing in the container can fetch and run code.
RUN rm -rf /usr/local/lib/node_modules/npm /usr/local/lib/node_modules/corepack /opt/yarn-* \
      /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack /usr/local/bin/yarn \
      /usr/local/bin/yarnpkg
WORKDIR /app
# Owned by root, run as another user: the process cannot change its own code.
COPY --from=build /out /app
USER 10001:10001
EXPOSE 3000
ENTRYPOINT ["node", "dist/main.js"]
