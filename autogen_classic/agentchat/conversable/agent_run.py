"""``ConversableAgent.run``: chat with an agent through a "user" agent made for the occasion."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Literal, Optional, Union

from ...tools.tool import Tool

if TYPE_CHECKING:
    from ..chat import ChatResult
    from ..conversable_agent import ConversableAgent

__all__ = ["a_run_with_user", "run_with_user", "user_agent"]

USER_AGENT_NAME = "user"


def _terminates(message: dict[str, Any]) -> bool:
    content = message.get("content")
    return content is not None and "TERMINATE" in content


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
) -> ChatResult:
    """Run ``ConversableAgent.run`` (see there)."""
    mode = "ALWAYS" if user_input else "NEVER"
    with user_agent(agent, agent_class, executor_kwargs, tools, mode) as user:
        first, second = (user, agent) if msg_to == "agent" else (agent, user)
        return first.initiate_chat(second, message=message, clear_history=clear_history, max_turns=max_turns)


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
) -> ChatResult:
    """Run ``ConversableAgent.a_run`` (see there)."""
    mode = "ALWAYS" if user_input else "NEVER"
    with user_agent(agent, agent_class, executor_kwargs, tools, mode) as user:
        first, second = (user, agent) if msg_to == "agent" else (agent, user)
        return await first.a_initiate_chat(second, message=message, clear_history=clear_history, max_turns=max_turns)
