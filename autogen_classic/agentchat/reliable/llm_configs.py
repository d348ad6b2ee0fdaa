"""The model configurations of ``ReliableTool``'s agents: the runner's as given, the validator's asking for a
structured ``ValidationResult``."""

from __future__ import annotations

import copy
from typing import Any, Literal, Union

from pydantic import BaseModel

from ...llm_config import LLMConfig
from .models import logger

__all__ = ["_configure_llm_for_structured_output", "_validate_llm_config"]


def _validate_llm_config(
    llm_config: Union[LLMConfig, dict[str, Any], Literal[False], None],
) -> Union[LLMConfig, Literal[False]]:
    """``llm_config`` as an agent takes it: None and False mean no model (False), anything else an ``LLMConfig``."""
    if llm_config is None or llm_config is False:
        return False
    return LLMConfig.ensure_config(llm_config)


# Offering tools to a model asked for a JSON answer conflicts with it: they are taken out of the validator's config.
_CONFLICTING_KEYS = ("tools", "tool_choice", "functions")


def _configure_llm_for_structured_output(
    llm_config: Union[LLMConfig, dict[str, Any], None], structured_output_type: type[BaseModel]
) -> LLMConfig:
    """A copy of ``llm_config`` whose model must answer with ``structured_output_type`` (set as ``response_format``
    on the configuration and on each of its endpoints), without tools.

    Raises:
        ValueError: ``llm_config`` is None or False.
        TypeError: ``structured_output_type`` is not a pydantic model class.
    """
    if llm_config is None or llm_config is False:
        raise ValueError("LLMConfig cannot be None or False for structured output.")
    if not (isinstance(structured_output_type, type) and issubclass(structured_output_type, BaseModel)):
        raise TypeError(f"{structured_output_type} must be a Pydantic BaseModel subclass.")
    config = _validate_llm_config(copy.deepcopy(llm_config))
    if config is False:
        raise ValueError("Validated LLMConfig resolved to False unexpectedly.")
    for part in [config, *config.get("config_list", [])]:
        part["response_format"] = structured_output_type
        removed = [key for key in _CONFLICTING_KEYS if part.pop(key, None) is not None]
        if removed:
            logger.debug("Removed conflicting keys %s from LLM config for structured output (response_format=%s)",
                         removed, structured_output_type.__name__)
    return config
