# The Wave bot for docker-compose.yml: Neo4j, Qdrant and Letta run as their own services.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    HF_HUB_OFFLINE=1 \
    TRANSFORMERS_OFFLINE=1 \
    DATA_DIR=/data

WORKDIR /app
COPY pyproject.toml README.md ./
COPY wave_agent ./wave_agent
COPY common ./common
COPY graph ./graph
COPY archive ./archive
COPY episodes ./episodes
COPY snapshots ./snapshots
RUN pip install --no-cache-dir .

RUN useradd --create-home wave && mkdir -p /data && chown wave /data
USER wave
VOLUME ["/data"]
CMD ["wave", "run"]
