"""What an agent carries for the group orchestration: its hand-offs and its context variables.

``agent.context_variables`` is a ``ContextVariables`` (AG2 0.14). ag2 0.7.3 code reads and replaces a
plain dict, ``agent._context_variables``: that name is a view of the same storage (the dict inside the
``ContextVariables``), and assigning a dict to it wraps that very dict, so a swarm's shared dict and
the agents' ``context_variables`` stay one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Union

from ..transitions import ContextVariables, Handoffs, OnCondition, OnContextCondition

if TYPE_CHECKING:
    from ..conversable_agent import ConversableAgent

__all__ = ["HandoffsMixin", "as_context_variables", "as_handoffs"]


def as_context_variables(context_variables: Any) -> Any:
    """The agent's ``context_variables`` for a constructor argument: a ``ContextVariables`` is kept, a dict is
    wrapped without copying (ag2 0.7.3 code keeps using that dict), None gives an empty one. Anything else is
    kept as given (the constructor has warned about it)."""
    if context_variables is None:
        return ContextVariables()
    if isinstance(context_variables, dict):
        return ContextVariables.wrap(context_variables)
    return context_variables


def as_handoffs(handoffs: Any) -> Any:
    """The agent's ``handoffs`` for a constructor argument: a new ``Handoffs`` for None, else as given."""
    return Handoffs() if handoffs is None else handoffs


class HandoffsMixin:
    """``register_handoff`` / ``register_handoffs`` and the ag2 0.7.3 view ``_context_variables``."""

    handoffs: Any
    context_variables: Any

    @property
    def _context_variables(self) -> Any:
        # The dict inside context_variables: 0.7.3 code reads and updates it in place.
        variables = self.context_variables
        return variables.data if isinstance(variables, ContextVariables) else variables

    @_context_variables.setter
    def _context_variables(self, value: Any) -> None:
        self.context_variables = as_context_variables(value)

    def register_handoff(self: ConversableAgent, condition: Union[OnContextCondition, OnCondition]) -> None:
        """Add one hand-off condition to ``self.handoffs``.

        Args:
            condition: an ``OnContextCondition`` or an ``OnCondition``.
        """
        self.handoffs.add(condition)

    def register_handoffs(self: ConversableAgent, conditions: list[Union[OnContextCondition, OnCondition]]) -> None:
        """Add several hand-off conditions to ``self.handoffs``.

        Args:
            conditions: ``OnContextCondition`` s and ``OnCondition`` s.
        """
        self.handoffs.add_many(conditions)
