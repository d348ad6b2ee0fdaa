"""``colored``: coloured terminal text, from ``termcolor`` when it is installed, plain text otherwise.

``termcolor`` honours the ``NO_COLOR`` / ``FORCE_COLOR`` environment variables and only colours
output going to a terminal. Without it, ``colored`` returns ``str(text)`` unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, Optional

__all__ = ["colored"]

try:
    from termcolor import colored
except ImportError:  # pragma: no cover - termcolor is a dependency; the fallback is for slimmed installs
    Attribute = Literal["bold", "dark", "underline", "blink", "reverse", "concealed"]
    Highlight = Literal[
        "on_black", "on_grey", "on_red", "on_green", "on_yellow", "on_blue", "on_magenta", "on_cyan",
        "on_light_grey", "on_dark_grey", "on_light_red", "on_light_green", "on_light_yellow", "on_light_blue",
        "on_light_magenta", "on_light_cyan", "on_white",
    ]
    Color = Literal[
        "black", "grey", "red", "green", "yellow", "blue", "magenta", "cyan", "light_grey", "dark_grey",
        "light_red", "light_green", "light_yellow", "light_blue", "light_magenta", "light_cyan", "white",
    ]

    def colored(  # type: ignore[misc]
        text: object,
        color: Optional[Color] = None,
        on_color: Optional[Highlight] = None,
        attrs: Optional[Iterable[Attribute]] = None,
        *,
        no_color: Optional[bool] = None,
        force_color: Optional[bool] = None,
    ) -> str:
        """Return ``text`` as a plain string (no colour without termcolor).

        Args:
            text: what to print.
            color: the text colour (ignored).
            on_color: the background colour (ignored).
            attrs: text attributes such as "bold" (ignored).
            no_color: never colour (ignored).
            force_color: always colour (ignored).
        """
        return str(text)
