# The Spades bot in a small image, built in two stages. The first compiles the
# rules engine with a C compiler and installs everything into /venv, with the
# versions pinned in constraints/; the second is a clean slim image holding
# /venv only. Layers run from the least to the most often changed, so that a
# source edit reuses the compiler, the dependencies and (outside bot/game/)
# the compiled engine from the cache.
FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY constraints ./constraints
# The tools that compile the engine, and the bot's dependencies in /venv.
RUN pip install --requirement constraints/build.txt \
    && python -m venv /venv \
    && /venv/bin/pip install --requirement constraints/runtime.txt
COPY pyproject.toml setup.py README.md ./
# The rules engine first, compiled in place beside its sources (with the
# pinned tools above), in a layer that an edit outside bot/game/ keeps. The
# build fails if it did not compile: the pure Python fallback plays the same,
# several times slower.
COPY bot/__init__.py ./bot/
COPY bot/game ./bot/game
RUN python setup.py --quiet build_ext --inplace \
    && python -c "import bot.game.native as n, bot.game; \
build = n.engine_build(); print('rules engine:', build); assert build == 'compiled', build"
# Then the whole bot as plain Python, and the engine's compiled modules (the
# package's bot_game__mypyc library, the modules and the record of the
# sources they were compiled from) put beside its sources. The message
# catalogs are compiled now: the unprivileged user cannot write them.
COPY bot ./bot
COPY cogs ./cogs
COPY db ./db
RUN SPADES_PURE_PYTHON=1 pip wheel --no-deps --no-build-isolation --wheel-dir /wheels . \
    && /venv/bin/pip install --no-deps /wheels/*.whl \
    && site=$(/venv/bin/python -c "import sysconfig; print(sysconfig.get_path('purelib'))") \
    && cp bot_game__mypyc*.so "$site/" \
    && cp bot/game/*.so bot/game/compiled-sources.json "$site/bot/game/" \
    && cd / \
    && /venv/bin/python -c "import bot.game.native as n, bot.game; \
build = n.engine_build(); print('rules engine:', build); assert build == 'compiled', build" \
    && /venv/bin/python -m bot.i18n_catalogs compile

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PATH=/venv/bin:$PATH \
    SPADES_DATABASE__PATH=/data/spades.db
# tini as PID 1, from Debian's package: it passes docker stop's SIGTERM on to
# the bot and reaps orphans. In the image rather than left to `docker run
# --init` or compose's `init: true`, so that every way of running it (those,
# a plain docker run, Kubernetes) stops promptly: a PID 1 without a handler
# ignores SIGTERM, as Python does until the bot has installed its own.
# (-s below: also under an init of the host's, with no warning.)
RUN apt-get update \
    && apt-get install -y --no-install-recommends tini \
    && apt-get clean \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --create-home --uid 10001 spades \
    && mkdir /data /app \
    && chown spades:spades /data
COPY --from=build /venv /venv
WORKDIR /app
USER spades
VOLUME ["/data"]

# Healthy while the connected bot touches its heartbeat file next to the
# database; the file's name follows the shard settings (the SPADES_DISCORD__
# variables, or the same --shards flags given to health as to the bot).
HEALTHCHECK --interval=60s --timeout=10s --start-period=90s --retries=3 \
    CMD ["python", "-m", "bot", "health"]

# Settings: DISCORD_TOKEN in the environment, and optionally a config file
# mounted at /app/config.toml (read from the working directory). docker stop
# sends SIGTERM: the bot finishes what is under way and exits 0 in seconds,
# at any moment of its start too.
ENTRYPOINT ["tini", "-s", "--"]
CMD ["python", "-m", "bot"]
