"""Checks of the arguments agents are built and called with: each failure names the argument and the fix.

Values the classic package accepted are accepted here too, even when they are probably a mistake: they
are kept as given, behave as they did there, and a ``UserWarning`` names the argument, the expected values
and what will happen. Where the classic package failed only later (when the value is first used), the
failure comes at that same moment, with an error of the classic type whose message adds the fix.
"""

from __future__ import annotations

import sys
import warnings
from collections import defaultdict
from numbers import Real
from typing import Any, Callable, Optional

from ...exception_utils import InvalidArgumentError, InvalidArgumentTypeError, UnknownKeyError
from ...llm_config import LLMConfig
from ...llm_config.config import current_llm_config
from ...oai.entries import LLMConfigEntry
from ...types import is_agent
from ..agent import Agent
from .history import History
from ..transitions.context_variables import ContextVariables
from .human_reply import HUMAN_INPUT_MODES

__all__ = [
    "HUMAN_INPUT_MODES",
    "check_agent",
    "check_description",
    "check_human_input_mode",
    "check_init_arguments",
    "check_llm_config_type",
    "check_name",
    "conversations",
    "printable_name",
    "printable_names",
    "resolve_llm_config",
    "shown",
    "unknown_human_input_mode",
    "warn_argument",
]

_PACKAGE = __name__.split(".", 1)[0]


def shown(value: Any) -> str:
    """``str 'b'``: the type and a short repr, for error messages."""
    return f"{type(value).__name__} {value!r:.60}"


def _in_package(frame: Any) -> bool:
    # By module name, not file name: generated code (a dataclass __init__) has no file of its own.
    module = frame.f_globals.get("__name__", "")
    return module == _PACKAGE or module.startswith(_PACKAGE + ".")


def _caller_stacklevel() -> int:
    """The ``stacklevel`` of the first frame outside this package, so a warning points at the caller's code."""
    level = 2  # 1 is warn_argument itself
    frame = sys._getframe(2)
    while frame is not None and _in_package(frame):
        frame = frame.f_back  # type: ignore[assignment]
        level += 1
    return level


def warn_argument(message: str) -> None:
    """Warn (``UserWarning``) about an accepted argument that is probably a mistake, at the caller's line."""
    warnings.warn(message, UserWarning, stacklevel=_caller_stacklevel())


def check_description(description: Any) -> None:
    """Warn about a description that is not a str (it is kept: the classic package accepted any value)."""
    if not isinstance(description, str):
        warn_argument(
            f"description should be a str (how other agents, e.g. a GroupChatManager, see this agent); "
            f"got {shown(description)}. It is kept as given; a GroupChat that presents this agent (introductions, "
            f"'auto' speaker selection) raises AttributeError."
        )


def check_agent(value: Any, argument: str, method: str) -> None:
    """Refuse ``value`` as ``argument`` unless it has a name and the callable ``method``."""
    if is_agent(value):  # every classic agent: answered per class, once
        return
    if not callable(getattr(value, method, None)) or not hasattr(value, "name"):
        hint = "; pass the agent object, not its name" if isinstance(value, str) else ""
        raise TypeError(f"{argument} must be an Agent (got {shown(value)}){hint}.")


def resolve_llm_config(llm_config: Any) -> Any:
    """The ``llm_config`` an agent keeps, from the forms AG2 0.14 accepts besides a dict, False and None.

    - None inside a ``with llm_config:`` block (AG2 0.8 - 0.13): a copy of that block's ``LLMConfig``;
    - a typed entry (``OpenAILLMConfigEntry(...)``) or a list of endpoint dicts / entries: an ``LLMConfig`` of them;
    - anything else as given: an ``LLMConfig`` is a dict, so the dict path (deep copy, checks, client) takes it.
    """
    if llm_config is None:
        return current_llm_config()
    if isinstance(llm_config, LLMConfigEntry):
        return LLMConfig(llm_config)
    if (
        isinstance(llm_config, (list, tuple))
        and llm_config
        and all(isinstance(entry, (dict, LLMConfigEntry)) for entry in llm_config)
    ):
        return LLMConfig(*llm_config)
    return llm_config  # other values are checked by check_llm_config_type


def check_llm_config_type(llm_config: Any) -> None:
    """Refuse an ``llm_config`` that is not a dict (an ``LLMConfig`` is one), False or None (the classic package asserted this)."""
    if llm_config is not None and llm_config is not False and not isinstance(llm_config, dict):
        raise InvalidArgumentTypeError(
            f"llm_config must be a dict (with a 'config_list'), an LLMConfig, False (no model) or None; "
            f"got {type(llm_config).__name__}."
        )


def check_human_input_mode(human_input_mode: Any) -> None:
    """Warn about a ``human_input_mode`` other than "ALWAYS", "TERMINATE" or "NEVER" (kept as given)."""
    if isinstance(human_input_mode, str) and human_input_mode in HUMAN_INPUT_MODES:
        return
    hint = (
        f" (upper case: {human_input_mode.upper()!r})"
        if isinstance(human_input_mode, str) and human_input_mode.upper() in HUMAN_INPUT_MODES
        else ""
    )
    warn_argument(
        f"human_input_mode should be 'ALWAYS', 'TERMINATE' or 'NEVER'{hint}; got {human_input_mode!r}. "
        f"It is kept as given and works like 'TERMINATE': the human is asked when a termination message "
        f"arrives or the auto-reply budget is spent."
    )


def unknown_human_input_mode(human_input_mode: Any) -> UnknownKeyError:
    """The ``KeyError`` a ``UserProxyAgent`` raises for a mode it has no default description for."""
    return UnknownKeyError(
        human_input_mode,
        "human_input_mode must be 'ALWAYS', 'TERMINATE' or 'NEVER' (upper case); the default description of a "
        "UserProxyAgent depends on it. Fix the mode, or give a description.",
    )


def _check_max_consecutive_auto_reply(value: Any) -> None:
    # Any non-negative number works as a budget (float("inf") means no limit).
    if value is None or (isinstance(value, Real) and not isinstance(value, bool) and value >= 0):
        return
    expected = "max_consecutive_auto_reply should be a non-negative int (or None: 100)"
    if isinstance(value, bool):
        effect = f"counts as {int(value)}"
    elif isinstance(value, Real):
        effect = (
            "the auto-reply budget is spent from the start: with human_input_mode 'NEVER' the agent ends the "
            "chat instead of replying, otherwise the human is asked before every reply"
        )
    else:
        effect = "the first reply that checks the budget (human_input_mode 'TERMINATE' or 'NEVER') raises TypeError"
    warn_argument(f"{expected}; got {shown(value)}. It is kept as given: {effect}.")


def check_name(name: Any) -> None:
    """Warn about an agent name that is empty or not a str (kept as given, as the classic package did)."""
    if isinstance(name, str):
        if not name:
            warn_argument(
                "name should be a non-empty str; got an empty str. It is kept as given, but printed messages, "
                "a GroupChat and a model see no name for this agent; give it a non-empty name."
            )
        return
    if isinstance(name, bytes):
        warn_argument(
            f"name should be a non-empty str; got {shown(name)}. It is kept as given (printed messages show it "
            f"decoded); pass a str."
        )
        return
    warn_argument(
        f"name should be a non-empty str; got {shown(name)}. It is kept as given, but printing a message to or "
        f"from this agent raises ValueError (silent=True avoids printing), and a model configuration "
        f"(llm_config) refuses it."
    )


def printable_name(agent: Any, field: str) -> str:
    """The name of ``agent`` for printing (bytes decoded).

    Raises ``ValueError`` for a name that is not a str, where the classic package's message models did;
    ``field`` is the name of the field there ("sender_name", "recipient_name", "speaker_name").
    """
    name = getattr(agent, "name", None)
    if isinstance(name, bytes):
        name = name.decode("utf-8", errors="replace")
    if not isinstance(name, str):
        raise InvalidArgumentError(
            f"{field}: Input should be a valid string (got {shown(name)}). The agent name must be a str to "
            f"print messages; give the agent a str name, or chat with silent=True."
        )
    return name


def printable_names(sender: Any, recipient: Any) -> tuple[str, str]:
    """The names of ``sender`` and ``recipient`` for printing a message between them; see ``printable_name``."""
    return printable_name(sender, "sender_name"), printable_name(recipient, "recipient_name")


def check_init_arguments(
    name: Any,
    system_message: Any,
    is_termination_msg: Optional[Callable[..., Any]],
    max_consecutive_auto_reply: Any,
    default_auto_reply: Any,
    description: Any,
    context_variables: Any,
    human_input_mode: Any = "TERMINATE",
) -> None:
    """Warn about the ``ConversableAgent`` constructor arguments that are probably mistakes.

    Every value is kept as given (the classic package accepted them); the warning says what will happen.
    """
    check_name(name)
    if system_message is not None and not isinstance(system_message, (str, list)):
        warn_argument(
            f"system_message should be a str or a list of content parts (or None); got {shown(system_message)}. "
            f"It is kept as given and sent as the content of the system message, which a model endpoint rejects."
        )
    if is_termination_msg is not None and not callable(is_termination_msg):
        warn_argument(
            f"is_termination_msg should be a callable taking a message dict and returning a bool (or None: the "
            f"content is 'TERMINATE'); got {shown(is_termination_msg)}. It is kept as given, and checking a "
            f"received message raises TypeError."
        )
    check_human_input_mode(human_input_mode)
    _check_max_consecutive_auto_reply(max_consecutive_auto_reply)
    if default_auto_reply is not None and not isinstance(default_auto_reply, (str, dict)):
        warn_argument(
            f"default_auto_reply should be a str or a message dict (or None: no reply); got "
            f"{shown(default_auto_reply)}. It is kept as given: generate_reply returns it, and sending it in a "
            f"chat raises an error."
        )
    if description is not None:
        check_description(description)
    if context_variables is not None and not isinstance(context_variables, (dict, ContextVariables)):
        warn_argument(
            f"context_variables should be a dict of name -> value or a ContextVariables (or None: empty); got "
            f"{shown(context_variables)}. "
            f"It is kept as given: a chat runs, but get_context, set_context, update_context, pop_context and "
            f"tools reading the context fail."
        )


def conversations(chat_messages: Any) -> dict[Agent, list[dict[str, Any]]]:
    """The message store: ``chat_messages`` checked, as a dict that starts an empty list for a new peer."""
    if chat_messages is None:
        return defaultdict(History)
    if isinstance(chat_messages, (list, tuple)) and not chat_messages:
        warn_argument(
            f"chat_messages should be a dict of agent -> list of message dicts (earlier conversations), or None; "
            f"got {shown(chat_messages)}. It is read as no earlier conversations."
        )
        return defaultdict(History)
    if not isinstance(chat_messages, dict):
        raise TypeError(
            f"chat_messages must be a dict of agent -> list of message dicts (earlier conversations), or None; "
            f"got {shown(chat_messages)}."
        )
    for peer, conversation in chat_messages.items():
        if not hasattr(peer, "receive") or not hasattr(peer, "name"):
            raise TypeError(f"chat_messages keys must be agents (the peers of the conversations); got {shown(peer)}.")
        if not isinstance(conversation, list) or not all(isinstance(m, dict) for m in conversation):
            raise TypeError(f"chat_messages[{peer.name!r}] must be a list of message dicts; got {shown(conversation)}.")
    if isinstance(chat_messages, defaultdict):
        return chat_messages
    # The lists are kept (not copied); a plain dict would fail on the first message to a new peer.
    return defaultdict(History, chat_messages)
