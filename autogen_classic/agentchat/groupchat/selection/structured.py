"""Structured "auto" selection: one model call whose answer is a JSON object naming an eligible speaker.

When every endpoint of the selector's configuration declares structured output (the config entry key
``structured_output``: ``"json_schema"`` for OpenAI-style endpoints, ``"json_object"`` for
llama-cpp-python), or the group chat asks for it (``select_speaker_structured_output=True``), the
selector is asked for ``{"speaker": <name>}`` with the name constrained to the eligible candidates.
The endpoint's grammar makes any other answer impossible, so one call decides and no requery is needed.

The prompt is compact on purpose: small models lose track in the classic layout (a long system
message, the whole history as separate turns whose speaker names most chat templates drop). Here the
model reads one user message holding the last few messages as ``name: text`` lines, the candidates
with their descriptions, and the question.

An answer that still names no single candidate (an endpoint that ignores the schema) falls back to the
classic free-text path for that selection; an endpoint that rejects the request format turns structured
selection off for the group chat (the classic path runs from then on) with one warning.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ....coding.utils import content_str
from ...agent import Agent
from .state import GroupState

__all__ = [
    "HISTORY_WINDOW",
    "MESSAGE_CHARS",
    "addressed_agent",
    "candidate_order",
    "parse_structured_answer",
    "selection_response_format",
    "structured_prompt_messages",
    "declares_structured_output",
    "serves_embedded_model_only",
    "setting_or",
    "uses_role_match",
    "uses_structured_selection",
]

# How much of the conversation the selector reads: the last few messages, each clipped. The latest
# message carries the hand-off ("Coder, please ..."), so clipping keeps the end of long messages.
HISTORY_WINDOW = 4
MESSAGE_CHARS = 360

STRUCTURED_KINDS = ("json_schema", "json_object")


def uses_structured_selection(groupchat: GroupState, llm_config: dict[str, Any]) -> bool:
    """Whether "auto" selection asks the model for a structured answer.

    ``select_speaker_structured_output`` decides when set (True/False); when None, structured
    selection is used if every endpoint of ``llm_config`` declares ``structured_output``.
    """
    return setting_or(groupchat.select_speaker_structured_output, declares_structured_output(llm_config))


def uses_role_match(groupchat: GroupState, llm_config: dict[str, Any]) -> bool:
    """Whether "auto" applies the role-match rule (see ``role_match``) before asking the model.

    ``select_speaker_auto_role_match`` decides when set; when None, the rule is on when every endpoint
    serves the embedded model, whose own reading of role-only hand-offs is close to chance. Larger
    models read them well, so their choice is not second-guessed by word overlap.
    """
    return setting_or(groupchat.select_speaker_auto_role_match, serves_embedded_model_only(llm_config))


def setting_or(setting: Any, default: bool) -> bool:
    """A group chat's True/False setting, or ``default`` when it is None (decided by the model configuration)."""
    return default if setting is None else bool(setting)


def _endpoints(llm_config: dict[str, Any]) -> list[dict[str, Any]]:
    """Each endpoint of ``llm_config`` with the shared keys filled in."""
    entries = llm_config.get("config_list") or [llm_config]
    return [{**llm_config, **entry} for entry in entries if isinstance(entry, dict)]


def declares_structured_output(llm_config: dict[str, Any]) -> bool:
    """Whether every endpoint of ``llm_config`` declares ``structured_output``."""
    return all(endpoint.get("structured_output") in STRUCTURED_KINDS for endpoint in _endpoints(llm_config))


def serves_embedded_model_only(llm_config: dict[str, Any]) -> bool:
    """Whether every endpoint of ``llm_config`` serves the embedded model (and there is one)."""
    from ....local.model_file import MODEL_NAME  # here: the local package is not needed for the other methods

    models = [endpoint.get("model") for endpoint in _endpoints(llm_config)]
    return bool(models) and all(model == MODEL_NAME for model in models)


def _vocative_pattern(name: str) -> re.Pattern[str]:
    # "Coder, please ...", "... done. critic: review it", "@coder", "can you check this, tester?"
    alternatives = "|".join(re.escape(v) for v in dict.fromkeys([name, name.replace("_", " ")]))
    return re.compile(
        rf"(?:^|[.!?;]\s+|\n)\s*@?(?:{alternatives})\s*[,:]"
        rf"|(?<![\w@])@(?:{alternatives})(?!\w)"
        rf"|,\s*(?:{alternatives})\s*[?!.]?\s*$",
        re.IGNORECASE,
    )


def addressed_agent(message: dict[str, Any] | None, agents: list[Agent]) -> Agent | None:
    """Return the one candidate the message speaks to by name, or None.

    A name counts when it is used to address someone: at the start of a sentence followed by a comma or
    colon ("Coder, please fix it"), after an ``@``, or closing the message after a comma ("can you check
    this, tester?"). A name merely mentioned ("the coder's function fails") does not count, and neither
    do two addressed names, nor the message's own speaker (a reply that opens with its author's
    name, "critic: looks good", labels itself and hands over to no one).
    """
    if not message:
        return None
    text = content_str(message.get("content")).strip()
    if not text:
        return None
    author = message.get("name")
    addressed = [agent for agent in agents if agent.name != author and _vocative_pattern(agent.name).search(text)]
    return addressed[0] if len(addressed) == 1 else None


def selection_response_format(agents: list[Agent]) -> dict[str, Any]:
    """The ``json_schema`` response format whose only field, ``speaker``, is one of the agents' names."""
    schema = {
        "type": "object",
        "properties": {"speaker": {"type": "string", "enum": [agent.name for agent in agents]}},
        "required": ["speaker"],
        "additionalProperties": False,
    }
    return {"type": "json_schema", "json_schema": {"name": "next_speaker", "schema": schema, "strict": True}}


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else "..." + text[-(limit - 3):]


def _speaker_of(message: dict[str, Any]) -> str:
    return str(message.get("name") or message.get("role") or "user")


def _description(agent: Agent) -> str:
    text = agent.description if isinstance(agent.description, str) else str(agent.description or "")
    return " ".join(text.split())


def _mentions(name: str, text: str) -> bool:
    # Whole words only: "criticism" does not mention the critic.
    alternatives = "|".join(re.escape(v) for v in dict.fromkeys([name, name.replace("_", " ")]))
    return re.search(rf"(?<!\w)(?:{alternatives})(?!\w)", text, re.IGNORECASE) is not None


def candidate_order(message: dict[str, Any] | None, agents: list[Agent]) -> list[Agent]:
    """The candidates in the order a structured selection offers them: those ``message`` mentions first.

    Small models favour the first names they read; listing the candidates the latest message
    mentions first keeps that bias from working against the conversation. The prompt and the
    schema's ``enum`` use this same order.
    """
    if not message:
        return list(agents)
    text = content_str(message.get("content"))
    mentioned = [a for a in agents if _mentions(a.name, text)]
    return mentioned + [a for a in agents if a not in mentioned]


def structured_prompt_messages(
    groupchat: GroupState, messages: list[dict[str, Any]], agents: list[Agent]
) -> list[dict[str, Any]]:
    """The messages a structured selection sends: the recent conversation, the candidates, the question.

    Args:
        groupchat: the group chat (for the agents' descriptions).
        messages: the conversation as the selector sees it (after ``select_speaker_transform_messages``).
        agents: the eligible candidates.
    """
    window = messages[-HISTORY_WINDOW:]
    agents = candidate_order(messages[-1] if messages else None, agents)
    lines = [f"{_speaker_of(m)}: {_clip(content_str(m.get('content')), MESSAGE_CHARS)}" for m in window]
    team = "\n".join(f"- {agent.name}: {_description(agent)}" for agent in agents)
    last = _speaker_of(messages[-1]) if messages else None
    names = ", ".join(agent.name for agent in agents)
    question = f"Who should speak after {last}?" if last else "Who should speak first?"
    text = (
        ("Conversation:\n" + "\n".join(lines) + "\n\n" if lines else "")
        + f"Team:\n{team}\n\n{question} Answer with one of: {names}."
    )
    return [{"role": "user", "content": text}]


def parse_structured_answer(text: str, agents: list[Agent]) -> Agent | None:
    """Return the agent a structured answer names, or None when it names no single candidate.

    Accepts the JSON object ``{"speaker": name}``; a bare name (an endpoint that ignored the schema)
    is accepted too when it is exactly one candidate's name.
    """
    by_name = {agent.name: agent for agent in agents}
    value: Any = text.strip()
    try:
        data = json.loads(value)
    except (json.JSONDecodeError, ValueError):
        data = None
    if isinstance(data, dict):
        value = data.get("speaker")
    if not isinstance(value, str):
        return None
    value = value.strip().strip("\"'")
    if value in by_name:
        return by_name[value]
    folded = [agent for name, agent in by_name.items() if name.casefold() == value.casefold()]
    return folded[0] if len(folded) == 1 else None
