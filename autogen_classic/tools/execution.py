"""Run the functions and tools a model asks for, and build the reply messages.

Everything here is a pure function of a ``function_map`` (name -> callable) and the
call data found in a model message, so an agent class only has to pick the message
and append the returned reply. Failures never raise: they become the ``"Error: ..."``
content the model sees, exactly like the classic ``ConversableAgent``.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import functools
import inspect
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Callable, Coroutine, Optional

from .. import runtime_logging
from ..exception_utils import InvalidAttributeTypeError
from ..io.base import IOStream
from ..events.chat_events import ExecutedFunctionEvent, ExecuteFunctionEvent
from ..io.emit import chat_is_silent, emit, emit_run_event
from .function_utils import load_basemodels_if_needed, serialize_to_str

__all__ = [
    "a_execute_function",
    "a_function_call_reply",
    "a_tool_calls_reply",
    "execute_function",
    "format_json_str",
    "function_call_reply",
    "is_async_callable",
    "run_coroutine_sync",
    "tool_calls_reply",
    "validate_function_map",
    "wrap_function",
]


def validate_function_map(function_map: Any) -> None:
    """Check that ``function_map`` is a dict of function name (str) -> callable.

    Args:
        function_map: the mapping an agent executes function and tool calls with.

    Raises:
        TypeError: naming ``function_map`` and, when one entry is wrong, the offending key.
    """
    if not isinstance(function_map, Mapping):
        error = TypeError if hasattr(function_map, "items") else InvalidAttributeTypeError
        # Classic AutoGen calls function_map.items(): without it the error is an AttributeError there.
        raise error(
            "function_map must be a dict mapping function names (str) to callables, "
            f"got {type(function_map).__name__}."
        )
    for key, value in function_map.items():
        if not isinstance(key, str):
            raise TypeError(
                f"function_map keys must be function names (str); key {key!r} is a {type(key).__name__}."
            )
        if not callable(value):
            raise TypeError(
                f"function_map[{key!r}] must be a callable (function or tool), got {type(value).__name__}: {value!r}."
            )


def is_async_callable(func: Any) -> bool:
    """Whether calling ``func`` gives a coroutine (async functions and objects with an async ``__call__``)."""
    if func is None:
        return False
    return inspect.iscoroutinefunction(func) or inspect.iscoroutinefunction(getattr(func, "__call__", None))


def wrap_function(
    func: Callable[..., Any], inject_params: Optional[dict[str, Any]] = None, *, source: Any = None,
    serialize: bool = True,
) -> Callable[..., Any]:
    """Wrap a tool so it accepts JSON-shaped arguments and returns message content.

    Dict arguments for ``pydantic.BaseModel`` parameters are loaded into model instances and
    the return value is turned into a string with ``serialize_to_str``. A sync function stays
    sync and an async one stays async; name and docstring are kept, and the original is
    available as ``wrapped._origin``. While runtime logging is on, each call that returns is
    logged (``log_function_use``: source, function, the model's arguments, the return value).

    Args:
        func: the function to wrap.
        inject_params: extra keyword arguments passed on every call (not visible to the model).
        source: the agent executing the calls, named in the runtime log.
        serialize: turn the return value into a string (False: return it as the function did).
    """
    extra = dict(inject_params or {})
    finish: Callable[[Any], Any] = serialize_to_str if serialize else (lambda value: value)

    if is_async_callable(func):

        @load_basemodels_if_needed
        @functools.wraps(func)
        async def _a_wrapped_func(*args: Any, **kwargs: Any) -> Any:
            returned = await func(*args, **{**kwargs, **extra})
            if runtime_logging.is_logging:
                runtime_logging.log_function_use(source, func, kwargs, returned)
            return finish(returned)

        wrapped: Callable[..., Any] = _a_wrapped_func
    else:

        @load_basemodels_if_needed
        @functools.wraps(func)
        def _wrapped_func(*args: Any, **kwargs: Any) -> Any:
            returned = func(*args, **{**kwargs, **extra})
            if runtime_logging.is_logging:
                runtime_logging.log_function_use(source, func, kwargs, returned)
            return finish(returned)

        wrapped = _wrapped_func

    wrapped._origin = func  # type: ignore[attr-defined]
    return wrapped


def format_json_str(jstr: str) -> str:
    """Repair the JSON argument strings models tend to produce.

    Newlines outside string literals are dropped; raw newlines, tabs and carriage returns
    inside string literals are escaped (``\\n``, ``\\t``, ``\\r``), so
    ``'{\\n"query": "print(1)\\nprint(2)"\\n}'`` parses as one object with a two-line query.

    Args:
        jstr: the ``arguments`` string of a function or tool call.
    """
    out: list[str] = []
    in_string = False
    escaped = False  # the previous character inside a string was an unescaped backslash
    for char in jstr:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
            if char == "\n":
                char = "\\n"
            elif char == "\t":
                char = "\\t"
            elif char == "\r":
                char = "\\r"
        elif char == '"':
            in_string = True
        elif char == "\n":
            continue
        out.append(char)
    return "".join(out)


def _parse_arguments(func_call: Mapping[str, Any]) -> tuple[Optional[dict[str, Any]], Optional[str]]:
    """``(arguments, None)`` when the call's arguments form a JSON object, else ``(None, error content)``."""
    raw = func_call.get("arguments", "{}")
    if raw is None or raw == "":
        raw = "{}"  # some servers send no arguments for parameterless functions
    if isinstance(raw, Mapping):
        return dict(raw), None
    try:
        arguments = json.loads(format_json_str(str(raw)))
    except json.JSONDecodeError as e:
        return None, f"Error: {e}\n The argument must be in JSON format."
    if not isinstance(arguments, dict):
        return None, (
            f"Error: the arguments must be a JSON object of named arguments, got {type(arguments).__name__}\n"
            " The argument must be in JSON format."
        )
    return arguments, None


def _print_executing(out: IOStream, func_name: str, call_id: Optional[str], arguments: Any, agent_name: str) -> None:
    emit(ExecuteFunctionEvent, out, func_name=func_name, call_id=call_id, arguments=arguments, recipient=agent_name)


def _print_executed(
    out: IOStream, func_name: str, call_id: Optional[str], arguments: Any, content: Any, agent_name: str,
    success: bool, verbose: bool,
) -> None:
    if verbose or not chat_is_silent():
        # AG2 Classic 0.14 reports every execution (0.7.3 only a verbose one); is_exec_success is kept for the
        # event of a run (the classic JSON has no such field).
        emit(ExecutedFunctionEvent, out, func_name=func_name, call_id=call_id, arguments=arguments,
             content=content, recipient=agent_name, is_exec_success=success)
    else:  # a silent chat: a run's stream still gets the event
        emit_run_event(ExecutedFunctionEvent, out, silent=True, func_name=func_name, call_id=call_id,
                       arguments=arguments, content=content, recipient=agent_name, is_exec_success=success)


def run_coroutine_sync(coro: Coroutine[Any, Any, Any]) -> Any:
    """Run ``coro`` to completion from sync code, even when this thread already runs an event loop."""
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if running is None:  # run outside the except block, so its errors do not carry this RuntimeError along
        return asyncio.run(coro)
    # A running loop cannot be re-entered: use a worker thread with its own loop, keeping
    # the caller's context (so the default IOStream stays the same).
    context = contextvars.copy_context()
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(context.run, asyncio.run, coro).result()


def _result(func_name: str, content: Any) -> dict[str, Any]:
    return {"name": func_name, "role": "function", "content": content}


def _prepare(
    function_map: Mapping[str, Callable[..., Any]], func_call: Mapping[str, Any]
) -> tuple[str, Optional[Callable[..., Any]], Any, Optional[str]]:
    """``(func_name, func, arguments, error_content)`` for a call; ``error_content`` set means do not call."""
    func_name = func_call.get("name", "") or ""
    func = function_map.get(func_name)
    if func is None:
        return func_name, None, {}, f"Error: Function {func_name} not found."
    arguments, error = _parse_arguments(func_call)
    if error is not None:  # the event shows no arguments (None), as AG2 Classic 0.14 shows them
        return func_name, func, None, error
    return func_name, func, arguments, None


def execute_function(
    function_map: Mapping[str, Callable[..., Any]], func_call: Mapping[str, Any], call_id: Optional[str] = None,
    verbose: bool = False, iostream: Optional[IOStream] = None, agent_name: str = "",
) -> tuple[bool, dict[str, Any]]:
    """Execute one function call and return ``(is_exec_success, result_dict)``.

    Args:
        function_map: function name -> callable.
        func_call: the ``function_call`` of a message, or the ``function`` of a tool call:
            a dict with ``name`` and ``arguments`` (a JSON string).
        call_id: the tool call id, shown in the printed lines.
        verbose: also print the function's output after it ran.
        iostream: where to print (default: ``IOStream.get_default()``).
        agent_name: the name of the executing agent, carried by the printed events.

    Returns:
        ``(True, {"name", "role": "function", "content": return value})`` on success;
        ``(False, {... "content": "Error: ..."})`` when the function is unknown, the arguments
        are not JSON, or the function raised. An async function is run to completion.
    """
    steps = _execution(function_map, func_call, call_id, verbose, iostream, agent_name)
    step = next(steps)
    if isinstance(step, _Awaiting):
        try:
            step.result = run_coroutine_sync(_await(step.awaitable))
        except Exception as e:  # noqa: BLE001 - the function's error, reported as its content
            step.error = e
        step = next(steps)
    return step  # type: ignore[no-any-return]


async def _await(awaitable: Any) -> Any:
    return await awaitable


async def a_execute_function(
    function_map: Mapping[str, Callable[..., Any]], func_call: Mapping[str, Any], call_id: Optional[str] = None,
    verbose: bool = False, iostream: Optional[IOStream] = None, agent_name: str = "",
) -> tuple[bool, dict[str, Any]]:
    """Async twin of ``execute_function``: async functions are awaited, sync ones called directly.

    Args:
        function_map: function name -> callable.
        func_call: a dict with ``name`` and ``arguments`` (a JSON string).
        call_id: the tool call id, shown in the printed lines.
        verbose: also print the function's output after it ran.
        iostream: where to print (default: ``IOStream.get_default()``).
    """
    steps = _execution(function_map, func_call, call_id, verbose, iostream, agent_name)
    step = next(steps)
    if isinstance(step, _Awaiting):
        try:
            step.result = await step.awaitable
        except Exception as e:  # noqa: BLE001 - see execute_function
            step.error = e
        step = next(steps)
    return step  # type: ignore[no-any-return]


@dataclass
class _Awaiting:
    """An awaitable a called function returned: the face awaits it (async) or runs it to completion (sync)
    and stores its ``result``, or the ``error`` it raised."""

    awaitable: Any
    result: Any = None
    error: Optional[Exception] = None

    def outcome(self) -> Any:
        if self.error is not None:
            raise self.error
        return self.result


def _execution(
    function_map: Mapping[str, Callable[..., Any]], func_call: Mapping[str, Any], call_id: Optional[str],
    verbose: bool, iostream: Optional[IOStream], agent_name: str,
) -> Iterator[Any]:
    """One function call, written once for ``execute_function`` and ``a_execute_function``, free of awaiting.

    Yields an ``_Awaiting`` when the function returned an awaitable (the face resolves it), then the
    ``(is_exec_success, result_dict)`` of the call, printing the execution lines around it.
    """
    out = iostream if iostream is not None else IOStream.get_default()
    func_name, func, arguments, content = _prepare(function_map, func_call)
    success = False
    if content is None and func is not None:
        _print_executing(out, func_name, call_id, arguments, agent_name)
        try:
            content = func(**arguments)
            if inspect.isawaitable(content):
                pending = _Awaiting(content)
                yield pending
                content = pending.outcome()
            success = True
        except Exception as e:
            content = f"Error: {e}"
    _print_executed(out, func_name, call_id, arguments, content, agent_name, success, verbose)
    yield success, _result(func_name, content)


# ``(func_call, call_id=..., verbose=...) -> (is_exec_success, result_dict)``: how a reply runs one call.
# An agent passes its (overridable) ``execute_function`` / ``a_execute_function`` methods here.
Executor = Callable[..., tuple[bool, dict[str, Any]]]
AsyncExecutor = Callable[..., Coroutine[Any, Any, tuple[bool, dict[str, Any]]]]


def _executors(
    function_map: Mapping[str, Callable[..., Any]],
    execute: Optional[Executor],
    a_execute: Optional[AsyncExecutor],
    iostream: Optional[IOStream],
) -> tuple[Executor, AsyncExecutor]:
    if execute is None:
        execute = functools.partial(execute_function, function_map, iostream=iostream)
    if a_execute is None:
        a_execute = functools.partial(a_execute_function, function_map, iostream=iostream)
    return execute, a_execute


def _run_sync(
    function_map: Mapping[str, Callable[..., Any]], func_call: Mapping[str, Any], call_id: Optional[str],
    verbose: bool, execute: Executor, a_execute: AsyncExecutor,
) -> tuple[bool, dict[str, Any]]:
    """Run one call from sync code: async functions through ``a_execute``, the others through ``execute``."""
    if is_async_callable(function_map.get(func_call.get("name", "") or "")):
        coroutine = a_execute(func_call, call_id=call_id, verbose=verbose)
        return run_coroutine_sync(_await(coroutine))  # type: ignore[no-any-return]
    return execute(func_call, call_id=call_id, verbose=verbose)


def _tool_response(tool_call_id: Optional[str], content: Any) -> dict[str, Any]:
    # A missing id is left out rather than sent as null (Mistral-style servers reject it).
    content = "" if content is None else content
    if tool_call_id is None:
        return {"role": "tool", "content": content}
    return {"tool_call_id": tool_call_id, "role": "tool", "content": content}


def _tool_reply(responses: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "role": "tool",
        "tool_responses": responses,
        "content": "\n\n".join(str(r.get("content", "")) for r in responses),
    }


def tool_calls_reply(
    function_map: Mapping[str, Callable[..., Any]], tool_calls: Optional[list[Mapping[str, Any]]],
    verbose: bool = False, iostream: Optional[IOStream] = None, execute: Optional[Executor] = None,
    a_execute: Optional[AsyncExecutor] = None,
) -> Optional[dict[str, Any]]:
    """Execute the ``tool_calls`` of a message one after another and build the tool reply.

    Args:
        function_map: function name -> callable.
        tool_calls: the message's ``tool_calls`` (each ``{"id", "type", "function": {"name", "arguments"}}``).
        verbose: also print each function's output.
        iostream: where to print (default: ``IOStream.get_default()``).
        execute: runs one call (default: ``execute_function`` on ``function_map``).
        a_execute: runs one call of an async function (default: ``a_execute_function``).

    Returns:
        ``{"role": "tool", "tool_responses": [{"tool_call_id", "role": "tool", "content"}, ...],
        "content": contents joined by blank lines}``, or ``None`` when there are no tool calls.
        Unknown functions give the content ``"Error: Function <name> not found."``.
    """
    run, a_run = _executors(function_map, execute, a_execute, iostream)
    responses = []
    for tool_call in tool_calls or []:
        _, result = _run_sync(function_map, tool_call.get("function") or {}, tool_call.get("id"), verbose, run, a_run)
        responses.append(_tool_response(tool_call.get("id"), result.get("content", "")))
    return _tool_reply(responses) if responses else None


async def a_tool_calls_reply(
    function_map: Mapping[str, Callable[..., Any]], tool_calls: Optional[list[Mapping[str, Any]]],
    verbose: bool = False, iostream: Optional[IOStream] = None, a_execute: Optional[AsyncExecutor] = None,
) -> Optional[dict[str, Any]]:
    """Async twin of ``tool_calls_reply``: the calls run concurrently, replies keep the call order.

    Args:
        function_map: function name -> callable.
        tool_calls: the message's ``tool_calls``.
        verbose: also print each function's output.
        iostream: where to print (default: ``IOStream.get_default()``).
        a_execute: runs one call (default: ``a_execute_function`` on ``function_map``).
    """
    _, a_run = _executors(function_map, None, a_execute, iostream)

    async def one(tool_call: Mapping[str, Any]) -> dict[str, Any]:
        _, result = await a_run(tool_call.get("function") or {}, call_id=tool_call.get("id"), verbose=verbose)
        return _tool_response(tool_call.get("id"), result.get("content", ""))

    calls = list(tool_calls or [])
    if not calls:
        return None
    return _tool_reply(list(await asyncio.gather(*(one(c) for c in calls))))


def function_call_reply(
    function_map: Mapping[str, Callable[..., Any]], message: Mapping[str, Any], verbose: bool = False,
    iostream: Optional[IOStream] = None, execute: Optional[Executor] = None, a_execute: Optional[AsyncExecutor] = None,
) -> Optional[dict[str, Any]]:
    """Execute a legacy ``function_call`` message and return the ``role: "function"`` reply.

    Args:
        function_map: function name -> callable.
        message: a message with a ``function_call`` (``{"name", "arguments"}``); its ``id``, if
            any, is used as the call id.
        verbose: also print the function's output.
        iostream: where to print (default: ``IOStream.get_default()``).
        execute: runs the call (default: ``execute_function`` on ``function_map``).
        a_execute: runs the call of an async function (default: ``a_execute_function``).

    Returns:
        ``{"name", "role": "function", "content"}``, or ``None`` when the message has no function call.
    """
    func_call = message.get("function_call")
    if not func_call:
        return None
    run, a_run = _executors(function_map, execute, a_execute, iostream)
    return _run_sync(function_map, func_call, message.get("id"), verbose, run, a_run)[1]


async def a_function_call_reply(
    function_map: Mapping[str, Callable[..., Any]], message: Mapping[str, Any], verbose: bool = False,
    iostream: Optional[IOStream] = None, execute: Optional[Executor] = None, a_execute: Optional[AsyncExecutor] = None,
) -> Optional[dict[str, Any]]:
    """Async twin of ``function_call_reply`` (async functions awaited, sync ones called directly).

    Args:
        function_map: function name -> callable.
        message: a message with a ``function_call``.
        verbose: also print the function's output.
        iostream: where to print (default: ``IOStream.get_default()``).
        execute: runs the call of a sync function (default: ``execute_function`` on ``function_map``).
        a_execute: runs the call of an async function (default: ``a_execute_function``).
    """
    func_call = message.get("function_call")
    if not func_call:
        return None
    run, a_run = _executors(function_map, execute, a_execute, iostream)
    call_id = message.get("id")
    if is_async_callable(function_map.get(func_call.get("name", "") or "")):
        return (await a_run(func_call, call_id=call_id, verbose=verbose))[1]
    return run(func_call, call_id=call_id, verbose=verbose)[1]
