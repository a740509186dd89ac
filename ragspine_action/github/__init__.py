"""GitHub side effects of the action, knowing nothing about RAG: strings and paths in.

- ``commands``: workflow commands (annotations, masks) and file commands (outputs, summary)
- ``event``: ``GithubContext.from_env(env)`` and the pull request from the event file
- ``rest``: the sticky PR comment and the contents API
- ``artifacts``: artifact upload over the v4 results service
- ``errors``: ``GithubError`` and its subclasses; the caller turns them into warnings
"""

from __future__ import annotations

from ragspine_action.github.artifacts import (
    ArtifactUpload,
    BackendIds,
    backend_ids_from_token,
    upload_file_artifact,
    validate_artifact_name,
    zip_file,
)
from ragspine_action.github.commands import (
    STEP_SUMMARY_LIMIT_BYTES,
    SummaryWrite,
    add_mask,
    annotation,
    append_step_summary,
    emit,
    escape_data,
    escape_property,
    format_command,
    format_output,
    resume_commands,
    set_output,
    set_outputs,
    stop_commands,
)
from ragspine_action.github.errors import (
    ArtifactError,
    ArtifactNameError,
    CommandFileError,
    CommentTooLongError,
    GithubApiError,
    GithubContextError,
    GithubError,
    GithubRateLimitError,
)
from ragspine_action.github.event import (
    PULL_REQUEST_EVENTS,
    GithubContext,
    PullRequestInfo,
    load_event,
    pull_request_from_event,
    run_url,
)
from ragspine_action.github.rest import (
    API_VERSION,
    DEFAULT_BOT_LOGIN,
    MAX_COMMENT_CHARS,
    CommentResult,
    GithubClient,
    IssueComment,
    find_sticky_comment,
    sticky_marker,
    upsert_sticky_comment,
)

__all__ = [
    "API_VERSION",
    "DEFAULT_BOT_LOGIN",
    "MAX_COMMENT_CHARS",
    "PULL_REQUEST_EVENTS",
    "STEP_SUMMARY_LIMIT_BYTES",
    "ArtifactError",
    "ArtifactNameError",
    "ArtifactUpload",
    "BackendIds",
    "CommandFileError",
    "CommentResult",
    "CommentTooLongError",
    "GithubApiError",
    "GithubClient",
    "GithubContext",
    "GithubContextError",
    "GithubError",
    "GithubRateLimitError",
    "IssueComment",
    "PullRequestInfo",
    "SummaryWrite",
    "add_mask",
    "annotation",
    "append_step_summary",
    "backend_ids_from_token",
    "emit",
    "escape_data",
    "escape_property",
    "find_sticky_comment",
    "format_command",
    "format_output",
    "load_event",
    "pull_request_from_event",
    "resume_commands",
    "run_url",
    "set_output",
    "set_outputs",
    "sticky_marker",
    "stop_commands",
    "upload_file_artifact",
    "upsert_sticky_comment",
    "validate_artifact_name",
    "zip_file",
]
