# One image per front end: build with --build-arg APP=mf-courses (or shell, ...).
FROM node:20-bookworm-slim AS build
ARG APP
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund && ./node_modules/.bin/tsx packages/webpack-config/src/build.ts ${APP} && cp -r ${APP}/dist /site

FROM nginx:1.27-alpine
COPY --from=build /site /usr/share/nginx/html
COPY docker/static.nginx.conf /etc/nginx/conf.d/default.conf
