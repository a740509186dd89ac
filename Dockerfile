# ragspine-eval as a GitHub container action and a CLI image.
# No USER and no WORKDIR: GitHub runs container actions as root with the workspace at
# /github/workspace as the working directory, and relative input paths resolve there.
FROM debian:bookworm-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# Python from Debian, pinned to the bookworm release versions.
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        python3=3.11.2-1+b1 \
        python3-venv=3.11.2-1+b1 \
        ca-certificates=20230311+deb12u1 \
    && rm -rf /var/lib/apt/lists/* \
    && python3 -m venv /opt/venv

# Dependencies come from the project's own metadata (pinned in pyproject.toml); the bundled
# golden sets, baselines and the report schema travel with the code under /app.
COPY pyproject.toml README.md entrypoint.py /app/
COPY ragspine_action/ /app/ragspine_action/
COPY data/ /app/data/
COPY schema/ /app/schema/
RUN /opt/venv/bin/pip install --no-cache-dir /app \
    && /opt/venv/bin/python -c "import ragspine_action"

ENTRYPOINT ["/opt/venv/bin/python", "/app/entrypoint.py"]
