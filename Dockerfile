# One image for both processes: `assay api` and `assay worker` (see docker-compose.yml).

# Build stage: every dependency, then `npm run build` (tsc to dist/ and the prebuilt workflow bundle).
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# As in scripts/provision.sh: when `npm ci` refuses the lockfile (optional platform packages of @swc/core that a
# registry does not carry), `npm install` installs the same locked tree.
RUN npm ci --no-audit --no-fund || npm install --no-audit --no-fund
COPY . .
RUN npm run build

# Runtime stage: production dependencies and the compiled code only (no TypeScript, no tsx, no webpack at start).
FROM node:24-slim AS runtime
# tini is PID 1: it forwards SIGTERM to node and reaps orphaned children (the stdio MCP servers agents spawn).
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends tini && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
RUN (npm ci --omit=dev --no-audit --no-fund || npm install --omit=dev --no-audit --no-fund) && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY bin ./bin
# The worker container's health check (docker-compose.yml): has this host's worker polled the task queue lately?
COPY scripts/worker-health.js ./scripts/worker-health.js
# The embedded credential store lives in .data when no Vault is configured. `assay api` and `assay worker` against an
# external DATABASE_URL take the shared ASSAY_MASTER_KEY and never generate a key file (see docker-compose.yml).
RUN mkdir -p .data && chown node:node .data
USER node
EXPOSE 3000
ENTRYPOINT ["/usr/bin/tini", "--", "node", "bin/assay.js"]
CMD ["api"]
