"""SwarmAgent: a ConversableAgent with hand-offs, functions that see the swarm's context variables, and
state updates (e.g. its system message) before each reply."""

from __future__ import annotations

from typing import Any, Callable, Literal, Optional, Union

from ....oai.client import OpenAIWrapper
from ....tools.function_utils import get_function_schema
from ...agent import Agent
from ...conversable_agent import ConversableAgent
from .carryover import check_carryover_config
from .conditions import AFTER_WORK, ON_CONDITION, UPDATE_SYSTEM_MESSAGE

__all__ = ["CONTEXT_VARIABLES_PARAM", "SwarmAgent"]

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
        self.after_work: Optional[AFTER_WORK] = None
        # Set by the tool executor: the hand-off chosen by the last tool results.
        self._next_agent: Any = None
        self._nested_chat_handoffs: list[dict[str, Any]] = []
        # transfer function name -> (function, its ON_CONDITION); offered to the model while available.
        self._conditional_functions: dict[str, tuple[Callable[..., Any], ON_CONDITION]] = {}
        self.register_update_agent_state_before_reply(update_agent_state_before_reply)
        self.register_hook("update_agent_state", self._update_conditional_functions)

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

    def register_hand_off(self, hand_to: Union[list[Union[ON_CONDITION, AFTER_WORK]], ON_CONDITION, AFTER_WORK]) -> None:
        """Register hand-offs: ``ON_CONDITION``s (transfer tools the model may call) and one ``AFTER_WORK``.

        Args:
            hand_to: an ON_CONDITION, an AFTER_WORK or a list of them.
        """
        if not isinstance(hand_to, (list, ON_CONDITION, AFTER_WORK)):
            raise ValueError(f"hand_to must be a list of ON_CONDITION or AFTER_WORK; agent {self.name!r} got "
                             f"{type(hand_to).__name__}.")
        for transit in hand_to if isinstance(hand_to, list) else [hand_to]:
            if isinstance(transit, AFTER_WORK):
                self.after_work = transit
            elif isinstance(transit, ON_CONDITION):
                self._register_condition(transit)
            else:
                raise ValueError(f"Invalid hand off condition, must be either ON_CONDITION or AFTER_WORK; agent "
                                 f"{self.name!r} got {transit!r}.")

    def _register_condition(self, transit: ON_CONDITION) -> None:
        if isinstance(transit.target, dict):
            queue = transit.target.get("chat_queue")
            if queue and isinstance(queue[0], dict) and "carryover_config" in queue[0]:
                check_carryover_config(queue[0]["carryover_config"], self.name)
            self._nested_chat_handoffs.append(
                {"nested_chats": transit.target, "condition": transit.condition, "available": transit.available})
            return
        if transit.target is None:
            raise ValueError(f"ON_CONDITION of agent {self.name!r} has no target; pass target=<SwarmAgent> or a "
                             "nested chat dict.")
        target = transit.target

        def transfer() -> Agent:
            return target

        base = f"transfer_{self.name}_to_{target.name}"
        name, count = base, 2
        while name in self._conditional_functions:
            name, count = f"{base}_{count}", count + 1
        self._conditional_functions[name] = (transfer, transit)

    @staticmethod
    def _update_conditional_functions(agent: Agent, messages: Optional[list[dict[str, Any]]] = None) -> None:
        """Offer the transfer tools whose ``available`` condition holds, withdraw the others."""
        assert isinstance(agent, SwarmAgent)
        for name, (func, condition) in agent._conditional_functions.items():
            available = True
            if callable(condition.available):
                history = next(iter(agent.chat_messages.values()), [])
                available = bool(condition.available(agent, history))
            elif isinstance(condition.available, str):
                available = bool(agent.get_context(condition.available) or False)
            if available and name not in agent._function_map:
                agent.add_single_function(func, name, condition.condition)
            elif not available and name in agent._function_map:
                agent.update_tool_signature(name, is_remove=True)
                del agent._function_map[name]

    def add_single_function(self, func: Callable[..., Any], name: Optional[str] = None, description: str = "") -> None:
        """Offer ``func`` to the model as a tool and register it for execution.

        Args:
            func: the function; a ``context_variables`` parameter is filled by the swarm.
            name: the tool name (default: the function's name).
            description: the tool description (default: the docstring).
        """
        func._name = name or func.__name__  # type: ignore[attr-defined]
        func._description = description or (func.__doc__ or "").strip()  # type: ignore[attr-defined]
        self.update_tool_signature(_schema_without_context(func, func._name, func._description), is_remove=False)  # type: ignore[attr-defined]
        self.register_function({func._name: func})  # type: ignore[attr-defined]

    def add_functions(self, func_list: list[Callable[..., Any]]) -> None:
        """``add_single_function`` for each function of ``func_list``."""
        for func in func_list:
            self.add_single_function(func)
