"""Regex settings: the built-in patterns are valid, a user's pattern is checked.

``validate_config`` no longer compiles the built-in meta and period patterns one by one on
every run (the gates compile them joined); these tests are what vouches for them.
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from ragspine_action.config import RunConfig, validate_config
from ragspine_action.errors import ConfigError
from ragspine_action.gates.claims import DEFAULT_META_PATTERNS
from ragspine_action.gates.fabrication import DEFAULT_PERIOD_PATTERNS


@pytest.mark.parametrize("pattern", DEFAULT_PERIOD_PATTERNS + DEFAULT_META_PATTERNS)
def test_every_built_in_pattern_compiles(pattern: str) -> None:
    re.compile(pattern)


def test_the_default_config_is_valid() -> None:
    config = RunConfig()
    assert validate_config(config) is config


@pytest.mark.parametrize(
    ("field", "message"),
    [
        ("period_patterns", "--period-pattern: '(' is not a valid regular expression"),
        ("meta_patterns", "judge.meta_patterns: '(' is not a regex"),
    ],
)
def test_a_bad_pattern_beside_the_built_in_ones_is_refused(field: str, message: str) -> None:
    defaults = DEFAULT_PERIOD_PATTERNS if field == "period_patterns" else DEFAULT_META_PATTERNS
    config = replace(RunConfig(), **{field: (*defaults, "(")})
    with pytest.raises(ConfigError, match=re.escape(message)):
        validate_config(config)
