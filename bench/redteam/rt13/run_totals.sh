#!/usr/bin/env bash
# Held-out use of red team 13: run the set and print only the per-class and total counts,
# never a case (see ../README.md). VENV=<venv dir>, OUT=<dir> as for run_all.sh.
set -u
HERE="$(cd "$(dirname "$0")" && pwd)"
"$HERE/run_all.sh" | sed '/^\* /,$d'
