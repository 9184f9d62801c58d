# One image per back-end process: build with --build-arg TARGET=services/auth (or gateway, ...).
FROM node:20-bookworm-slim AS build
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

FROM node:20-bookworm-slim
ARG TARGET
ENV NODE_ENV=production HOST=0.0.0.0 TARGET=${TARGET}
WORKDIR /app
COPY --from=build /app /app
USER node
CMD ["sh", "-c", "exec node ${TARGET}/dist/index.js"]
