"""The new configs of topics whose dynamic configs changed, built a slice at a time (issue 27: a
metadata change carrying 1,000 ConfigRecords held the broker's event loop ~70 ms for the topics'
new log and leader configs). The replica manager adds the topics a change touched, builds a slice
per loop turn and, once every topic's is built, gives them all their new configs in one turn
(``take``): the logs still change config at one moment. A newer image wins: a topic its change
touches again is built again (``add``); when the inputs every topic shares change (the dynamic
broker configs) every topic is (``restart``). Pure bookkeeping: what a config is made of is the
caller's ``make``."""

from __future__ import annotations

import itertools
from typing import Callable, Generic, TypeVar

T = TypeVar("T")


class ConfigBuild(Generic[T]):
    """Topic name -> what ``make(name)`` built for it, for the topics added since the last take."""

    __slots__ = ("_todo", "_built", "shared")

    def __init__(self) -> None:
        self._todo: dict[str, None] = {}  # (ordered: built first added, first)
        self._built: dict[str, T] = {}
        self.shared: object = None  # what every topic's config was built over (the caller's)

    def __bool__(self) -> bool:
        return bool(self._todo or self._built)

    def __contains__(self, name: str) -> bool:
        return name in self._todo or name in self._built

    def add(self, names) -> None:
        """These topics' configs are (again) to be built: what was built for them is dropped."""
        for name in names:
            self._built.pop(name, None)
            self._todo[name] = None

    def restart(self) -> None:
        """Every topic's config is to be built again."""
        self.add(list(self._built))

    def build(self, make: Callable[[str], T], count: int) -> bool:
        """Build the configs of up to ``count`` topics; whether every topic's is built."""
        for name in list(itertools.islice(self._todo, count)):
            del self._todo[name]
            self._built[name] = make(name)
        return not self._todo

    def take(self) -> dict[str, T]:
        """What was built (every topic's, once build said so); the build starts empty again."""
        built, self._built, self._todo = self._built, {}, {}
        return built

    def clear(self) -> None:
        self._todo.clear()
        self._built.clear()
