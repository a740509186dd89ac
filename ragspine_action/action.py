"""The GitHub Action: inputs → the same run as the CLI → comment, summary, artifact, outputs.

The gate verdict decides the job. Everything GitHub-facing after the verdict (comment,
artifact, summary) is best effort: a failure there is a warning with its reason, never a
failed job and never a crash.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TextIO

from .cli import build_parser, config_from_args
from .config import ActionInputs, RunConfig, action_inputs_from_env
from .errors import EXIT_ERROR, EXIT_PASS, EXIT_REGRESSION, RagspineError
from .github.artifacts import upload_file_artifact
from .github.commands import add_mask, annotation, append_step_summary, emit, set_outputs
from .github.errors import GithubError
from .github.event import GithubContext
from .github.rest import GithubClient, sticky_marker, upsert_sticky_comment
from .guard import GuardReport, compare_baselines, compare_golden_sets, render_guard
from .paths import DATA_DIR
from .report.model import Report
from .report.render_markdown import COMMENT_LIMIT, escape_md, render_markdown
from .report.render_terminal import render_terminal
from .report.write import write_report
from .run import RunResult, run

__all__ = ["main"]

MAX_ANNOTATIONS = 20


class _Log:
    """Workflow-command output: warnings and errors as annotations, in order."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.warnings: list[str] = []

    def warning(self, message: str, title: str = "ragspine-eval") -> None:
        self.warnings.append(message)
        emit(annotation("warning", message, title=title), self.stream)

    def error(self, message: str, title: str = "ragspine-eval") -> None:
        emit(annotation("error", message, title=title), self.stream)


def _repo_relative(path: str | None, workspace: Path) -> str | None:
    """The path inside the checked-out repository, or None for bundled or outside files."""
    if not path:
        return None
    resolved = (workspace / path).resolve()
    if resolved.is_relative_to(DATA_DIR.resolve()) and not DATA_DIR.resolve().is_relative_to(
        workspace.resolve()
    ):
        return None
    try:
        return resolved.relative_to(workspace.resolve()).as_posix()
    except ValueError:
        return None


def _base_version(
    rel: str, sha: str, workspace: Path, client: GithubClient | None, ctx: GithubContext
) -> bytes | None:
    """The file at the base commit: ``git show`` when history is there, else the contents API."""
    try:
        shown = subprocess.run(
            ["git", "-C", str(workspace), "show", f"{sha}:{rel}"],
            capture_output=True,
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        shown = None
    if shown is not None and shown.returncode == 0:
        return shown.stdout
    if shown is not None and b"does not exist" in shown.stderr + shown.stdout:
        return None
    if client is None:
        raise GithubError("no git history for the base commit and no token for the contents API")
    return client.get_file_at_ref(ctx.owner, ctx.repo, rel, sha)


def _guard(
    config: RunConfig, ctx: GithubContext, workspace: Path, client: GithubClient | None, log: _Log
) -> GuardReport | None:
    pr = ctx.pull_request
    if pr is None or not pr.base_sha:
        return None
    report = GuardReport()
    try:
        baseline_rel = _repo_relative(config.baseline, workspace)
        if baseline_rel is not None and (workspace / baseline_rel).exists():
            base = _base_version(baseline_rel, pr.base_sha, workspace, client, ctx)
            if base is not None:
                head_text = (workspace / baseline_rel).read_text(encoding="utf-8")
                compare_baselines(json.loads(base), json.loads(head_text), report)
        golden_rel = _repo_relative(config.golden, workspace)
        if golden_rel is not None and (workspace / golden_rel).exists():
            base = _base_version(golden_rel, pr.base_sha, workspace, client, ctx)
            if base is not None:
                head_text = (workspace / golden_rel).read_text(encoding="utf-8")
                compare_golden_sets(base.decode("utf-8", "replace"), head_text, report)
    except (GithubError, OSError, ValueError) as exc:
        log.warning(f"baseline guard skipped: {exc}")
        return None
    return report


def _http_secrets(config: RunConfig) -> list[str]:
    """Endpoint header values (and credentials in the URL), masked before anything prints."""
    if config.system != "http" or not config.endpoint:
        return []
    from .systems.http import HttpSettings, load_headers

    settings = HttpSettings(
        endpoint=config.endpoint, headers=load_headers(path=config.headers_file)
    )
    return settings.secret_values()


def _marker_key(mode: str) -> str:
    """The sticky-comment key for a mode; any baseline key is allowed, the marker is not."""
    if re.fullmatch(r"[A-Za-z0-9._-]{1,64}", mode):
        return mode
    cleaned = re.sub(r"[^A-Za-z0-9._-]+", "-", mode).strip("-")[:55]
    return f"{cleaned or 'mode'}-{hashlib.sha256(mode.encode('utf-8', 'replace')).hexdigest()[:8]}"


def _merge(inputs: ActionInputs, config: RunConfig) -> tuple[RunConfig, RunResult]:
    """The action's merge use: the shards' partial reports → one report and verdict."""
    from .merge import merge_paths

    overrides = {
        "report": config.report,
        "baseline": config.baseline if inputs.baseline else None,
        "update_baseline": config.update_baseline,
        "lower_reason": config.lower_reason,
    }
    return merge_paths(inputs.merge_reports, overrides)


def _should_comment(policy: str, verdict: str, is_pr: bool) -> bool:
    if policy == "never" or not is_pr:
        return False
    if policy == "on-failure":
        return verdict != "pass"
    return True  # auto and always: every pull request run


def _annotate(report: Report, log: _Log) -> None:
    base = report.baseline
    if base is None:
        return
    found = [
        (
            f"{r.key}/{r.metric} fell from {r.baseline:.4f} to {r.current:.4f} ({r.delta:+.4f})",
            "ragspine-eval regression",
        )
        for r in base.regressions
    ]
    found += [
        (f"case {c.id} broke {c.metric} ({c.before} → {c.after})", "ragspine-eval protected case")
        for c in base.broken
    ]
    for message, title in found[:MAX_ANNOTATIONS]:
        log.error(message, title=title)
    if base.status == "stale":
        log.error(base.message, title="ragspine-eval stale baseline")


def _outputs(ctx: GithubContext, values: Mapping[str, str], log: _Log) -> None:
    if not ctx.output_file:
        return
    try:
        set_outputs(ctx.output_file, values)
    except (GithubError, OSError) as exc:
        log.warning(f"could not write step outputs: {exc}")


def _fail_exit(inputs: ActionInputs, code: int) -> int:
    return EXIT_PASS if inputs.fail_on == "never" and code == EXIT_REGRESSION else code


def _publish(
    report: Report,
    inputs: ActionInputs,
    ctx: GithubContext,
    config: RunConfig,
    client: GithubClient | None,
    guard: GuardReport | None,
    log: _Log,
    sleep: Callable[[float], None],
) -> tuple[str, str]:
    """Artifact, job summary, annotations and the sticky comment: (comment URL, artifact id).

    Each channel fails on its own with a warning; none of them changes the verdict.
    """
    artifact_id = ""
    if inputs.artifact_name and ctx.runtime_token and ctx.results_url:
        try:
            upload = upload_file_artifact(
                inputs.report,
                name=inputs.artifact_name,
                runtime_token=ctx.runtime_token,
                results_url=ctx.results_url,
                retention_days=inputs.artifact_retention_days,
                sleep=sleep,
            )
            artifact_id = str(upload.artifact_id)
        except GithubError as exc:
            log.warning(f"report not uploaded as an artifact ({exc}); it stays at {inputs.report}")
    elif inputs.artifact_name:
        log.warning(f"not running in GitHub Actions: the report stays at {inputs.report}")

    artifact_url = None
    if artifact_id and ctx.run_url:
        artifact_url = f"{ctx.run_url}/artifacts/{artifact_id}"
    guard_lines = render_guard(guard, escape_md) if guard is not None else []
    guard_text = "\n".join(guard_lines)
    body = guard_text + render_markdown(
        report,
        run_url=ctx.run_url,
        artifact_url=artifact_url,
        limit=COMMENT_LIMIT - len(guard_text),
    )
    if ctx.step_summary_file:
        try:
            append_step_summary(ctx.step_summary_file, body)
        except (GithubError, OSError) as exc:
            log.warning(f"could not write the job summary: {exc}")
    _annotate(report, log)

    comment_url = ""
    is_pr = ctx.pull_request is not None
    if _should_comment(inputs.comment, report.verdict, is_pr) and ctx.pull_request is not None:
        if client is None:
            log.warning("no github-token: the pull request comment was skipped")
        else:
            try:
                marker = sticky_marker(_marker_key(config.mode))
                outcome = upsert_sticky_comment(
                    client, ctx.owner, ctx.repo, ctx.pull_request.number, body, marker=marker
                )
                if outcome.action == "forbidden":
                    log.warning(
                        "the token may not comment on this pull request (a fork's read-only "
                        f"token?): {outcome.warning or '403'}"
                    )
                else:
                    comment_url = outcome.html_url or ""
            except GithubError as exc:
                log.warning(f"pull request comment failed: {exc}")
    elif inputs.comment == "always" and not is_pr:
        log.warning("comment: always, but this run is not for a pull request")

    return comment_url, artifact_id


def main(
    env: Mapping[str, str] | None = None,
    stream: TextIO | None = None,
    *,
    sleep: Callable[[float], None] = time.sleep,
) -> int:
    """Run the action; ``sleep`` is how retries wait (tests pass a recorder)."""
    env = os.environ if env is None else env
    log = _Log(stream or sys.stdout)
    try:
        inputs = action_inputs_from_env(env)
        ctx = GithubContext.from_env(env)
    except (RagspineError, GithubError) as exc:
        log.error(str(exc))
        return EXIT_ERROR
    if inputs.github_token:
        emit(add_mask(inputs.github_token), log.stream)
    workspace = Path(ctx.workspace or os.getcwd())
    try:
        config = config_from_args(build_parser().parse_args(list(inputs.argv)))
        for secret in _http_secrets(config):
            emit(add_mask(secret), log.stream)
        if inputs.merge_reports:
            config, result = _merge(inputs, config)
        else:
            result = run(config)
    except RagspineError as exc:
        for line in str(exc).splitlines()[:MAX_ANNOTATIONS]:
            log.error(line)
        _outputs(ctx, {"verdict": "error", "summary": str(exc).splitlines()[0]}, log)
        return exc.exit_code

    report = result.report
    client = (
        GithubClient(inputs.github_token, api_url=ctx.api_url, sleep=sleep)
        if inputs.github_token
        else None
    )
    guard = _guard(config, ctx, workspace, client, log)
    if guard is not None and guard.unrecorded_lowering:
        message = "the pull request lowers the baseline without a _history record"
        report = report.model_copy(
            update={
                "verdict": "fail",
                "exit_code": max(report.exit_code, EXIT_REGRESSION),
                "warnings": [*report.warnings, message],
            }
        )
        log.error(message, title="ragspine-eval baseline guard")
    write_report(report, inputs.report)
    print(render_terminal(report), file=log.stream, flush=True)

    try:
        comment_url, artifact_id = _publish(report, inputs, ctx, config, client, guard, log, sleep)
    except Exception as exc:  # after the verdict nothing may crash the job: warn instead
        log.warning(f"publishing the results failed: {type(exc).__name__}: {exc}")
        comment_url, artifact_id = "", ""

    _outputs(
        ctx,
        {
            "verdict": report.verdict,
            "report-path": inputs.report,
            "comment-url": comment_url,
            "artifact-id": artifact_id,
            "summary": report.summary,
        },
        log,
    )
    return _fail_exit(inputs, report.exit_code)
