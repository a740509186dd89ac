#!/usr/bin/env bash
# Build the action image with buildah on a debootstrap'ed debian:bookworm-slim and run it
# the way the GitHub runner runs a container action (workspace mounted at /github/workspace
# as the working directory). No Docker engine needed; must run as root.
#
#   scripts/container_test.sh [ARG...]     run the image's ENTRYPOINT with ARGs (default --help)
#   scripts/container_test.sh --no-args    run it with no arguments (the bundled default)
#   scripts/container_test.sh --build-only build and check the image, run nothing else
#
# tests/github/test_github_container.py uses --build-only and then runs the image itself
# against fake GitHub services (a pull-request run twice, CLI flags, the bundled default).
#
# Environment:
#   RAGSPINE_IMAGE          image name to build (default localhost/ragspine-eval:test)
#   RAGSPINE_ROOTFS_CACHE   where the debootstrap'ed base rootfs is kept (/var/cache/ragspine-rootfs)
#   RAGSPINE_CONTEXT_REV    build from this commit's files (git archive) instead of the
#                           working tree's tracked and untracked-but-not-ignored files
#   RAGSPINE_WORKSPACE      directory to mount as /github/workspace (default: a fresh temp dir)
#   RAGSPINE_ENV_FILE       optional file of KEY=VALUE lines passed to the container (-e)
#   RAGSPINE_EXPECT_RC      expected exit code of the run (default 0)
#   RAGSPINE_SKIP_BUILD=1   reuse an image built before
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
IMAGE="${RAGSPINE_IMAGE:-localhost/ragspine-eval:test}"
BASE_IMAGE="docker.io/library/debian:bookworm-slim"
# Bump when the stand-in base changes, so cached bases made by older recipes are replaced.
BASE_LABEL="org.ragspine.test-base"
BASE_RECIPE="minbase-slimmed-2"
CACHE="${RAGSPINE_ROOTFS_CACHE:-/var/cache/ragspine-rootfs}"
ROOTFS="$CACHE/rootfs"
CA_BUNDLE="/etc/ssl/certs/ca-certificates.crt"

log() { printf 'container_test: %s\n' "$*" >&2; }
die() { log "FAIL: $*"; exit 1; }

need_tools() {
  [ "$(id -u)" = 0 ] || die "must run as root (buildah and debootstrap need it)"
  # debian-archive-keyring: debootstrap checks bookworm's signatures with it (Ubuntu
  # runners do not have it by default).
  if ! command -v buildah >/dev/null || ! command -v debootstrap >/dev/null \
    || [ ! -e /usr/share/keyrings/debian-archive-keyring.gpg ]; then
    log "installing buildah, debootstrap and debian-archive-keyring"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq buildah debootstrap \
      debian-archive-keyring >/dev/null || die "cannot install buildah and debootstrap"
  fi
}

# The Debian mirror this machine's apt uses, else deb.debian.org.
debian_mirror() {
  local uri=""
  if [ -r /etc/apt/sources.list.d/debian.sources ]; then
    uri="$(awk '/^URIs:/ && $2 ~ /\/debian\/?$/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources)"
  fi
  if [ -z "$uri" ] && [ -r /etc/apt/sources.list ]; then
    uri="$(awk '$1 == "deb" && $3 == "bookworm" {print $2; exit}' /etc/apt/sources.list)"
  fi
  printf '%s\n' "${uri:-http://deb.debian.org/debian}"
}

# debian:bookworm-slim stand-in: a minbase debootstrap, cached across runs.
ensure_base_image() {
  local recipe
  recipe="$(buildah inspect --type image --format "{{index .OCIv1.Config.Labels \"$BASE_LABEL\"}}" \
    "$BASE_IMAGE" 2>/dev/null || true)"
  if [ "$recipe" = "$BASE_RECIPE" ]; then
    return
  fi
  if [ ! -x "$ROOTFS/usr/bin/python3" ]; then
    local mirror
    mirror="$(debian_mirror)"
    log "debootstrap bookworm from $mirror into $ROOTFS (about a minute, once)"
    mkdir -p "$CACHE"
    rm -rf "$ROOTFS.partial"
    debootstrap --variant=minbase --include=python3,python3-venv,ca-certificates \
      bookworm "$ROOTFS.partial" "$mirror" >"$CACHE/debootstrap.log" 2>&1 \
      || die "debootstrap failed; see $CACHE/debootstrap.log"
    mv "$ROOTFS.partial" "$ROOTFS"
  fi
  log "committing $ROOTFS as $BASE_IMAGE"
  local c m
  c="$(buildah from scratch)"
  m="$(buildah mount "$c")"
  cp -a "$ROOTFS/." "$m/"
  slim_down "$m"
  buildah umount "$c" >/dev/null
  buildah config --label "$BASE_LABEL=$BASE_RECIPE" "$c"
  buildah commit -q --rm "$c" "$BASE_IMAGE" >/dev/null
}

# What the real debian:bookworm-slim leaves out: downloaded packages, apt lists and caches,
# documentation, man pages and translations (and dpkg rules that keep them out later).
slim_down() {
  local m="$1"
  rm -rf "$m"/var/cache/apt/archives/*.deb "$m"/var/cache/apt/*.bin "$m"/var/lib/apt/lists/* \
    "$m"/usr/share/man/* "$m"/usr/share/info/* "$m"/usr/share/locale/* "$m"/usr/share/lintian
  find "$m/usr/share/doc" -mindepth 1 ! -type d ! -name copyright -delete
  mkdir -p "$m/etc/dpkg/dpkg.cfg.d"
  cat >"$m/etc/dpkg/dpkg.cfg.d/docker" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/locale/*
EOF
}

# The build context as a fresh clone would have it: tracked and untracked-but-not-ignored
# files only (no caches, no local virtualenvs), so the test sees what CI sees.
make_context() {
  local dir="$1"
  if [ -n "${RAGSPINE_CONTEXT_REV:-}" ]; then
    log "build context: git archive ${RAGSPINE_CONTEXT_REV} (a fresh clone's files at that commit)"
    git -C "$ROOT" archive --format=tar "$RAGSPINE_CONTEXT_REV" | tar -C "$dir" -xf - \
      || die "git archive $RAGSPINE_CONTEXT_REV failed"
  elif git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1; then
    (cd "$ROOT" && git ls-files -z --cached --others --exclude-standard \
      | xargs -0 -I{} sh -c 'test -e "{}" && printf "%s\0" "{}"' \
      | tar --null -T - -cf -) | tar -C "$dir" -xf -
  else
    cp -a "$ROOT/." "$dir/"
  fi
  for required in Dockerfile .dockerignore pyproject.toml setup.py README.md requirements.lock \
      entrypoint.py ragspine_action data schema; do
    [ -e "$dir/$required" ] || die "build context lacks $required"
  done
}

build_image() {
  local context="$1"
  log "building $IMAGE"
  local mounts=()
  [ -r "$CA_BUNDLE" ] && mounts=(-v "$CA_BUNDLE:$CA_BUNDLE:ro")
  local previous
  previous="$(buildah images -q --no-trunc "$IMAGE" 2>/dev/null | head -n1 || true)"
  # The Dockerfile's base is pinned by a registry digest; this machine has no registry, so
  # the build starts from the local stand-in of the same tag instead.
  buildah bud --isolation chroot --pull=never "${mounts[@]}" --build-arg "BASE_IMAGE=$BASE_IMAGE" \
    -q -t "$IMAGE" "$context" \
    >"$context.build.log" 2>&1 || { tail -n 40 "$context.build.log" >&2; die "image build failed"; }
  # The image this build replaced is untagged now; drop it unless a container still uses it.
  if [ -n "$previous" ] && [ "$previous" != "$(buildah images -q --no-trunc "$IMAGE" | head -n1)" ]; then
    buildah rmi "$previous" >/dev/null 2>&1 || true
  fi
}

check_image_config() {
  local config
  config="$(buildah inspect --type image "$IMAGE")"
  # One line per check: USER, WORKDIR, then the ENTRYPOINT words.
  mapfile -t ENTRYPOINT < <(printf '%s' "$config" | python3 -c '
import json, sys
config = json.load(sys.stdin)["OCIv1"].get("config") or {}
print(config.get("User") or "")
print(config.get("WorkingDir") or "")
print("\n".join(config.get("Entrypoint") or []))')
  local user="${ENTRYPOINT[0]}" workdir="${ENTRYPOINT[1]}"
  ENTRYPOINT=("${ENTRYPOINT[@]:2}")
  [ -z "$user" ] || die "image sets USER=$user; container actions must run as the default user"
  [ -z "$workdir" ] || die "image sets WORKDIR=$workdir; the runner sets the working directory"
  [ "${#ENTRYPOINT[@]}" -gt 0 ] || die "image has no exec-form ENTRYPOINT"
  [[ "${ENTRYPOINT[0]}" == /* ]] || die "ENTRYPOINT ${ENTRYPOINT[0]} is not an absolute path"
  log "image size: $(buildah images --format '{{.Size}}' "$IMAGE" | head -n1), entrypoint: ${ENTRYPOINT[*]}"
  log "base size: $(buildah images --format '{{.Size}}' "$BASE_IMAGE" | head -n1) ($BASE_IMAGE)"
}

# Run the ENTRYPOINT with the given args, workspace mounted; prints output, returns its code.
run_image() {
  local workspace="$1"; shift
  local envs=()
  if [ -n "${RAGSPINE_ENV_FILE:-}" ]; then
    while IFS= read -r line || [ -n "$line" ]; do
      [ -n "$line" ] && [ "${line#\#}" = "$line" ] && envs+=(-e "$line")
    done <"$RAGSPINE_ENV_FILE"
  fi
  local c rc=0
  c="$(buildah from --pull-never "$IMAGE")"
  buildah run --isolation chroot -v "$workspace:/github/workspace" \
    --workingdir /github/workspace "${envs[@]}" "$c" -- "${ENTRYPOINT[@]}" "$@" || rc=$?
  buildah rm "$c" >/dev/null
  return "$rc"
}

# The runner's layout: the workspace is the working directory and is shared both ways.
check_workspace_mount() {
  local workspace="$1" probe="probe-$$-$RANDOM"
  printf 'host\n' >"$workspace/$probe.in"
  local c rc=0
  c="$(buildah from --pull-never "$IMAGE")"
  buildah run --isolation chroot -v "$workspace:/github/workspace" \
    --workingdir /github/workspace "$c" -- "${ENTRYPOINT[0]}" -c "
import os, sys
assert os.getcwd() == '/github/workspace', os.getcwd()
assert open('$probe.in').read() == 'host\\n'
open('$probe.out', 'w').write('container\\n')
" || rc=$?
  buildah rm "$c" >/dev/null
  [ "$rc" = 0 ] || die "workspace mount check failed inside the image"
  [ "$(cat "$workspace/$probe.out" 2>/dev/null)" = container ] \
    || die "a file written in /github/workspace did not reach the host"
  rm -f "$workspace/$probe.in" "$workspace/$probe.out"
  log "workspace mounted at /github/workspace and is the working directory"
}

main() {
  need_tools
  tmp="$(mktemp -d)"
  trap 'rm -rf "${tmp:-}"' EXIT
  if [ "${RAGSPINE_SKIP_BUILD:-0}" != 1 ]; then
    ensure_base_image
    mkdir "$tmp/context"
    make_context "$tmp/context"
    build_image "$tmp/context"
  fi
  check_image_config
  local workspace="${RAGSPINE_WORKSPACE:-$tmp/workspace}"
  mkdir -p "$workspace"
  check_workspace_mount "$workspace"
  if [ "${1:-}" = --build-only ]; then
    log "OK: $IMAGE built and checked"
    return
  fi
  if [ "$#" -eq 0 ]; then
    set -- --help
  elif [ "$1" = --no-args ]; then
    shift  # the runner's way: no arguments, everything from INPUT_* variables
  fi
  local rc=0
  run_image "$workspace" "$@" >"$tmp/out" 2>&1 || rc=$?
  cat "$tmp/out"
  [ "$rc" = "${RAGSPINE_EXPECT_RC:-0}" ] || die "the image exited $rc, expected ${RAGSPINE_EXPECT_RC:-0}"
  [ -s "$tmp/out" ] || die "the image printed nothing"
  log "OK: $IMAGE ran '$*' with exit code $rc"
}

main "$@"
