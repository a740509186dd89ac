"""The package version: one literal, read by the build (pyproject's dynamic version) and
by the code alike, so showing it costs no ``importlib.metadata`` lookup at start-up."""

__all__ = ["VERSION"]

VERSION = "0.1.0"
