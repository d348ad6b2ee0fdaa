"""Guardrails: checks of what an agent receives or says that, when they fire, hand the turn to a target.

A guardrail has a ``name``, a ``condition`` (a regular expression, or a sentence a model judges), a
``target`` (a ``TransitionTarget``: where the group chat goes next when it fires) and an
``activation_message``. ``check(context)`` looks at a text or a list of messages and returns a
:class:`GuardrailResult`; when it is ``activated``, its ``reply`` is what the guarded agent says instead
("<activation message>\\nJustification: <why>").

Agents keep them in ``input_guardrails`` (checked on the messages before the agent replies) and
``output_guardrails`` (checked on its reply); the group chat runs them (see
``agentchat.groupchat.guardrail_turns``).
"""

from __future__ import annotations

import copy
import json
import re
from abc import ABC, abstractmethod
from typing import Any, Union

from pydantic import BaseModel, ConfigDict, Field

from ...llm_config import LLMConfig
from ...oai.entries import LLMConfigEntry
from ...oai.client import OpenAIWrapper
from ...types import content_str
from .target_base import TransitionTarget
from .targets import AgentNameTarget, AgentTarget

__all__ = ["Guardrail", "GuardrailCheckResult", "GuardrailResult", "LLMGuardrail", "RegexGuardrail"]

Context = Union[str, list[dict[str, Any]], dict[str, Any]]

# The instructions the model of an LLMGuardrail gets, with the condition (AG2 Classic 0.14's text).
CHECK_PROMPT = """You are a guardrail that checks if a condition is met in the conversation you are given.
You will activate the guardrail only if the condition is met.

**Condition: {condition}**"""


def _messages(context: Any) -> list[Any]:
    """``context`` as a list of messages; a single message dict counts as a list of one."""
    if isinstance(context, dict):
        return [context]
    if isinstance(context, list):
        return context
    raise ValueError(
        "Context must be a string or a list of messages. "
        f"Got {type(context).__name__}: pass the text to check, or message dicts with a 'content'."
    )


def _text(message: Any) -> str:
    """The text of one message of a context (a str, or a message dict's content; None counts as empty)."""
    if isinstance(message, str):
        return message
    if not isinstance(message, dict):
        raise ValueError(
            f"Context must be a string or a list of messages; an item is a {type(message).__name__}. "
            "Each message is a dict with a 'content'."
        )
    content = message.get("content")
    return "" if content is None else content_str(content) if isinstance(content, (str, list)) else str(content)


def _as_target(target: Any) -> Any:
    """The target a guardrail hands over to. An agent or an agent's name, which AG2 Classic 0.14.1 stores as they
    are (and cannot hand over to), become ``AgentTarget`` / ``AgentNameTarget``; anything else is kept as given,
    as the reference keeps it (a guardrail whose target cannot be activated still replaces the reply)."""
    if isinstance(target, TransitionTarget):
        return target
    if isinstance(target, str) and target:
        return AgentNameTarget(target)
    if isinstance(getattr(target, "name", None), str) and callable(getattr(target, "generate_reply", None)):
        return AgentTarget(target)
    return target


class Guardrail(ABC):
    """The base of the guardrails: a named condition and the target to hand over to when it is met.

    Args:
        name: names the guardrail in its default activation message.
        condition: what the guardrail looks for (its meaning depends on the kind of guardrail).
        target: a ``TransitionTarget``: who speaks next in a group chat when the guardrail fires.
        activation_message: what the guarded agent says when it fires
            (default "Guardrail '<name>' has been activated.").
    """

    def __init__(
        self, name: str, condition: str, target: "TransitionTarget", activation_message: str | None = None
    ) -> None:
        self.name = name
        self.condition = condition
        self.target = _as_target(target)
        self.activation_message = activation_message or f"Guardrail '{name}' has been activated."

    @abstractmethod
    def check(self, context: Context) -> "GuardrailResult":
        """Check ``context`` (a text or a list of message dicts) and say whether the guardrail fires.

        Args:
            context: the text, or the messages, to check.
        """

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r}, condition={self.condition!r}, target={self.target!r})"


class RegexGuardrail(Guardrail):
    """A guardrail that fires when a regular expression matches a message.

    Args:
        name: the guardrail's name.
        condition: the regular expression (searched anywhere in each message's text).
        target: where the chat goes when it fires.
        activation_message: what the guarded agent says when it fires.

    Raises:
        ValueError: the expression does not compile.
    """

    def __init__(
        self,
        name: str,
        condition: str,
        target: "TransitionTarget",
        activation_message: str | None = None,
    ) -> None:
        super().__init__(name, condition, target, activation_message)
        if not isinstance(condition, (str, re.Pattern)):
            raise TypeError(
                f"RegexGuardrail {name!r}: condition must be a regular expression (a str); got "
                f"{type(condition).__name__} {condition!r:.60}."
            )
        try:
            self.regex = re.compile(condition)
        except re.error as e:
            raise ValueError(f"Invalid regex pattern '{condition}': {e}") from e

    def check(self, context: Context) -> "GuardrailResult":
        """Fire on the first message whose text the expression matches; the justification quotes the match.

        Args:
            context: a text, one message dict or a list of message dicts.
        """
        texts = [context] if isinstance(context, str) else [_text(m) for m in _messages(context)]
        for text in texts:
            match = self.regex.search(text)
            if match:
                return GuardrailResult(activated=True, justification=f"Match found -> {match.group(0)}", guardrail=self)
        return GuardrailResult(activated=False, justification="No match found in the context.", guardrail=self)


def _checking_config(llm_config: Any, name: Any) -> Any:
    """A copy of ``llm_config`` that asks the model for a :class:`GuardrailCheckResult`."""
    if not llm_config:
        raise ValueError(
            f"LLMConfig is required. LLMGuardrail {name!r} asks a model whether its condition is met: pass "
            "llm_config=LLMConfig({'model': ..., 'api_key': ...}) or a classic llm_config dict."
        )
    if isinstance(llm_config, LLMConfigEntry):
        llm_config = LLMConfig(llm_config)
    if isinstance(llm_config, LLMConfig):
        config = llm_config.deepcopy()
    elif isinstance(llm_config, dict):
        config = copy.deepcopy(llm_config)
    else:
        raise TypeError(
            f"LLMGuardrail {name!r}: llm_config must be an LLMConfig or an llm_config dict; got "
            f"{type(llm_config).__name__}."
        )
    config["response_format"] = GuardrailCheckResult
    return config


class LLMGuardrail(Guardrail):
    """A guardrail that asks a model whether its condition is met by the context.

    The model gets :data:`CHECK_PROMPT` with the condition as system message, the context as the
    conversation, and answers with the JSON of a :class:`GuardrailCheckResult`.

    Args:
        name: the guardrail's name.
        condition: the condition, in words (e.g. "The user asks for medical advice").
        target: where the chat goes when it fires.
        llm_config: the model that judges (an ``LLMConfig`` or a classic llm_config dict).
        activation_message: what the guarded agent says when it fires.

    Raises:
        ValueError: no ``llm_config`` was given.
    """

    def __init__(
        self,
        name: str,
        condition: str,
        target: "TransitionTarget",
        llm_config: "LLMConfig",
        activation_message: str | None = None,
    ) -> None:
        super().__init__(name, condition, target, activation_message)
        self.llm_config = _checking_config(llm_config, name)
        self.client = OpenAIWrapper(**self.llm_config)
        self.check_prompt = CHECK_PROMPT.format(condition=self.condition)

    def check(self, context: Context) -> "GuardrailResult":
        """Ask the model whether the condition is met by ``context``.

        Args:
            context: a text (sent as a user message), one message dict or a list of message dicts.

        Raises:
            ValueError: the model's answer is not the JSON of a ``GuardrailCheckResult``.
        """
        messages: list[dict[str, Any]] = [{"role": "system", "content": self.check_prompt}]
        if isinstance(context, str):
            messages.append({"role": "user", "content": context})
        else:
            messages.extend(_messages(context))
        response = self.client.create(messages=messages)
        return GuardrailResult.parse(response.choices[0].message.content, guardrail=self)


class GuardrailCheckResult(BaseModel):
    """The answer a guardrail's model gives: whether it fires, and why."""

    activated: bool
    justification: str = Field(default="No justification provided")


class GuardrailResult(GuardrailCheckResult):
    """The outcome of a guardrail check, with the guardrail that made it.

    ``str(result)`` is "Guardrail Result: <activated>\\nJustification: <justification>"; ``reply`` is what
    the guarded agent says when the guardrail fires.
    """

    guardrail: Guardrail

    model_config = ConfigDict(arbitrary_types_allowed=True)

    def __str__(self) -> str:
        return f"Guardrail Result: {self.activated}\nJustification: {self.justification}"

    @property
    def reply(self) -> str:
        """The guardrail's activation message and the justification, on two lines."""
        return f"{self.guardrail.activation_message}\nJustification: {self.justification}"

    @staticmethod
    def parse(text: str, guardrail: Guardrail) -> "GuardrailResult":
        """Read a model's JSON answer (``{"activated": ..., "justification": ...}``) as the result of ``guardrail``.

        Raises:
            ValueError: ``text`` is not such JSON.
        """
        try:
            checked = GuardrailCheckResult.model_validate(json.loads(text))
        except (TypeError, ValueError) as e:  # pydantic's ValidationError is a ValueError
            raise ValueError(
                f"Failed to parse GuardrailResult from text: {text}\n(expected the JSON of a GuardrailCheckResult, "
                'e.g. {"activated": true, "justification": "..."})'
            ) from e
        return GuardrailResult(activated=checked.activated, justification=checked.justification, guardrail=guardrail)
