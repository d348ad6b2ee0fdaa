"""Pydantic helpers (the classic private ``autogen._pydantic`` path): model dumps and type schemas.

This package needs pydantic 2. Imports nothing of the package: tools and agents build on it.
"""

from __future__ import annotations

from typing import Any

from pydantic import VERSION as PYDANTIC_VERSION
from pydantic import BaseModel, TypeAdapter
from pydantic.json_schema import JsonSchemaValue

PYDANTIC_V1 = False

__all__ = ["PYDANTIC_V1", "PYDANTIC_VERSION", "JsonSchemaValue", "model_dump", "model_dump_json", "type2schema"]


def type2schema(t: Any) -> JsonSchemaValue:
    """The JSON schema of a type (pydantic's rendering; nested models under a local ``$defs``).

    Args:
        t: the type, e.g. ``int``, ``list[str]`` or a ``pydantic.BaseModel`` subclass.
    """
    return TypeAdapter(t).json_schema()


def model_dump(model: BaseModel) -> dict[str, Any]:
    """``model.model_dump()``.

    Args:
        model: the pydantic model instance.
    """
    return model.model_dump()


def model_dump_json(model: BaseModel) -> str:
    """``model.model_dump_json()``.

    Args:
        model: the pydantic model instance.
    """
    return model.model_dump_json()
