#!/usr/bin/env bash
# Red team 14 through ragspine-eval, scored (VENV=<venv dir>, OUT=<dir>; see ../run_set.sh).
exec "$(dirname "$0")/../run_set.sh" "$(dirname "$0")"
