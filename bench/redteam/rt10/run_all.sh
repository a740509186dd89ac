#!/usr/bin/env bash
# Runs the product over the whole red-team set (batch 1 + batch 2) with --system outcomes,
# --no-baseline and a JSON --report, then scores the report against the frozen labels.
# VENV=<venv dir> picks the python (default: the global one, whose package is /work/main).
# OUT=<dir> (default ./out) receives the merged inputs, report.json, terminal.txt and score.txt.
set -u
HERE="$(cd "$(dirname "$0")" && pwd)"
if [ -n "${VENV:-}" ]; then PY="$VENV/bin/python"; else PY="$(command -v python3 || command -v python)"; fi
OUT="${OUT:-$HERE/out}"
mkdir -p "$OUT"
cat "$HERE/golden.jsonl" "$HERE/golden2.jsonl" > "$OUT/golden_all.jsonl"
cat "$HERE/outcomes.jsonl" "$HERE/outcomes2.jsonl" > "$OUT/outcomes_all.jsonl"
cat "$HERE/labels.jsonl" "$HERE/labels2.jsonl" > "$OUT/labels_all.jsonl"
"$PY" -c 'import ragspine_action, sys; print("python:", sys.executable, "package:", ragspine_action.__file__)'
"$PY" -m ragspine_action.cli --system outcomes --golden "$OUT/golden_all.jsonl" --outcomes "$OUT/outcomes_all.jsonl" \
  --mode redteam --no-baseline --show-failures 0 --report "$OUT/report.json" > "$OUT/terminal.txt" 2> "$OUT/stderr.txt"
rc=$?
echo "ragspine-eval exit code: $rc (1 is expected: the set holds hallucinations and fabricated amounts)"
if [ "$rc" -ge 2 ]; then cat "$OUT/stderr.txt"; exit "$rc"; fi
"$PY" "$HERE/score.py" "$OUT/report.json" "$OUT/labels_all.jsonl" | tee "$OUT/score.txt"
