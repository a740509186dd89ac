"""Where the bundled data lives: ``data/`` beside the package (source tree, editable
install and the Docker image all keep the repository layout)."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["BUNDLED_BASELINE", "BUNDLED_GOLDEN", "BUNDLED_MANIFEST", "DATA_DIR"]

DATA_DIR = Path(
    os.environ.get("RAGSPINE_DATA_DIR") or Path(__file__).resolve().parent.parent / "data"
)
BUNDLED_GOLDEN = DATA_DIR / "golden" / "qa_golden_set.jsonl"
BUNDLED_BASELINE = DATA_DIR / "golden" / "qa_baseline.json"
BUNDLED_MANIFEST = DATA_DIR / "fixtures" / "manifest.json"
