"""A chat with one agent through a "user" agent: ag2 0.7.3's ``run(message)``, and the executor of
AG2 Classic 0.14's single-agent ``run`` (see :mod:`.run_api`)."""

from __future__ import annotations

from collections.abc import Awaitable, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Callable, ContextManager, Optional, Union

from ....coding.utils import content_str
from ....tools.tool import Tool

if TYPE_CHECKING:
    from ...chat import ChatResult
    from ...conversable_agent import ConversableAgent

__all__ = ["chats_with_user", "executor_for_run", "user_agent"]

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


def chats_with_user(
    agent: ConversableAgent,
    user: Callable[[], ContextManager[ConversableAgent]],
    msg_to: str,
    arguments: dict[str, Any],
) -> tuple[Callable[[], ChatResult], Callable[[], Awaitable[ChatResult]]]:
    """The chat of ``agent`` with the agent ``user()`` stands in, in its sync and async forms.

    Args:
        agent: the agent the run belongs to.
        user: gives the agent standing for the user, for the chat only (``user_agent``, ``executor_for_run``).
        msg_to: "agent": the user sends the first message to ``agent``; "user": ``agent`` sends it.
        arguments: the ``initiate_chat`` arguments (``message``, ``clear_history``, ``max_turns`` ...).
    """

    def chat() -> ChatResult:
        with user() as stand_in:
            first, second = (stand_in, agent) if msg_to == "agent" else (agent, stand_in)
            return first.initiate_chat(second, **arguments)

    async def a_chat() -> ChatResult:
        with user() as stand_in:
            first, second = (stand_in, agent) if msg_to == "agent" else (agent, stand_in)
            return await first.a_initiate_chat(second, **arguments)

    return chat, a_chat


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
