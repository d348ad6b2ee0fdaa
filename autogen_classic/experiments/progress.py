"""The progress bar of a study: chats done, failed, and the rate (tqdm).

tqdm draws a text bar in a terminal and a widget in a notebook. ``progress=None`` shows the bar only
when someone watches: standard error is a terminal, or the code runs in a notebook kernel.
"""

from __future__ import annotations

import sys
from typing import Any

__all__ = ["StudyProgress", "wants_progress"]


def _in_notebook() -> bool:
    shell = sys.modules.get("IPython")
    get = getattr(shell, "get_ipython", None)
    kernel = get() if callable(get) else None
    return kernel is not None and type(kernel).__name__ == "ZMQInteractiveShell"


def wants_progress(progress: bool | None) -> bool:
    """Whether to show the bar: ``progress`` when given, else whether the output is watched."""
    if progress is not None:
        if not isinstance(progress, bool):
            raise TypeError(f"progress must be None (automatic), True or False; got {type(progress).__name__}.")
        return progress
    stream = sys.stderr
    return _in_notebook() or bool(getattr(stream, "isatty", lambda: False)())


class StudyProgress:
    """Counts finished and failed chats, on a tqdm bar when ``show``.

    Args:
        total: the chats of the study.
        done: the chats already finished (read from a run directory).
        failed: how many of those failed.
        show: draw the bar.
    """

    def __init__(self, total: int, done: int = 0, failed: int = 0, show: bool = False) -> None:
        self.total, self.done, self.failed = total, done, failed
        self._bar: Any = None
        if show:
            from tqdm.auto import tqdm

            self._bar = tqdm(total=total, initial=done, unit="chat", desc="chats", dynamic_ncols=True)
            self._bar.set_postfix(failed=failed, refresh=False)

    def finished(self, failed: bool) -> None:
        """One more chat ended (``failed``: it raised)."""
        self.done += 1
        self.failed += int(failed)
        if self._bar is not None:
            self._bar.set_postfix(failed=self.failed, refresh=False)
            self._bar.update(1)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
