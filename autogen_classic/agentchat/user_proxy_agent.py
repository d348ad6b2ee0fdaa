"""``UserProxyAgent``: stands in for the human; runs the code and tools others suggest."""

from __future__ import annotations

from typing import Any, Callable, Literal, Optional, Union

from .conversable.agent_args import unknown_human_input_mode
from ..llm_config import LLMConfig
from .conversable_agent import ConversableAgent

__all__ = ["UserProxyAgent"]


class UserProxyAgent(ConversableAgent):
    """A proxy for the user: asks the human every turn by default, executes code blocks and functions,
    and uses no model unless ``llm_config`` is given."""

    DEFAULT_USER_PROXY_AGENT_DESCRIPTIONS = {
        "ALWAYS": "An attentive HUMAN user who can answer questions about the task, and can perform tasks such as "
        "running Python code or inputting command line commands at a Linux terminal and reporting back the "
        "execution results.",
        "TERMINATE": "A user that can run Python code or input command line commands at a Linux terminal and report "
        "back the execution results.",
        "NEVER": "A computer terminal that performs no other action than running Python scripts (provided to it "
        "quoted in ```python code blocks), or sh shell scripts (provided to it quoted in ```sh code blocks).",
    }

    def __init__(
        self,
        name: str,
        is_termination_msg: Optional[Callable[[dict[str, Any]], bool]] = None,
        max_consecutive_auto_reply: Optional[int] = None,
        human_input_mode: Literal["ALWAYS", "TERMINATE", "NEVER"] = "ALWAYS",
        function_map: Optional[dict[str, Callable[..., Any]]] = None,
        code_execution_config: Union[dict[str, Any], Literal[False]] = {},
        default_auto_reply: Optional[Union[str, dict[str, Any]]] = "",
        llm_config: Optional[Union[dict[str, Any], Literal[False]]] = False,
        system_message: Optional[Union[str, list[Any]]] = "",
        description: Optional[str] = None,
        **kwargs: Any,
    ) -> None:
        """
        Args:
            name: name of the agent.
            is_termination_msg: see ``ConversableAgent``.
            max_consecutive_auto_reply: see ``ConversableAgent``; matters only when not "ALWAYS".
            human_input_mode: default "ALWAYS"; without a ``description``, a mode other than "ALWAYS",
                "TERMINATE" or "NEVER" raises KeyError (the default description depends on it).
            function_map: functions this agent executes.
            code_execution_config: default ``{}`` (code execution on, with the classic defaults); False disables it.
            default_auto_reply: the reply when nothing else answers (None: no reply).
            llm_config: default False (no model).
            system_message: used only when a model is configured.
            description: default depends on ``human_input_mode``.
            **kwargs: other ``ConversableAgent`` arguments.
        """
        if description is None:
            # The default description depends on the mode: an unknown mode (lower case included) is a KeyError,
            # raised before anything else is checked, as in the classic package.
            try:
                description = self.DEFAULT_USER_PROXY_AGENT_DESCRIPTIONS[human_input_mode]
            except KeyError:
                raise unknown_human_input_mode(human_input_mode) from None
        super().__init__(
            name=name,
            system_message=system_message,
            is_termination_msg=is_termination_msg,
            max_consecutive_auto_reply=max_consecutive_auto_reply,
            human_input_mode=human_input_mode,
            function_map=function_map,
            code_execution_config=code_execution_config,
            llm_config=llm_config,
            default_auto_reply=default_auto_reply,
            description=description,
            **kwargs,
        )
