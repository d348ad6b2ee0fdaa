"""Console text compared across runs: each run's id (in ``TERMINATING RUN (<uuid>)``) masked."""

import re

_RUN_ID = re.compile(r"TERMINATING RUN \([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\)")


def mask_run_ids(text: str) -> str:
    """``text`` with every ``TERMINATING RUN (<uuid>)`` written ``TERMINATING RUN (ID)``."""
    return _RUN_ID.sub("TERMINATING RUN (ID)", text)
