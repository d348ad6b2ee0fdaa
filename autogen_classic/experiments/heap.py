"""The garbage collector's settings while a study runs many chats at once.

With hundreds of chats in flight, the process holds many young objects, and CPython's collector
scans the whole heap (every module, class and type the imports built) at each full collection: about
a fifth of the CPU of a concurrent study of short chats. For the study's duration, the objects that
existed before it are frozen (never scanned, never freed: they were alive before and stay alive), and
young collections run every 10,000 allocations instead of 700. Both are undone when the study ends,
whatever its outcome. A process that froze objects itself, or turned the collector off, is left as is.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

__all__ = ["study_heap"]

YOUNG_THRESHOLD = 10_000


@contextlib.contextmanager
def study_heap() -> Iterator[None]:
    """Within this block: the heap from before frozen, young collections rarer (restored on exit)."""
    if not gc.isenabled() or gc.get_freeze_count():
        yield
        return
    thresholds = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(max(thresholds[0], YOUNG_THRESHOLD), *thresholds[1:])
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()
