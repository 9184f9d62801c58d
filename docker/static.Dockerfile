# One image per front end: build with --build-arg APP=mf-courses (or shell, ...). Built on Node 22
# LTS from the lockfile (`npm ci`); served by nginx as an unprivileged user on port 8080.
FROM node:22-bookworm-slim AS build
ARG APP
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund && ./node_modules/.bin/tsx --conditions=source packages/webpack-config/src/build.ts ${APP} && cp -r ${APP}/dist /site

# nginx-unprivileged runs as uid 101 and keeps its pid and temporary files under /tmp, so the root
# filesystem can be read-only (Kubernetes mounts an emptyDir on /tmp).
FROM nginxinc/nginx-unprivileged:1.27-alpine
COPY --from=build /site /usr/share/nginx/html
COPY docker/static.nginx.conf /etc/nginx/conf.d/default.conf
USER 101:101
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["wget", "-q", "-O", "/dev/null", "http://127.0.0.1:8080/readyz"]
