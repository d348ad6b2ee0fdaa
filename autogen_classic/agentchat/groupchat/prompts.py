"""The texts a group chat shows: the roles list, the speaker-selection prompts and their placeholders.

The selection templates may use ``{roles}`` (each agent's name and description, one per line),
``{agentlist}`` and ``{participants}`` (the candidates' names, e.g. ``['coder', 'critic']``) and
``{history}`` (the conversation, one ``name: content`` entry per message, separated by blank lines).
The classic templates use only the first two.
"""

from __future__ import annotations

import logging
import string
from typing import Any, Optional

from ...coding.utils import content_str
from ...exception_utils import InvalidAttributeTypeError
from ..conversable.agent_args import shown, warn_argument

__all__ = [
    "SELECT_SPEAKER_PROMPT_TEMPLATE",
    "TEMPLATE_FIELDS",
    "check_template_fields",
    "history_text",
    "participant_roles",
    "selection_text",
]

# The default of ``GroupChat.select_speaker_prompt_template`` (the classic constant).
SELECT_SPEAKER_PROMPT_TEMPLATE = (
    "Read the above conversation. Then select the next role from {agentlist} to play. Only return the role."
)

logger = logging.getLogger("autogen_classic.agentchat.groupchat")

TEMPLATE_FIELDS = ("roles", "agentlist", "participants", "history")


def check_template_fields(template: Any, field: str) -> None:
    """Warn about placeholders a selection template may not use (selecting with it would raise KeyError)."""
    if not isinstance(template, str):
        return
    try:
        names = {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}
    except ValueError as e:
        warn_argument(f"GroupChat {field} is not a valid format string ({e}); selecting a speaker with it fails.")
        return
    unknown = sorted(name for name in names if name.split(".")[0].split("[")[0] not in TEMPLATE_FIELDS)
    if unknown:
        warn_argument(
            f"GroupChat {field} has the placeholder(s) {', '.join('{' + n + '}' for n in unknown)}, which speaker "
            f"selection cannot fill: use {', '.join('{' + n + '}' for n in TEMPLATE_FIELDS)}, or double the braces "
            "({{ }}) for literal text. Selecting a speaker with it raises KeyError."
        )


def participant_roles(groupchat: Any, agents: list[Any]) -> str:
    """``name: description`` of each agent, one per line (kept while names and descriptions stay the same)."""
    key = tuple([(agent.name, agent.description) for agent in agents])
    cached = groupchat.__dict__.get("_roles_text")
    if cached is not None and cached[0] == key:
        return cached[1]  # type: ignore[no-any-return]
    roles = []
    empty = False
    for agent in agents:
        description = agent.description
        if not isinstance(description, str):
            # The classic package failed here too (it strips the description).
            raise InvalidAttributeTypeError(
                f"'{type(description).__name__}' object has no attribute 'strip': the description of agent "
                f"{agent.name!r} must be a str for the GroupChat to present it; got {shown(description)}."
            )
        if description.strip() == "":
            empty = True
            logger.warning(f"The agent '{agent.name}' has an empty description, and may not work well with GroupChat.")
        roles.append(f"{agent.name}: {description}".strip())
    text = "\n".join(roles)
    if not empty:  # an empty description is warned about every time, as in classic AutoGen
        groupchat.__dict__["_roles_text"] = (key, text)
    return text


def history_text(messages: list[dict[str, Any]]) -> str:
    """The conversation for ``{history}``: ``name: content`` per message, separated by blank lines."""
    lines = []
    for message in messages:
        name = message.get("name") or message.get("role") or "unknown"
        content = message.get("content")
        text = content_str(content) if isinstance(content, (str, list)) or content is None else str(content)
        lines.append(f"{name}: {text}")
    return "\n\n".join(lines)


def selection_text(
    groupchat: Any, slot: str, template: str, agents: list[Any], roles: Optional[str] = None
) -> str:
    """``template`` filled for ``agents``; kept in ``slot`` while the template, names and roles stay the same.

    "auto" asks for the selection texts every round; they change only with the settings, unless the template
    shows the ``{history}``, which is filled anew each time.
    """
    names = tuple([agent.name for agent in agents])
    if roles is None and "{roles}" in template:
        roles = participant_roles(groupchat, agents)
    if "{history}" in template:
        agentlist = f"{list(names)}"
        return template.format(roles=roles, agentlist=agentlist, participants=agentlist,
                               history=history_text(groupchat.messages))
    key = (template, names, roles)
    cached = groupchat.__dict__.get(slot)
    if cached is not None and cached[0] == key:
        return cached[1]  # type: ignore[no-any-return]
    agentlist = f"{list(names)}"
    text = template.format(roles=roles, agentlist=agentlist, participants=agentlist, history="")
    groupchat.__dict__[slot] = (key, text)
    return text
