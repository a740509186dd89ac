#!/usr/bin/env bash
# Point action.yml at a pushed image, pinned by digest, instead of building the Dockerfile.
#
#   scripts/pin-action-image.sh ghcr.io/OWNER/NAME@sha256:<64 hex> [ACTION_YML]
#
# The release workflow runs it on a release commit that only the version tags point at;
# main keeps `image: Dockerfile`. Refuses anything but a digest reference, and checks that
# exactly the one `image:` line changed.
set -euo pipefail

ref="${1:?usage: pin-action-image.sh REGISTRY/IMAGE@sha256:DIGEST [action.yml]}"
action="${2:-action.yml}"
if ! [[ "$ref" =~ ^[a-z0-9.-]+(:[0-9]+)?/[a-z0-9._/-]+@sha256:[0-9a-f]{64}$ ]]; then
  echo "pin-action-image: '$ref' is not REGISTRY/IMAGE@sha256:<64 hex> (lower case)" >&2
  exit 2
fi
if [ "$(grep -c '^  image: Dockerfile$' "$action")" != 1 ]; then
  echo "pin-action-image: $action has no single '  image: Dockerfile' line to replace" >&2
  exit 2
fi
tmp="$(mktemp)"
sed "s|^  image: Dockerfile\$|  image: \"docker://$ref\"|" "$action" >"$tmp"
changed="$(diff "$action" "$tmp" | grep -c '^[<>]' || true)"
if [ "$changed" != 2 ]; then
  rm -f "$tmp"
  echo "pin-action-image: expected one changed line in $action, got $changed" >&2
  exit 2
fi
cat "$tmp" >"$action"
rm -f "$tmp"
echo "pin-action-image: $action runs docker://$ref"
