#!/usr/bin/env bash
# Regenerate the hash-pinned lock files from pyproject.toml, the one place where dependencies
# are declared (as compatible ranges). Pins already in the lock files are kept unless you ask
# for newer ones: scripts/lock.sh --upgrade (everything) or --upgrade-package NAME.
#
#   requirements.lock      runtime dependencies + the build backend: the Docker image
#   requirements-dev.lock  the same + the [dev] extra: CI and the README's test command
#
# Both are universal (any OS, Python 3.11 and later) and list the sha256 of every file, for
# `pip install --require-hashes -r ...`. Needs uv (`pip install uv`).
set -euo pipefail
cd "$(dirname "$0")/.."
uv="${UV:-uv}"
if ! command -v "$uv" >/dev/null; then
  echo "lock.sh: uv is needed: pip install uv (or set UV=/path/to/uv)" >&2
  exit 2
fi
# The build backend from [build-system] requires, so that installing the project itself
# (pip install --no-build-isolation) needs nothing unpinned either.
build_requires() {
  python3 -c 'import tomllib; print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["build-system"]["requires"]))'
}
common=(--universal --python-version 3.11 --generate-hashes --quiet
  --custom-compile-command "scripts/lock.sh" "$@")
build_requires | "$uv" pip compile pyproject.toml - "${common[@]}" -o requirements.lock
build_requires | "$uv" pip compile pyproject.toml - --extra dev "${common[@]}" -o requirements-dev.lock
echo "lock.sh: wrote requirements.lock and requirements-dev.lock"
