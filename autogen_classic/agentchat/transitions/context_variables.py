"""``ContextVariables``: the named values a group of agents shares (AG2 Classic 0.14).

One object serves two generations of code. AG2 0.14 code reads and writes it through its methods
(``get``, ``set``, ``ctx["key"]``, ``to_dict`` ...). ag2 0.7.3 swarm code keeps a plain dict in
``agent._context_variables``; :meth:`ContextVariables.wrap` puts such a dict inside a
``ContextVariables`` without copying it, so both views stay one storage.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable
from typing import Any

from pydantic import BaseModel, Field, field_validator

__all__ = ["ContextVariables"]

# A tool parameter of this name receives the shared context variables instead of a model argument.
__CONTEXT_VARIABLES_PARAM_NAME__ = "context_variables"


def _shown(value: Any) -> str:
    text = repr(value)
    return f"{type(value).__name__} {text if len(text) <= 60 else text[:57] + '...'}"


class ContextVariables(BaseModel):
    """Named values shared by the agents of a group chat, with a dict-like interface.

    Args:
        data: the initial variables (name -> value); None for none.
    """

    data: dict[str, Any] = Field(default_factory=dict)

    def __init__(self, data: dict[str, Any] | None = None, **kwargs: Any) -> None:
        # Keyword arguments are variables too: pydantic builds this model from a plain dict (a field typed
        # ContextVariables given {"name": value}) by calling __init__(**that_dict), and those names must not
        # be lost.
        data = data or {}
        if kwargs and isinstance(data, dict):
            data = {**data, **kwargs}
        super().__init__(data=data)

    @field_validator("data", mode="before")
    @classmethod
    def _data_is_a_dict(cls, value: Any) -> Any:
        if value is None:
            return {}
        if isinstance(value, ContextVariables):
            return value.to_dict()
        if not isinstance(value, dict):
            raise ValueError(
                f"ContextVariables data should be a dict of name -> value; got {_shown(value)}. "
                "Pass ContextVariables(data={'name': value})."
            )
        bad = [key for key in value if not isinstance(key, str)]
        if bad:
            raise ValueError(
                f"ContextVariables names should be str; got {_shown(bad[0])}. Use str keys, e.g. {{'{bad[0]}': ...}}."
            )
        return value

    @classmethod
    def wrap(cls, data: dict[str, Any]) -> ContextVariables:
        """A ``ContextVariables`` whose storage is ``data`` itself: changes through either show in both.

        Args:
            data: the dict to share (ag2 0.7.3 code keeps one per swarm and passes it around).
        """
        if not isinstance(data, dict):
            raise TypeError(f"ContextVariables.wrap needs a dict of name -> value; got {_shown(data)}.")
        variables = cls()
        variables.data = data  # no validation on assignment: the very dict is kept, not a copy
        return variables

    def get(self, key: str, default: Any | None = None) -> Any | None:
        """The value of ``key``, or ``default`` when there is none.

        Args:
            key: the variable's name.
            default: returned when the variable is not set.
        """
        return self.data.get(key, default)

    def set(self, key: str, value: Any) -> None:
        """Set the variable ``key`` to ``value``.

        Args:
            key: the variable's name.
            value: its new value.
        """
        self.data[key] = value

    def remove(self, key: str) -> bool:
        """Remove the variable ``key``; True when it was there.

        Args:
            key: the variable's name.
        """
        if key in self.data:
            del self.data[key]
            return True
        return False

    def keys(self) -> Iterable[str]:
        """The names of the variables."""
        return self.data.keys()

    def values(self) -> Iterable[Any]:
        """The values of the variables."""
        return self.data.values()

    def items(self) -> Iterable[tuple[str, Any]]:
        """The (name, value) pairs."""
        return self.data.items()

    def clear(self) -> None:
        """Remove every variable."""
        self.data.clear()

    def contains(self, key: str) -> bool:
        """Whether the variable ``key`` is set.

        Args:
            key: the variable's name.
        """
        return key in self.data

    def update(self, other: dict[str, Any]) -> None:
        """Set every variable of ``other`` (a dict, or another ``ContextVariables``).

        Args:
            other: name -> value pairs to set.
        """
        self.data.update(other.data if isinstance(other, ContextVariables) else other)

    def to_dict(self) -> dict[str, Any]:
        """A (shallow) copy of the variables as a dict."""
        return self.data.copy()

    def __getitem__(self, key: str) -> Any:
        try:
            return self.data[key]
        except KeyError:
            raise KeyError(f"Context variable '{key}' not found") from None

    def __setitem__(self, key: str, value: Any) -> None:
        self.data[key] = value

    def __delitem__(self, key: str) -> None:
        try:
            del self.data[key]
        except KeyError:
            raise KeyError(f"Cannot delete non-existent context variable '{key}'") from None

    def __contains__(self, key: object) -> bool:
        return key in self.data

    def __len__(self) -> int:
        return len(self.data)

    def __iter__(self) -> Generator[tuple[str, Any], None, None]:  # type: ignore[override]
        # (name, value) pairs, as in AG2 0.14 (so dict(ctx) gives the variables).
        for key in self.data:
            yield (key, self.data[key])

    def __str__(self) -> str:
        return f"ContextVariables({self.data})"

    def __repr__(self) -> str:
        return f"ContextVariables(data={self.data!r})"

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ContextVariables:
        """A new ``ContextVariables`` holding a copy of ``data``.

        Args:
            data: name -> value pairs.
        """
        return cls(data=data)
