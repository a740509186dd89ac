"""Outcomes: what a system under test answered, one per golden case."""

from .load import load_outcomes, parse_outcome
from .model import Outcome, error_outcome

__all__ = ["Outcome", "error_outcome", "load_outcomes", "parse_outcome"]
