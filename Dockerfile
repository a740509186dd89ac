# ragspine-eval as a GitHub container action and a CLI image.
#
# Two stages: `build` installs Python and the pinned dependencies on Debian bookworm and
# assembles a file system with only what the program runs (docker/runtime-rootfs.sh); the
# image is that file system FROM scratch: no shell, no apt, no pip, no compiler.
# No USER and no WORKDIR: GitHub runs container actions as root with the workspace at
# /github/workspace as the working directory, and relative input paths resolve there.
#
# The base is pinned by the digest of debian:bookworm-slim's multi-architecture index, so a
# rebuild of the same commit starts from the same bytes (docs/action.md says how it was found
# and how it is kept current). scripts/container_test.sh builds with
# --build-arg BASE_IMAGE=<a local debootstrap'ed bookworm> because it has no registry access.
ARG BASE_IMAGE=debian:bookworm-slim@sha256:3783cc01769c7b2b1b83a5c5ad96c815348e28ed7da68e2e3687004faa906251

FROM ${BASE_IMAGE} AS build

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1

# Debian's Python 3.11. Package versions are deliberately not pinned (DL3008): bookworm's
# security archive replaces a version when it patches it and the old one disappears, so a
# pin breaks the build at the next security update; the digest-pinned base fixes the rest.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends python3 python3-venv \
    && rm -rf /var/lib/apt/lists/* \
    && python3 -m venv /opt/venv

# Runtime dependencies come from the project's own metadata: exactly the pins in
# pyproject.toml's [project] dependencies (no build backend fetched, nothing unpinned).
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
COPY docker/runtime-rootfs.sh /tmp/
RUN /opt/venv/bin/python -m compileall -q /app/ragspine_action /app/entrypoint.py \
    && sh /tmp/runtime-rootfs.sh \
    && chroot /rootfs /opt/venv/bin/python -c "import sys; sys.path.insert(0, '/app'); import ragspine_action.action, ragspine_action.cli, numpy, pydantic, orjson, yaml, requests, ssl, sqlite3, lzma, bz2, zlib, ctypes, decimal, uuid, hashlib, json; print('runtime imports ok')"

FROM scratch
COPY --from=build /rootfs/ /
ENV PATH=/opt/venv/bin:/usr/bin \
    LANG=C.UTF-8 \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    RAGSPINE_DATA_DIR=/app/data
ENTRYPOINT ["/opt/venv/bin/python", "/app/entrypoint.py"]
