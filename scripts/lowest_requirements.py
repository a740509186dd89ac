"""Print the lowest versions pyproject.toml allows, one ``name==version`` a line.

CI installs them as constraints (``pip install -c lowest.txt -e '.[dev]'``) and runs the
tests, so the lower bounds the library declares are ones it was tested with. A runtime
dependency without a ``>=`` lower bound is an error: every range must say where it starts.
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*(.*)$")


def lowest_pins(pyproject: Path = ROOT / "pyproject.toml") -> list[str]:
    """``name==lower bound`` for every runtime dependency, in pyproject order."""
    dependencies = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["dependencies"]
    pins = []
    for requirement in dependencies:
        match = _REQUIREMENT.match(requirement.split(";")[0])
        if match is None:
            raise ValueError(f"{pyproject}: cannot read the requirement {requirement!r}")
        name, specifiers = match.group(1), match.group(3)
        lower = [s.strip()[2:].strip() for s in specifiers.split(",") if s.strip().startswith(">=")]
        if len(lower) != 1:
            raise ValueError(f"{pyproject}: {requirement!r} needs exactly one '>=' lower bound")
        pins.append(f"{name}=={lower[0]}")
    return pins


if __name__ == "__main__":
    try:
        print("\n".join(lowest_pins()))
    except (OSError, KeyError, ValueError) as exc:
        print(f"lowest_requirements: {exc}", file=sys.stderr)
        sys.exit(2)
