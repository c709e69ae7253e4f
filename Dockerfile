# syntax=docker/dockerfile:1
#
# One image for every Formcast process; the command chooses which one runs:
#   docker run formcast /app/bin/formcast-node --enable-source-maps services/push/dist/main.js
#   docker run -e SERVICE=push formcast           (the default command runs services/$SERVICE)
# Services: gateway (HTTP on PORT), directory, resources, push, notifier, delivery (health on
# HEALTH_PORT), and embedded (everything in one process, `npm start`).

# The base image of both stages, pinned by tag and digest (the multi-platform index). To bump
# it: `docker buildx imagetools inspect node:24.<x>.<y>-trixie-slim` on a machine that reaches
# the registry, then replace tag and digest together here; or pass --build-arg NODE_IMAGE=….
ARG NODE_IMAGE=node:24.21.0-trixie-slim@sha256:8ec5d7557396cfe32d21c3f9c13072355ceab22b584578ca4bb28af31120cffe

# ---- build: every dependency (dev ones too), native addons compiled, TypeScript built ----
FROM ${NODE_IMAGE} AS build
# better-sqlite3 13 ships its Node-API binaries in its package (nothing compiles on linux/amd64
# or arm64); the tools stay for an addon or platform without one.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app

# Manifests first: the dependency layer is reused until one of them changes.
COPY package.json package-lock.json ./
COPY packages/contracts/package.json packages/contracts/
COPY packages/bus/package.json packages/bus/
COPY packages/cli/package.json packages/cli/
COPY packages/idempotency/package.json packages/idempotency/
COPY packages/metrics/package.json packages/metrics/
COPY packages/platform/package.json packages/platform/
COPY packages/runtime/package.json packages/runtime/
COPY packages/storage/package.json packages/storage/
COPY packages/testing/package.json packages/testing/
COPY packages/tracing/package.json packages/tracing/
COPY packages/xml-writing/package.json packages/xml-writing/
COPY services/gateway/package.json services/gateway/
COPY services/directory/package.json services/directory/
COPY services/resources/package.json services/resources/
COPY services/push/package.json services/push/
COPY services/notifier/package.json services/notifier/
COPY services/delivery/package.json services/delivery/
COPY services/console/package.json services/console/
COPY services/embedded/package.json services/embedded/
# Not `npm ci`, as in CI (.ci/run): the lockfile cannot list other platforms' optional
# binaries, so `npm ci` refuses it; `npm install` installs the locked versions.
RUN npm install --no-audit --no-fund

COPY tsconfig.json tsconfig.base.json ./
COPY bin bin
COPY packages packages
COPY services services
RUN npm run build

# What the runtime needs, in /out: production dependencies (the compiled addon included;
# workspace links resolve to ../../packages and ../../services) and each workspace's
# package.json and dist/ (and bin/, the CLI's `formcast`). No sources, tests, compilers or build tools.
RUN npm prune --omit=dev --no-audit --no-fund \
 && mkdir /out \
 && cp -a package.json node_modules bin /out/ \
 && for workspace in packages/* services/*; do \
      mkdir -p "/out/$workspace" && cp -a "$workspace/package.json" "$workspace/dist" "/out/$workspace/"; \
      if [ -d "$workspace/bin" ]; then cp -a "$workspace/bin" "/out/$workspace/"; fi; \
    done

# ---- runtime: the same base image (the addon was built against its glibc), no build tools ----
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    SERVICE=gateway \
    PORT=3000 \
    HEALTH_PORT=8080 \
    DATA_DIR=/app/data
WORKDIR /app
# Owned by root and read-only to the service; only DATA_DIR (SQLite, when MONGO_URL is
# unset) is writable.
COPY --from=build /out/ ./
RUN mkdir -p -m 700 /app/data && chown 1000:1000 /app/data
# The image's `node` user, by number so Kubernetes' runAsNonRoot can verify it.
USER 1000:1000
EXPOSE 3000 8080
STOPSIGNAL SIGTERM
# exec, here and in bin/formcast-node (which gives every process the flags and environment
# of `npm start`): node is PID 1 and gets SIGTERM itself (it handles it: stop taking work,
# finish, close).
CMD ["/bin/sh", "-c", "exec /app/bin/formcast-node --enable-source-maps \"services/${SERVICE}/dist/main.js\""]
