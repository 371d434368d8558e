# Folio's API and worker in one image (docker build -t folio .). Multi-stage: the build stage has the
# compilers native modules may need and every dev dependency; the runtime stage gets only the pruned
# node_modules and the compiled output, and runs as the unprivileged `node` user.
FROM node:22-bookworm-slim AS build
WORKDIR /app
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
# npm ci's `prepare` step builds every workspace, so the sources come in before it.
COPY . .
RUN npm ci --no-audit --no-fund \
  && npm run build \
  && npm prune --omit=dev --no-audit --no-fund

FROM node:22-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    CMS_DATA_DIR=/data
WORKDIR /app
COPY --from=build --chown=node:node /app /app
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
VOLUME ["/data"]
# Liveness: the process answers and reaches its database (GET /health/ready also checks storage and
# the change bus; point the load balancer at that one).
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# `npm start` would work too; node directly forwards SIGTERM to Folio, which finishes requests in flight.
CMD ["node", "server/dist/server.js"]
