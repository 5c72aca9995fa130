"""A group's member map that counts the members every walk over it visits: the storm tests'
measure of what a heartbeat or a tick costs (counted, not timed)."""

from __future__ import annotations


def counting(base: type) -> type:
    """A subclass of the member map ``base`` (ConsumerMembers, StreamsMembers) whose ``walked``
    counts the members each iteration visits."""

    class CountingMembers(base):
        def __init__(self, *args):
            super().__init__(*args)
            self.walked = 0

        def __iter__(self):
            self.walked += len(self)
            return super().__iter__()

        def values(self):
            self.walked += len(self)
            return super().values()

        def items(self):
            self.walked += len(self)
            return super().items()

        def keys(self):
            self.walked += len(self)
            return super().keys()

    return CountingMembers
