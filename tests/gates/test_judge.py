"""The judge's fast sentence cut must give exactly the claims the look-behind regex gives."""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from ragspine_action.gates import judge

_REFERENCE = re.compile(r"(?<=[。！？；])|(?<=[.!?;])\s+|\n+")
TEXT = st.text(alphabet=st.sampled_from(list("ab Zk9.!?;:\n\t\r\u3000\xa0。[]()_")), max_size=80)


def _reference_claims(answer: str, cited: list[str]) -> list[str]:
    fast = judge._sentences
    try:
        judge._sentences = _REFERENCE.split  # type: ignore[assignment]
        return judge.split_claims(answer, cited)
    finally:
        judge._sentences = fast  # type: ignore[assignment]


@settings(max_examples=400, deadline=None)
@given(TEXT)
@example("It was 5. Source: Deck_2025.pptx\n\nMore text here!  And more;\nend")
@example("第一句。第二句！ Third one. Fourth")
@example("a.\r\n b\n\n\nc?")
def test_fast_sentence_cut_gives_the_same_claims(answer: str) -> None:
    assert judge.split_claims(answer, ["Deck_2025.pptx"]) == _reference_claims(
        answer, ["Deck_2025.pptx"]
    )


def test_a_full_stop_inside_a_file_name_does_not_cut() -> None:
    claims = judge.split_claims("Revenue rose in Deck_2025.pptx slides. Margins fell sharply.")
    assert claims == ["Revenue rose in Deck_2025.pptx slides.", "Margins fell sharply."]
