"""``ContextStr``: a text with ``{name}`` fields filled from the context variables when it is used."""

from __future__ import annotations

from typing import Optional

from pydantic import BaseModel

from .context_variables import ContextVariables

__all__ = ["ContextStr"]


class ContextStr(BaseModel):
    """A template whose ``{name}`` fields are context variables, filled by :meth:`format` (``str.format`` rules).

    Args:
        template: the text, e.g. ``"The customer is {customer_name}."``.
    """

    template: str

    def format(self, context_variables: ContextVariables) -> Optional[str]:
        """The template with the context variables filled in (unchanged when there are no variables).

        Args:
            context_variables: the variables (a ``ContextVariables``; a plain dict is accepted too).

        Raises:
            KeyError: when the template names a variable that is not set.
        """
        context = context_variables.to_dict() if isinstance(context_variables, ContextVariables) else dict(context_variables)
        if not context:
            return self.template
        try:
            return self.template.format(**context)
        except KeyError as error:
            name = error.args[0] if error.args else "?"
            raise KeyError(
                f"{name!r}: the template {self.template!r} names the context variable {name!r}, which is not set "
                f"(set: {sorted(context)}); set it first, or write {{{{{name}}}}} for literal braces."
            ) from None

    def __str__(self) -> str:
        return f"ContextStr, unformatted: {self.template}"
