# ragspine-eval as a GitHub container action and a CLI image.
# No USER and no WORKDIR: GitHub runs container actions as root with the workspace at
# /github/workspace as the working directory, and relative input paths resolve there.
# The base is the same one scripts/container_test.sh builds on (a debootstrap'ed stand-in).
FROM debian:bookworm-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    RAGSPINE_DATA_DIR=/app/data \
    PATH=/opt/venv/bin:$PATH

# Python from Debian, pinned to the bookworm release versions; no apt caches left behind.
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        python3=3.11.2-1+b1 \
        python3-venv=3.11.2-1+b1 \
        ca-certificates=20230311+deb12u1 \
    && apt-get clean \
    && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin \
    && python3 -m venv /opt/venv

# Runtime dependencies come from the project's own metadata: exactly the pins in
# pyproject.toml's [project] dependencies (no build backend fetched, nothing unpinned).
# pip and setuptools leave the venv afterwards; the code runs from /app, next to its data.
COPY pyproject.toml /app/
RUN /opt/venv/bin/python -c "import tomllib; print('\n'.join(tomllib.load(open('/app/pyproject.toml', 'rb'))['project']['dependencies']))" >/tmp/requirements.txt \
    && /opt/venv/bin/pip install --no-cache-dir --require-virtualenv -r /tmp/requirements.txt \
    && /opt/venv/bin/pip uninstall -y -q pip setuptools \
    && rm /tmp/requirements.txt

# The code, the bundled golden sets, baselines and the report schema, in the repository layout.
COPY entrypoint.py /app/
COPY ragspine_action/ /app/ragspine_action/
COPY data/ /app/data/
COPY schema/ /app/schema/
RUN /opt/venv/bin/python -m compileall -q /app/ragspine_action /app/entrypoint.py \
    && /opt/venv/bin/python -c "import sys; sys.path.insert(0, '/app'); import ragspine_action.action"

ENTRYPOINT ["/opt/venv/bin/python", "/app/entrypoint.py"]
