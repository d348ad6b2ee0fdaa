"""Record the module-level names, private ones included, of the AG2 Classic 0.14.1 modules whose internals code
reaches (helpers called directly, names patched), for ``tests/test_compat_module_names.py``.

Run it with an interpreter that has ``autogen==0.14.1``:
``python tests/data/record_module_names.py tests/data/classic_module_names_autogen_0141.json``.
Names imported from outside the package (typing, pydantic, ...) and submodules are left out.
"""

from __future__ import annotations

import importlib
import json
import sys
import types

MODULES = [
    "autogen.agentchat.group.group_utils", "autogen.agentchat.group.group_tool_executor",
    "autogen.tools.dependency_injection", "autogen.events.client_events", "autogen.events.agent_events",
    "autogen.oai.oai_models", "autogen.oai.oai_models.chat_completion", "autogen.oai.oai_models.chat_completion_message",
    "autogen.oai.oai_models.chat_completion_message_tool_call", "autogen.oai.oai_models.completion_usage",
    "autogen.fast_depends", "autogen.fast_depends.utils", "autogen.fast_depends.use",
    "autogen.fast_depends.dependencies", "autogen.import_utils", "autogen.agentchat.groupchat",
]  # fmt: skip
SKIP = {"annotations", "TYPE_CHECKING", "logger", "T", "P", "F", "G"}


def record(module_name: str) -> list[str]:
    module = importlib.import_module(module_name)
    names = []
    for name, value in vars(module).items():
        if (name.startswith("__") and name != "__TOOL_EXECUTOR_NAME__") or name in SKIP:
            continue
        if isinstance(value, types.ModuleType):
            continue
        origin = getattr(value, "__module__", None)
        alias = getattr(value, "__origin__", None) is not None  # a typing alias made here (EventRole = Literal[...])
        if origin is not None and not str(origin).startswith("autogen") and not alias:
            continue
        names.append(name)
    return sorted(names)


if __name__ == "__main__":
    names = {"_recorded_from_": "autogen==0.14.1", **{name: record(name) for name in MODULES}}
    with open(sys.argv[1], "w") as out:
        json.dump(names, out, indent=1, sort_keys=True)
