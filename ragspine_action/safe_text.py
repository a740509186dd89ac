"""The one exit for untrusted text: logs, comments and anything else read by people or runners.

Golden ids, answers, file names and error details are chosen by whoever wrote the golden
set, the outcomes or the endpoint. Printed raw they can become GitHub workflow commands
(a line starting ``::``, or ``##[`` anywhere for the log viewer), hide text behind bidi
overrides or invisible tag characters, or crash a strict UTF-8 stream with a lone
surrogate. Every string that reaches stdout/stderr goes through ``log_safe``; every
comment or summary body goes through ``comment_safe``. Stdlib only, so any module may use it.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterable
from typing import TextIO

from .console import encodable

__all__ = [
    "HIDDEN_CHARACTERS",
    "comment_safe",
    "log_safe",
    "new_stop_token",
    "print_safe",
    "redact",
    "truncate",
]

#: Characters that hide, reorder or break text: C0/C1 controls (tab and newline are dealt
#: with by the callers), soft hyphen, the Arabic letter mark, Mongolian vowel separator,
#: zero-width and bidi marks/overrides/isolates, line/paragraph separators, invisible
#: operators, BOM, interlinear annotation marks, Unicode tag characters and lone surrogates.
HIDDEN_CHARACTERS = (
    "\x00-\x08\x0b-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e"
    "\u2060-\u206f\ufeff\ufff9-\ufffb\U000e0000-\U000e007f\ud800-\udfff"
)
_HIDDEN = re.compile(f"[{HIDDEN_CHARACTERS}]")
# In a comment the zero-width space stays: escapers insert it after "@" to stop mentions.
_COMMENT_HIDDEN = re.compile("[" + HIDDEN_CHARACTERS.replace("\u200b-", "\u200c-") + "]")


def _visible(match: re.Match[str]) -> str:
    char = match.group()
    if char == "\r":
        return "\\r"
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def log_safe(text: str) -> str:
    """Text that a CI log shows as written and a runner never executes.

    Hidden characters (and CR, which the runner treats as a line break) become visible
    escapes; ``::`` becomes ``:%3A`` and ``##[`` becomes ``##%5B`` wherever they occur,
    so no line can start a workflow command or a log-viewer directive, even after a line
    break that came from the input. Newlines and tabs are kept: callers format lines.
    """
    text = _HIDDEN.sub(_visible, text)
    if "::" in text:
        text = text.replace("::", ":%3A")
    if "##[" in text:
        text = text.replace("##[", "##%5B")
    return text


def print_safe(text: str, stream: TextIO) -> None:
    """Print untrusted text through ``log_safe`` and flush (one path for every log line).

    What the stream cannot encode (``Δ`` on an ASCII or cp1252 console) falls back to
    ASCII (``console.encodable``); a closed pipe (``| head``) is not an error.
    """
    try:
        stream.write(encodable(log_safe(text) + "\n", stream))
        stream.flush()
    except BrokenPipeError:
        pass


def comment_safe(text: str) -> str:
    """Markdown for a comment or job summary with every hidden character removed.

    Newlines and tabs stay; so does the zero-width space (mention breaking).
    """
    return _COMMENT_HIDDEN.sub("", text)


def new_stop_token() -> str:
    """An unguessable ``::stop-commands::`` token."""
    return f"ragspine-{secrets.token_hex(16)}"


def redact(text: str, secret_values: Iterable[str], replacement: str = "[redacted]") -> str:
    """``text`` with each secret (of four characters or more) replaced, longest first."""
    for secret in sorted((s for s in secret_values if len(s) >= 4), key=len, reverse=True):
        if secret in text:
            text = text.replace(secret, replacement)
    return text


def truncate(text: str, limit: int, secret_values: Iterable[str] = ()) -> str:
    """Redact, then cut to ``limit`` characters with "...": never cut a secret in half."""
    text = redact(text, secret_values)
    return text if len(text) <= limit else text[: max(0, limit - 3)] + "..."
