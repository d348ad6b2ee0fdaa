"""The safeguard hooks of an agent: where its exchanges with tools, the model and the human can be checked.

Five hook lists join ``hook_lists`` (AG2 Classic 0.14 names them so): ``safeguard_tool_inputs`` (the
``{"name", "arguments"}`` of a call, before the tool runs), ``safeguard_tool_outputs`` (the tool's
result dict), ``safeguard_llm_inputs`` (the messages about to go to the model), ``safeguard_llm_outputs``
(the model's reply) and ``safeguard_human_inputs`` (the text a human typed). Each hook gets the value and
returns it, changed or not; the hooks of a list run in the order registered.

A hook stops an exchange by returning a :class:`SafeguardBlock` (the text to use instead): the tool is
not run and the text is its result, the model is not asked and the text is the agent's reply, the
human's text is replaced. Returning None from an input hook of the model blocks the call as AG2
Classic 0.14 does ("LLM call blocked by safeguard"); from the other hooks it is an error.
Safeguard policies (``agentchat.group.safeguards``) register their checks here; the agent core knows
nothing of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional, Union

if TYPE_CHECKING:
    from ...conversable_agent import ConversableAgent

__all__ = [
    "LLM_CALL_BLOCKED", "SAFEGUARD_HOOKS", "SafeguardBlock", "SafeguardHooksMixin", "a_guarded_tool_call",
    "checked_human_input", "guarded_model_reply", "guarded_model_request", "guarded_tool_call", "has_llm_hooks",
    "has_tool_hooks",
]

Result = tuple[bool, dict[str, Any]]  # what executing a call returns: (success, the result dict)

SAFEGUARD_HOOKS = (
    "safeguard_tool_inputs",
    "safeguard_tool_outputs",
    "safeguard_llm_inputs",
    "safeguard_llm_outputs",
    "safeguard_human_inputs",
)

# The reply of a model call an input hook blocked by returning None (AG2 Classic 0.14's text).
LLM_CALL_BLOCKED = "LLM call blocked by safeguard"


class SafeguardBlock(str):
    """What a safeguard hook returns to stop an exchange: the text that stands in for it."""


def _run(hooks: list[Callable[..., Any]], value: Any, stop_on_none: bool) -> Any:
    for hook in hooks:
        value = hook(value)
        if isinstance(value, SafeguardBlock) or (value is None and stop_on_none):
            return value
    return value


def _returned_none(hook_list: str) -> ValueError:
    return ValueError(
        f"{hook_list} hook returned None: a safeguard hook returns the value it was given (changed or not), or a "
        "SafeguardBlock with the text to use instead."
    )


class SafeguardHooksMixin:
    """The ``_process_*`` methods of ``ConversableAgent`` that pass values through its safeguard hooks."""

    hook_lists: dict[str, list[Callable[..., Any]]]

    def _process_tool_input(self, tool_input: dict[str, Any]) -> Union[dict[str, Any], SafeguardBlock, None]:
        """A tool call (``{"name", "arguments"}``) after the ``safeguard_tool_inputs`` hooks."""
        hooks = self.hook_lists["safeguard_tool_inputs"]
        return _run(hooks, tool_input, stop_on_none=True)  # type: ignore[no-any-return]

    def _process_tool_output(self, response: dict[str, Any]) -> Any:
        """A tool's result dict after the ``safeguard_tool_outputs`` hooks."""
        return _run(self.hook_lists["safeguard_tool_outputs"], response, stop_on_none=False)

    def _process_llm_input(self, messages: list[dict[str, Any]]) -> Union[list[dict[str, Any]], SafeguardBlock, None]:
        """The messages for the model after the ``safeguard_llm_inputs`` hooks (None: the call is blocked)."""
        return _run(self.hook_lists["safeguard_llm_inputs"], messages, stop_on_none=True)  # type: ignore[no-any-return]

    def _process_llm_output(self, response: Union[str, dict[str, Any]]) -> Any:
        """The model's reply after the ``safeguard_llm_outputs`` hooks."""
        return _run(self.hook_lists["safeguard_llm_outputs"], response, stop_on_none=False)

    def _process_human_input(self, human_input: str) -> Optional[str]:
        """The human's text after the ``safeguard_human_inputs`` hooks."""
        hooks = self.hook_lists["safeguard_human_inputs"]
        return _run(hooks, human_input, stop_on_none=True)  # type: ignore[no-any-return]

    def reset_safeguards(self) -> None:
        """Remove every safeguard hook of this agent (``process_message_before_send`` hooks are kept)."""
        for name in SAFEGUARD_HOOKS:
            self.hook_lists[name].clear()


# ---------------------------------------------------------------- used by the built-in replies
def _blocked_result(func_call: dict[str, Any], text: str) -> tuple[bool, dict[str, Any]]:
    return False, {"name": func_call.get("name", ""), "role": "function", "content": str(text)}


def _checked_call(agent: "ConversableAgent", func_call: dict[str, Any]) -> Union[dict[str, Any], SafeguardBlock]:
    checked = agent._process_tool_input(dict(func_call))
    if checked is None:
        raise _returned_none("safeguard_tool_inputs")
    return checked


def _checked_result(agent: "ConversableAgent", result: tuple[bool, dict[str, Any]]) -> tuple[bool, dict[str, Any]]:
    success, response = result
    checked = agent._process_tool_output(response)
    if checked is None:
        raise _returned_none("safeguard_tool_outputs")
    if isinstance(checked, SafeguardBlock):
        checked = {**response, "content": str(checked)}
    return success, checked


def guarded_tool_call(
    agent: "ConversableAgent", execute: Callable[..., tuple[bool, dict[str, Any]]]
) -> Callable[..., tuple[bool, dict[str, Any]]]:
    """``execute`` (an agent's ``execute_function``) with the agent's tool hooks around each call."""

    def run(func_call: dict[str, Any], call_id: Optional[str] = None, verbose: bool = False) -> Result:
        checked = _checked_call(agent, func_call)
        if isinstance(checked, SafeguardBlock):
            return _blocked_result(func_call, checked)
        return _checked_result(agent, execute(checked, call_id=call_id, verbose=verbose))

    return run


def a_guarded_tool_call(agent: "ConversableAgent", a_execute: Callable[..., Any]) -> Callable[..., Any]:
    """The async twin of :func:`guarded_tool_call` (for ``a_execute_function``)."""

    async def run(func_call: dict[str, Any], call_id: Optional[str] = None, verbose: bool = False) -> Result:
        checked = _checked_call(agent, func_call)
        if isinstance(checked, SafeguardBlock):
            return _blocked_result(func_call, checked)
        return _checked_result(agent, await a_execute(checked, call_id=call_id, verbose=verbose))

    return run


def has_tool_hooks(agent: Any) -> bool:
    """Whether ``agent`` checks its tool calls (a 0.7.3-style agent without the hook lists does not)."""
    hooks = getattr(agent, "hook_lists", {})
    return bool(hooks.get("safeguard_tool_inputs") or hooks.get("safeguard_tool_outputs"))


def has_llm_hooks(agent: Any) -> bool:
    """Whether ``agent`` checks what goes to and comes from its model."""
    hooks = getattr(agent, "hook_lists", {})
    return bool(hooks.get("safeguard_llm_inputs") or hooks.get("safeguard_llm_outputs"))


def guarded_model_request(
    agent: "ConversableAgent", messages: list[dict[str, Any]]
) -> Union[list[dict[str, Any]], dict[str, Any]]:
    """The messages to send to the model after the input hooks, or the reply that stands in for a blocked call."""
    checked = agent._process_llm_input(messages)
    if checked is None:
        return {"content": LLM_CALL_BLOCKED, "role": "assistant"}
    if isinstance(checked, SafeguardBlock):
        return {"content": str(checked), "role": "assistant"}
    return checked


def guarded_model_reply(agent: "ConversableAgent", reply: Union[str, dict[str, Any]]) -> Union[str, dict[str, Any]]:
    """The model's reply after the output hooks."""
    checked = agent._process_llm_output(reply)
    if checked is None:
        raise _returned_none("safeguard_llm_outputs")
    if isinstance(checked, SafeguardBlock):
        return str(checked)
    return checked  # type: ignore[no-any-return]


def checked_human_input(agent: "ConversableAgent", reply: str) -> str:
    """The human's text after the agent's ``safeguard_human_inputs`` hooks."""
    checked = agent._process_human_input(reply)
    if checked is None:
        raise _returned_none("safeguard_human_inputs")
    return str(checked) if isinstance(checked, SafeguardBlock) else checked
