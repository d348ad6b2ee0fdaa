"""An agent's history of one conversation: a list of message dicts that shares what it can.

A group chat manager forwards each message to every participant, and each of them stores it with
the same role and name: the same dict, once per participant (and once more in the manager's own
history of each). A :class:`History` keeps a :class:`SharedMessage` for such a message: one dict,
held by every history that stored it. Reading and serialising see an ordinary list of dicts.

A shared message must look private to each history, as in the classic packages, where every agent
has its own dicts: a script or hook that changes a message through one agent's history must not
change it in the others. So a history hands out its own copy of a shared message the first time
the message is taken out of the list (indexing, iterating, slicing, ``pop``, ``copy``), and keeps
that copy in its place; from then on the history holds a plain dict, as the reference does.
Code of this package that only reads uses :func:`peek` and :func:`last_of`, which copy nothing.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any, SupportsIndex, Union, overload

__all__ = ["History", "SharedMessage", "last_of", "own", "peek"]


class SharedMessage(dict):  # type: ignore[type-arg]
    """A stored message dict that several histories hold (never handed out by a :class:`History`)."""

    __slots__ = ()

    def __reduce_ex__(self, protocol: SupportsIndex) -> Any:
        # Pickled and copied as a plain dict: a copy belongs to whoever made it.
        return (dict, (dict(self),))


def own(message: Any) -> Any:
    """``message`` as a dict of its own: a plain copy of a shared message, any other value as it is."""
    return dict(message) if type(message) is SharedMessage else message


_get = list.__getitem__
_set = list.__setitem__


class History(list):  # type: ignore[type-arg]
    """One conversation of an agent: a ``list`` of message dicts, with shared messages copied when taken out."""

    __slots__ = ()

    def _owned(self, index: int) -> Any:
        item = _get(self, index)
        if type(item) is SharedMessage:
            item = dict(item)
            _set(self, index, item)
        return item

    def _own_all(self) -> None:
        for index in range(len(self)):
            self._owned(index)

    @overload
    def __getitem__(self, index: SupportsIndex) -> Any: ...
    @overload
    def __getitem__(self, index: slice) -> list[Any]: ...
    def __getitem__(self, index: Union[SupportsIndex, slice]) -> Any:
        if isinstance(index, slice):
            for position in range(*index.indices(len(self))):
                self._owned(position)
            return _get(self, index)
        return self._owned(index)  # type: ignore[arg-type]

    def __iter__(self) -> Iterator[Any]:
        index = 0
        while index < len(self):
            yield self._owned(index)
            index += 1

    def __reversed__(self) -> Iterator[Any]:
        index = len(self) - 1
        while index >= 0:
            if index < len(self):
                yield self._owned(index)
            index -= 1

    def pop(self, index: SupportsIndex = -1) -> Any:
        return own(list.pop(self, index))

    def copy(self) -> list[Any]:
        self._own_all()
        return list.copy(self)

    def __copy__(self) -> History:
        self._own_all()
        return History(list.copy(self))

    def __deepcopy__(self, memo: dict[int, Any]) -> History:
        return History(copy.deepcopy(list(map(own, list.__iter__(self))), memo))

    def __reduce_ex__(self, protocol: SupportsIndex) -> Any:
        # Shared messages travel as plain dicts (each history unpickles its own).
        return (History, (list(map(own, list.__iter__(self))),))


def peek(messages: list[Any], index: int) -> Any:
    """Read ``messages[index]`` without taking a shared message out (for code that never changes it)."""
    return _get(messages, index) if isinstance(messages, list) else messages[index]


def last_of(messages: list[Any]) -> Any:
    """The last message of ``messages`` for reading only (None when empty)."""
    return peek(messages, -1) if messages else None
