"""A chat with one agent through a "user" agent: ag2 0.7.3's ``run(message)``, and the executor of
AG2 Classic 0.14's single-agent ``run`` (see :mod:`.run_api`)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Literal, Optional, Union

from ....coding.utils import content_str
from ....tools.tool import Tool

if TYPE_CHECKING:
    from ...chat import ChatResult
    from ...conversable_agent import ConversableAgent

__all__ = ["a_run_with_user", "executor_for_run", "run_with_user", "user_agent"]

USER_AGENT_NAME = "user"


def _terminates(message: dict[str, Any]) -> bool:
    content = message.get("content")
    return content is not None and "TERMINATE" in content


def _mentions_terminate(message: dict[str, Any]) -> bool:
    content = message.get("content")
    if content is None or isinstance(content, (str, list)):
        return "TERMINATE" in content_str(content)
    return "TERMINATE" in str(content)


def _tool_list(tools: Optional[Union[Tool, Iterable[Tool]]]) -> list[Tool]:
    if tools is None:
        return []
    if isinstance(tools, Tool):
        return [tools]
    return list(tools)


@contextmanager
def user_agent(
    agent: ConversableAgent,
    agent_class: type[ConversableAgent],
    executor_kwargs: Optional[dict[str, Any]],
    tools: Optional[Union[Tool, Iterable[Tool]]],
    human_input_mode: str,
) -> Iterator[ConversableAgent]:
    """A "user" agent that executes ``tools`` which ``agent`` may call; the tools are withdrawn from ``agent``
    afterwards.

    The user agent ends the chat on a message containing "TERMINATE" and runs code blocks in the "coding"
    directory with the classic Docker rule (``use_docker=True``), unless ``executor_kwargs`` gives its own
    ``is_termination_msg`` or ``code_execution_config``.
    """
    kwargs: dict[str, Any] = {
        "is_termination_msg": _terminates,
        "code_execution_config": {"work_dir": "coding", "use_docker": True},
    }
    kwargs.update(executor_kwargs or {})
    executor = agent_class(name=USER_AGENT_NAME, human_input_mode=human_input_mode, **kwargs)
    registered = _tool_list(tools)
    try:
        for tool in registered:
            tool.register_for_execution(executor)
            tool.register_for_llm(agent)
        yield executor
    finally:
        for tool in registered:
            agent.update_tool_signature(tool_sig=tool.tool_schema["function"]["name"], is_remove=True)


def run_with_user(
    agent: ConversableAgent,
    agent_class: type[ConversableAgent],
    message: str,
    tools: Optional[Union[Tool, Iterable[Tool]]],
    executor_kwargs: Optional[dict[str, Any]],
    max_turns: Optional[int],
    msg_to: Literal["agent", "user"],
    clear_history: bool,
    user_input: bool,
    summary_method: Any = "last_msg",
) -> ChatResult:
    """ag2 0.7.3's ``ConversableAgent.run(message, ...)``: the chat runs here, on the current console."""
    mode = "ALWAYS" if user_input else "NEVER"
    with user_agent(agent, agent_class, executor_kwargs, tools, mode) as user:
        first, second = (user, agent) if msg_to == "agent" else (agent, user)
        return first.initiate_chat(second, message=message, clear_history=clear_history, max_turns=max_turns,
                                   summary_method=summary_method)


async def a_run_with_user(
    agent: ConversableAgent,
    agent_class: type[ConversableAgent],
    message: str,
    tools: Optional[Union[Tool, Iterable[Tool]]],
    executor_kwargs: Optional[dict[str, Any]],
    max_turns: Optional[int],
    msg_to: Literal["agent", "user"],
    clear_history: bool,
    user_input: bool,
    summary_method: Any = "last_msg",
) -> ChatResult:
    """ag2 0.7.3's ``ConversableAgent.a_run(message, ...)``: the chat runs here, on the current console."""
    mode = "ALWAYS" if user_input else "NEVER"
    with user_agent(agent, agent_class, executor_kwargs, tools, mode) as user:
        first, second = (user, agent) if msg_to == "agent" else (agent, user)
        return await first.a_initiate_chat(second, message=message, clear_history=clear_history, max_turns=max_turns,
                                           summary_method=summary_method)


@contextmanager
def executor_for_run(
    agent: ConversableAgent,
    agent_class: type[ConversableAgent],
    executor_kwargs: Optional[dict[str, Any]],
    tools: Optional[Union[Tool, Iterable[Tool]]],
    agent_name: str = "executor",
    human_input_mode: str = "NEVER",
) -> Iterator[ConversableAgent]:
    """The agent that stands for the user in ``agent.run(message=...)`` (AG2 Classic 0.14): ``agent.run_executor``.

    Made on the first run with ``executor_kwargs`` (by default it ends the chat on a message mentioning
    "TERMINATE" and runs no code) and kept, so later runs continue the same conversation; each run sets its
    ``human_input_mode``. It executes ``tools`` and the agent's own tools; ``tools`` not yet offered to the
    model are offered for this run only.
    """
    kwargs = dict(executor_kwargs or {})
    kwargs.setdefault("is_termination_msg", _mentions_terminate)
    executor = getattr(agent, "run_executor", None)
    if executor is None:
        executor = agent_class(name=agent_name, human_input_mode=human_input_mode, **kwargs)
        agent.run_executor = executor  # type: ignore[attr-defined]
    executor.human_input_mode = human_input_mode
    passed = _tool_list(tools)
    everything = list(getattr(agent, "_tools", None) or [])
    everything += [tool for tool in passed if tool not in everything]
    offered = {
        entry["function"]["name"] for entry in (agent.llm_config or {}).get("tools", [])
        if isinstance(entry, dict) and isinstance(entry.get("function"), dict)
    }
    added: list[Tool] = []
    try:
        for tool in everything:
            tool.register_for_execution(executor)
        for tool in passed:
            if tool.tool_schema["function"]["name"] not in offered:
                tool.register_for_llm(agent)
                added.append(tool)
        yield executor
    finally:
        for tool in added:
            agent.update_tool_signature(tool_sig=tool.tool_schema["function"]["name"], is_remove=True)
