"""The few REST calls the action makes: the sticky PR comment and a file at a commit.

The comment is "sticky": its body starts with a hidden HTML marker, and a later run finds it
by that marker *and* by its author, then edits it in place instead of adding a new comment.
The author check matters because anyone can paste the marker into their own comment.

Who is "us"? ``GET /user`` names the token's owner for personal access tokens, but answers
403 ("Resource not accessible by integration") for the installation token that
``${{ github.token }}`` is. Then we accept marked comments by ``github-actions[bot]`` and,
failing that, marked comments by any Bot account (another app's installation token). A
user account can never post as a Bot, so a marker planted by a person is never edited.

Failure policy: a 403 on the comment (a fork's read-only token) is a ``CommentResult``
with ``action="forbidden"`` and a warning, not an exception. Every other failure raises a
``GithubApiError`` (``GithubRateLimitError`` when the API asks us to wait longer than the
cap); callers turn those into warnings. Tokens never appear in messages.
"""

from __future__ import annotations

import base64
import binascii
import email.utils
import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import quote, urljoin, urlsplit

import requests
from requests.adapters import HTTPAdapter
from requests.auth import AuthBase
from urllib3.util.retry import Retry

from ragspine_action.github.errors import (
    CommentTooLongError,
    GithubApiError,
    GithubRateLimitError,
)

__all__ = [
    "API_VERSION",
    "DEFAULT_BOT_LOGIN",
    "MAX_COMMENT_CHARS",
    "CommentResult",
    "GithubClient",
    "IssueComment",
    "find_sticky_comment",
    "sticky_marker",
    "upsert_sticky_comment",
]

API_VERSION = "2022-11-28"
#: GitHub rejects issue comment bodies longer than this many characters.
MAX_COMMENT_CHARS = 65_536
#: The author of comments made with ``${{ github.token }}``.
DEFAULT_BOT_LOGIN = "github-actions[bot]"
#: When a rate-limited answer says nothing about how long to wait (GitHub's documented advice).
_DEFAULT_RATE_LIMIT_WAIT = 60.0
_MAX_PAGES = 50


def sticky_marker(key: str = "report") -> str:
    """The hidden first line that identifies our comment; ``key`` separates several gates."""
    if not re.fullmatch(r"[A-Za-z0-9._-]{1,64}", key):
        raise ValueError(f"invalid sticky comment key {key!r}: use [A-Za-z0-9._-]")
    return f"<!-- ragspine-eval:sticky:{key} -->"


@dataclass(frozen=True)
class IssueComment:
    """An issue/PR comment as listed by the API."""

    id: int
    body: str
    author: str
    author_type: str  # "User", "Bot", "Organization"
    html_url: str

    @classmethod
    def from_json(cls, data: Any) -> IssueComment:
        if not isinstance(data, dict) or not isinstance(data.get("id"), int):
            raise GithubApiError("unexpected comment object in API answer")
        raw_user = data.get("user")
        user: dict[str, Any] = raw_user if isinstance(raw_user, dict) else {}
        return cls(
            id=data["id"],
            body=str(data.get("body") or ""),
            author=str(user.get("login") or ""),
            author_type=str(user.get("type") or ""),
            html_url=str(data.get("html_url") or ""),
        )


@dataclass(frozen=True)
class CommentResult:
    """What ``upsert_sticky_comment`` did; ``warning`` is set when it could not comment.

    ``skipped``: ``update_only`` was asked and there was no comment of ours to update.
    """

    action: Literal["created", "updated", "forbidden", "skipped"]
    comment_id: int | None = None
    html_url: str | None = None
    warning: str | None = None


class _BearerAuth(AuthBase):
    """Sets the token per request (so a ``~/.netrc`` entry can never replace it)."""

    def __init__(self, token: str) -> None:
        self._token = token

    def __call__(self, request: requests.PreparedRequest) -> requests.PreparedRequest:
        request.headers["Authorization"] = f"Bearer {self._token}"
        return request

    def __repr__(self) -> str:
        return "_BearerAuth(<token>)"


def _retry_after_seconds(value: str, now: float) -> float | None:
    value = value.strip()
    if re.fullmatch(r"\d+(\.\d+)?", value):
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - now)


class GithubClient:
    """A small REST client: auth and version headers, retries, rate limits, typed errors.

    Server errors (500/502/503/504) and connection failures are retried by urllib3's
    ``Retry`` for idempotent methods (POST only on connection failures, so a comment is never
    created twice). Rate limits (429, or 403 with ``Retry-After`` or with
    ``x-ratelimit-remaining: 0``) are waited out when the wait is at most
    ``max_rate_limit_wait`` seconds, else ``GithubRateLimitError``.
    """

    def __init__(
        self,
        token: str,
        *,
        api_url: str = "https://api.github.com",
        session: requests.Session | None = None,
        timeout: float = 30.0,
        server_error_retries: int = 3,
        backoff_factor: float = 1.0,
        max_rate_limit_wait: float = 60.0,
        max_rate_limit_retries: int = 3,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.time,
        user_agent: str = "ragspine-eval",
    ) -> None:
        if not token:
            raise GithubApiError("no GitHub token given (set the github-token input)")
        parts = urlsplit(api_url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise GithubApiError(f"invalid GitHub API URL {api_url!r}")
        self._auth = _BearerAuth(token)
        self.api_url = api_url.rstrip("/")
        self._origin = (parts.scheme, parts.netloc)
        self._timeout = timeout
        self._max_wait = max_rate_limit_wait
        self._max_rate_retries = max_rate_limit_retries
        self._sleep = sleep
        self._clock = clock
        self._user_agent = user_agent
        if session is None:
            session = requests.Session()
            retry = Retry(
                total=server_error_retries,
                connect=server_error_retries,
                read=server_error_retries,
                status=server_error_retries,
                status_forcelist=(500, 502, 503, 504),
                allowed_methods=frozenset({"GET", "HEAD", "PATCH", "PUT", "DELETE"}),
                backoff_factor=backoff_factor,
                respect_retry_after_header=False,  # our loop honours it, with a cap
                raise_on_status=False,
            )
            adapter = HTTPAdapter(max_retries=retry)
            session.mount("http://", adapter)
            session.mount("https://", adapter)
        self._session = session

    def __repr__(self) -> str:
        return f"GithubClient(api_url={self.api_url!r})"

    # -- plumbing ---------------------------------------------------------------------------

    def _url(self, path_or_url: str) -> str:
        if path_or_url.startswith("/"):
            return self.api_url + path_or_url
        url = urljoin(self.api_url + "/", path_or_url)
        parts = urlsplit(url)
        if (parts.scheme, parts.netloc) != self._origin:
            # Never send the token to a host a Link header or a payload named.
            raise GithubApiError(f"refusing to call {parts.netloc}: not the GitHub API host")
        return url

    def _rate_limit_wait(self, response: requests.Response) -> float | None:
        """Seconds to wait if the answer is a rate limit, else ``None``."""
        if response.status_code not in (403, 429):
            return None
        headers = response.headers
        retry_after = headers.get("Retry-After")
        if retry_after is not None:
            seconds = _retry_after_seconds(retry_after, self._clock())
            return _DEFAULT_RATE_LIMIT_WAIT if seconds is None else seconds
        if headers.get("x-ratelimit-remaining") == "0":
            reset = headers.get("x-ratelimit-reset", "")
            if reset.isascii() and reset.isdigit():
                return max(0.0, int(reset) - self._clock()) + 1.0
            return _DEFAULT_RATE_LIMIT_WAIT
        if response.status_code == 429 or "rate limit" in response.text[:2000].lower():
            return _DEFAULT_RATE_LIMIT_WAIT
        return None

    def request(
        self,
        method: str,
        path_or_url: str,
        *,
        params: dict[str, str | int] | None = None,
        json: Any = None,
        accept: str = "application/vnd.github+json",
    ) -> requests.Response:
        """One API call, rate limits waited out; raises ``GithubApiError`` on any failure."""
        url = self._url(path_or_url)
        where = f"{method} {urlsplit(url).path}"
        headers = {
            "Accept": accept,
            "X-GitHub-Api-Version": API_VERSION,
            "User-Agent": self._user_agent,
        }
        attempt = 0
        while True:
            try:
                response = self._session.request(
                    method,
                    url,
                    params=params,
                    json=json,
                    headers=headers,
                    auth=self._auth,
                    timeout=self._timeout,
                )
            except requests.RequestException as exc:
                raise GithubApiError(f"{where}: request failed ({type(exc).__name__})") from None
            wait = self._rate_limit_wait(response)
            if wait is None:
                break
            if wait > self._max_wait or attempt >= self._max_rate_retries:
                raise GithubRateLimitError(
                    f"{where}: rate limited by GitHub (asked to wait {wait:.0f}s, "
                    f"cap {self._max_wait:.0f}s, {attempt} retries made)",
                    status=response.status_code,
                )
            attempt += 1
            self._sleep(wait)
        if response.status_code >= 400:
            raise GithubApiError(
                f"{where}: HTTP {response.status_code} {_api_message(response)}".rstrip(),
                status=response.status_code,
            )
        return response

    def _json(self, response: requests.Response) -> Any:
        try:
            return response.json()
        except (ValueError, RecursionError):
            raise GithubApiError(
                f"{response.request.method} {urlsplit(response.url).path}: answer is not JSON"
            ) from None

    # -- endpoints --------------------------------------------------------------------------

    def authenticated_login(self) -> str | None:
        """The token owner's login, or ``None`` when the token may not ask (installation token)."""
        try:
            data = self._json(self.request("GET", "/user"))
        except GithubRateLimitError:
            raise
        except GithubApiError as exc:
            if exc.status in (401, 403, 404):
                return None
            raise
        login = data.get("login") if isinstance(data, dict) else None
        return login if isinstance(login, str) and login else None

    def list_issue_comments(self, owner: str, repo: str, number: int) -> list[IssueComment]:
        """Every comment of an issue or PR, following ``Link: rel="next"`` pages."""
        url: str | None = f"{_repo_path(owner, repo)}/issues/{int(number)}/comments"
        params: dict[str, str | int] | None = {"per_page": 100}
        comments: list[IssueComment] = []
        pages = 0
        while url is not None and pages < _MAX_PAGES:
            response = self.request("GET", url, params=params)
            data = self._json(response)
            if not isinstance(data, list):
                raise GithubApiError("comment listing: expected a JSON array")
            comments.extend(IssueComment.from_json(item) for item in data)
            url = response.links.get("next", {}).get("url")
            params = None  # the next link carries its own query
            pages += 1
        return comments

    def create_issue_comment(self, owner: str, repo: str, number: int, body: str) -> IssueComment:
        response = self.request(
            "POST", f"{_repo_path(owner, repo)}/issues/{int(number)}/comments", json={"body": body}
        )
        return IssueComment.from_json(self._json(response))

    def update_issue_comment(
        self, owner: str, repo: str, comment_id: int, body: str
    ) -> IssueComment:
        response = self.request(
            "PATCH",
            f"{_repo_path(owner, repo)}/issues/comments/{int(comment_id)}",
            json={"body": body},
        )
        return IssueComment.from_json(self._json(response))

    def find_open_pull_request(
        self, owner: str, repo: str, head_owner: str, head_branch: str, head_sha: str
    ) -> int | None:
        """The open pull request whose head is ``head_owner:head_branch`` at ``head_sha``.

        A ``workflow_run`` for a fork's pull request lists no pull request in its payload;
        this is how its number is found without trusting anything the fork's run wrote.
        """
        if not (head_owner and head_branch and head_sha):
            return None
        response = self.request(
            "GET",
            f"{_repo_path(owner, repo)}/pulls",
            params={"state": "open", "head": f"{head_owner}:{head_branch}", "per_page": 100},
        )
        data = self._json(response)
        if not isinstance(data, list):
            raise GithubApiError("pull request listing: expected a JSON array")
        for item in data:
            head = item.get("head") if isinstance(item, dict) else None
            number = item.get("number") if isinstance(item, dict) else None
            if (
                isinstance(head, dict)
                and head.get("sha") == head_sha
                and isinstance(number, int)
                and not isinstance(number, bool)
            ):
                return number
        return None

    def delete_issue_comment(self, owner: str, repo: str, comment_id: int) -> None:
        """Delete a comment; one that is already gone (404) counts as deleted."""
        try:
            self.request("DELETE", f"{_repo_path(owner, repo)}/issues/comments/{int(comment_id)}")
        except GithubRateLimitError:
            raise
        except GithubApiError as exc:
            if exc.status != 404:
                raise

    def get_file_at_ref(self, owner: str, repo: str, path: str, ref: str) -> bytes | None:
        """A file's bytes at a commit via the contents API; ``None`` when it did not exist."""
        segments = [s for s in path.replace("\\", "/").split("/") if s not in ("", ".")]
        if not segments or ".." in segments:
            raise GithubApiError(f"invalid repository path {path!r}")
        if not ref:
            raise GithubApiError("contents API needs a ref")
        url = f"{_repo_path(owner, repo)}/contents/" + "/".join(quote(s, safe="") for s in segments)
        try:
            response = self.request("GET", url, params={"ref": ref})
        except GithubRateLimitError:
            raise
        except GithubApiError as exc:
            if exc.status == 404:
                return None
            raise
        data = self._json(response)
        if not isinstance(data, dict) or data.get("type") != "file":
            raise GithubApiError(f"contents of {path!r} at {ref[:12]}: not a file")
        if data.get("encoding") == "base64" and isinstance(data.get("content"), str):
            try:
                return base64.b64decode(data["content"])
            except (binascii.Error, ValueError):
                raise GithubApiError(f"contents of {path!r}: bad base64") from None
        # Files over 1 MB come without content; the raw media type returns the bytes.
        raw = self.request(
            "GET", url, params={"ref": ref}, accept="application/vnd.github.raw+json"
        )
        return raw.content


def _repo_path(owner: str, repo: str) -> str:
    if not owner or not repo or "/" in owner or "/" in repo:
        raise GithubApiError(f"invalid repository {owner!r}/{repo!r}")
    return f"/repos/{quote(owner, safe='')}/{quote(repo, safe='')}"


def _api_message(response: requests.Response) -> str:
    try:
        data = response.json()
    except (ValueError, RecursionError):
        return response.reason or ""
    message = data.get("message") if isinstance(data, dict) else None
    text = str(message) if message else (response.reason or "")
    return " ".join(text.split())[:200]


def _ours(
    comments: Sequence[IssueComment],
    marker: str,
    *,
    login: str | None,
    fallback_authors: Iterable[str],
) -> list[IssueComment]:
    """Every marked comment by us, oldest first (the listing's order)."""
    marked = [c for c in comments if c.body.lstrip().startswith(marker)]
    if login:
        return [c for c in marked if c.author.lower() == login.lower()]
    fallback = {a.lower() for a in fallback_authors}
    for candidates in (
        [c for c in marked if c.author.lower() in fallback],
        [c for c in marked if c.author_type == "Bot"],
    ):
        if candidates:
            return candidates
    return []


def find_sticky_comment(
    comments: Sequence[IssueComment],
    marker: str,
    *,
    login: str | None,
    fallback_authors: Iterable[str] = (DEFAULT_BOT_LOGIN,),
) -> IssueComment | None:
    """Our earlier comment: body starts with ``marker`` and the author is us.

    With a known ``login`` only that author counts. Without one (``GET /user`` refused), the
    ``fallback_authors`` count first, then any Bot account. The oldest match wins.
    """
    ours = _ours(comments, marker, login=login, fallback_authors=fallback_authors)
    return ours[0] if ours else None


def _forbidden(exc: GithubApiError) -> CommentResult:
    return CommentResult(
        action="forbidden",
        warning=(
            f"could not write the pull request comment ({exc}); a pull request from a fork "
            "gets a read-only token: the report is in the job summary and the artifact"
        ),
    )


def _settle_duplicates(
    client: GithubClient,
    owner: str,
    repo: str,
    body: str,
    mine: IssueComment,
    listed: Sequence[IssueComment],
    marker: str,
) -> IssueComment:
    """Of the marked comments by ``mine``'s author, the oldest keeps the body; every newer
    one is deleted. (The author is the one GitHub gave the comment we just wrote, so a
    marker pasted by someone else, or another app's comment, is never touched.)

    Two runs that listed at the same time both create a comment. Each then lists again, sees
    both, deletes the newer and, if its own was not the oldest, writes its body into the
    oldest; whichever finishes last leaves its body there, and one comment remains.
    """
    author = mine.author.lower()
    ours = [c for c in listed if c.body.lstrip().startswith(marker) and c.author.lower() == author]
    if not author or all(c.id == mine.id for c in ours):
        return mine
    oldest = min(ours, key=lambda c: c.id)
    for duplicate in ours:
        if duplicate.id != oldest.id:
            client.delete_issue_comment(owner, repo, duplicate.id)
    if oldest.id == mine.id:
        return mine
    updated = client.update_issue_comment(owner, repo, oldest.id, body)
    return IssueComment(
        updated.id, updated.body, updated.author, updated.author_type,
        updated.html_url or oldest.html_url,
    )  # fmt: skip


def upsert_sticky_comment(
    client: GithubClient,
    owner: str,
    repo: str,
    number: int,
    body: str,
    *,
    marker: str | None = None,
    fallback_authors: Iterable[str] = (DEFAULT_BOT_LOGIN,),
    update_only: bool = False,
) -> CommentResult:
    """Edit our comment on the PR if there is one, else create it (unless ``update_only``).

    The marker is put first in the body when the caller has not. A body over
    ``MAX_COMMENT_CHARS`` raises ``CommentTooLongError`` before any call (the renderer must
    trim details). After writing, the comments are listed again and duplicates left by a
    concurrent run are deleted (the oldest stays). A 403 anywhere gives
    ``action="forbidden"``; other failures raise.
    """
    marker = marker or sticky_marker()
    if not body.lstrip().startswith(marker):
        body = f"{marker}\n{body}"
    if len(body) > MAX_COMMENT_CHARS:
        raise CommentTooLongError(
            f"comment body has {len(body)} characters; GitHub allows {MAX_COMMENT_CHARS}"
        )
    try:
        login = client.authenticated_login()
        comments = client.list_issue_comments(owner, repo, number)
        ours = _ours(comments, marker, login=login, fallback_authors=fallback_authors)
        if ours:
            existing = ours[0]
            try:
                written = client.update_issue_comment(owner, repo, existing.id, body)
            except GithubApiError as exc:
                # A Bot-authored marked comment that is not ours: we may not edit it.
                if exc.status != 403 or isinstance(exc, GithubRateLimitError) or login:
                    raise
            else:
                # Duplicates an earlier race left behind go now (the oldest stays).
                kept = _settle_duplicates(client, owner, repo, body, written, comments, marker)
                return CommentResult("updated", kept.id, kept.html_url or existing.html_url)
        if update_only:
            return CommentResult("skipped")
        created = client.create_issue_comment(owner, repo, number, body)
        # Another run may have created its comment while this one did: list again.
        listed = client.list_issue_comments(owner, repo, number)
        kept = _settle_duplicates(client, owner, repo, body, created, listed, marker)
        return CommentResult("created", kept.id, kept.html_url)
    except GithubRateLimitError:
        raise
    except GithubApiError as exc:
        if exc.status == 403:
            return _forbidden(exc)
        raise
