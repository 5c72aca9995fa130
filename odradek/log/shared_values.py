"""SharedValues: one immutable value per key, shared by every holder of an equal one (a broker's
100,000 partitions hold a handful of distinct ISRs, replica sets, one-entry epoch caches and
state-file contents: one object each, not one per partition). Bounded: a full table starts
afresh, so the values of the latest holders are the ones shared."""
from __future__ import annotations

from typing import Callable, Generic, Hashable, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class SharedValues(Generic[K, V]):
    __slots__ = ("_table", "_max")

    def __init__(self, max_entries: int = 4096):
        self._table: dict[K, V] = {}
        self._max = max_entries

    def get(self, key: K, make: Callable[[], V]) -> V:
        """The value shared for ``key``, made by ``make()`` the first time."""
        value = self._table.get(key)
        if value is None:
            if len(self._table) >= self._max:
                self._table.clear()
            value = self._table[key] = make()
        return value

    def __len__(self) -> int:
        return len(self._table)
