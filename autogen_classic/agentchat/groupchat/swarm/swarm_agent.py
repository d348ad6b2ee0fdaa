"""SwarmAgent: a ConversableAgent with hand-offs, functions that see the swarm's context variables, and
state updates (e.g. its system message) before each reply.

Its hand-offs are the engine's: ``register_hand_off`` turns an ``ON_CONDITION`` into an ``OnCondition``
(a ``StringLLMCondition``, its ``available`` as an available condition; a nested-chat configuration as the
engine's ``NestedChatTarget``) and an ``AFTER_WORK`` into the agent's after-work target, in ``self.handoffs``.
"""

from __future__ import annotations

import warnings
from typing import Any, Callable, Literal, Optional, Union

from ....oai.client import OpenAIWrapper
from ....tools.function_utils import get_function_schema
from ...conversable_agent import ConversableAgent
from ...transitions import (
    AvailableCondition,
    OnCondition,
    StringAvailableCondition,
    StringLLMCondition,
)
from ..handoffs import NestedChatTarget
from .carryover import a_swarm_summary_from_nested_chats, check_carryover_config, swarm_summary_from_nested_chats
from .conditions import (
    AFTER_WORK,
    AFTER_WORK_KINDS,
    ON_CONDITION,
    UPDATE_SYSTEM_MESSAGE,
    InvalidAfterWorkError,
    SwarmMember,
    is_after_work_choice,
)
from .targets import SwarmAvailableCondition, SwarmTarget

__all__ = ["CONTEXT_VARIABLES_PARAM", "SwarmAgent", "SwarmNestedChatTarget", "offer_function", "withdraw_function"]

# A function with a parameter of this name gets the swarm's context variables (hidden from the model).
CONTEXT_VARIABLES_PARAM = "context_variables"


def _schema_without_context(func: Callable[..., Any], name: str, description: str) -> dict[str, Any]:
    """The tool schema of ``func``, without the injected ``context_variables`` parameter."""
    schema = get_function_schema(func, name=name, description=description)
    parameters = schema["function"]["parameters"]
    parameters.get("properties", {}).pop(CONTEXT_VARIABLES_PARAM, None)
    if "required" in parameters:
        parameters["required"] = [p for p in parameters["required"] if p != CONTEXT_VARIABLES_PARAM]
        if not parameters["required"]:
            del parameters["required"]
    return schema


def offer_function(agent: ConversableAgent, func: Callable[..., Any], name: Optional[str] = None,
                   description: str = "", silent_override: bool = False) -> None:
    """Make ``func`` one of ``agent``'s functions, as ag2 0.7.3's swarm does: its schema (without
    ``context_variables``) among the llm_config's tools, the function in ``function_map``.

    Args:
        agent: the agent (it needs an llm_config).
        func: the function.
        name: the tool name (default: the function's name).
        description: the tool description (default: the docstring).
        silent_override: do not warn when a tool of that name is replaced.
    """
    func._name = name or func.__name__  # type: ignore[attr-defined]
    func._description = description or (func.__doc__ or "").strip()  # type: ignore[attr-defined]
    schema = _schema_without_context(func, func._name, func._description)  # type: ignore[attr-defined]
    agent.update_tool_signature(schema, is_remove=False, silent_override=silent_override)
    agent.register_function({func._name: func}, silent_override=silent_override)  # type: ignore[attr-defined]


def withdraw_function(agent: ConversableAgent, name: str) -> None:
    """Undo :func:`offer_function` for the function ``name`` (nothing when it is not offered)."""
    config = agent.llm_config if isinstance(agent.llm_config, dict) else {}
    if any(tool.get("function", {}).get("name") == name for tool in config.get("tools") or []):
        agent.update_tool_signature(name, is_remove=True)
    agent._function_map.pop(name, None)


def _system_message_updater(update: UPDATE_SYSTEM_MESSAGE) -> Callable[[ConversableAgent, list[dict[str, Any]]],
                                                                      list[dict[str, Any]]]:
    """An ``update_agent_state`` hook applying ``update``."""

    def update_system_message(agent: ConversableAgent, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if isinstance(update.update_function, str):
            text = OpenAIWrapper.instantiate(template=update.update_function, context=agent._context_variables,
                                             allow_format_str_template=True)
        else:
            text = update.update_function(agent, messages)
        agent.update_system_message(text)
        return messages

    return update_system_message


class SwarmAgent(ConversableAgent):
    """An agent of a swarm (see ``initiate_swarm_chat``).

    Args (beyond ConversableAgent's; ``human_input_mode`` defaults to "NEVER"):
        functions: callables the agent may call as tools; a parameter named ``context_variables``
            receives the swarm's context variables and is not shown to the model.
        update_agent_state_before_reply: callables ``(agent, messages)`` and ``UPDATE_SYSTEM_MESSAGE``s run
            before each reply.
    """

    def __init__(
        self,
        name: str,
        system_message: Optional[str] = "You are a helpful AI Assistant.",
        llm_config: Optional[Union[dict[str, Any], Literal[False]]] = None,
        functions: Union[list[Callable[..., Any]], Callable[..., Any], None] = None,
        is_termination_msg: Optional[Callable[[dict[str, Any]], bool]] = None,
        max_consecutive_auto_reply: Optional[int] = None,
        human_input_mode: Literal["ALWAYS", "NEVER", "TERMINATE"] = "NEVER",
        description: Optional[str] = None,
        code_execution_config: Any = False,
        update_agent_state_before_reply: Optional[
            Union[list[Union[Callable[..., Any], UPDATE_SYSTEM_MESSAGE]], Callable[..., Any], UPDATE_SYSTEM_MESSAGE]
        ] = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(name, system_message, is_termination_msg, max_consecutive_auto_reply, human_input_mode,
                         llm_config=llm_config, description=description,
                         code_execution_config=code_execution_config, **kwargs)
        if isinstance(functions, list):
            bad = [f for f in functions if not callable(f)]
            if bad:
                raise TypeError(f"All elements in the functions list must be callable; agent {name!r} got {bad!r}.")
            self.add_functions(functions)
        elif callable(functions):
            self.add_single_function(functions)
        elif functions is not None:
            raise TypeError(f"Functions must be a callable or a list of callables; agent {name!r} got "
                            f"{type(functions).__name__}.")
        self._after_work: Optional[AFTER_WORK] = None
        # The agents made for this agent's nested-chat hand-offs (kept: a later swarm run uses them again).
        self._nested_chat_agents: list[ConversableAgent] = []
        self.register_update_agent_state_before_reply(update_agent_state_before_reply)

    def __str__(self) -> str:
        # The text of a transfer tool's response.
        return f"SwarmAgent --> {self.name}"

    def register_update_agent_state_before_reply(
        self, functions: Optional[Union[list[Callable[..., Any]], Callable[..., Any], UPDATE_SYSTEM_MESSAGE]]
    ) -> None:
        """Run ``functions`` (callables ``(agent, messages)`` or ``UPDATE_SYSTEM_MESSAGE``s) before each reply."""
        if functions is None:
            return
        items = functions if isinstance(functions, list) else [functions]
        for func in items:
            if isinstance(func, UPDATE_SYSTEM_MESSAGE):
                self.register_hook("update_agent_state", _system_message_updater(func))
            elif callable(func):
                self.register_hook("update_agent_state", func)
            else:
                raise ValueError(f"functions must be a list of callables or UPDATE_SYSTEM_MESSAGEs; agent "
                                 f"{self.name!r} got {func!r}.")

    def register_hand_off(
        self, hand_to: Union[list[Union[ON_CONDITION, AFTER_WORK]], ON_CONDITION, AFTER_WORK]
    ) -> None:
        """Register hand-offs: ``ON_CONDITION``s (transfer tools the model may call) and one ``AFTER_WORK``.

        Args:
            hand_to: an ON_CONDITION, an AFTER_WORK or a list of them.
        """
        if not isinstance(hand_to, (list, ON_CONDITION, AFTER_WORK)):
            raise ValueError(f"hand_to must be a list of ON_CONDITION or AFTER_WORK; agent {self.name!r} got "
                             f"{type(hand_to).__name__}.")
        for transit in hand_to if isinstance(hand_to, list) else [hand_to]:
            if isinstance(transit, AFTER_WORK):
                if not is_after_work_choice(transit.agent):
                    raise InvalidAfterWorkError(
                        f"Invalid After Work value: agent {self.name!r} got AFTER_WORK({transit.agent!r}) "
                        f"({type(transit.agent).__name__}); it accepts {AFTER_WORK_KINDS}.")
                self.after_work = transit
            elif isinstance(transit, ON_CONDITION):
                if transit.target is None:
                    # ag2 0.7.3 registers nothing for it; say so rather than fail a swarm that ran there.
                    warnings.warn(f"ON_CONDITION({transit.condition!r}) of agent {self.name!r} has no target and is "
                                  "ignored; pass target=<SwarmAgent> or a nested chat dict.", UserWarning,
                                  stacklevel=2)
                    continue
                self.handoffs.add_llm_condition(self._on_condition(transit))
            else:
                raise ValueError(f"Invalid hand off condition, must be either ON_CONDITION or AFTER_WORK; agent "
                                 f"{self.name!r} got {transit!r}.")

    def _on_condition(self, transit: ON_CONDITION) -> OnCondition:
        """The engine's ``OnCondition`` for ``transit``."""
        target: Any
        if isinstance(transit.target, dict):
            queue = transit.target.get("chat_queue")
            if queue and isinstance(queue[0], dict) and "carryover_config" in queue[0]:
                check_carryover_config(queue[0]["carryover_config"], self.name)
            config = dict(transit.target)
            if not config.get("reply_func_from_nested_chats"):  # the swarm's: the first chat gets its carryover
                use_async = config.get("use_async", False)
                config["reply_func_from_nested_chats"] = (
                    a_swarm_summary_from_nested_chats if use_async else swarm_summary_from_nested_chats)
            target = SwarmNestedChatTarget(nested_chat_config=config)
        else:
            target = SwarmTarget(transit.target, origin=f"the hand-off of {self.name}")
        available: Optional[AvailableCondition] = None
        if isinstance(transit.available, str):
            available = StringAvailableCondition(transit.available)
        elif transit.available is not None:
            available = SwarmAvailableCondition(function=transit.available)
        return OnCondition(target=target, condition=StringLLMCondition(transit.condition), available=available)

    @property
    def after_work(self) -> Optional[AFTER_WORK]:
        """The agent's ``AFTER_WORK`` (None: the swarm's after work applies)."""
        return self._after_work

    @after_work.setter
    def after_work(self, value: Optional[AFTER_WORK]) -> None:
        # Assigned directly too by ag2 0.7.3 code: the engine reads the agent's after-work target, kept in step.
        self._after_work = value
        if value is not None:
            choice = value.agent if isinstance(value, AFTER_WORK) else value
            self.handoffs.set_after_work(SwarmTarget(choice, origin=f"after work of {self.name}"))
        else:
            self.handoffs.after_works = [c for c in self.handoffs.after_works if c.condition is not None]

    @property
    def _nested_chat_handoffs(self) -> list[dict[str, Any]]:
        """The nested-chat hand-offs not yet given an agent (ag2 0.7.3's record of them)."""
        found = []
        for condition in self.handoffs.llm_conditions:
            if isinstance(condition.target, NestedChatTarget):
                available = condition.available
                found.append({
                    "nested_chats": condition.target.nested_chat_config,
                    "condition": condition.condition.get_prompt(self, []),
                    "available": getattr(available, "function", getattr(available, "context_variable", None)),
                })
        return found

    def add_single_function(self, func: Callable[..., Any], name: Optional[str] = None, description: str = "") -> None:
        """Offer ``func`` to the model as a tool and register it for execution.

        Args:
            func: the function; a ``context_variables`` parameter is filled by the swarm.
            name: the tool name (default: the function's name).
            description: the tool description (default: the docstring).
        """
        offer_function(self, func, name, description)

    def add_functions(self, func_list: list[Callable[..., Any]]) -> None:
        """``add_single_function`` for each function of ``func_list``."""
        for func in func_list:
            self.add_single_function(func)


SwarmMember.register(SwarmAgent)  # what an ON_CONDITION may target


class SwarmNestedChatTarget(NestedChatTarget):
    """The engine's nested-chat target with the swarm's agent: a SwarmAgent named ``nested_chat_<parent>_<n>``
    whose ``AFTER_WORK`` hands back to the parent."""

    def create_wrapper_agent(self, parent_agent: ConversableAgent, index: int) -> ConversableAgent:
        """The SwarmAgent that runs the nested chats, then hands back to ``parent_agent``.

        Args:
            parent_agent: the agent whose hand-off leads to the nested chats.
            index: the hand-off's position among the parent's nested-chat hand-offs.
        """
        wrapper = super().create_wrapper_agent(parent_agent, index)
        assert isinstance(wrapper, SwarmAgent)
        wrapper.register_hand_off(AFTER_WORK(agent=parent_agent))
        return wrapper

    def _wrapper_agent_name(self, parent_agent: ConversableAgent, index: int) -> str:
        return f"nested_chat_{parent_agent.name}_{index + 1}"

    def _wrapper_agent_class(self) -> Any:
        return SwarmAgent
