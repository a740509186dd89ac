"""Where the bundled data lives, found the same way from a wheel, the image and a checkout.

The repository keeps the bundled data in its top-level ``data/`` (golden set, baseline,
knowledge base, extraction fixtures) and the JSON Schemas in ``schema/``. The build
(``setup.py``) ships both inside the package, as ``ragspine_action/_data`` and
``ragspine_action/_schema``, and they are found with :mod:`importlib.resources` — in an
installed wheel and in the Docker image, which installs the same wheel. A source checkout
or an editable install has no such copy and reads the repository's own folders.

``RAGSPINE_DATA_DIR`` (optional) replaces the whole data folder with another one of the same
layout (``golden/``, ``kb/``, ``fixtures/``): the bundled default then runs on that copy.
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

__all__ = [
    "BUNDLED_BASELINE",
    "BUNDLED_GOLDEN",
    "BUNDLED_MANIFEST",
    "CHECKOUT_ROOT",
    "DATA_DIR",
    "DATA_DIR_ENV",
    "SCHEMA_DIR",
    "bundled_dir",
]

#: The environment variable that replaces the bundled data folder.
DATA_DIR_ENV = "RAGSPINE_DATA_DIR"

#: The repository root when the package runs from a source checkout (``pyproject.toml`` next
#: to the package), else None (an installed wheel, the image).
_SOURCE_ROOT = Path(__file__).resolve().parent.parent
CHECKOUT_ROOT: Path | None = _SOURCE_ROOT if (_SOURCE_ROOT / "pyproject.toml").is_file() else None


def bundled_dir(
    packaged: str,
    checkout: str,
    *,
    package: str = "ragspine_action",
    checkout_root: Path | None = CHECKOUT_ROOT,
) -> Path:
    """The package's copy ``<package>/<packaged>`` when it has one (a wheel, the image), else
    the checkout's ``<checkout>/`` folder; the packaged path when neither exists, so that
    errors name where the data should be."""
    resource = resources.files(package).joinpath(packaged)
    if isinstance(resource, Path) and resource.is_dir():
        return resource
    if checkout_root is not None and (checkout_root / checkout).is_dir():
        return checkout_root / checkout
    # Not on the file system (a zip import) or missing: a path that says where it should be.
    return Path(str(resource))


DATA_DIR = Path(os.environ.get(DATA_DIR_ENV) or bundled_dir("_data", "data"))
SCHEMA_DIR = bundled_dir("_schema", "schema")
BUNDLED_GOLDEN = DATA_DIR / "golden" / "qa_golden_set.jsonl"
BUNDLED_BASELINE = DATA_DIR / "golden" / "qa_baseline.json"
BUNDLED_MANIFEST = DATA_DIR / "fixtures" / "manifest.json"
