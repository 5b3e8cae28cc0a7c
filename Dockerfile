# tubescribe server image: `docker build -t tubescribe .`
#
# Stage 1 builds dist/ and packs it into the npm tarball; stage 2 installs that tarball with
# production dependencies only (plus the optional peers a server uses: ioredis and bullmq for
# redis:// storage, nodemailer for SMTP, undici for TUBESCRIBE_PROXY) into an empty folder and runs
# `tubescribe serve` as the unprivileged `node` user. test/e2e/container-steps.test.ts runs the same
# steps without a container runtime.

FROM node:20-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
# `prepare` (run by npm ci) and `prebuild` vendor the docs UI with scripts/vendor-docs-ui.mjs.
COPY scripts ./scripts
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsup.config.ts README.md ./
COPY src ./src
COPY adapters ./adapters
RUN npm run build && npm pack --pack-destination /pkg && mv /pkg/tubescribe-*.tgz /pkg/tubescribe.tgz

FROM node:20-slim AS runtime
ENV NODE_ENV=production \
    TUBESCRIBE_HOST=0.0.0.0 \
    TUBESCRIBE_PORT=8787 \
    TUBESCRIBE_STORAGE=fs:/data \
    TUBESCRIBE_LOG=info
WORKDIR /app
COPY --from=build /pkg/tubescribe.tgz /tmp/tubescribe.tgz
RUN echo '{"name":"tubescribe-server","private":true}' > package.json \
 && npm install --omit=dev --no-audit --no-fund /tmp/tubescribe.tgz \
      ioredis@^5.11.1 bullmq@^6.7.0 nodemailer@^10.6.0 undici@^7.30.2 \
 && npm cache clean --force \
 && rm /tmp/tubescribe.tgz \
 && mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8787
# Liveness: the process answers. A load balancer or orchestrator should use /readyz for readiness
# (503 while storage is unreachable).
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.TUBESCRIBE_PORT||8787)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM stops it cleanly: requests in flight finish (up to 8 s), batch tasks are handed back.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/app/node_modules/.bin/tubescribe"]
CMD ["serve"]
