"""What a checkpoint line holds, taken from a running group chat and put back into a rebuilt one.

The transcript has the messages; replaying them (``resume_steps``) rebuilds the group chat and the agents'
histories. What it cannot rebuild is taken here at each append and restored before a resumed run goes on:

- ``round``: how many rounds the run had counted (``max_round`` applies to the whole run, not to each part);
- ``auto_replies``: each agent's consecutive auto-reply counters, per peer name (non-zero ones);
- ``context``: the context variables, as groups of agents sharing one ``ContextVariables`` (a pattern's
  group shares one) with their data (empty ones left out);
- ``pending`` / ``pending_step`` / ``originator``: the hand-off a tool or condition left on the group's tool
  executor for the next selection, what set it, and who called the tools; ``forced``: a target forced on
  the manager (``_next_target_force``);
- ``use_initial_agent``: whether a pattern's transition still has to give the first turn to its initial agent;
- ``random``: the state of the group chat's ``random_source`` (a seeded pattern or "random" selection);
- ``usage`` / ``usage_baseline``: each agent's model usage (its client's ``total`` and ``actual`` summaries),
  so the resumed chat's cost covers the whole run, and the totals when the run started (token budgets);
- ``selection``: the selection trace (``groupchat.selection_log``).

State is read through the agents' public methods where they have them (the executor's next target, the
transition's ``use_initial_agent``) and otherwise through the classic attributes that own it
(``_consecutive_auto_reply_counter``). Targets are stored by class and fields, and only classes of this
package are loaded back.
"""

from __future__ import annotations

import importlib
import weakref
from typing import Any, Optional

from ..selection.trace import HandoffStep, SelectionRecord
from .checkpoint_file import SELECTION_KEY

__all__ = ["check_targets", "clear_pending_choice", "follow_run", "restore_state", "take_state"]

_PACKAGE = __name__.split(".")[0]


def _participants(groupchat: Any, manager: Any) -> list[Any]:
    agents = list(getattr(groupchat, "agents", None) or ())
    if manager is not None and all(agent is not manager for agent in agents):
        agents.append(manager)
    return agents


def _executor(groupchat: Any) -> Any:
    """The group's tool executor (the agent holding a pending hand-off), or None in a classic group chat."""
    for agent in getattr(groupchat, "agents", None) or ():
        if callable(getattr(agent, "has_next_target", None)) and callable(getattr(agent, "next_target_step", None)):
            return agent
    return None


# ----------------------------------------------------------------- targets as data
def target_to_data(target: Any) -> Optional[dict[str, Any]]:
    """A transition target as JSON data: its class and fields (None for None)."""
    if target is None:
        return None
    kind = f"{type(target).__module__}:{type(target).__qualname__}"
    try:
        return {"type": kind, "fields": target.model_dump(mode="json")}
    except Exception as e:  # noqa: BLE001 - a target holding objects (a function, a nested chat) is not data
        return {"type": kind, "unsupported": f"{type(e).__name__}: {e}"}


def target_from_data(data: Optional[dict[str, Any]], where: str) -> Any:
    """The target :func:`target_to_data` described.

    Raises:
        ValueError: the class is not one of this package's targets, or the target could not be stored.
    """
    if data is None:
        return None
    kind = data.get("type") if isinstance(data, dict) else None
    module_name, _, qualname = str(kind).partition(":")
    if not isinstance(kind, str) or not module_name.startswith(_PACKAGE + ".") or "unsupported" in data:
        raise ValueError(
            f"{where} holds a pending hand-off target that cannot be restored ({kind!r}"
            f"{': ' + str(data.get('unsupported')) if isinstance(data, dict) and 'unsupported' in data else ''}); "
            "only targets made of plain fields (AgentTarget, AgentNameTarget, TerminateTarget, StayTarget, "
            "RevertToUserTarget, ...) are kept. Resume from an earlier message or start a new transcript_path."
        )
    target_class: Any = importlib.import_module(module_name)
    for part in qualname.split("."):
        target_class = getattr(target_class, part)
    return target_class.model_construct(**data.get("fields", {}))


# ----------------------------------------------------------------- taking
def take_state(groupchat: Any, run: Any) -> dict[str, Any]:
    """The state of a group chat (and of its ``run``, when one is appending) as a checkpoint line's fields."""
    manager = getattr(run, "manager", None)
    state: dict[str, Any] = {"round": None if run is None else run.rounds + 1}
    agents = _participants(groupchat, manager)
    counters: dict[str, dict[str, int]] = {}
    groups: dict[int, tuple[list[str], Any]] = {}
    for agent in agents:
        counts = {getattr(peer, "name", str(peer)): n
                  for peer, n in (getattr(agent, "_consecutive_auto_reply_counter", None) or {}).items() if n}
        if counts:
            counters[agent.name] = counts
        variables = getattr(agent, "context_variables", None)
        to_dict = getattr(variables, "to_dict", None)
        if callable(to_dict) and len(variables):
            groups.setdefault(id(variables), ([], to_dict()))[0].append(agent.name)
    state["auto_replies"] = counters
    state["context"] = [[names, data] for names, data in groups.values()]
    state["usage"] = _usage_of(agents)
    if run is not None and run.usage_baseline:
        state["usage_baseline"] = run.usage_baseline
    executor = _executor(groupchat)
    if executor is not None:
        pending = executor.get_next_target() if executor.has_next_target() else None
        step = executor.next_target_step()
        state["pending"] = target_to_data(pending)
        state["pending_step"] = None if step is None else step.to_dict()
        originator = getattr(executor, "get_tool_call_originator", None)
        state["originator"] = originator() if callable(originator) else None
    if manager is not None:
        state["forced"] = target_to_data(getattr(manager, "_next_target_force", None))
    transition = getattr(groupchat, "speaker_selection_method", None)
    if isinstance(getattr(transition, "use_initial_agent", None), bool):
        state["use_initial_agent"] = transition.use_initial_agent
    source = getattr(groupchat, "random_source", None)
    if source is not None:
        state["random"] = source.getstate()
    state[SELECTION_KEY] = groupchat.selection_log
    return state


def follow_run(run: Any) -> None:
    """Take the checkpoint lines of ``run``'s group chat from ``run`` (called when a run opens)."""
    transcript = getattr(run.groupchat, "_transcript", None)
    checkpoint = getattr(transcript, "checkpoint", None)
    if checkpoint is None:
        return
    # Weak: the group chat holds the checkpoint, which must not keep the group chat (and its file lock) alive.
    followed = weakref.ref(run)

    def source() -> dict[str, Any]:
        current = followed()
        return {"round": None} if current is None else take_state(current.groupchat, current)

    checkpoint.source = source


# ----------------------------------------------------------------- restoring
def restore_state(state: dict[str, Any], manager: Any, where: str) -> None:
    """Put the state of a checkpoint line back into ``manager``'s group chat (after its messages were replayed).

    Args:
        state: a merged checkpoint state (``CheckpointFile.state_at``).
        manager: the manager of the rebuilt group chat.
        where: the checkpoint file, named in errors.
    """
    groupchat = manager.groupchat
    agents = _participants(groupchat, manager)
    by_name = {agent.name: agent for agent in agents}
    counters = state.get("auto_replies") or {}
    for agent in agents:
        table = getattr(agent, "_consecutive_auto_reply_counter", None)
        if table is None:
            continue
        table.clear()
        for peer_name, count in (counters.get(agent.name) or {}).items():
            if peer_name in by_name:
                table[by_name[peer_name]] = count
    _restore_context(state.get("context") or [], agents)
    _restore_usage(state.get("usage") or {}, agents)
    executor = _executor(groupchat)
    if executor is not None:
        executor.clear_next_target()
        pending = target_from_data(state.get("pending"), where)
        if pending is not None:
            executor.set_next_target(pending)
            if state.get("pending_step"):
                executor.describe_next_target(HandoffStep.from_dict(state["pending_step"]))
        originator = state.get("originator")
        if originator is not None:
            executor.set_tool_call_originator(originator)
    forced = target_from_data(state.get("forced"), where)
    if forced is not None:
        manager._next_target_force = forced
    elif hasattr(manager, "_next_target_force"):
        delattr(manager, "_next_target_force")
    transition = groupchat.speaker_selection_method
    if "use_initial_agent" in state and hasattr(transition, "use_initial_agent"):
        transition.use_initial_agent = bool(state["use_initial_agent"])
    source = getattr(groupchat, "random_source", None)
    if source is not None and state.get("random") is not None:
        version, internal, gauss = state["random"]
        source.setstate((version, tuple(internal), gauss))
    groupchat.selection_log[:] = [SelectionRecord.from_dict(record) for record in state.get(SELECTION_KEY) or []]


def _restore_context(groups: list[Any], agents: list[Any]) -> None:
    """Set every agent's context variables to the saved data (empty when the checkpoint has none for it)."""
    saved = {name: data for names, data in groups for name in names}
    done: set[int] = set()
    for agent in agents:
        variables = getattr(agent, "context_variables", None)
        if not callable(getattr(variables, "to_dict", None)) or id(variables) in done:
            continue
        done.add(id(variables))  # shared by a pattern's group: restored once, in place
        variables.clear()
        variables.update(dict(saved.get(agent.name) or {}))


def _model_client(agent: Any) -> Any:
    """The agent's model client when it counts usage (an ``OpenAIWrapper``), else None."""
    client = getattr(agent, "client", None)
    return client if client is not None and hasattr(client, "total_usage_summary") else None


def _usage_of(agents: list[Any]) -> dict[str, Any]:
    """Each agent's model usage so far (``total`` and ``actual`` summaries), for agents that used a model."""
    usage: dict[str, Any] = {}
    for agent in agents:
        client = _model_client(agent)
        if client is not None and (client.total_usage_summary or client.actual_usage_summary):
            usage[agent.name] = {"total": client.total_usage_summary, "actual": client.actual_usage_summary}
    return usage


def _restore_usage(usage: dict[str, Any], agents: list[Any]) -> None:
    """Give each agent's model client the usage the checkpoint counted (the cost of the run before the resume)."""
    for agent in agents:
        client = _model_client(agent)
        saved = usage.get(agent.name)
        if client is not None and saved:
            client.total_usage_summary = saved.get("total")
            client.actual_usage_summary = saved.get("actual")


def check_targets(state: dict[str, Any], where: str) -> None:
    """Refuse a state whose pending hand-off or forced target cannot be restored, before anything changes.

    Raises:
        ValueError: as :func:`target_from_data`, naming ``where``.
    """
    target_from_data(state.get("pending"), where)
    target_from_data(state.get("forced"), where)


def clear_pending_choice(manager: Any) -> None:
    """Drop what the next selection would have followed, because the next speaker was chosen outside it.

    A fork that names this round's speaker (or says its message) takes the place of the selection: the
    pending hand-off on the group's tool executor, a target forced on the manager and a pattern's first
    turn for its initial agent are used up by that choice, as the selection would have used them.
    """
    groupchat = manager.groupchat
    executor = _executor(groupchat)
    if executor is not None:
        executor.clear_next_target()
    if hasattr(manager, "_next_target_force"):
        delattr(manager, "_next_target_force")
    transition = groupchat.speaker_selection_method
    if isinstance(getattr(transition, "use_initial_agent", None), bool):
        transition.use_initial_agent = False
