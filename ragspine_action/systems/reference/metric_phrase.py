"""A figure the question asks for that the KB does not report, named as the question wrote it.

"What was ACME's dividend payout ratio for FY2025?" uses only words the KB knows
(dividend, ratio), so no single word is foreign, yet it names a figure the KB does not
report. Asking back "which metric do you mean?" would be wrong: the question says which.
When a question asks for a value (a value cue, or a period with no explanation asked for)
and names no reported metric, what is left once the entity, period and cue words are
masked is the metric asked for if it is headed like a figure (ratio, rate, yield, margin,
value, payout, income, 率, 额 ...); it is refused with the metrics the KB does report.
Leftovers that name no figure ("ACME's results", "the figure for FY2025") are still asked
back.
"""

from __future__ import annotations

import re

from .known_words import QUESTION_WORDS

__all__ = ["unreported_metric_phrase"]

# Words that make a phrase name a figure (English heads; Chinese: any run holding one).
_FIGURE_WORDS = frozenset(
    """ratio ratios rate rates yield yields margin margins payout payouts value values
    income premium premiums expense expenses cost costs assets asset liabilities liability
    reserves reserve earnings eps cash flow flows surplus equity price prices dividend
    dividends coverage spread spreads headcount capitalisation capitalization
    return returns debt leverage gearing""".split()  # noqa: SIM905
)
_ZH_FIGURE = re.compile(r"[率额值]|收益|股息|派息|分红|资产|负债|保费|现金|盈余|股价|市值|杠杆")
_TOKEN = re.compile(r"[A-Za-z][A-Za-z\-]*|[\u4e00-\u9fff]+")
_ZH_NOISE = re.compile(r"^[的是了在和与对及其该这那各本我你]+|[的是了吗呢么]+$")
# Wording that is not the figure's name even if it is not a question word.
_NOT_NAME = frozenset(["s", "acme", "fy", "h", "q"])


def unreported_metric_phrase(residual: str) -> tuple[str, ...]:
    """The content words left in ``residual`` (known terms masked), as one phrase, when they
    name a figure; else ``()``."""
    words: list[str] = []
    figure = False
    for token in _TOKEN.findall(residual):
        if token.isascii():
            low = token.lower()
            if low in QUESTION_WORDS or low in _NOT_NAME:
                continue
            figure = figure or low in _FIGURE_WORDS
            words.append(token)
        else:
            run = _ZH_NOISE.sub("", token)
            if len(run) < 2:
                continue
            figure = figure or _ZH_FIGURE.search(run) is not None
            words.append(run)
    if not figure:
        return ()
    return (" ".join(words),)
