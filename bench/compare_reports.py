"""compare_reports.py A.json B.json: exit 0 when two reports are byte-identical but for
the run's timestamp and the paths of the report and of the bundled fixtures (what
differs between two runs of the same inputs, or two checkouts); else print the first
differing line of each and exit 1.

Used to check that a speed change leaves every report as it was (docs/performance.md).
"""

from __future__ import annotations

import re
import sys
from itertools import zip_longest

_VOLATILE = (
    re.compile(rb'^(  "generated_at": )".*"(,?)$'),
    re.compile(rb'^(    "report": )".*"(,?)$'),
    re.compile(rb'^(    "extraction_manifest": )".*"(,?)$'),  # under the checkout
)


def _normalised(line: bytes) -> bytes:
    for pattern in _VOLATILE:
        line = pattern.sub(rb'\1"*"\2', line)
    return line


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[0], "rb") as a, open(argv[1], "rb") as b:
        for number, (left, right) in enumerate(zip_longest(a, b), 1):
            if left is None or right is None or _normalised(left) != _normalised(right):
                print(f"line {number} differs:\n  {left!r:.300}\n  {right!r:.300}")
                return 1
    print("identical (timestamps and report paths aside)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
