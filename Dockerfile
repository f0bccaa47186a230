# The Spades bot in a small image: runs as an unprivileged user, keeps its
# database on a volume, and reports its health from the heartbeat file.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    SPADES_DATABASE__PATH=/data/spades.db

WORKDIR /app
COPY pyproject.toml README.md config.example.toml ./
COPY setup.py ./
COPY bot ./bot
COPY cogs ./cogs
COPY db ./db
# A C compiler for the install only: it compiles the rules engine with mypyc.
# The sources are removed after it, so that the installed package runs. The
# message catalogs are compiled now: the unprivileged user cannot write them.
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && pip install . \
    && apt-get purge -y --auto-remove gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/* build bot cogs db setup.py \
    && python -c "import bot.game.native as n, bot.game; print('rules engine:', n.engine_build())" \
    && python -m bot.i18n_catalogs compile \
    && useradd --create-home --uid 10001 spades \
    && mkdir /data \
    && chown spades:spades /data

USER spades
VOLUME ["/data"]

# Healthy while the connected bot touches /data/spades.db.heartbeat.
HEALTHCHECK --interval=60s --timeout=10s --start-period=90s --retries=3 \
    CMD ["python", "-m", "bot", "health"]

# Settings: DISCORD_TOKEN in the environment, and optionally a config file
# mounted at /app/config.toml (read from the working directory).
CMD ["python", "-m", "bot"]
