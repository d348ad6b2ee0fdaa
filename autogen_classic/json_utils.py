"""JSON schema helpers (the classic ``autogen.json_utils``): inline the ``$ref`` references of a schema.

Some model APIs (Gemini among them) refuse schemas with ``$ref``; pydantic writes nested models
as ``{"$ref": "#/$defs/Model"}``. :func:`resolve_json_references` replaces each reference by
what it points to, so the schema reads on its own.
"""

from __future__ import annotations

import copy
from typing import Any
from urllib.parse import unquote

from .exception_utils import InvalidAttributeTypeError

__all__ = ["resolve_json_references"]


class RecursiveReferenceError(ValueError, RecursionError):
    """A schema whose references lead back to themselves (classic AutoGen ran into ``RecursionError``)."""


def _pointer_target(schema: dict[str, Any], ref: str) -> Any:
    """What the local reference ``ref`` (``#/a/b``, JSON-pointer escapes allowed) points to in ``schema``."""
    if not ref.startswith("#"):
        raise ValueError(
            f"Cannot resolve the JSON reference {ref!r}: only references inside the schema (starting with '#') "
            "are resolved. Inline the referenced schema, or put it under '$defs' and refer to '#/$defs/<name>'."
        )
    node: Any = schema
    pointer = unquote(ref[1:])
    for token in pointer.split("/")[1:] if pointer else []:
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        elif isinstance(node, dict) and token in node:
            node = node[token]
        else:
            raise ValueError(f"Unresolvable JSON pointer: {pointer.lstrip('/')!r} (the reference {ref!r} points nowhere "
                             "in the schema).")
    return node


def resolve_json_references(schema: dict[str, Any]) -> dict[str, Any]:
    """Return a copy of ``schema`` in which every ``$ref`` is replaced by the schema it refers to.

    A node holding ``$ref`` is replaced as a whole (its other keys are dropped), also at the top
    level; ``$defs`` / ``definitions`` stay in the result. ``schema`` itself is not changed.

    Args:
        schema (dict): the JSON schema with references (e.g. ``Model.model_json_schema()``).

    Returns:
        dict: the schema with the references resolved.

    Raises:
        InvalidAttributeTypeError: ``schema`` is not a dict (an ``AttributeError``, as classic AutoGen raised).
        ValueError: a reference points nowhere or leaves the schema (a URL).
        RecursiveReferenceError: a reference refers to itself (a recursive model cannot be inlined);
            also a ``ValueError`` and a ``RecursionError``.
    """
    if not isinstance(schema, dict):
        raise InvalidAttributeTypeError(
            f"resolve_json_references needs a JSON schema as a dict; got {type(schema).__name__} {schema!r:.60}. "
            "Pass the parsed schema (json.loads(text) or Model.model_json_schema())."
        )

    def resolve(node: Any, active: tuple[str, ...]) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                if ref in active:
                    raise RecursiveReferenceError(
                        f"The JSON reference {ref!r} refers to itself through {' -> '.join(active + (ref,))}: a "
                        "recursive schema cannot be inlined. Keep the references, or bound the recursion."
                    )
                return resolve(_pointer_target(schema, ref), active + (ref,))
            return {key: resolve(value, active) for key, value in node.items()}
        if isinstance(node, list):
            return [resolve(item, active) for item in node]
        return copy.deepcopy(node)

    return resolve(schema, ())  # type: ignore[no-any-return]
