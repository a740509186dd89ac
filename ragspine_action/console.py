"""Terminal output that never crashes on the stream's encoding.

The tables use ``Δ · — → ≥ …``. A CI runner with ``PYTHONIOENCODING=ascii``, a cp1252
console or ``LANG=C`` cannot encode them; printing would raise UnicodeEncodeError. Text
the stream cannot encode falls back to ASCII symbols, and anything still unencodable
(a CJK case id) to ``?``, so the verdict always reaches the log. ``safe_text.print_safe``,
the one exit for printed text, goes through ``encodable``.
"""

from __future__ import annotations

from typing import TextIO

__all__ = ["ASCII_SYMBOLS", "encodable"]

ASCII_SYMBOLS: dict[str, str] = {
    "Δ": "delta",
    "·": "-",
    "—": "-",
    "–": "-",
    "→": "->",
    "←": "<-",
    "≥": ">=",
    "≤": "<=",
    "≠": "!=",
    "±": "+/-",
    "×": "x",
    "…": "...",
    "✓": "ok",
    "✔": "ok",
    "✗": "x",
    "✘": "x",
    "•": "*",
    "“": '"',
    "”": '"',
    "‘": "'",
    "’": "'",
}
_TABLE = str.maketrans(ASCII_SYMBOLS)


def encodable(text: str, stream: TextIO) -> str:
    """``text`` as ``stream`` can encode it: unchanged when it can, else ASCII symbols."""
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
        return text
    except UnicodeEncodeError:
        pass
    except LookupError:
        encoding = "ascii"
    fallback = text.translate(_TABLE)
    return fallback.encode(encoding, "replace").decode(encoding, "replace")
