# One image per back-end process: build with --build-arg TARGET=services/auth --build-arg PORT=4001
# (or TARGET=gateway PORT=8080, ...). Node 22 LTS; installed from the lockfile with `npm ci`.
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc tsconfig*.json ./
COPY packages ./packages
COPY services ./services
COPY gateway ./gateway
COPY shell/package.json shell/
COPY mf-landing/package.json mf-landing/
COPY mf-courses/package.json mf-courses/
COPY mf-editor/package.json mf-editor/
COPY mf-player/package.json mf-player/
COPY mf-crm/package.json mf-crm/
COPY mf-dashboard/package.json mf-dashboard/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
RUN npm ci --no-audit --no-fund && ./node_modules/.bin/tsc -b tsconfig.node.json && npm prune --omit=dev

FROM node:22-bookworm-slim
ARG TARGET
ARG PORT=8080
ENV NODE_ENV=production HOST=0.0.0.0 TARGET=${TARGET} PORT=${PORT}
WORKDIR /app
# Owned by root and read-only to the process: it runs as the image's unprivileged `node` user (uid 1000).
COPY --from=build /app /app
# The content service's UPLOAD_DIR in compose: a named volume copies this owner on first use.
RUN mkdir -p /uploads && chown 1000:1000 /uploads
USER 1000:1000
EXPOSE ${PORT}
# Slim images carry no curl: Node's own fetch asks the process's readiness route.
HEALTHCHECK --interval=10s --timeout=3s --start-period=40s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.PORT+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["sh", "-c", "exec node ${TARGET}/dist/index.js"]
