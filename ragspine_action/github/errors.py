"""Errors of the GitHub side effects; the caller turns every one of them into a warning.

    GithubError                      anything that kept a GitHub side effect from happening
    ├── GithubContextError           the runner's environment or event file is unusable
    ├── CommandFileError             a GITHUB_OUTPUT / GITHUB_STEP_SUMMARY write failed
    ├── CommentTooLongError          a comment body above GitHub's 65,536 characters
    ├── GithubApiError               a REST call failed (status, method, path; never the token)
    │   └── GithubRateLimitError     rate limited for longer than we are willing to wait
    └── ArtifactError                the artifact service or the blob upload failed
        └── ArtifactNameError        a name the artifact service would refuse

None of these derive from ``RagspineError``: a failed comment or upload never changes the
gate verdict. Messages never contain tokens or signed URLs.
"""

from __future__ import annotations

__all__ = [
    "ArtifactError",
    "ArtifactNameError",
    "CommandFileError",
    "CommentTooLongError",
    "GithubApiError",
    "GithubContextError",
    "GithubError",
    "GithubRateLimitError",
]


class GithubError(Exception):
    """Base class: ``str(error)`` is a one-line reason fit for a ``::warning::``."""


class GithubContextError(GithubError):
    """The GitHub environment variables or the event file cannot be used."""


class CommandFileError(GithubError):
    """A runner file command (outputs, step summary) could not be written."""


class CommentTooLongError(GithubError):
    """The caller's comment body exceeds the REST API's limit; trim details before posting."""


class GithubApiError(GithubError):
    """A REST call answered with an error status, or could not be made at all."""

    def __init__(self, message: str, *, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class GithubRateLimitError(GithubApiError):
    """The API asked us to wait longer than the configured cap (or retries ran out)."""


class ArtifactError(GithubError):
    """The artifact upload failed; the report stays on disk."""


class ArtifactNameError(ArtifactError):
    """The artifact name contains a character the artifact service refuses."""
