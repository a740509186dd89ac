"""Golden set: the version-controlled expectations a system under test is gated by."""

from .load import GoldenSet, fingerprint_cases, golden_set_from_cases, load_golden_set
from .models import CASE_TYPES, CLARIFICATION_MODES, Expected, GoldenCase, SourceRef

__all__ = [
    "CASE_TYPES",
    "CLARIFICATION_MODES",
    "Expected",
    "GoldenCase",
    "GoldenSet",
    "SourceRef",
    "fingerprint_cases",
    "golden_set_from_cases",
    "load_golden_set",
]
