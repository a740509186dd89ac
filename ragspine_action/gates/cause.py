"""A cause or consequence the contexts do not give (rule 8 of docs/judges.md).

An answer that joins two facts of the contexts with ``because``, ``due to``, ``which
means``, ``因为``, ``由于``, ``导致`` … asserts a link between them; every word of each side
may be in the contexts (``Net profit fell 8% because of higher motor claims`` where one
sentence says profit fell and another that motor claims rose), so the word, number and
polarity rules pass it. The link must be the contexts' own: some context sentence, with
the sentence before it, must hold words of both sides and say a cause or consequence in
any words (``driven by``, ``reflects``, ``as a result``, ``boosted``, ``得益于``, ``受…影响``,
``带动`` …). A cause reworded (``because of`` for ``driven by``) passes; a cause taken from
a sentence that says none, or from another passage, fails.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache

from .claims import _RUNS_ONLY, STOPWORDS, tokenize
from .paraphrase import stems

__all__ = [
    "another_cause",
    "cause_problem",
    "cause_swap_problem",
    "has_cause_label",
    "labelled_cause",
    "may_cause",
    "may_cause_text",
    "may_own_cause",
]

# A claim that gives a cause or a consequence: the cue, and what it joins.
_CLAIM_CAUSE = re.compile(
    r"\b(?:because(?:\s+of)?|due\s+to(?!\s+(?:be|expire|start|end|close|open|begin|take|"
    r"launch|complete|mature|run|finish|arrive|pay|report|retire|resume)\b)|owing\s+to|"
    r"as\s+a\s+(?:direct\s+)?(?:result|consequence)\s+of|caused\s+by|thanks\s+to|"
    r"driven\s+(?:mainly\s+|largely\s+|primarily\s+)?by|on\s+the\s+back\s+of|"
    r"attributable\s+to|resulting\s+(?:from|in)|which\s+(?:means|meant|implies|implied|led\s+"
    r"to|leads\s+to|caused|causes)|meaning\s+(?:that\s+)?|this\s+means|therefore|hence|"
    r"consequently|leading\s+to)\b"
    # (X导致的Y is "the Y that X causes", a noun phrase: its predicate follows it)
    r"|因为|由于|因此|所以|导致(?!的)|原因是|得益于|归因于|归功于|意味着|从而|以致|致使(?!的)|源于|是因为",
    re.IGNORECASE,
)
_CLAIM_CUE_WORDS = frozenset(
    [
        "because",
        "due",
        "owing",
        "result",
        "consequence",
        "caused",
        "thanks",
        "driven",
        "back",
        "attributable",
        "resulting",
        "which",
        "meaning",
        "means",
        "therefore",
        "hence",
        "consequently",
        "leading",
    ]
)
_CJK_CUE_CHARS = frozenset("因由导原得归意从以致源所")

# A context that says a cause or consequence, in any words.
_CONTEXT_CAUSE = re.compile(
    r"\b(?:because|due|owing|result(?:s|ed|ing)?|consequen\w*|driv(?:en|e|es|ing)|drove|"
    r"thanks|reflect\w*|attribut\w*|caus\w*|led|lead(?:s|ing)?|contribut\w*|boost\w*|"
    r"lift\w*|weigh\w*|hit|hurt|help\w*|support\w*|push\w*|fuel\w*|spur\w*|offset\w*|"
    r"drag\w*|explain\w*|reason\w*|stem\w*|amid|as|since|so|therefore|hence|thus|mean\w*|"
    r"impl\w*|(?:on|from)\s+(?:higher|lower|strong|stronger|weak|weaker|rising|falling|"
    r"increased|reduced)|on\s+the\s+back|effect\w*|impact\w*|affect\w*|why|"
    # a subject that acts on the effect ("Warehouse automation reduced operating costs")
    r"reduc(?:ed|es)|lower(?:ed|s)|cut|cuts|rais(?:ed|es)|increas(?:ed|es)|improv(?:ed|es)|"
    r"enabl(?:ed|es)|sav(?:ed|es)|generat(?:ed|es)|brought|prompt(?:ed|s)|trigger(?:ed|s)|"
    r"forc(?:ed|es)|eliminat(?:ed|es))\b"
    r"|因|由于|得益|受|带动|推动|拉动|导致|致使|使得|影响|拖累|原因|所以|从而|源于|归因|随着|意味|"
    r"反映|抵消|促使|造成|引起|主要来自|来自于|支撑|驱动|使(?!用)|令",
    re.IGNORECASE,
)
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]{2,}")
# A sentence that opens on what the one before it said: its cause is that sentence's.
_CAUSE_LABEL_TEXT = (
    r"\s*(?:[-*•·]\s*)?(?:\*\*|__)?(?:main\s+|key\s+)?(?:causes?|reasons?|drivers?|why|"
    r"主要原因|原因|成因|驱动因素|主因)(?:\*\*|__)?\s*[:：]\s*(?:\*\*|__)?\s*"
)
_ANAPHOR = re.compile(
    r"\s*(?:(?:this|that|these|those|it|such|as\s+a\s+result|consequently|therefore|hence|"
    r"thus)\b|(?:the\s+)?(?:increase|decrease|rise|fall|drop|decline|growth|change|"
    r"improvement|deterioration|loss|gain|delay|shortfall|reduction|higher|lower)\b|"
    r"[此这该其]|上述|以上|因此|所以|由此|从而|增长|下降|增幅|降幅)"
    # a label line that names the cause of the line before ("- **Cause:** …", "原因：…")
    rf"|{_CAUSE_LABEL_TEXT}",
    re.IGNORECASE,
)
_CAUSE_LABEL = re.compile(_CAUSE_LABEL_TEXT, re.IGNORECASE)
_ASCII_WORDS = re.compile(r"[A-Za-z]{2,}")


def may_cause(claim: str, raw: Sequence[str]) -> bool:
    """A cheap look before ``cause_problem``: a cue word among the claim's tokens."""
    if claim.isascii():
        return not _CLAIM_CUE_WORDS.isdisjoint(raw)
    return not _CJK_CUE_CHARS.isdisjoint(claim) or not _CLAIM_CUE_WORDS.isdisjoint(raw)


def _sides(claim: str) -> tuple[str, str] | None:
    """The effect and the cause (or the fact and its consequence) ``claim`` joins, each
    cut to its own clause ("…, while Singapore's profit was down 3%" is neither)."""
    m = _CLAIM_CAUSE.search(claim)
    if m is None:
        return None
    before, after = claim[: m.start()], claim[m.end() :]
    if len(before.strip(" ,，")) < 2:  # "Because of X, Y", "由于X，Y": the cause leads
        comma = _CLAUSE_END.search(after)
        if comma is None:
            return None
        before, after = after[comma.end() :], after[: comma.start()]
    before = next((p for p in reversed(_CLAUSE_END.split(before)) if _terms(p)), "")
    after = _CLAUSE_END.split(after)[0]
    return before, after


_CLAUSE_END = re.compile(
    r"[;；，]|,\s*|\s(?:while|whereas|although|though|but|and)\s|而|但|并且|同时"
)
# Words that only say a direction or a bound: the contexts often say it in other words
# (higher claims for claims rose); the rules of directions judge them.
_NEUTRAL = frozenset(
    [
        "higher",
        "lower",
        "more",
        "less",
        "fewer",
        "greater",
        "smaller",
        "increased",
        "decreased",
        "increasing",
        "decreasing",
        "rising",
        "falling",
        "rose",
        "fell",
        "strong",
        "stronger",
        "weak",
        "weaker",
        "up",
        "down",
        "rise",
        "fall",
        "grew",
        "growth",
        "declined",
        "decline",
        "increase",
        "decrease",
        "sharply",
        "significantly",
        "slightly",
        "also",
        "mainly",
        "largely",
        "partly",
        "primarily",
        "mostly",
        "chiefly",
        "partially",
        "in",
        "part",
    ]
)


def _terms(text: str) -> list[str]:
    """The side's content words and its Chinese character pairs."""
    out = [
        t
        for t in tokenize(text)
        if t.isascii() and t not in STOPWORDS and t not in _NEUTRAL and not t.isdigit()
    ]
    for run in _CJK.findall(text):
        out.extend(run[i : i + 2] for i in range(len(run) - 1))
    return out


def _covered(terms: list[str], window: frozenset[str], match: Callable[[str], str | None]) -> bool:
    """At least half of ``terms`` in ``window`` (as the contexts write them, or as the
    window writes them in another inflection or derivation: "cancellation because of
    illness" where it says "cancel your trip because of illness"; the contexts' own form
    may be another sentence's, "Cancellation cover")."""
    hits = sum(1 for t in terms if t in window or match(t) in window)
    if hits * 2 >= len(terms):
        return True
    rooted = _window_stems(window)
    hits += sum(
        1
        for t in terms
        if t not in window
        and match(t) not in window
        and t.isascii()
        and not rooted.isdisjoint(stems(t))
    )
    return hits * 2 >= len(terms)


@lru_cache(maxsize=4096)
def _window_stems(window: frozenset[str]) -> frozenset[str]:
    """The stems of a window's words (derivations and inflections: cancel, cancellation)."""
    return frozenset(s for w in window if w.isascii() and w.isalpha() for s in stems(w))


@lru_cache(maxsize=4096)
def _window_terms(text: str) -> frozenset[str]:
    """A sentence's content words and Chinese character pairs (no single characters:
    two sentences on 利息 and 利率 are not one subject)."""
    words = {t for t in tokenize(text) if t.isascii() and t not in STOPWORDS and not t.isdigit()}
    for run in _CJK.findall(text):
        words.update(run[i : i + 2] for i in range(len(run) - 1))
    return frozenset(words)


def cause_problem(
    claim: str,
    passages: Sequence[tuple[str, ...]],
    match: Callable[[str], str | None],
    label: str,
) -> str | None:
    """Why ``claim``'s cause or consequence is not the contexts' own, or None.

    ``passages``: each context's sentences; ``match``: a claim word as the contexts write
    it (an inflection, a synonym) or None. The link is the contexts' when one sentence
    (with the one before it) holds both sides and says a cause in any words, or when two
    neighbouring sentences on one subject (a shared word: "Unused leave is not paid out.
    Unused days are forfeited.") hold one side each."""
    if not claim.isascii() and len(_ASCII_WORDS.findall(claim)) > 1:
        return None  # half English, half Chinese: its sides are not worded as the contexts
    sides = _sides(claim)
    if sides is None:
        return None
    effect, cause = (_terms(side) for side in sides)
    if not effect or not cause:
        return None  # "because of this": nothing to look for
    for sentences in passages:
        previous: frozenset[str] = frozenset()
        for sentence in sentences:
            here = _window_terms(sentence)
            window = here | previous
            if _covered(effect, window, match) and _covered(cause, window, match):
                if _CONTEXT_CAUSE.search(sentence) is not None and (
                    _ANAPHOR.match(sentence) is not None
                    or (_covered(effect, here, match) and _covered(cause, here, match))
                ):
                    return None  # "…, driven by …"; "… . This reflects …"
                if previous & here and not (
                    _covered(effect, here, match) and _covered(cause, here, match)
                ):
                    return None  # one subject over two sentences, one side in each
            previous = here
    link = _CLAIM_CAUSE.search(claim)
    cue = link.group().strip() if link is not None else "because"
    return f"{label} give no cause or consequence that joins the two sides of {cue!r}"


# A cause told within one sentence: the claim cues, and "增长主要来自…" (the share a
# figure's growth comes from), read only against a sentence that gives a cause itself.
_OWN_CAUSE = re.compile(rf"{_CLAIM_CAUSE.pattern}|主要来自|来自于|源自", re.IGNORECASE)
_CONJUNCT = re.compile(r"\s*(?:以及|及|和|与|、|，|,|;|；)\s*|\s+(?:and|as\s+well\s+as)\s+")


def may_own_cause(claim: str, raw: Sequence[str]) -> bool:
    """A cheap look before ``cause_swap_problem``: a cue word, or 来自/源自."""
    return may_cause(claim, raw) or (not claim.isascii() and ("来自" in claim or "源自" in claim))


def _own_sides(text: str) -> tuple[str, str, str] | None:
    """(effect, cause, all before the cue) of a text that joins them with a cue (as
    ``_sides``; the cause runs to the sentence's end, its conjuncts being its parts)."""
    m = _OWN_CAUSE.search(text)
    if m is None or len(text[: m.start()].strip(" ,，")) < 2:
        return None
    before = text[: m.start()]
    effect = next((p for p in reversed(_CLAUSE_END.split(before)) if _terms(p)), "")
    after = _CAUSE_END.split(text[m.end() :])[0]
    return effect, after, before


# Where a cause told to the sentence's end stops: the sentence's end, an aside or a
# citation (``(Source: …)``, ``[1]``, ``— Handbook``), what offsets it.
_CAUSE_END = re.compile(
    r"[。;；!?！？(（\[【]|\.(?!\d)|\s[—–-]+\s|,\s*(?:partly|partially|offset|which|while)\b"
)


def cause_swap_problem(
    claim: str, sentence: str, match: Callable[[str], str | None], label: str
) -> str | None:
    """Why ``claim`` gives the effect of ``sentence``, the context sentence it matched, with
    another cause, or None.

    The sentence joins an effect to its cause (``利润率改善主要得益于理赔经验优于预期以及营运
    费用控制``, ``Growth was moderate because the low interest-rate environment compressed
    investment spreads``); ``cause_problem`` passes a claim whose cause takes half its words
    from anywhere in that sentence. Here each part of the claim's cause (cut at 以及/和/、/
    and) that is not the sentence's cause fails when it shares no word with that cause
    (``…得益于投资回报上升以及营运费用控制``; Chinese only: an English cause is often told
    in words of its own) or when half its words are the sentence's words for something else
    (``… because the fee-alignment rule compressed investment spreads``, the rule being
    what offsets it); a cause reworded (``low interest rates squeezed investment spreads``)
    passes."""
    ours, theirs = _own_sides(claim), _own_sides(sentence)
    if ours is None or theirs is None:
        return None
    effect = _terms(ours[0])
    before = frozenset(_terms(theirs[2]))
    if not effect or not _covered(effect, before, match):
        return None  # another effect: not the cause this sentence gives
    cause = frozenset(_terms(theirs[1]))
    rooted = _window_stems(cause)
    own = before | frozenset(_terms(ours[2]))
    there = _window_terms(sentence)
    told = ours[1] if claim.isascii() else _CJK_CLAUSE.split(ours[1])[0]
    for part in _CONJUNCT.split(told):
        terms = [t for t in _terms(part) if t not in _CJK_FUNCTION]
        weight = sum(1.0 if t.isascii() else 0.5 for t in terms)
        if weight < 1.5:
            continue
        hits = [
            t in cause or match(t) in cause or (t.isascii() and not rooted.isdisjoint(stems(t)))
            for t in terms
        ]
        if sum(hits) * 2 > len(terms):
            continue  # the sentence's cause, maybe reworded
        # the sentence's words for something else (what offsets the cause, its subject)
        other = [t for t in terms if t not in cause and t not in own and t in there]
        if (not any(hits) and not part.isascii()) or (
            len(other) >= 2 and len(other) * 2 >= len(terms)
        ):
            return f"gives {part.strip()!r} as the cause where {label} give {theirs[1].strip()!r}"
    return None


_CJK_FUNCTION = frozenset(["以及", "主要", "得益", "益于"])
# A Chinese cause ends at its clause (a comma there starts the next fact, not a list).
_CJK_CLAUSE = re.compile(r"[，,]")


def another_cause(
    claim: str, references: Sequence[str], match: Callable[[str], str | None]
) -> tuple[str, str] | None:
    """answer_accuracy: ``(reference sentence, the claim's cause)`` when the reference
    gives a cause for the claim's effect and the claim names another one ("fell 8%,
    原因是营运支出增加" against "fell 8%, 原因是保险销售减少"), else None.

    Only a reference that joins the effect to a cause with a cue word counts, and the
    claim's cause may take its words from anywhere in that sentence: a cause reworded
    (``because of`` for ``due to``) or one the reference does not give for this effect
    is no contradiction."""
    sides = _sides(claim)
    if sides is None:
        return None
    effect, cause = (_terms(side) for side in sides)
    if not effect or not cause:
        return None
    for sentence in references:
        own = _sides(sentence)
        if own is None or not _covered(effect, frozenset(_terms(own[0])), match):
            continue
        if _covered(cause, _window_terms(sentence), match):
            return None
        return sentence, sides[1].strip(" ，,。.")
    return None


def labelled_cause(previous: str, line: str) -> str | None:
    """A label line naming the cause of the line before it ("- **Change:** profit fell
    8%" / "- **Cause:** lower sales"; "原因：…") read as the one claim it abbreviates
    ("profit fell 8% because of lower sales"), or None when ``line`` is no such label."""
    m = _CAUSE_LABEL.match(line)
    if m is None or not line[m.end() :].strip():
        return None
    effect = re.sub(
        r"^\s*(?:[-*•·]\s*)?(?:(?:\*\*|__)[^*_:：]{1,30}[:：]?(?:\*\*|__)\s*[:：]?)?", "", previous
    )
    cause = line[m.end() :].strip()
    if not effect.strip():
        return None
    if effect.isascii():
        return f"{effect.strip().rstrip('.')} because of {cause}"
    return f"{effect.strip().rstrip('。')}，原因是{cause}"


_LABEL_AT = re.compile(rf"{_CAUSE_LABEL_TEXT}\S", re.IGNORECASE)


def has_cause_label(text: str) -> bool:
    """Whether a line of ``text`` is a label naming a cause ("- **Cause:** …", "原因：…").

    A label has a colon; the pattern is tried where a line starts only (a search for
    ``(?:^|\n)…`` tries every position of the text: ~5 µs for a 500-character answer)."""
    if ":" not in text and "：" not in text:
        return False
    at = 0
    while True:
        if _LABEL_AT.match(text, at) is not None:
            return True
        at = text.find("\n", at) + 1
        if not at:
            return False


def may_cause_text(text: str) -> bool:
    """``may_cause(text, tokenize(text))``, without the tokens for ASCII text with no
    apostrophe: its tokens are its lower-cased letter-and-digit runs, read here by a
    translation to bytes and a split (about half the cost of the pattern)."""
    if text.isascii() and "'" not in text:
        runs = text.lower().encode("ascii").translate(_RUNS_ONLY).split()
        return not _CUE_BYTES.isdisjoint(runs)
    return may_cause(text, tokenize(text))


_CUE_BYTES = frozenset(w.encode("ascii") for w in _CLAIM_CUE_WORDS)
