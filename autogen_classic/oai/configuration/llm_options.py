"""The options of an ``llm_config``, declared once for both of its takers.

An ``llm_config`` is checked where it is built (``LLMConfig``, which turns values such as ``"60"``
into ``60``) and where it is used (``OpenAIWrapper``, which takes values as given, so its model is
strict). Both check the options they share against ``SharedOptions``, so they accept the same
values for them; ``LLMConfigOptions`` adds the keywords only ``LLMConfig`` declares. Each taker
keeps its own rules beyond these (the wrapper's ``timeout > 0``, ``LLMConfig``'s ``cache_seed``
as a whole number) and its own error wording.

Lives in ``oai`` because ``llm_config`` is built on ``oai`` (its typed entries, the config-list
helpers): the wrapper may not import ``llm_config`` without an import circle.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Optional, Union

import openai
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, ValidatorFunctionWrapHandler, WrapValidator
from pydantic_core import PydanticCustomError

__all__ = ["LLMConfigOptions", "ResponseFormat", "Seconds", "SharedOptions"]


def _one_error_for_seconds(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
    # One error for the field, not one per branch of the union: messages name the field, not the branches.
    try:
        return handler(value)
    except ValidationError:
        raise PydanticCustomError("float_type", "Input should be a valid number") from None


def _model_class_only(value: Any) -> Any:
    if isinstance(value, type) and not issubclass(value, BaseModel):
        raise ValueError("a class used as response_format must be a pydantic BaseModel subclass")
    return value


# Seconds to wait for an answer: a number, or an ``openai.Timeout`` (separate connect/read limits).
Seconds = Annotated[Union[int, float, openai.Timeout], WrapValidator(_one_error_for_seconds)]
# Structured output: a pydantic model class (or instance), a JSON-schema or OpenAI ``response_format`` dict, or a str.
ResponseFormat = Annotated[Union[str, dict[str, Any], BaseModel, type], AfterValidator(_model_class_only)]


class SharedOptions(BaseModel):
    """The options both ``LLMConfig`` and ``OpenAIWrapper`` declare, with the values both accept."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    seed: Optional[int] = None
    timeout: Optional[Seconds] = None
    response_format: Optional[ResponseFormat] = None
    tools: Optional[list[Any]] = None
    functions: Optional[list[Any]] = None


class LLMConfigOptions(SharedOptions):
    """The keyword options of an ``LLMConfig`` beyond ``max_tokens``/``top_p``/``temperature`` (no others)."""

    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)

    check_every_ms: Optional[int] = None
    allow_format_str_template: Optional[bool] = None
    cache_seed: Optional[int] = None
    parallel_tool_calls: Optional[bool] = None
    tools: list[Any] = Field(default_factory=list)
    functions: list[Any] = Field(default_factory=list)
    routing_method: Optional[Literal["fixed_order", "round_robin"]] = None
