"""ragspine-eval: a CI quality gate for RAG systems against a version-controlled golden set."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("ragspine-eval")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0+source"

__all__ = ["__version__"]
