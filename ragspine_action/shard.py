"""Stable shard assignment for ``--shard i/n``: the same split on every machine and Python.

A case belongs to shard ``i`` (1-based) of ``n`` when the first 8 bytes of
``sha256(id as UTF-8)``, read as a big-endian integer, are ``i - 1`` modulo ``n``.
Python's ``hash`` is salted per process, so it is never used here.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from .errors import ConfigError

__all__ = ["MAX_SHARDS", "Shard", "parse_shard", "select_shard", "shard_of"]

MAX_SHARDS = 1024

_T = TypeVar("_T")


@dataclass(frozen=True)
class Shard:
    """Shard ``index`` (1-based) of ``count``."""

    index: int
    count: int

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


def parse_shard(raw: str, option: str = "--shard") -> Shard:
    """'2/4' → Shard(2, 4); a one-line ConfigError naming ``option`` otherwise."""
    text = raw.strip()
    left, sep, right = text.partition("/")
    if not sep or not left.isascii() or not right.isascii():
        raise ConfigError(f"{option}: {raw!r} is not of the form i/n (e.g. 1/4)")
    if not (left.isdigit() and right.isdigit()):
        raise ConfigError(f"{option}: {raw!r} is not of the form i/n (e.g. 1/4)")
    index, count = int(left), int(right)
    if not 1 <= count <= MAX_SHARDS:
        raise ConfigError(f"{option}: {raw!r}: n must be between 1 and {MAX_SHARDS}")
    if not 1 <= index <= count:
        raise ConfigError(f"{option}: {raw!r}: i must be between 1 and n ({count})")
    return Shard(index, count)


def shard_of(case_id: str, count: int) -> int:
    """The 1-based shard of ``case_id`` among ``count`` shards."""
    digest = hashlib.sha256(case_id.encode("utf-8", "surrogatepass")).digest()
    return int.from_bytes(digest[:8], "big") % count + 1


def select_shard(
    items: Sequence[_T], ids: Sequence[str], shard: Shard
) -> tuple[list[_T], list[int]]:
    """The items of ``shard`` and their positions in ``items`` (the golden order)."""
    chosen: list[_T] = []
    positions: list[int] = []
    for position, (item, case_id) in enumerate(zip(items, ids, strict=True)):
        if shard_of(case_id, shard.count) == shard.index:
            chosen.append(item)
            positions.append(position)
    return chosen, positions
