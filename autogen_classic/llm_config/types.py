"""Classic path ``autogen.llm_config.types``: every typed entry, and ``ConfigEntries``, their union.

The entries are defined in ``oai.entries``; ``oai.entries.config_entries`` exports just these names.
"""

from ..oai.entries.config_entries import *  # noqa: F403
from ..oai.entries.config_entries import __all__  # noqa: F401 - the same names
