# ReleaseOps env server as an OpenEnv-compatible Hugging Face Space (sdk: docker, app_port 8000).
# Build:  docker build -t releaseops .     Run:  docker run -p 8000:8000 releaseops
# The server binds 0.0.0.0 here (the Space proxy reaches it); set RELEASEOPS_TOKEN to require a token.

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

FROM node:20-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8000
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund --ignore-scripts && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY bin ./bin
COPY openenv.yaml ./
USER node
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8000) + '/health').then((r) => r.json()).then((b) => process.exit(b.status === 'healthy' ? 0 : 1), () => process.exit(1))"]
CMD ["node", "bin/releaseops.js", "serve"]
