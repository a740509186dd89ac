"""The LLM judge: any OpenAI-compatible chat-completions model behind the judge seam.

Protocol (docs/judges.md): one request per claim, ``POST {base_url}/chat/completions``,
temperature 0, ``response_format: {"type": "json_object"}``, the claim and the case's
contexts (answer_accuracy: a reference sentence, the reference and the answer) in the
messages; the model answers ``{"verdict": "supported" | "unsupported", "reason": "…"}``.
Anything else (no JSON, another verdict, an HTTP failure after the retries) is a judge
error for that claim: the gate's check on that case is an error, never a pass or a fail.

Reproducible in CI: every verdict is cached in a SQLite file keyed by the sha256 of
(model, prompt version, task, claim, contexts), so an unchanged answer never gets a new
verdict; ``cache_only`` replays the file without a network (a miss is a judge error).
Accounted: requests sent, cache hits, tokens (the ``usage`` field) and wall time.
Safe: the API key comes from the environment only, travels in the Authorization header,
and is scrubbed from every message (the http system's client and redaction are reused).

The lexical judge's number and negation rules still veto a "supported": a claim whose
numbers are not in the contexts, or whose polarity contradicts them, is unsupported
whatever the model said.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from ..errors import ConfigError
from .claims import has_content
from .judge import ClaimVerdict, LexicalJudge, ReferenceVerdict, _split_sentences

__all__ = [
    "DEFAULT_API_KEY_ENV",
    "DEFAULT_CACHE",
    "PROMPT_VERSION",
    "JudgeCache",
    "JudgeStats",
    "LlmJudge",
    "LlmJudgeSettings",
    "chat_url",
]

# Bump when the messages change: cached verdicts of another prompt are not reused, and a
# baseline recorded under another prompt version is stale.
PROMPT_VERSION = "1"
DEFAULT_API_KEY_ENV = "OPENAI_API_KEY"
DEFAULT_CACHE = ".ragspine-judge-cache.sqlite"
VERDICTS = ("supported", "unsupported")

_SYSTEM_PROMPT = (
    "You are a strict fact-checking judge for a retrieval-augmented generation system. "
    "Decide whether the claim is fully supported by the given texts: every fact, number, "
    "negation and direction in it must be stated or directly implied there. Anything "
    "missing, different or contradicted is unsupported. Answer with a JSON object only: "
    '{"verdict": "supported" or "unsupported", "reason": "<one short sentence>"}.'
)


def chat_url(base_url: str) -> str:
    """``{base_url}/chat/completions`` (a query string, e.g. Azure's api-version, kept; a
    URL that already ends in ``/chat/completions`` is taken as it is)."""
    parts = urlsplit(base_url.strip())
    path = parts.path.rstrip("/")
    if not path.endswith("/chat/completions"):
        path += "/chat/completions"
    return urlunsplit((parts.scheme, parts.netloc, path, parts.query, ""))


@dataclass(frozen=True)
class LlmJudgeSettings:
    """``judge: {kind: llm, …}`` of the config (the key itself is never held here)."""

    base_url: str
    model: str
    api_key_env: str = DEFAULT_API_KEY_ENV
    cache: str | None = DEFAULT_CACHE
    cache_only: bool = False
    concurrency: int = 4
    timeout_s: float = 60.0
    retries: int = 3
    max_error_rate: float = 0.0
    # The lexical number and negation rules may overrule the model's "supported".
    veto: bool = True


@dataclass
class JudgeStats:
    """What the judge cost this run (the report's ``qa.judge``)."""

    requests: int = 0  # HTTP requests sent, retries included
    claims: int = 0  # claims judged (from the cache or by the model)
    cache_hits: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0
    wall_s: float = 0.0
    checks: int = 0  # gate checks judged (one answer's claims, one reference)
    failed_checks: int = 0  # of them, with at least one judge error
    claim_errors: int = 0
    first_errors: list[str] = field(default_factory=list)

    @property
    def error_rate(self) -> float:
        return self.failed_checks / self.checks if self.checks else 0.0


def _key(model: str, task: str, claim: str, texts: Sequence[str]) -> str:
    material = json.dumps(
        [model, PROMPT_VERSION, task, claim, list(texts)], ensure_ascii=False, separators=(",", ":")
    )
    return hashlib.sha256(material.encode("utf-8")).hexdigest()


class JudgeCache:
    """Verdicts by key in a SQLite file (safe to commit or keep as a CI cache: no secret)."""

    def __init__(self, path: str, *, read_only: bool = False) -> None:
        self.path = path
        self._lock = threading.Lock()
        if read_only and not os.path.isfile(path):
            raise ConfigError(
                f"--judge-cache-only: the judge cache {path} does not exist (run once with "
                "the model to fill it)"
            )
        try:
            if read_only:
                uri = "file:" + os.path.abspath(path) + "?mode=ro"
                self._db = sqlite3.connect(uri, uri=True, check_same_thread=False)
            else:
                parent = os.path.dirname(os.path.abspath(path))
                os.makedirs(parent, exist_ok=True)
                self._db = sqlite3.connect(path, check_same_thread=False)
                self._db.execute(
                    "CREATE TABLE IF NOT EXISTS verdicts (key TEXT PRIMARY KEY, verdict TEXT "
                    "NOT NULL, reason TEXT, model TEXT, prompt_version TEXT, created TEXT)"
                )
                self._db.commit()
            self._db.execute("SELECT key, verdict, reason FROM verdicts LIMIT 1").fetchall()
        except (sqlite3.Error, OSError) as exc:
            raise ConfigError(
                f"judge cache {path}: cannot use it as a SQLite verdict cache ({exc})"
            ) from None

    def get(self, key: str) -> tuple[str, str] | None:
        with self._lock:
            row = self._db.execute(
                "SELECT verdict, reason FROM verdicts WHERE key = ?", (key,)
            ).fetchone()
        if row is None or row[0] not in VERDICTS:
            return None
        return str(row[0]), str(row[1] or "")

    def put(self, key: str, verdict: str, reason: str, model: str) -> None:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO verdicts VALUES (?, ?, ?, ?, ?, ?)",
                (key, verdict, reason, model, PROMPT_VERSION, stamp),
            )
            self._db.commit()

    def close(self) -> None:
        with self._lock:
            self._db.close()


class _Answer:
    """A model's parsed verdict (``value`` of a successful attempt)."""

    def __init__(self, verdict: str, reason: str) -> None:
        self.verdict = verdict
        self.reason = reason


def _content_json(content: str) -> Any:
    text = content.strip()
    if text.startswith("```"):  # some local models fence their JSON
        text = text.strip("`").strip()
        if text.lower().startswith("json"):
            text = text[4:]
    return json.loads(text)


class LlmJudge:
    """The judge seam over an OpenAI-compatible chat-completions endpoint (module doc)."""

    name = "llm"

    def __init__(self, settings: LlmJudgeSettings, *, env: dict[str, str] | None = None) -> None:
        self.settings = settings
        self.stats = JudgeStats()
        self._lock = threading.Lock()
        self._veto = LexicalJudge(threshold=0.0)  # numbers and polarity only
        if not settings.model.strip():
            raise ConfigError("judge.model: the LLM judge needs a model name (--judge-model)")
        self.cache: JudgeCache | None = None
        if settings.cache:
            self.cache = JudgeCache(settings.cache, read_only=settings.cache_only)
        elif settings.cache_only:
            raise ConfigError("--judge-cache-only: needs a judge cache (--judge-cache PATH)")
        self._client: Any = None
        self._pool: ThreadPoolExecutor | None = None
        if not settings.cache_only:
            from ..systems.http import HttpSettings, HttpSystem

            environ = os.environ if env is None else env
            key = environ.get(settings.api_key_env, "").strip()
            headers = {"Authorization": f"Bearer {key}"} if key else {}
            try:
                http = HttpSettings(
                    endpoint=chat_url(settings.base_url),
                    headers=headers,
                    concurrency=settings.concurrency,
                    timeout_s=settings.timeout_s,
                    retries=settings.retries,
                )
            except ConfigError as exc:
                raise ConfigError(
                    "judge: " + str(exc).replace("http endpoint", "judge.base_url")
                ) from None
            self._client = HttpSystem(http)
            self._client.open()
            self._pool = ThreadPoolExecutor(
                max_workers=settings.concurrency, thread_name_prefix="ragspine-judge"
            )

    @property
    def identity(self) -> dict[str, str]:
        """What produced the groundedness values (recorded in the baseline entry)."""
        return {"kind": "llm", "model": self.settings.model, "prompt_version": PROMPT_VERSION}

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
        if self._client is not None:
            self._client.close()
            self._client = None
        if self.cache is not None:
            self.cache.close()
            self.cache = None

    # -- the seam

    def judge_claims(self, claims: Sequence[str], contexts: Sequence[str]) -> list[ClaimVerdict]:
        started = time.perf_counter()
        texts = list(contexts)
        blocks = "\n\n".join(f"[{i}] {t}" for i, t in enumerate(texts, 1)) or "(no contexts)"
        prompts = [
            f"Contexts:\n{blocks}\n\nClaim: {claim}\n\nIs the claim supported by the contexts?"
            for claim in claims
        ]
        answers = self._ask("faithfulness", list(claims), texts, prompts)
        verdicts = [
            self._verdict(c, a, texts, "the contexts") for c, a in zip(claims, answers, strict=True)
        ]
        self._account(verdicts, started)
        return verdicts

    def judge_reference(self, reference: str, answer: str, threshold: float) -> ReferenceVerdict:
        """answer_accuracy: each reference sentence, asked whether the answer states it;
        the score is the share the model finds supported (pass: ≥ threshold)."""
        started = time.perf_counter()
        sentences = [s for s in _split_sentences(reference) if has_content(s)]
        prompts = [
            f"Reference answer:\n{reference}\n\nAnswer under test:\n{answer}\n\n"
            f"Claim (from the reference): {s}\n\n"
            "Is the claim supported by the answer under test (stated by it, without "
            "contradiction)?"
            for s in sentences
        ]
        answers = self._ask("answer_accuracy", sentences, [reference, answer], prompts)
        verdicts = [
            self._reference_verdict(s, a, reference, answer, threshold)
            for s, a in zip(sentences, answers, strict=True)
        ]
        self._account(verdicts, started)
        if any(v.error for v in verdicts):
            return ReferenceVerdict(False, 0.0, verdicts)
        score = sum(v.supported for v in verdicts) / len(verdicts) if verdicts else 1.0
        return ReferenceVerdict(score >= threshold, score, verdicts)

    def entailed(self, claim: str, contexts: Sequence[str]) -> bool:
        verdict = self.judge_claims([claim], contexts)[0]
        return verdict.supported

    # -- internals

    def _verdict(
        self, claim: str, got: _Answer | str, contexts: Sequence[str], label: str
    ) -> ClaimVerdict:
        if isinstance(got, str):
            return ClaimVerdict(claim, False, 0.0, None, f"judge error: {got}", True)
        if got.verdict == "unsupported":
            return ClaimVerdict(claim, False, 0.0, None, got.reason or "the model: unsupported")
        if not self.settings.veto:
            return ClaimVerdict(claim, True, 1.0, None, None)
        veto = self._veto.judge_claims([claim], contexts)[0]
        if not veto.supported:
            reason = (veto.reason or "").replace("the contexts", label)
            return ClaimVerdict(claim, False, 1.0, veto.matched, f"{reason} (lexical veto)")
        return ClaimVerdict(claim, True, 1.0, None, None)

    def _reference_verdict(
        self, sentence: str, got: _Answer | str, reference: str, answer: str, threshold: float
    ) -> ClaimVerdict:
        """A reference sentence the model finds stated is vetoed only by a contradiction:
        the answer may leave a clause out (its numbers too), not state it otherwise."""
        if isinstance(got, str) or got.verdict == "unsupported" or not self.settings.veto:
            return self._verdict(sentence, got, [answer], "the answer")
        veto = self._veto.contradicts_reference(sentence, reference, answer, threshold)
        if veto is not None:
            reason = (veto.reason or "").replace("the contexts", "the answer")
            return ClaimVerdict(sentence, False, 1.0, veto.matched, f"{reason} (lexical veto)")
        return ClaimVerdict(sentence, True, 1.0, None, None)

    def _account(self, verdicts: Sequence[ClaimVerdict], started: float) -> None:
        errors = [v for v in verdicts if v.error]
        with self._lock:
            self.stats.wall_s += time.perf_counter() - started
            self.stats.claims += len(verdicts)
            self.stats.checks += 1
            if errors:
                self.stats.failed_checks += 1
                self.stats.claim_errors += len(errors)
                for v in errors:
                    if len(self.stats.first_errors) < 3:
                        self.stats.first_errors.append(f"{v.claim[:80]}: {v.reason}")

    def _ask(
        self, task: str, claims: list[str], texts: list[str], prompts: list[str]
    ) -> list[_Answer | str]:
        """Per claim, the model's answer (cached) or why there is none."""
        model = self.settings.model
        keys = [_key(model, task, c, texts) for c in claims]
        out: list[_Answer | str | None] = [None] * len(claims)
        missing: list[int] = []
        for i, key in enumerate(keys):
            hit = self.cache.get(key) if self.cache is not None else None
            if hit is not None:
                out[i] = _Answer(*hit)
                with self._lock:
                    self.stats.cache_hits += 1
            else:
                missing.append(i)
        if missing and self.settings.cache_only:
            for i in missing:
                out[i] = "not in the judge cache (--judge-cache-only replays it without a network)"
            missing = []
        if missing:
            assert self._pool is not None
            got = list(self._pool.map(lambda i: self._request(prompts[i]), missing))
            for i, answer in zip(missing, got, strict=True):
                out[i] = answer
                if isinstance(answer, _Answer) and self.cache is not None:
                    self.cache.put(keys[i], answer.verdict, answer.reason, model)
        return [a if a is not None else "no verdict" for a in out]

    def _request(self, prompt: str) -> _Answer | str:
        from ..systems.http import _Attempt

        body = json.dumps(
            {
                "model": self.settings.model,
                "temperature": 0,
                "response_format": {"type": "json_object"},
                "messages": [
                    {"role": "system", "content": _SYSTEM_PROMPT},
                    {"role": "user", "content": prompt},
                ],
            },
            ensure_ascii=False,
        ).encode("utf-8")

        def parse(resp: Any, data: bytes, head: str, latency_ms: float) -> _Attempt:
            answer = self._parse(data)
            if isinstance(answer, str):
                return _Attempt(head=head, reason=answer)
            return _Attempt(value=answer, latency_ms=latency_ms)

        client = self._client
        result, attempts = client.send(body, parse)
        with self._lock:
            self.stats.requests += attempts
        if isinstance(result.value, _Answer):
            return result.value
        plural = "" if attempts == 1 else "s"
        return str(client.redact(f"{result.head}: {result.reason}; {attempts} attempt{plural}"))

    def _parse(self, data: bytes) -> _Answer | str:
        """The model's verdict from a chat-completions response, or what is wrong with it."""
        try:
            obj = json.loads(data)
        except (ValueError, RecursionError):
            return "response is not JSON"
        if not isinstance(obj, dict):
            return "response is not a JSON object"
        usage = obj.get("usage")
        if isinstance(usage, dict):
            counts = {
                name: usage.get(name)
                for name in ("prompt_tokens", "completion_tokens", "total_tokens")
            }
            with self._lock:
                for name, value in counts.items():
                    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
                        setattr(self.stats, name, getattr(self.stats, name) + value)
        try:
            content = obj["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError):
            return "response has no choices[0].message.content"
        if not isinstance(content, str):
            return "choices[0].message.content is not a string"
        try:
            answer = _content_json(content)
        except (ValueError, RecursionError):
            return f"the model's answer is not JSON: {content.strip()[:80]!r}"
        if not isinstance(answer, dict) or answer.get("verdict") not in VERDICTS:
            shown = answer.get("verdict") if isinstance(answer, dict) else answer
            return f"the model's verdict {str(shown)[:40]!r} is not supported or unsupported"
        reason = answer.get("reason")
        return _Answer(str(answer["verdict"]), reason[:500] if isinstance(reason, str) else "")
