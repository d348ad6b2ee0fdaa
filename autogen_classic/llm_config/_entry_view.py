"""``ConfigListEntry``: one endpoint of an ``LLMConfig``'s ``config_list``, as the plain dict agents use.

It is a ``dict`` (so every part of the package that reads a ``config_list`` entry keeps working, and
``json``/``pickle`` take it as it is) that also reads like the typed entry it was validated as:
``entry.model``, ``entry.api_type``, ``entry.model_dump()``, and a ``repr`` that names the typed
class and masks secrets, e.g. ``OpenAILLMConfigEntry(api_type='openai', model=..., api_key='**********')``.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic_core import to_jsonable_python

from ..oai.entries import entry_class_for, hide_secrets

__all__ = ["ConfigListEntry", "jsonable"]


def jsonable(data: Any) -> Any:
    """``data`` as JSON-ready values; what JSON cannot hold (a client object, a class) becomes its ``str``."""
    return json.loads(json.dumps(to_jsonable_python(data, fallback=str), default=str))


class ConfigListEntry(dict):  # type: ignore[type-arg]
    """A validated ``config_list`` entry: a plain dict with attribute reads and a repr that hides secrets."""

    __slots__ = ()

    @property
    def _typed_name(self) -> str:
        cls = entry_class_for(self.get("api_type"))
        return cls.__name__ if cls is not None else "LLMConfigEntry"

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        if name in self:
            return self[name]
        cls = entry_class_for(self.get("api_type"))
        field = cls.model_fields.get(name) if cls is not None else None
        if field is not None:
            # An unset field reads as its default (None for most), as on the typed entry.
            return field.get_default(call_default_factory=True)
        raise AttributeError(f"'{self._typed_name}' object has no attribute '{name}'")

    def __setattr__(self, name: str, value: Any) -> None:
        # ``entry.response_format = Model`` on an entry of ``llm_config.config_list``, as on AG2 0.14's typed
        # entries: a field of the typed entry is set in the dict, which is what requests are built from.
        cls = entry_class_for(self.get("api_type"))
        if name.startswith("_") or cls is None or name not in cls.model_fields:
            fields = ", ".join(sorted(cls.model_fields)) if cls is not None else ""
            raise AttributeError(
                f"'{self._typed_name}' object has no field '{name}'" + (f"; its fields are {fields}" if fields else "")
            )
        self[name] = value

    def model_dump(self, *args: Any, exclude_none: bool = True, **kwargs: Any) -> dict[str, Any]:
        """The entry as a new plain dict (secrets included: this is data, not a display)."""
        data = dict(self)
        if exclude_none:
            data = {k: v for k, v in data.items() if v is not None}
        if kwargs.get("mode") == "json":
            data = jsonable(data)
        return data

    def model_dump_json(self, *args: Any, exclude_none: bool = True, **kwargs: Any) -> str:
        """The entry as JSON text."""
        return json.dumps(jsonable(self.model_dump(exclude_none=exclude_none)))

    def __repr__(self) -> str:
        shown = hide_secrets(dict(self))
        return f"{self._typed_name}({', '.join(f'{k}={v!r}' for k, v in shown.items())})"

    def __str__(self) -> str:
        return repr(self)
