#!/usr/bin/env bash
# run_set.sh SETDIR: run a red-team set (rt11, rt12, rt13) through ragspine-eval
# (--system outcomes) and score it with score.py.
# VENV=<venv dir> picks the python (default: global python); OUT=<dir> for the report.
# SET=<dir> holding golden.jsonl + outcomes.jsonl (default: ./set); LABELS=<labels.jsonl>.
set -u
SCRIPTS="$(cd "$(dirname "$0")" && pwd)"
HERE="$(cd "${1:?usage: run_set.sh SETDIR}" && pwd)"
if [ -n "${VENV:-}" ] && [ -x "$VENV/bin/python" ]; then PY="$VENV/bin/python"; else PY="$(command -v python || command -v python3)"; fi
OUT="${OUT:-$HERE/out}"
SET="${SET:-$HERE}"
LABELS="${LABELS:-$HERE/labels.jsonl}"
mkdir -p "$OUT"
# run from a neutral directory so no ragspine-eval.yml config is picked up by accident
cd "$OUT"
"$PY" -m ragspine_action.cli --system outcomes --no-baseline \
  --golden "$SET/golden.jsonl" --outcomes "$SET/outcomes.jsonl" \
  --report "$OUT/report.json" >"$OUT/stdout.txt" 2>"$OUT/stderr.txt"
rc=$?
echo "ragspine-eval exit code: $rc (1 is expected: the set contains failing cases)"
if [ ! -s "$OUT/report.json" ]; then
  echo "no report written; stderr:"; cat "$OUT/stderr.txt"; exit 2
fi
python3 "$SCRIPTS/score.py" "$OUT/report.json" "$LABELS"
