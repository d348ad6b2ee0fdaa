"""The function the internal runner calls: the wrapped function, recording each call as an attempt and handing the
turn to the validator (a result) or back to the runner (an error)."""

from __future__ import annotations

import functools
import inspect
from typing import TYPE_CHECKING, Annotated, Any, Callable

from ...import_utils import is_coroutine_callable
from ...tools.dependency_injection import Field as AG2Field
from ..group import AgentTarget, ReplyResult
from ..group.context_variables import ContextVariables
from .models import (
    ExecutionAttempt,
    ReliableToolContext,
    _get_reliable_tool_context,
    _set_reliable_tool_context,
    logger,
)
from .prompts import HYPOTHESIS_DESCRIPTION

if TYPE_CHECKING:
    from ..conversable_agent import ConversableAgent

__all__ = ["reliable_function_wrapper"]


def _split_result(result: Any) -> tuple[Any, Any]:
    """(the data kept as the result, the value whose text the validator judges).

    A function may return ``(data, text_for_validation)``: the first item is the result, the second is shown to
    the validator. A 1-tuple is both; an empty tuple is no data and empty text.
    """
    if isinstance(result, tuple):
        if len(result) >= 2:
            return result[0], result[1]
        if len(result) == 1:
            return result[0], result[0]
        return None, ""
    return result, result


def reliable_function_wrapper(
    tool_function: Callable[..., Any],
    validator: ConversableAgent,
    runner: ConversableAgent,
    context_variables_key: str,
) -> Callable[..., Any]:
    """The runner's version of ``tool_function`` (sync or async as it is).

    It takes the function's parameters plus two keyword-only ones: ``hypothesis`` (the model states what it
    expects, shown in the schema) and ``context_variables`` (injected by the group chat, where the run's context
    is kept). Each call is recorded as an attempt; it returns a ``ReplyResult`` handing the turn to the
    validator with the result's text, or back to the runner with the error.

    Args:
        tool_function: the function made reliable.
        validator: the agent that judges a result.
        runner: the agent that calls the function.
        context_variables_key: the key of the run's context in the context variables.
    """
    tool_name = getattr(tool_function, "__name__", "unknown_func")

    def failed(
        attempt: ExecutionAttempt, context_variables: Any, context: ReliableToolContext, error: Exception
    ) -> Any:
        text = f"{type(error).__name__}: {error}"
        logger.error("Wrapped function '%s' execution error: %s", tool_name, text, exc_info=True)
        attempt.error = text
        if attempt not in context.attempts:
            context.attempts.append(attempt)
        _set_reliable_tool_context(context_variables, context_variables_key, context)
        # An error needs no judging: the runner sees it and tries again.
        return ReplyResult(context_variables=context_variables, target=AgentTarget(runner),
                                 message=f"Function execution failed with error: {text}.")

    def succeeded(attempt: ExecutionAttempt, result: Any, context_variables: Any, context: ReliableToolContext) -> Any:
        attempt.result_data, shown = _split_result(result)
        try:
            attempt.result_str = str(shown) if shown is not None else ""
        except Exception as error:  # noqa: BLE001 - a __str__ that raises: fall back to repr
            logger.warning("Could not convert result string part to string, using repr() \n %s", error)
            attempt.result_str = repr(shown)
        if attempt not in context.attempts:
            context.attempts.append(attempt)
        _set_reliable_tool_context(context_variables, context_variables_key, context)
        return ReplyResult(context_variables=context_variables, target=AgentTarget(validator),
                                 message=attempt.result_str)

    wrapper: Callable[..., Any]
    if is_coroutine_callable(tool_function):

        @functools.wraps(tool_function)
        async def async_wrapper(*args: Any, hypothesis: str, context_variables: Any, **kwargs: Any) -> Any:
            context = _get_reliable_tool_context(context_variables, context_variables_key)
            attempt = ExecutionAttempt(attempt_args=list(args), attempt_kwargs=kwargs, hypothesis=hypothesis)
            try:
                result = await tool_function(*args, **kwargs)
            except Exception as error:  # noqa: BLE001 - any failure of the function is an attempt to retry
                return failed(attempt, context_variables, context, error)
            return succeeded(attempt, result, context_variables, context)

        wrapper = async_wrapper
    else:

        @functools.wraps(tool_function)
        def sync_wrapper(*args: Any, hypothesis: str, context_variables: Any, **kwargs: Any) -> Any:
            context = _get_reliable_tool_context(context_variables, context_variables_key)
            attempt = ExecutionAttempt(attempt_args=list(args), attempt_kwargs=kwargs, hypothesis=hypothesis)
            try:
                result = tool_function(*args, **kwargs)
            except Exception as error:  # noqa: BLE001 - any failure of the function is an attempt to retry
                return failed(attempt, context_variables, context, error)
            return succeeded(attempt, result, context_variables, context)

        wrapper = sync_wrapper

    wrapper.__signature__ = _wrapper_signature(tool_function)  # type: ignore[attr-defined]
    return wrapper


def _wrapper_signature(tool_function: Callable[..., Any]) -> inspect.Signature:
    """The function's signature with ``hypothesis`` and ``context_variables`` added as keyword-only parameters
    (after its own keyword-only ones, before its ``**kwargs``), returning a ``ReplyResult``."""
    kinds = inspect.Parameter
    params = list(inspect.signature(tool_function).parameters.values())
    positional = [p for p in params if p.kind in (kinds.POSITIONAL_ONLY, kinds.POSITIONAL_OR_KEYWORD)]
    var_positional = [p for p in params if p.kind == kinds.VAR_POSITIONAL]
    keyword_only = [p for p in params if p.kind == kinds.KEYWORD_ONLY]
    var_keyword = [p for p in params if p.kind == kinds.VAR_KEYWORD]
    added = [
        inspect.Parameter("hypothesis", kinds.KEYWORD_ONLY,
                          annotation=Annotated[str, AG2Field(description=HYPOTHESIS_DESCRIPTION)]),
        # The group chat recognizes this parameter by its type and fills it in; the model never sees it.
        inspect.Parameter("context_variables", kinds.KEYWORD_ONLY, annotation=ContextVariables),
    ]
    return inspect.Signature(
        parameters=positional + var_positional + keyword_only + added + var_keyword,
        return_annotation=ReplyResult,
    )
