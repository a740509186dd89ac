"""The GitHub Action: inputs → the same run as the CLI → comment, summary, artifact, outputs.

The gate verdict decides the job. Everything GitHub-facing after the verdict (comment,
artifact, summary) is best effort: a failure there is a warning with its reason, never a
failed job and never a crash.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shlex
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from . import __version__
from .cli import build_parser, config_from_args
from .config import COMMENT_POLICIES, ActionInputs, RunConfig, action_inputs_from_env
from .config_file import DEFAULT_CONFIG_NAME, ConfigFile
from .errors import (
    EXIT_ERROR,
    EXIT_INTERNAL,
    EXIT_PASS,
    EXIT_REGRESSION,
    ConfigError,
    InputError,
    RagspineError,
    StaleBaselineError,
    format_internal_error,
)
from .github.artifacts import upload_file_artifact
from .github.commands import (
    add_mask,
    annotation,
    append_step_summary,
    emit,
    resume_commands,
    set_outputs,
    stop_commands,
)
from .github.errors import GithubError
from .github.event import GithubContext, PullRequestInfo, load_event
from .github.rest import GithubClient, sticky_marker, upsert_sticky_comment
from .guard import (
    GuardReport,
    compare_baseline_files,
    compare_golden_sets,
    compare_settings,
    golden_case_ids,
    is_commit_id,
    parse_settings_bytes,
    render_guard,
)
from .input_files import read_input_bytes
from .jsonio import atomic_write_text, check_size
from .paths import DATA_DIR
from .report.model import Report, ToolInfo
from .report.render_markdown import COMMENT_LIMIT, code_span, escape_md, render_markdown
from .report.render_terminal import render_terminal
from .report.write import write_report
from .run import RunResult, run
from .safe_text import comment_safe, log_safe, new_stop_token

__all__ = ["main"]

MAX_ANNOTATIONS = 20


class _Log:
    """Workflow-command output: warnings and errors as annotations, in order."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.warnings: list[str] = []

    def warning(self, message: str, title: str = "ragspine-eval") -> None:
        self.warnings.append(message)
        emit(annotation("warning", log_safe(message), title=title), self.stream)

    def error(
        self,
        message: str,
        title: str = "ragspine-eval",
        *,
        file: str | None = None,
        line: int | None = None,
    ) -> None:
        emit(annotation("error", log_safe(message), title=title, file=file, line=line), self.stream)

    def untrusted_block(self, text: str) -> None:
        """Print text that holds user strings: escaped, and inside ``::stop-commands::``
        with an unguessable token, so not even a missed escape can run a command."""
        token = new_stop_token()
        emit([stop_commands(token), log_safe(text), resume_commands(token)], self.stream)


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
    """The file at the base commit: ``git show`` when history is there, else the contents API.

    The commit id comes from the event file: anything but a full hex id (``--output=…``)
    is refused before it reaches ``git``.
    """
    if not is_commit_id(sha):
        raise GithubError("the base commit in the event is not a commit id")
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


def _judge_secrets(config: RunConfig, env: Mapping[str, str] | None = None) -> list[str]:
    """The LLM judge's API key (from the environment variable it names), masked."""
    if config.judge != "llm":
        return []
    environ = os.environ if env is None else env
    key = environ.get(config.judge_api_key_env, "").strip()
    return [key] if key and len(key) >= 4 else []


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


# -- the baseline on a pull request ---------------------------------------------------------


@dataclass
class _BaselineCheck:
    """What the pull request's base commit says about the baseline file."""

    rel: str | None = None  # the baseline's path in the repository; None: bundled/outside
    base: bytes | None = None  # its bytes at the base commit
    head_bytes: bytes | None = None  # its bytes in the checked-out head, before the run
    head_problem: str | None = None  # why the head's file cannot be trusted (a symlink, …)
    missing: bool = False  # absent at the base commit or in the head: a run would create it
    error: str | None = None  # the run must not go on (verdict error)
    fix: list[str] = field(default_factory=list)  # shell commands that fix it


class _NoCommittedBaseline(ConfigError):
    """A pull request run without a baseline committed at its base commit (exit 2)."""

    def __init__(self, check: _BaselineCheck) -> None:
        self.check = check
        fix = f" — on the base branch: {' && '.join(check.fix)}" if check.fix else ""
        super().__init__((check.error or "no committed baseline") + fix)


def _gated_baseline(inputs: ActionInputs, config: RunConfig) -> str | None:
    """The baseline this run compares with (the merge use takes only the ``baseline`` input)."""
    if inputs.merge_reports:
        return config.baseline if inputs.baseline else None
    return config.baseline


def _record_commands(
    inputs: ActionInputs, config: RunConfig, baseline: str, branch: str
) -> list[str]:
    """Commands that record the baseline on the base branch from this run's inputs."""
    if inputs.merge_reports:
        record = ["ragspine-eval", "merge", *inputs.merge_reports]
    else:
        record = ["ragspine-eval"]
        argv = list(inputs.argv)
        skip = False
        for i, arg in enumerate(argv):
            if skip:
                skip = False
                continue
            if arg in ("--report", "--baseline", "--update-baseline", "--lower-baseline"):
                skip = arg != "--update-baseline"
                continue
            if i > 0 and argv[i - 1] == "--endpoint":
                arg = "$RAG_ENDPOINT"
            record.append(arg)
        if "--mode" not in argv:
            record += ["--mode", config.mode]
    record += ["--baseline", baseline, "--update-baseline"]
    shown = " ".join(a if a == "$RAG_ENDPOINT" else shlex.quote(a) for a in record).replace(
        "'$RAG_ENDPOINT'", '"$RAG_ENDPOINT"'
    )
    return [
        f"git switch {shlex.quote(branch)} && git pull",
        shown,
        f"git add {shlex.quote(baseline)}",
        'git commit -m "Record the ragspine-eval baseline" && git push',
    ]


def _check_baseline(
    inputs: ActionInputs,
    config: RunConfig,
    ctx: GithubContext,
    workspace: Path,
    client: GithubClient | None,
    log: _Log,
) -> _BaselineCheck:
    """On a pull request, the baseline must be committed at the base commit (SPEC §10).

    Otherwise every PR run would create it inside a throwaway container and pass without
    comparing anything. ``baseline-missing: create`` accepts that knowingly.
    """
    pr = ctx.pull_request
    if pr is None or not pr.base_sha or config.extra.get("shard") is not None:
        return _BaselineCheck()
    baseline = _gated_baseline(inputs, config)
    create = inputs.baseline_missing == "create"
    if baseline is None:
        if config.floors or create:
            return _BaselineCheck()
        return _BaselineCheck(
            missing=True,
            error="no baseline: this pull request run would compare with nothing and pass. "
            "Set the baseline input (e.g. baseline: eval/baseline.json), record the file on "
            "main and commit it (or set baseline-missing: create to run without one)",
        )
    rel = _repo_relative(baseline, workspace)
    if rel is None:
        return _BaselineCheck()  # the bundled baseline, or a file outside the repository
    head_path = workspace / rel
    check = _BaselineCheck(rel=rel)
    check.head_bytes, check.head_problem = _head_file(
        workspace, _lexical_relative(baseline, workspace) or rel, "baseline"
    )
    unknown = None
    try:
        check.base = _base_version(rel, pr.base_sha, workspace, client, ctx)
        at_base = check.base is not None
    except GithubError as exc:
        unknown, at_base = str(exc), head_path.is_file()
    check.missing = not at_base or not head_path.is_file()
    if unknown is not None and not check.missing:
        log.warning(f"could not check that {rel} is committed at the base commit: {unknown}")
    if not check.missing or create:
        return check
    where = f"the base commit {pr.base_sha[:12]}" + (f" ({pr.base_ref})" if pr.base_ref else "")
    if unknown is not None:
        why = f"baseline {rel} is not in this checkout, and {where} could not be read ({unknown})"
    elif at_base:
        why = f"baseline {rel} exists at {where} but not in this pull request"
    else:
        why = f"baseline {rel} does not exist at {where}"
    check.error = (
        f"{why}: this run would create it in CI and pass without comparing anything. "
        "Record it on main and commit it (or set baseline-missing: create)"
    )
    check.fix = _record_commands(inputs, config, rel, pr.base_ref or "main")
    return check


_GUARD_MAX_BYTES = 256 * 1024 * 1024


def _lexical_relative(path: str, workspace: Path) -> str | None:
    """``path`` inside the workspace as written, symlinks not followed (so they show)."""
    full = os.path.abspath(os.path.join(workspace, path))
    rel = os.path.relpath(full, os.path.abspath(workspace))
    return None if rel.startswith("..") else rel


def _symlink_in_repo(workspace: Path, rel: str) -> Path | None:
    """The first symlink on the way from the workspace to ``rel`` (the file included)."""
    current = workspace
    for part in Path(rel).parts:
        current = current / part
        if current.is_symlink():
            return current
    return None


def _head_file(workspace: Path, rel: str, what: str) -> tuple[bytes | None, str | None]:
    """(bytes, None) of a gating file in the head; (None, why) when it cannot be trusted.

    A symlink is refused: the guard compares the committed file, and a link lets a PR
    point the gate at a lowered copy (or at a device) while the diff shows one line.
    """
    link = _symlink_in_repo(workspace, rel)
    if link is not None:
        target = os.path.realpath(link)
        return None, f"{what} {rel} is a symlink (to {target}): commit the file itself"
    path = workspace / rel
    if not os.path.lexists(path):
        return None, None
    try:
        return read_input_bytes(path, _GUARD_MAX_BYTES), None
    except RagspineError as exc:
        return None, str(exc).splitlines()[0]


def _settings_path(relative: str | None, settings_rel: str) -> str | None:
    """A path from ``ragspine-eval.yml`` as a repository path (relative to the file)."""
    if relative is None or os.path.isabs(relative):
        return None
    return os.path.normpath(os.path.join(os.path.dirname(settings_rel), relative))


def _guard(
    config: RunConfig,
    ctx: GithubContext,
    workspace: Path,
    client: GithubClient | None,
    baseline: _BaselineCheck,
    log: _Log,
) -> GuardReport | None:
    """How the pull request changes its own gate: settings, baseline and golden set vs the
    base commit, each side parsed as a run parses it. What cannot be read or trusted is a
    guard problem (the job fails); only an unreachable base commit is a warning."""
    pr = ctx.pull_request
    if pr is None or not pr.base_sha:
        return None
    report = GuardReport()
    if not is_commit_id(pr.base_sha):
        report.problems.append("the event's base commit is not a commit id (40 or 64 hex digits)")
        return report

    def fetch(rel: str) -> bytes | None:
        return _base_version(rel, pr.base_sha, workspace, client, ctx)

    try:
        settings_rel = (
            _lexical_relative(config.config_file, workspace) if config.config_file else None
        ) or DEFAULT_CONFIG_NAME
        base_settings, head_settings = ConfigFile(), ConfigFile()
        base_raw = fetch(settings_rel)
        head_raw, problem = _head_file(workspace, settings_rel, "settings file")
        if problem is not None:
            report.problems.append(problem)
        try:
            if base_raw is not None:
                base_settings = parse_settings_bytes(base_raw, f"{settings_rel} (base commit)")
            if head_raw is not None:
                head_settings = parse_settings_bytes(head_raw, settings_rel)
        except RagspineError as exc:
            report.problems.append(str(exc).splitlines()[0])
        if base_raw is not None or head_raw is not None:
            compare_settings(base_settings, head_settings, report)

        golden_rel = _repo_relative(config.golden, workspace)
        if config.golden and golden_rel is not None:
            golden_rel = _lexical_relative(config.golden, workspace) or golden_rel
        base_golden_rel = _settings_path(base_settings.golden, settings_rel) or golden_rel
        head_golden_ids: set[str] | None = None
        if golden_rel is not None:
            head_golden, problem = _head_file(workspace, golden_rel, "golden set")
            if problem is not None:
                report.problems.append(problem)
            base_golden = fetch(base_golden_rel) if base_golden_rel else None
            if head_golden is not None:
                head_text = head_golden.decode("utf-8", "replace")
                head_golden_ids = golden_case_ids(head_text)
                if base_golden is not None:
                    compare_golden_sets(base_golden.decode("utf-8", "replace"), head_text, report)

        if baseline.rel is not None:
            if baseline.head_problem is not None:
                report.problems.append(baseline.head_problem)
            base_rel = _settings_path(base_settings.baseline, settings_rel) or baseline.rel
            base_bytes = baseline.base if base_rel == baseline.rel else fetch(base_rel)
            base_mode = base_settings.mode or config.mode
            if baseline.head_problem is None:
                compare_baseline_files(
                    base_bytes,
                    baseline.head_bytes,
                    report,
                    base_name=base_rel,
                    head_name=baseline.rel,
                    pairs=[(base_mode, config.mode)],
                    head_case_ids=head_golden_ids,
                )
    except GithubError as exc:
        log.warning(f"baseline guard skipped: {exc}")
        return None
    return report


# -- one verdict ----------------------------------------------------------------------------

_SUMMARY_HEAD = re.compile(r"^ragspine-eval: [A-Z]+( · )?")


def _with_verdict(
    report: Report, verdict: str, exit_code: int, note: str, *, warn: bool = True
) -> Report:
    """The report with a changed verdict: the summary line says the same, with ``note``."""
    rest = _SUMMARY_HEAD.sub("", report.summary)
    summary = " · ".join(p for p in (f"ragspine-eval: {verdict.upper()}", rest, note) if p)
    return report.model_copy(
        update={
            "verdict": verdict,
            "exit_code": exit_code,
            "summary": summary,
            "warnings": [*report.warnings, note] if warn else report.warnings,
        }
    )


def _error_report(lines: list[str], code: int, now: datetime) -> Report:
    """An ``error`` verdict as a report (never written to disk): the summary and comment
    are rendered from it like from any other verdict."""
    first = lines[0] if lines else "error"
    if len(first) > 400:
        first = first[:399] + "…"
    return Report(
        tool=ToolInfo(version=__version__),
        verdict="error",
        exit_code=code,
        summary=f"ragspine-eval: ERROR · {first}",
        generated_at=now.replace(microsecond=0).isoformat(),
    )


# -- annotations ----------------------------------------------------------------------------

_LOCATED = re.compile(r"^(?P<path>[^\s:][^:]*?):(?P<line>\d+)(?=:|$)")


def _located(line: str, workspace: Path) -> tuple[str | None, int | None]:
    """``path:line: …`` at the start of an error line → (repository path, line)."""
    match = _LOCATED.match(line)
    if match is None:
        return None, None
    return _repo_relative(match.group("path"), workspace), int(match.group("line"))


def _line_of_cases(path: str, ids: set[str]) -> dict[str, int]:
    """The line of each wanted case id in a JSONL file (stops once all are found)."""
    found: dict[str, int] = {}
    keys = {i: json.dumps(i, ensure_ascii=False).encode("utf-8") for i in ids}
    try:
        with open(path, "rb") as handle:
            for number, raw in enumerate(handle, start=1):
                for case_id, key in keys.items():
                    if case_id not in found and key in raw:
                        try:
                            if json.loads(raw).get("id") == case_id:
                                found[case_id] = number
                        except (ValueError, AttributeError):
                            pass
                if len(found) == len(keys):
                    break
    except OSError:
        pass
    return found


def _line_of_metric(path: str, key: str, metric: str) -> int | None:
    """The line of ``"metric":`` inside the baseline's ``"key":`` entry (a best guess)."""
    try:
        lines = Path(path).read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    key_token, metric_token = json.dumps(key) + ":", json.dumps(metric) + ":"
    start = next((i for i, text in enumerate(lines) if key_token in text), None)
    if start is None:
        return None
    return next((i + 1 for i in range(start, len(lines)) if metric_token in lines[i]), start + 1)


def _annotate(report: Report, config: RunConfig, workspace: Path, log: _Log) -> None:
    """One ``::error`` per regression and broken case, at its baseline or golden-set line."""
    base = report.baseline
    if base is None:
        return
    baseline_rel = _repo_relative(base.path or config.baseline, workspace)
    golden_rel = _repo_relative(config.golden, workspace)
    broken = base.broken[:MAX_ANNOTATIONS]
    case_lines = (
        _line_of_cases(str(workspace / golden_rel), {c.id for c in broken})
        if golden_rel and broken
        else {}
    )
    count = 0
    for r in base.regressions[:MAX_ANNOTATIONS]:
        line = (
            _line_of_metric(str(workspace / baseline_rel), r.key, r.metric)
            if baseline_rel
            else None
        )
        log.error(
            f"{r.key}/{r.metric} fell from {r.baseline:.4f} to {r.current:.4f} ({r.delta:+.4f})",
            title="ragspine-eval regression",
            file=baseline_rel,
            line=line,
        )
        count += 1
    for c in broken[: max(0, MAX_ANNOTATIONS - count)]:
        log.error(
            f"case {c.id} broke {c.metric} ({c.before} → {c.after})",
            title="ragspine-eval protected case",
            file=golden_rel if c.id in case_lines else None,
            line=case_lines.get(c.id),
        )
    for floor in [f for f in report.floors if not f.passed][:MAX_ANNOTATIONS]:
        log.error(
            f"{floor.key}/{floor.metric} {floor.current:g} is above its ceiling {floor.floor:g}"
            if floor.ceiling
            else f"{floor.key}/{floor.metric} {floor.current:.4g} is below its floor "
            f"{floor.floor:.4g}",
            title="ragspine-eval floor",
        )
    if base.status == "stale":
        log.error(base.message, title="ragspine-eval stale baseline", file=baseline_rel)


# -- publishing -----------------------------------------------------------------------------


def _comment_mode(policy: str, verdict: str, is_pr: bool) -> str:
    """``write`` (create or edit), ``update`` (edit only if there is one) or ``skip``."""
    if policy == "never" or not is_pr:
        return "skip"
    if policy == "on-failure" and verdict == "pass":
        return "update"  # a PR that turned green must not keep its red comment
    return "write"  # auto, always, and on-failure with a failure


def _fence(text: str, language: str = "text") -> str:
    """A fenced block that no backtick run inside ``text`` can close early."""
    runs = [len(m) for m in re.findall(r"`+", text)]
    fence = "`" * max(3, max(runs, default=0) + 1)
    return f"{fence}{language}\n{text}\n{fence}"


@dataclass
class _Publication:
    """Everything one run shows: the same body goes to the summary and the comment."""

    report: Report
    mode_key: str
    comment_policy: str
    prefix: str = ""  # guard and CI-baseline notes, above the report
    details: str = ""  # error details, below the report
    files: list[tuple[str, str]] = field(default_factory=list)  # artifact (path, name)
    upload: bool = False


class _Publisher:
    """Artifact, job summary, annotations and the sticky comment, for every verdict.

    Each channel fails on its own with a warning; none of them changes the verdict.
    """

    def __init__(
        self,
        ctx: GithubContext,
        client: GithubClient | None,
        log: _Log,
        sleep: Callable[[float], None],
        artifact_name: str,
        retention_days: int | None,
    ) -> None:
        self.ctx, self.client, self.log, self.sleep = ctx, client, log, sleep
        self.artifact_name, self.retention_days = artifact_name, retention_days

    def _artifact(self, pub: _Publication) -> str:
        ctx = self.ctx
        if not (pub.upload and self.artifact_name and pub.files):
            return ""
        report_path = pub.files[0][0]
        if not (ctx.runtime_token and ctx.results_url):
            self.log.warning(f"not running in GitHub Actions: the report stays at {report_path}")
            return ""
        try:
            upload = upload_file_artifact(
                report_path,
                name=self.artifact_name,
                runtime_token=ctx.runtime_token,
                results_url=ctx.results_url,
                retention_days=self.retention_days,
                sleep=self.sleep,
                extra_files=pub.files[1:],
            )
            return str(upload.artifact_id)
        except GithubError as exc:
            self.log.warning(
                f"report not uploaded as an artifact ({exc}); it stays at {report_path}"
            )
            return ""

    def body(self, pub: _Publication, artifact_id: str) -> str:
        ctx = self.ctx
        artifact_url = (
            f"{ctx.run_url}/artifacts/{artifact_id}" if artifact_id and ctx.run_url else None
        )
        tail = f"\n{pub.details}\n" if pub.details else ""
        room = COMMENT_LIMIT - len(pub.prefix) - len(tail) - 200
        return comment_safe(
            pub.prefix
            + render_markdown(
                pub.report,
                run_url=ctx.run_url,
                artifact_url=artifact_url,
                head_sha=_head_sha(ctx),
                limit=room,
            )
            + tail
        )

    def _comment(self, pub: _Publication, body: str) -> str:
        ctx, log = self.ctx, self.log
        pr = ctx.pull_request
        mode = _comment_mode(pub.comment_policy, pub.report.verdict, pr is not None)
        if pr is None:
            if pub.comment_policy == "always":
                log.warning("comment: always, but this run is not for a pull request")
            return ""
        if mode == "skip":
            return ""
        if self.client is None:
            log.warning("no github-token: the pull request comment was skipped")
            return ""
        try:
            outcome = upsert_sticky_comment(
                self.client,
                ctx.owner,
                ctx.repo,
                pr.number,
                body,
                marker=sticky_marker(pub.mode_key),
                update_only=mode == "update",
            )
        except GithubError as exc:
            log.warning(f"pull request comment failed: {exc}")
            return ""
        if outcome.action == "forbidden":
            log.warning(
                "the token may not comment on this pull request (a fork's read-only "
                f"token?): {outcome.warning or '403'}"
            )
            return ""
        return outcome.html_url or ""

    def publish(self, pub: _Publication) -> tuple[str, str]:
        """(comment URL, artifact id); a crash in any channel is a warning."""
        artifact_id, comment_url = "", ""
        try:
            artifact_id = self._artifact(pub)
            body = self.body(pub, artifact_id)
            if self.ctx.step_summary_file:
                try:
                    append_step_summary(self.ctx.step_summary_file, body)
                except (GithubError, OSError) as exc:
                    self.log.warning(f"could not write the job summary: {exc}")
            comment_url = self._comment(pub, body)
        except Exception as exc:  # after the verdict nothing may crash the job: warn instead
            self.log.warning(f"publishing the results failed: {type(exc).__name__}: {exc}")
        return comment_url, artifact_id


def _outputs(ctx: GithubContext, values: Mapping[str, str], log: _Log) -> None:
    if not ctx.output_file:
        return
    try:
        set_outputs(ctx.output_file, values)
    except (GithubError, OSError) as exc:
        log.warning(f"could not write step outputs: {exc}")


def _finish(
    pub: _Publication,
    publisher: _Publisher,
    ctx: GithubContext,
    log: _Log,
    report_path: str,
    fail_on: str,
) -> int:
    """Publish and set the outputs, all from ``pub.report``: one verdict, said everywhere."""
    report = pub.report
    comment_url, artifact_id = publisher.publish(pub)
    _outputs(
        ctx,
        {
            "verdict": report.verdict,
            "report-path": report_path,
            "comment-url": comment_url,
            "artifact-id": artifact_id,
            "summary": report.summary,
        },
        log,
    )
    if fail_on == "never" and report.exit_code == EXIT_REGRESSION:
        return EXIT_PASS
    return report.exit_code


# -- the run --------------------------------------------------------------------------------


def _raw_input(env: Mapping[str, str], name: str) -> str:
    return env.get("INPUT_" + name.upper(), "").strip()


def _fallback_mode(env: Mapping[str, str]) -> str:
    """The sticky key when the configuration could not be read: the mode input, else tool."""
    mode = _raw_input(env, "mode")
    if not mode:
        try:
            args = shlex.split(_raw_input(env, "args"))
        except ValueError:
            args = []
        for i, arg in enumerate(args[:-1]):
            if arg == "--mode":
                mode = args[i + 1]
    return mode or "tool"


MAX_PUBLISHED_REPORT_BYTES = 256 * 1024 * 1024


def _load_published_report(path: str) -> Report:
    """A report written by an earlier run (an artifact: untrusted, so validated whole)."""
    try:
        check_size(path, MAX_PUBLISHED_REPORT_BYTES)
        return Report.model_validate_json(Path(path).read_bytes())
    except OSError as exc:
        raise ConfigError(f"input publish-report: cannot read {path}: {exc.strerror}") from None
    except ValueError as exc:
        first = str(exc).splitlines()[:3]
        raise ConfigError(
            f"input publish-report: {path} is not a ragspine-eval report ({'; '.join(first)})"
        ) from None


def _workflow_run_pull_request(
    ctx: GithubContext, client: GithubClient | None
) -> PullRequestInfo | None:
    """The pull request a ``workflow_run`` belongs to, checked against its head commit.

    Same-repository pull requests are listed in the payload; a fork's are not, so its open
    pull request is looked up by head branch and matched on the head SHA: a number written
    by the fork's run (the artifact) is never trusted.
    """
    if ctx.event_name != "workflow_run" or not ctx.event_path:
        return None
    payload = load_event(ctx.event_path)
    run_info = payload.get("workflow_run")
    if not isinstance(run_info, dict):
        return None
    head_sha = str(run_info.get("head_sha") or "")
    head_branch = str(run_info.get("head_branch") or "")
    head_repo = run_info.get("head_repository")
    head_repo = head_repo if isinstance(head_repo, dict) else {}
    owner = head_repo.get("owner")
    head_owner = str(owner.get("login") or "") if isinstance(owner, dict) else ""
    head_full = str(head_repo.get("full_name") or "") or None
    number: int | None = None
    for listed in run_info.get("pull_requests") or []:
        head = listed.get("head") if isinstance(listed, dict) else None
        if isinstance(head, dict) and head.get("sha") == head_sha:
            found = listed.get("number")
            if isinstance(found, int) and not isinstance(found, bool):
                number = found
                break
    if number is None and client is not None:
        number = client.find_open_pull_request(
            ctx.owner, ctx.repo, head_owner, head_branch, head_sha
        )
    if number is None or not head_sha:
        return None
    return PullRequestInfo(
        number=number,
        base_sha="",
        head_sha=head_sha,
        base_ref="",
        head_ref=head_branch,
        base_repo=ctx.repository,
        head_repo=head_full,
        is_fork=head_full is None or head_full.lower() != ctx.repository.lower(),
    )


def _publish_only(
    report: Report,
    inputs: ActionInputs,
    ctx: GithubContext,
    client: GithubClient | None,
    publisher: _Publisher,
    log: _Log,
) -> int:
    """The comment-only use: another run's report to the PR comment, summary and outputs."""
    pr = ctx.pull_request
    if pr is None:
        try:
            pr = _workflow_run_pull_request(ctx, client)
        except GithubError as exc:
            log.warning(f"publish-report: could not find the pull request: {exc}")
        if pr is None:
            log.warning(
                "publish-report: no open pull request has this run's head commit; "
                "the report goes to the job summary only"
            )
    ctx = replace(ctx, pull_request=pr)
    publisher.ctx = ctx
    mode = report.config.get("mode")
    if not isinstance(mode, str) or not mode:
        mode = report.qa.mode if report.qa is not None else "tool"
    print(
        f"ragspine-eval: publishing {inputs.publish_report}: verdict {report.verdict}",
        file=log.stream,
    )
    pub = _Publication(report=report, mode_key=_marker_key(mode), comment_policy=inputs.comment)
    return _finish(pub, publisher, ctx, log, inputs.publish_report or "", inputs.fail_on)


def _error_lines(exc: RagspineError) -> list[str]:
    if isinstance(exc, InputError):
        return [str(p) for p in exc.problems]
    return [line for line in str(exc).splitlines() if line.strip()] or [type(exc).__name__]


def main(
    env: Mapping[str, str] | None = None,
    stream: TextIO | None = None,
    *,
    sleep: Callable[[float], None] = time.sleep,
    now: Callable[[], datetime] = lambda: datetime.now(UTC),
) -> int:
    """Run the action; ``sleep`` is how retries wait (tests pass a recorder).

    A crash that escapes everything (a bug) is exit 3 with one ``::error`` line and the
    outputs set to error: never a traceback, never 1 (the regression code).
    """
    env = os.environ if env is None else env
    log = _Log(stream or sys.stdout)
    token = _raw_input(env, "github-token")
    if token:
        emit(add_mask(token), log.stream)
    try:
        return _main(env, log, token, sleep, now)
    except KeyboardInterrupt:
        log.error("interrupted")
        return EXIT_ERROR
    except Exception as exc:
        message = format_internal_error(exc, __version__).removeprefix("ragspine-eval: ")
        log.error(message, title="ragspine-eval: internal error")
        output_file = env.get("GITHUB_OUTPUT")
        if output_file:
            with contextlib.suppress(GithubError, OSError):
                set_outputs(
                    output_file,
                    {"verdict": "error", "summary": f"ragspine-eval: ERROR · {message}"[:1000]},
                )
        return EXIT_INTERNAL


def _main(
    env: Mapping[str, str],
    log: _Log,
    token: str,
    sleep: Callable[[float], None],
    now: Callable[[], datetime],
) -> int:
    try:
        ctx = GithubContext.from_env(env)
    except GithubError as exc:
        log.error(str(exc), title="ragspine-eval: the run's context")
        summary_file, output_file = env.get("GITHUB_STEP_SUMMARY"), env.get("GITHUB_OUTPUT")
        try:
            if summary_file:
                append_step_summary(
                    summary_file, f"### ⚠️ ragspine-eval: ERROR\n\n{escape_md(str(exc), 2000)}\n"
                )
            if output_file:
                set_outputs(
                    output_file, {"verdict": "error", "summary": f"ragspine-eval: ERROR · {exc}"}
                )
        except (GithubError, OSError) as write_exc:
            log.warning(f"could not write the job summary or outputs: {write_exc}")
        return EXIT_ERROR
    workspace = Path(ctx.workspace or os.getcwd())
    client = GithubClient(token, api_url=ctx.api_url, sleep=sleep) if token else None
    policy = _raw_input(env, "comment")
    fallback = _Publication(
        report=_error_report([], EXIT_ERROR, now()),
        mode_key=_marker_key(_fallback_mode(env)),
        comment_policy=policy if policy in COMMENT_POLICIES else "auto",
    )
    publisher = _Publisher(ctx, client, log, sleep, "", None)

    def fail(exc: RagspineError, pub: _Publication, title: str) -> int:
        lines = _error_lines(exc)
        for line in lines[:MAX_ANNOTATIONS]:
            file, number = _located(line, workspace)
            log.error(line, title=title, file=file, line=number)
        # At most 50 lines of at most 500 characters: the comment has a size limit.
        shown = "\n".join(x if len(x) <= 500 else x[:499] + "…" for x in lines[:50]) + (
            f"\n… and {len(lines) - 50} more (the log has them all)" if len(lines) > 50 else ""
        )
        missing = exc.check if isinstance(exc, _NoCommittedBaseline) else None
        if missing is not None and missing.error is not None:
            lines = [missing.error]
            shown = missing.error
        pub.report = _error_report(lines, exc.exit_code, now())
        pub.details = (
            f"**{title}**: nothing was scored or recorded. Fix it and push again.\n\n"
            + _fence(shown)
        )
        if missing is not None and missing.fix:
            pub.details += (
                "\n\nRecord the baseline on the base branch (the same inputs as this run), "
                f"then commit it:\n\n{_fence(chr(10).join(missing.fix), 'sh')}\n\n"
                "Or set `baseline-missing: create` to let a pull request run create it "
                "(uploaded with the report, not committed)."
            )
        return _finish(pub, publisher, ctx, log, "", "regression")

    try:
        inputs = action_inputs_from_env(env)
    except RagspineError as exc:
        return fail(exc, fallback, "ragspine-eval: invalid input")
    publisher.artifact_name = inputs.artifact_name
    publisher.retention_days = inputs.artifact_retention_days
    fallback.comment_policy = inputs.comment
    if inputs.publish_report:
        try:
            report = _load_published_report(inputs.publish_report)
        except RagspineError as exc:
            return fail(exc, fallback, "ragspine-eval: invalid input")
        return _publish_only(report, inputs, ctx, client, publisher, log)
    try:
        config = config_from_args(build_parser().parse_args(list(inputs.argv)))
    except RagspineError as exc:
        return fail(exc, fallback, "ragspine-eval: invalid input")
    fallback.mode_key = _marker_key(config.mode)
    try:
        for secret in [*_http_secrets(config), *_judge_secrets(config, env)]:
            emit(add_mask(secret), log.stream)
        check = _check_baseline(inputs, config, ctx, workspace, client, log)
        if check.error is not None:
            # Say what is wrong with the inputs first, if anything: score without any
            # baseline (nothing is compared or written), then refuse the missing one.
            probe = replace(config, baseline=None, update_baseline=False, lower_reason=None)
            if inputs.merge_reports:
                _merge(inputs, probe)
            else:
                run(probe)
            raise _NoCommittedBaseline(check)
        if inputs.merge_reports:
            config, result = _merge(inputs, config)
        else:
            result = run(config)
    except RagspineError as exc:
        if isinstance(exc, _NoCommittedBaseline):
            title = "ragspine-eval: no committed baseline"
        elif isinstance(exc, StaleBaselineError):
            title = "ragspine-eval: stale baseline"
        else:
            title = "ragspine-eval: invalid input"
        return fail(exc, fallback, title)
    fallback.report = result.report
    return _conclude(
        result, config, inputs, ctx, workspace, client, check, fallback, publisher, log
    )


REPORT_SUFFIXES = {"html": ".html", "junit": ".junit.xml"}


def _report_files(
    report: Report, inputs: ActionInputs, ctx: GithubContext, log: _Log
) -> list[tuple[str, str]]:
    """The ``formats`` input: the same renderers as ``ragspine-eval render``, written beside
    the JSON report (``report.html``, ``report.junit.xml``) for the artifact."""
    from .render import render_report

    files: list[tuple[str, str]] = []
    stem = Path(inputs.report)
    stem = stem.with_name(stem.name.removesuffix(".json"))
    for fmt in inputs.formats:
        path = stem.with_name(stem.name + REPORT_SUFFIXES[fmt])
        try:
            text = render_report(report, fmt, head_sha=_head_sha(ctx))
            atomic_write_text(path, text)
        except (OSError, RagspineError) as exc:
            log.warning(f"could not write the {fmt} report {path}: {exc}")
            continue
        files.append((str(path), path.name))
    return files


def _head_sha(ctx: GithubContext) -> str | None:
    """The commit this run checked: the pull request's head, else the pushed commit."""
    sha = ctx.pull_request.head_sha if ctx.pull_request is not None else ctx.sha
    return sha if re.fullmatch(r"[0-9a-fA-F]{7,64}", sha or "") else None


def _conclude(
    result: RunResult,
    config: RunConfig,
    inputs: ActionInputs,
    ctx: GithubContext,
    workspace: Path,
    client: GithubClient | None,
    check: _BaselineCheck,
    pub: _Publication,
    publisher: _Publisher,
    log: _Log,
) -> int:
    """A scored run: the guard may fail it; then one report says the verdict everywhere."""
    report = result.report
    guard = _guard(config, ctx, workspace, client, check, log)
    if guard is not None and guard.problems:
        message = f"baseline guard: {guard.problems[0]}"
        report = _with_verdict(report, "error", max(report.exit_code, EXIT_ERROR), message)
        log.error(message, title="ragspine-eval baseline guard", file=check.rel)
    elif guard is not None and guard.unrecorded_lowering:
        message = (
            "the pull request lowers the baseline without a _history record"
            if guard.lowered
            else "the pull request weakens the gate settings without a _history record"
        )
        code = max(report.exit_code, EXIT_REGRESSION)
        report = _with_verdict(
            report, "fail" if code == EXIT_REGRESSION else "error", code, message
        )
        log.error(message, title="ragspine-eval baseline guard", file=check.rel)
    prefix = "\n".join(render_guard(guard, escape_md)) if guard is not None else ""
    files = [(inputs.report, Path(inputs.report).name)]
    written = report.baseline.path if report.baseline is not None else None
    if result.baseline_written and written and ctx.in_actions:
        rel = _repo_relative(written, workspace) or Path(written).name
        name = f"baseline/{Path(rel).name}"
        files.append((written, name))
        created = report.baseline is not None and report.baseline.status == "created"
        what = "created" if created else "updated"
        note = f"baseline {what} in CI, not committed"
        report = _with_verdict(report, report.verdict, report.exit_code, note, warn=False)
        prefix += (
            f"> [!NOTE]\n> **The baseline {code_span(rel)} was {what} in this CI run and is "
            "not committed.** It is in the report artifact as "
            f"{code_span(name)}: download it and commit it, or record it on main "
            "(see docs/action.md).\n\n"
        )
        log.warning(
            f"the baseline {rel} was {what} in CI and is not committed; it is uploaded with "
            "the report",
            title="ragspine-eval baseline not committed",
        )
    try:
        write_report(report, inputs.report)
    except (OSError, RagspineError) as exc:
        log.warning(f"could not write the report {inputs.report}: {exc}")
        files = []
    if files:
        files += _report_files(report, inputs, ctx, log)
    log.untrusted_block(render_terminal(report))
    _annotate(report, config, workspace, log)
    if result.error is not None and (report.baseline is None or report.baseline.status != "stale"):
        log.error(result.error, title="ragspine-eval error")
    pub.report, pub.prefix, pub.files, pub.upload = report, prefix, files, True
    return _finish(pub, publisher, ctx, log, inputs.report if files else "", inputs.fail_on)
