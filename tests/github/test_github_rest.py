"""The sticky comment and the contents API against the fake GitHub REST API."""

from __future__ import annotations

import pytest
from github_fakes import DEFAULT_TOKEN, FORK_MESSAGE, FakeGitHub

from ragspine_action.github import (
    MAX_COMMENT_CHARS,
    CommentTooLongError,
    GithubApiError,
    GithubClient,
    GithubRateLimitError,
    sticky_marker,
    upsert_sticky_comment,
)

OWNER, REPO, PR = "acme", "rag", 42
MARKER = sticky_marker()


class Sleeps(list[float]):
    """Records requested waits instead of sleeping."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)


def _client(fake: FakeGitHub, token: str = DEFAULT_TOKEN, **kwargs: object) -> GithubClient:
    options: dict[str, object] = {"backoff_factor": 0, "sleep": Sleeps(), **kwargs}
    return GithubClient(token, api_url=fake.url, **options)  # type: ignore[arg-type]


def test_two_runs_leave_exactly_one_comment_edited_in_place(fake_github: FakeGitHub) -> None:
    client = _client(fake_github)
    first = upsert_sticky_comment(client, OWNER, REPO, PR, "## Verdict: pass\nrun 1")
    second = upsert_sticky_comment(client, OWNER, REPO, PR, "## Verdict: fail\nrun 2")
    comments = fake_github.comments_on(OWNER, REPO, PR)
    assert len(comments) == 1
    assert (first.action, second.action) == ("created", "updated")
    assert first.comment_id == second.comment_id == comments[0]["id"]
    assert comments[0]["body"] == f"{MARKER}\n## Verdict: fail\nrun 2"
    assert comments[0]["edits"] == 1
    assert second.html_url and second.html_url.endswith(f"#issuecomment-{comments[0]['id']}")
    assert len(fake_github.recorded("POST")) == 1
    assert len(fake_github.recorded("PATCH", rf"/issues/comments/{comments[0]['id']}$")) == 1


def test_requests_carry_auth_and_api_headers(fake_github: FakeGitHub) -> None:
    upsert_sticky_comment(_client(fake_github), OWNER, REPO, PR, "body")
    for request in fake_github.recorded():
        assert request.headers["accept"] == "application/vnd.github+json"
        assert request.headers["x-github-api-version"] == "2022-11-28"
        assert request.headers["authorization"] == f"Bearer {DEFAULT_TOKEN}"
    listing = fake_github.recorded("GET", "/comments$")[0]
    assert listing.query["per_page"] == ["100"]


def test_marker_planted_by_a_user_is_never_edited(fake_github: FakeGitHub) -> None:
    planted = fake_github.add_comment(
        OWNER, REPO, PR, f"{MARKER}\nI am not the bot", login="mallory"
    )
    fake_github.add_comment(OWNER, REPO, PR, "LGTM", login="alice")
    result = upsert_sticky_comment(_client(fake_github), OWNER, REPO, PR, "report")
    comments = fake_github.comments_on(OWNER, REPO, PR)
    assert result.action == "created"
    assert comments[0] == {**planted, "edits": 0}
    assert [c["user"]["login"] for c in comments] == ["mallory", "alice", "github-actions[bot]"]
    assert not fake_github.recorded("PATCH")


def test_found_across_several_pages(fake_github: FakeGitHub) -> None:
    fake_github.page_size = 3
    for i in range(7):
        fake_github.add_comment(OWNER, REPO, PR, f"chatter {i}", login="alice")
    ours = fake_github.add_comment(
        OWNER, REPO, PR, f"{MARKER}\nold report", login="github-actions[bot]", user_type="Bot"
    )
    result = upsert_sticky_comment(_client(fake_github), OWNER, REPO, PR, "new report")
    assert result.action == "updated" and result.comment_id == ours["id"]
    pages = [r.query.get("page", ["1"])[0] for r in fake_github.recorded("GET", "/comments$")]
    assert pages == ["1", "2", "3"]
    assert len(fake_github.comments_on(OWNER, REPO, PR)) == 8


def test_list_issue_comments_returns_every_page(fake_github: FakeGitHub) -> None:
    fake_github.page_size = 2
    for i in range(5):
        fake_github.add_comment(OWNER, REPO, PR, f"c{i}", login="alice")
    comments = _client(fake_github).list_issue_comments(OWNER, REPO, PR)
    assert [c.body for c in comments] == ["c0", "c1", "c2", "c3", "c4"]
    assert comments[0].author == "alice" and comments[0].author_type == "User"


def test_personal_token_matches_its_own_login_only(fake_github: FakeGitHub) -> None:
    fake_github.add_token("ghp_alice", "alice")
    bot = fake_github.add_comment(
        OWNER, REPO, PR, f"{MARKER}\nbot report", login="github-actions[bot]", user_type="Bot"
    )
    first = upsert_sticky_comment(_client(fake_github, "ghp_alice"), OWNER, REPO, PR, "r1")
    second = upsert_sticky_comment(_client(fake_github, "ghp_alice"), OWNER, REPO, PR, "r2")
    assert (first.action, second.action) == ("created", "updated")
    comments = fake_github.comments_on(OWNER, REPO, PR)
    assert comments[0]["body"] == bot["body"]
    assert comments[1]["user"]["login"] == "alice" and comments[1]["body"].endswith("r2")
    assert fake_github.recorded("GET", "^/user$")


def test_other_app_bot_is_found_when_user_endpoint_is_refused(fake_github: FakeGitHub) -> None:
    fake_github.add_token("ghs_app", "my-app[bot]", user_type="Bot", can_read_user=False)
    client = _client(fake_github, "ghs_app")
    upsert_sticky_comment(client, OWNER, REPO, PR, "r1")
    result = upsert_sticky_comment(client, OWNER, REPO, PR, "r2")
    assert result.action == "updated"
    assert len(fake_github.comments_on(OWNER, REPO, PR)) == 1


def test_marked_comment_of_another_bot_falls_back_to_create(fake_github: FakeGitHub) -> None:
    fake_github.add_token("ghs_app", "my-app[bot]", user_type="Bot", can_read_user=False)
    fake_github.add_comment(
        OWNER, REPO, PR, f"{MARKER}\nother bot", login="other[bot]", user_type="Bot"
    )
    result = upsert_sticky_comment(_client(fake_github, "ghs_app"), OWNER, REPO, PR, "mine")
    assert result.action == "created"
    assert [c["user"]["login"] for c in fake_github.comments_on(OWNER, REPO, PR)] == [
        "other[bot]",
        "my-app[bot]",
    ]


def test_fork_token_gets_a_forbidden_result_not_an_exception(fake_github: FakeGitHub) -> None:
    fake_github.forbid_comment_writes = True
    result = upsert_sticky_comment(_client(fake_github), OWNER, REPO, PR, "report")
    assert result.action == "forbidden" and result.comment_id is None
    assert result.warning is not None
    assert FORK_MESSAGE in result.warning and "403" in result.warning
    assert DEFAULT_TOKEN not in result.warning
    assert fake_github.comments_on(OWNER, REPO, PR) == []


def test_retry_after_is_honoured(fake_github: FakeGitHub) -> None:
    fake_github.fail(429, method="POST", headers={"Retry-After": "7"}, times=2)
    sleeps = Sleeps()
    result = upsert_sticky_comment(_client(fake_github, sleep=sleeps), OWNER, REPO, PR, "r")
    assert result.action == "created"
    assert sleeps == [7.0, 7.0]
    assert len(fake_github.recorded("POST")) == 3
    assert len(fake_github.comments_on(OWNER, REPO, PR)) == 1


def test_primary_rate_limit_waits_until_reset(fake_github: FakeGitHub) -> None:
    headers = {"x-ratelimit-remaining": "0", "x-ratelimit-reset": "1030"}
    fake_github.fail(403, path="/comments$", method="GET", headers=headers)
    sleeps = Sleeps()
    client = _client(fake_github, sleep=sleeps, clock=lambda: 1000.0)
    assert upsert_sticky_comment(client, OWNER, REPO, PR, "r").action == "created"
    assert sleeps == [31.0]


def test_rate_limit_beyond_the_cap_raises_without_waiting(fake_github: FakeGitHub) -> None:
    fake_github.fail(429, headers={"Retry-After": "3600"}, path="/comments$")
    sleeps = Sleeps()
    client = _client(fake_github, sleep=sleeps, max_rate_limit_wait=60)
    with pytest.raises(GithubRateLimitError, match="rate limited") as info:
        upsert_sticky_comment(client, OWNER, REPO, PR, "r")
    assert sleeps == []
    assert DEFAULT_TOKEN not in str(info.value)


def test_rate_limit_retries_are_bounded(fake_github: FakeGitHub) -> None:
    fake_github.fail(429, headers={"Retry-After": "1"}, path="/comments$", times=100)
    sleeps = Sleeps()
    client = _client(fake_github, sleep=sleeps, max_rate_limit_retries=2)
    with pytest.raises(GithubRateLimitError):
        upsert_sticky_comment(client, OWNER, REPO, PR, "r")
    assert sleeps == [1.0, 1.0]


def test_server_errors_are_retried_for_reads(fake_github: FakeGitHub) -> None:
    fake_github.fail(502, method="GET", path="/comments$", times=2)
    result = upsert_sticky_comment(_client(fake_github), OWNER, REPO, PR, "r")
    assert result.action == "created"
    # two 502s and the listing that worked, then the re-list after creating
    assert len(fake_github.recorded("GET", "/comments$")) == 4


def test_persistent_server_error_raises_typed_error(fake_github: FakeGitHub) -> None:
    fake_github.fail(500, method="POST", times=10, message="boom")
    with pytest.raises(GithubApiError, match="HTTP 500 boom") as info:
        upsert_sticky_comment(_client(fake_github), OWNER, REPO, PR, "r")
    assert info.value.status == 500
    # a POST is never retried on 5xx: it could create the comment twice
    assert len(fake_github.recorded("POST")) == 1


def test_bad_token_is_a_typed_error_without_the_token(fake_github: FakeGitHub) -> None:
    with pytest.raises(GithubApiError, match="401") as info:
        upsert_sticky_comment(_client(fake_github, "ghp_wrong"), OWNER, REPO, PR, "r")
    assert "ghp_wrong" not in str(info.value)
    assert "ghp_wrong" not in repr(_client(fake_github, "ghp_wrong"))


def test_body_limit_is_checked_before_any_call(fake_github: FakeGitHub) -> None:
    client = _client(fake_github)
    body = "x" * (MAX_COMMENT_CHARS - len(MARKER) - 1)
    assert upsert_sticky_comment(client, OWNER, REPO, PR, body).action == "created"
    calls = len(fake_github.requests)
    with pytest.raises(CommentTooLongError, match="65536"):
        upsert_sticky_comment(client, OWNER, REPO, PR, body + "y")
    assert len(fake_github.requests) == calls


def test_body_that_already_starts_with_the_marker_is_kept(fake_github: FakeGitHub) -> None:
    marker = sticky_marker("extraction")
    upsert_sticky_comment(_client(fake_github), OWNER, REPO, PR, f"{marker}\nx", marker=marker)
    assert fake_github.comments_on(OWNER, REPO, PR)[0]["body"] == f"{marker}\nx"


def test_markers_with_different_keys_are_separate_comments(fake_github: FakeGitHub) -> None:
    client = _client(fake_github)
    upsert_sticky_comment(client, OWNER, REPO, PR, "qa", marker=sticky_marker("qa"))
    upsert_sticky_comment(client, OWNER, REPO, PR, "ex", marker=sticky_marker("extraction"))
    upsert_sticky_comment(client, OWNER, REPO, PR, "qa2", marker=sticky_marker("qa"))
    bodies = [c["body"] for c in fake_github.comments_on(OWNER, REPO, PR)]
    assert bodies == [f"{sticky_marker('qa')}\nqa2", f"{sticky_marker('extraction')}\nex"]


def test_pagination_link_to_another_host_is_refused(fake_github: FakeGitHub) -> None:
    client = _client(fake_github)
    with pytest.raises(GithubApiError, match="not the GitHub API host"):
        client.request("GET", "https://evil.example/steal")


def test_file_at_ref_via_contents_api(fake_github: FakeGitHub) -> None:
    sha = "b" * 40
    fake_github.add_file(OWNER, REPO, "baselines/qa baseline.json", sha, b'{"tool": {}}\n')
    client = _client(fake_github)
    assert client.get_file_at_ref(OWNER, REPO, "baselines/qa baseline.json", sha) == (
        b'{"tool": {}}\n'
    )
    request = fake_github.recorded("GET", "/contents/")[0]
    assert request.query["ref"] == [sha]
    assert client.get_file_at_ref(OWNER, REPO, "baselines/absent.json", sha) is None


def test_large_file_is_fetched_raw(fake_github: FakeGitHub) -> None:
    fake_github.contents_inline_limit = 10
    fake_github.add_file(OWNER, REPO, "data/golden.jsonl", "abc", b"0123456789abcdef")
    client = _client(fake_github)
    assert client.get_file_at_ref(OWNER, REPO, "data/golden.jsonl", "abc") == b"0123456789abcdef"
    accepts = [r.headers["accept"] for r in fake_github.recorded("GET", "/contents/")]
    assert accepts == ["application/vnd.github+json", "application/vnd.github.raw+json"]


@pytest.mark.parametrize("path", ["", "../etc/passwd", "a/../../b"])
def test_bad_repository_paths_are_refused(fake_github: FakeGitHub, path: str) -> None:
    with pytest.raises(GithubApiError, match="invalid repository path"):
        _client(fake_github).get_file_at_ref(OWNER, REPO, path, "abc")


def test_empty_token_is_refused() -> None:
    with pytest.raises(GithubApiError, match="no GitHub token"):
        GithubClient("")


def test_unreachable_api_is_a_typed_error() -> None:
    with FakeGitHub() as fake:
        url = fake.url  # the port is closed once the server stops
    client = GithubClient(DEFAULT_TOKEN, api_url=url, backoff_factor=0, server_error_retries=1)
    with pytest.raises(GithubApiError, match="request failed") as info:
        upsert_sticky_comment(client, OWNER, REPO, PR, "r")
    assert info.value.status is None
    assert DEFAULT_TOKEN not in str(info.value)


def test_duplicates_left_by_a_race_are_deleted_and_the_oldest_keeps_the_body(
    fake_github: FakeGitHub,
) -> None:
    bot = "github-actions[bot]"
    oldest = fake_github.add_comment(
        OWNER, REPO, PR, f"{MARKER}\nrun A", login=bot, user_type="Bot"
    )
    fake_github.add_comment(OWNER, REPO, PR, f"{MARKER}\nrun B", login=bot, user_type="Bot")
    planted = fake_github.add_comment(OWNER, REPO, PR, f"{MARKER}\nmine", login="mallory")
    other = fake_github.add_comment(
        OWNER, REPO, PR, f"{MARKER}\nother app", login="other[bot]", user_type="Bot"
    )
    result = upsert_sticky_comment(_client(fake_github), OWNER, REPO, PR, "run C")
    assert (result.action, result.comment_id) == ("updated", oldest["id"])
    left = {c["id"]: c["body"] for c in fake_github.comments_on(OWNER, REPO, PR)}
    assert left == {
        oldest["id"]: f"{MARKER}\nrun C",
        planted["id"]: f"{MARKER}\nmine",
        other["id"]: f"{MARKER}\nother app",
    }


def test_a_run_that_created_a_newer_duplicate_moves_its_body_to_the_oldest(
    fake_github: FakeGitHub,
) -> None:
    """Run B listed before run A's comment existed; after creating it lists again."""
    client = _client(fake_github)
    original_create = client.create_issue_comment

    def create_after_a_rival(owner: str, repo: str, number: int, body: str):  # type: ignore[no-untyped-def]
        fake_github.add_comment(
            owner, repo, number, f"{MARKER}\nrun A", login="github-actions[bot]", user_type="Bot"
        )
        return original_create(owner, repo, number, body)

    client.create_issue_comment = create_after_a_rival  # type: ignore[method-assign]
    result = upsert_sticky_comment(client, OWNER, REPO, PR, "run B")
    [comment] = fake_github.comments_on(OWNER, REPO, PR)
    assert result.action == "created" and result.comment_id == comment["id"]
    assert comment["body"] == f"{MARKER}\nrun B" and comment["edits"] == 1
    assert len(fake_github.recorded("DELETE")) == 1


def test_update_only_never_creates(fake_github: FakeGitHub) -> None:
    result = upsert_sticky_comment(_client(fake_github), OWNER, REPO, PR, "green", update_only=True)
    assert result.action == "skipped" and result.comment_id is None
    assert fake_github.recorded("POST") == [] and fake_github.comments_on(OWNER, REPO, PR) == []
    upsert_sticky_comment(_client(fake_github), OWNER, REPO, PR, "red")
    result = upsert_sticky_comment(_client(fake_github), OWNER, REPO, PR, "green", update_only=True)
    assert result.action == "updated"
    assert fake_github.comments_on(OWNER, REPO, PR)[0]["body"] == f"{MARKER}\ngreen"
