"""Systems under test: reference (bundled), outcomes (a file), http (an endpoint)."""

from .base import MISSING_OUTCOME, Collection, PerCaseSystem, System, complete_collection
from .outcomes_file import OutcomesFileSystem

__all__ = [
    "MISSING_OUTCOME",
    "Collection",
    "OutcomesFileSystem",
    "PerCaseSystem",
    "System",
    "complete_collection",
]
