"""The real image: built with buildah on a debootstrap'ed bookworm base, run like the runner does.

Slow on the first run (debootstrap, about a minute; cached in /var/cache/ragspine-rootfs),
about 20 s after. Needs root, buildah and debootstrap (``.ci/run`` installs them).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "container_test.sh"


def test_image_builds_and_runs_with_the_workspace_mounted(tmp_path: Path) -> None:
    assert os.geteuid() == 0, "the container test needs root (buildah, debootstrap)"
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    env = {
        **os.environ,
        "RAGSPINE_IMAGE": "localhost/ragspine-eval:pytest",
        "RAGSPINE_WORKSPACE": str(workspace),
    }
    result = subprocess.run(
        [str(SCRIPT), "--help"], env=env, capture_output=True, text=True, timeout=1200
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-4000:]
    assert "usage:" in result.stdout
    assert "ran '--help' with exit code 0" in result.stderr
    assert "entrypoint: /opt/venv/bin/python /app/entrypoint.py" in result.stderr
    assert "workspace mounted at /github/workspace" in result.stderr
    assert sorted(p.name for p in workspace.iterdir()) == []  # probes cleaned up
