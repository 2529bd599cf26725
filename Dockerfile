# ReleaseOps as a Hugging Face Space (sdk: docker, app_port 8000) that TRAINS: the env server (Node), the
# dashboard (web/, at /ui/) and the GRPO trainer (python/train_grpo.py: CUDA torch, TRL >= 1.8, bitsandbytes).
# Env-only serving without a GPU: Dockerfile.cpu (no Python, a tenth of the size).
#
#   docker build -t releaseops .
#   docker run --gpus all -p 8000:8000 -e RELEASEOPS_OPERATOR_TOKEN=... -e HF_TOKEN=... releaseops
#
# Token story (safe by default):
# - Operator routes (POST /train/start and the original's /train/smoke, /train/pilot, /train/kill,
#   /train/push_to_hub, /api/run-eval; /hub/push, /api/eval) always need a bearer token. Set it as a Space
#   secret: RELEASEOPS_OPERATOR_TOKEN (RELEASEOPS_TOKEN is used when only that is set). Without one they
#   answer 403 token_not_configured: nobody can spend the GPU or push with the Space's HF_TOKEN.
# - Env play (/reset, /step, /ws, /mcp, sessions) stays open unless RELEASEOPS_TOKEN is set.
# - HF_TOKEN (a Space secret) is only read by the server for Hub pushes; it is never taken from a request.
# The server binds 0.0.0.0 here (the Space proxy reaches it) and accepts the Space's own *.hf.space Host
# (DNS-rebinding check, decision 0043); set RELEASEOPS_ALLOWED_HOSTS to your names elsewhere.

ARG CUDA_IMAGE=nvidia/cuda:12.8.1-cudnn-runtime-ubuntu24.04
ARG TORCH_INDEX_URL=https://download.pytorch.org/whl/cu128

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
# The build's last step writes dist/env-catalogue.json (`env list` without loading the envs).
COPY scripts/write-env-catalogue.mjs ./scripts/
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM ${CUDA_IMAGE}
ARG TORCH_INDEX_URL
ENV DEBIAN_FRONTEND=noninteractive
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 python3-venv ca-certificates \
  && rm -rf /var/lib/apt/lists/*
# Node 24 (the current LTS) from the official image (same binary as the build stage).
COPY --from=build /usr/local/bin/node /usr/local/bin/node
# The trainer's Python: the host's CUDA torch first, then the declared trainer set.
COPY python/requirements-train.txt /tmp/requirements-train.txt
RUN python3 -m venv /opt/rl \
  && /opt/rl/bin/pip install --no-cache-dir --upgrade pip \
  && /opt/rl/bin/pip install --no-cache-dir torch --index-url "${TORCH_INDEX_URL}" \
  && /opt/rl/bin/pip install --no-cache-dir -r /tmp/requirements-train.txt
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8000 RELEASEOPS_ALLOWED_HOSTS=*.hf.space \
  RELEASEOPS_TRAIN_PYTHON=/opt/rl/bin/python \
  RELEASEOPS_OUTPUTS_DIR=/data/outputs \
  HF_HOME=/data/hf
WORKDIR /app
COPY package.json package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY bin ./bin
COPY web ./web
COPY python ./python
COPY openenv.yaml ./
# Spaces run the image as uid 1000; /data is the Space's persistent volume when one is attached.
RUN useradd --uid 1000 --create-home releaseops 2>/dev/null || true; mkdir -p /data/outputs /data/hf && chown -R 1000:1000 /data
USER 1000
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8000) + '/health').then((r) => r.json()).then((b) => process.exit(b.status === 'healthy' ? 0 : 1), () => process.exit(1))"]
CMD ["node", "bin/releaseops.js", "serve"]
