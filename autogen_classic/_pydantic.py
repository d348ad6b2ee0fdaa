"""The classic private ``autogen._pydantic`` path: pydantic helpers classic code and tests import.

This package needs pydantic 2; the helpers live in ``autogen_classic.tools.function_utils``.
"""

from __future__ import annotations

from pydantic import VERSION as PYDANTIC_VERSION
from pydantic.json_schema import JsonSchemaValue

from .tools.function_utils import model_dump, model_dump_json, type2schema

PYDANTIC_V1 = False

__all__ = ["PYDANTIC_V1", "PYDANTIC_VERSION", "JsonSchemaValue", "model_dump", "model_dump_json", "type2schema"]
