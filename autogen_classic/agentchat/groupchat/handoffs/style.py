"""How the one engine of hand-offs behaves where AG2 0.14's group chats and ag2 0.7.3's swarm differ.

The executor, the transition and the preparation of the agents read a :class:`HandoffStyle`. The default,
:data:`GROUP_STYLE`, is AG2 0.14's (``initiate_group_chat`` and its patterns); the classic swarm
(``initiate_swarm_chat``) passes its own, built in ``groupchat/swarm/style.py``. Each field is one point
where the two APIs disagree; everything else is shared.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    from ...conversable_agent import ConversableAgent
    from ...transitions import TransitionTarget
    from ..selection.trace import HandoffStep

__all__ = ["GROUP_STYLE", "TOOL_EXECUTOR_NAME", "HandoffStyle", "handoff_reason"]

TOOL_EXECUTOR_NAME = "_Group_Tool_Executor"
"""The name of the group's tool executor (the classic ``__TOOL_EXECUTOR_NAME__``)."""


def handoff_reason(step: HandoffStep) -> str:
    """The selection trace's reason for a hand-off step, as group chats word it: ``handoff: <step>``."""
    return f"handoff: {step.describe()}"


@dataclass(frozen=True)
class HandoffStyle:
    """The behaviours of the hand-off engine that differ between APIs.

    Args:
        executor_name: the tool executor's name.
        executor_system_message: the tool executor's system message.
        initial_via: how the trace says the first speaker was chosen.
        reply_result_via: how the trace names a tool whose result chose the next target (``{function}``).
        transition_events: send (and print) the transition events (``***** AfterWork handoff ... *****``).
        context_in_arguments: a plain function (not a registered tool) with a ``context_variables`` parameter
            gets the context variables in its JSON arguments, a copy its changes do not reach (ag2 0.7.3);
            otherwise only tools get them, injected as the live ``ContextVariables``.
        resolve_pending_for_agent: a target a tool chose resolves for the agent that called the tool (a
            "stay" stays with it); otherwise for the last speaker, the tool executor (AG2 0.14).
        offer_handoff_tool: offers a hand-off tool to an agent's model (``(agent, function, name, description)``);
            None: as a registered tool (``agent.register_for_llm``, AG2 0.14). ag2 0.7.3 made it one of the
            agent's own functions instead (its schema in the llm_config, the function in ``function_map``).
        withdraw_handoff_tool: withdraws it (``(agent, name)``), the counterpart of ``offer_handoff_tool``.
        read_result: turns what a tool returned into a ``ReplyResult`` or a target (``(content, function name)
            -> content``); None keeps it as returned.
        tool_text: the text of a tool's response; None: the executor's ``_normalize_tool_content`` (JSON for
            data, AG2 0.14).
        reason: the selection trace's reason for a step.
        after_work_via: how the trace names an after-work target (``target -> text``, None for the default
            wording).
        name_handoff_tools: names an agent's hand-off tools; None: ``agent.handoffs.set_llm_function_names()``
            (``transfer_to_<target>_<n>``).
    """

    executor_name: str = TOOL_EXECUTOR_NAME
    executor_system_message: str = "Tool Execution, do not use this agent directly."
    initial_via: str = "the pattern's initial_agent"
    reply_result_via: str = "the ReplyResult of {function}"
    transition_events: bool = True
    context_in_arguments: bool = False
    resolve_pending_for_agent: bool = False
    offer_handoff_tool: Optional[Callable[[ConversableAgent, Callable[..., Any], str, str], None]] = None
    withdraw_handoff_tool: Optional[Callable[[ConversableAgent, str], None]] = None
    read_result: Optional[Callable[[Any, str], Any]] = None
    tool_text: Optional[Callable[[Any], str]] = None
    reason: Callable[[HandoffStep], str] = handoff_reason
    after_work_via: Optional[Callable[[TransitionTarget], Optional[str]]] = None
    name_handoff_tools: Optional[Callable[[ConversableAgent], None]] = None


GROUP_STYLE = HandoffStyle()
"""AG2 0.14's behaviour: ``initiate_group_chat`` and the patterns."""
