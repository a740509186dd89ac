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

# Dependencies and the build backend: exactly requirements.lock, every file checked against
# its sha256 (scripts/lock.sh regenerates it from pyproject.toml's ranges); nothing unpinned.
COPY requirements.lock /tmp/requirements.lock
RUN /opt/venv/bin/pip install --no-cache-dir --require-virtualenv --require-hashes --no-deps \
        -r /tmp/requirements.lock \
    && rm /tmp/requirements.lock

# ragspine-eval installed the way users get it, as a wheel: the code with the bundled golden
# sets, baselines, knowledge base and schemas inside site-packages, found with
# importlib.resources as in any installed copy. /app keeps only the entry point.
COPY pyproject.toml setup.py README.md /tmp/src/
COPY ragspine_action/ /tmp/src/ragspine_action/
COPY data/ /tmp/src/data/
COPY schema/ /tmp/src/schema/
# PYTHONDONTWRITEBYTECODE is set (here and in the image), so nothing writes bytecode at run
# time: every module the action imports is compiled here (pip compiles what it installs;
# compileall makes sure of ours and of the standard library), and the compiled patterns file
# (ragspine_action.pattern_cache, ~0.3 s of every start) is written by one bundled run.
# Without them each start compiles ~400 modules and ~500 patterns from source.
RUN /opt/venv/bin/pip install --no-cache-dir --require-virtualenv --no-deps --no-build-isolation \
        /tmp/src \
    && /opt/venv/bin/pip uninstall -y -q pip setuptools wheel \
    && rm -rf /tmp/src \
    && python3 -m compileall -q -x '/(lib2to3|test|tests|idlelib|tkinter|turtledemo|ensurepip)/' \
        /usr/lib/python3.11 /opt/venv/lib/python3.11/site-packages/ragspine_action \
    && /opt/venv/bin/python -m ragspine_action.pattern_cache
COPY entrypoint.py /app/
COPY docker/runtime-rootfs.sh /tmp/
RUN sh /tmp/runtime-rootfs.sh \
    && chroot /rootfs /opt/venv/bin/python -c "import ragspine_action.action, ragspine_action.cli, numpy, pydantic, orjson, yaml, requests, ssl, sqlite3, lzma, bz2, zlib, ctypes, decimal, uuid, hashlib, json; from ragspine_action.paths import BUNDLED_GOLDEN, SCHEMA_DIR; assert BUNDLED_GOLDEN.is_file() and SCHEMA_DIR.is_dir(), BUNDLED_GOLDEN; import json, importlib.util as u, ragspine_action.cli as c; from ragspine_action import pattern_cache as p; missing = [m.__file__ for m in (json, pydantic, c) if not __import__('os').path.exists(u.cache_from_source(m.__file__))]; assert not missing, missing; assert len(p.stored_patterns()) > 300, p.cache_path(); print('runtime imports ok, bytecode and patterns present')"

FROM scratch
COPY --from=build /rootfs/ /
ENV PATH=/opt/venv/bin:/usr/bin \
    LANG=C.UTF-8 \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1
ENTRYPOINT ["/opt/venv/bin/python", "/app/entrypoint.py"]
