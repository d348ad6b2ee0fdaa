"""Record the classic surface from an installed classic package into a JSON file beside this script.

Run with the interpreter of an environment that has the classic package (never this package's)::

    python tests/data/record_classic_surface.py NAMES.json classic_surface_ag2_073.json "ag2 0.7.3"
    python tests/data/record_classic_surface.py NAMES.json classic_surface_autogen_0141.json "autogen 0.14.1"

``NAMES.json`` maps each classic module to ``{"names": [...]}`` (its ``__all__``, else its
public names) and may hold ``"_excluded_": {"names": [...]}``. For every module the record
keeps those names plus the names defined inside the classic package that classic code imports
from that path, and describes each callable once: its parameters and, for classes, their
public methods and properties.
"""

from __future__ import annotations

import importlib
import inspect
import json
import re
import sys
import types
from pathlib import Path
from typing import Any, Dict, List, Optional

# Modules and names served by parts of the package recorded separately.
NOT_RECORDED_MODULES = ("swarm_agent",)
NOT_RECORDED_NAMES = {
    "AFTER_WORK", "AfterWorkOption", "ON_CONDITION", "SwarmAgent", "SwarmResult", "UPDATE_SYSTEM_MESSAGE",
    "a_initiate_swarm_chat", "initiate_swarm_chat",
}
NOT_RECORDED_ORIGINS = ("autogen.agentchat.contrib.swarm",)
# Names a classic module only happens to import for its own use (a type hint, a helper, a test type variable).
INCIDENTAL = {
    "autogen.messages.agent_messages": {"OpenAIWrapper", "content_str"},
    "autogen.messages.base_message": {"PetType"},
}
# Internal helpers of the classic package that happen to be importable from many modules.
INTERNAL = {"export_module", "optional_import_block", "require_optional_import", "logging_enabled",
            "A", "F", "T", "P", "result", "get_current_ts"}


def _params(obj: Any) -> Optional[List[List[Any]]]:
    try:
        target = obj.__init__ if inspect.isclass(obj) else obj
        params = list(inspect.signature(target).parameters.values())
    except (TypeError, ValueError):
        return None
    if inspect.isclass(obj):
        params = params[1:]
    return [[p.name, p.kind.name, None if p.default is inspect.Parameter.empty else _repr(p.default)] for p in params]


def _repr(value: Any) -> str:
    # Addresses change from run to run; the record must not.
    return re.sub(r" at 0x[0-9a-f]+", "", repr(value))


def _from_package(obj: Any) -> bool:
    return (getattr(obj, "__module__", "") or "").startswith("autogen")


def _describe(obj: Any) -> Dict[str, Any]:
    if not callable(obj):
        simple = isinstance(obj, (str, int, float, bool)) or obj is None
        return {"kind": "value", **({"value": obj} if simple else {})}
    record: Dict[str, Any] = {"kind": "class" if inspect.isclass(obj) else "function", "params": _params(obj)}
    if inspect.isclass(obj):
        methods = {}
        for name, member in inspect.getmembers(obj):
            if name.startswith("_") or not (inspect.isfunction(member) or inspect.ismethod(member)):
                continue
            if _from_package(member):
                params = _params(member)
                if params and params[0][0] in ("self", "cls"):
                    params = params[1:]
                methods[name] = params
        record["methods"] = methods
        record["properties"] = sorted(
            name for name, member in inspect.getmembers(obj)
            if isinstance(member, property) and not name.startswith("_") and _from_package(member.fget)
        )
    return record


def main(names_path: str, out_name: str = "classic_surface_ag2_073.json", label: str = "ag2 0.7.3") -> None:
    listed_by_module = json.loads(Path(names_path).read_text())
    excluded_entry = listed_by_module.get("_excluded_", {})
    excluded = set(excluded_entry.get("names", []) or excluded_entry.get("names_dropped", []))
    modules: Dict[str, Dict[str, Any]] = {}
    objects: Dict[str, Dict[str, Any]] = {}
    for module_name, entry in listed_by_module.items():
        if module_name.startswith("_") or any(part in module_name for part in NOT_RECORDED_MODULES):
            continue
        module = importlib.import_module(module_name)
        listed = set(entry["names"])
        deep = {
            name for name in dir(module)
            if not name.startswith(("_", "log_")) and not name.endswith(("Message", "_result"))
            and name not in INTERNAL and not isinstance(getattr(module, name), types.ModuleType)
            and _from_package(getattr(module, name))
        }
        entries: Dict[str, Any] = {}
        for name in sorted((listed | deep) - excluded - NOT_RECORDED_NAMES - INCIDENTAL.get(module_name, set())):
            obj = getattr(module, name, None)
            if isinstance(obj, types.ModuleType) or (getattr(obj, "__module__", "") or "").startswith(NOT_RECORDED_ORIGINS):
                continue
            if callable(obj):
                key = f"{obj.__module__}:{getattr(obj, '__qualname__', name)}"
                objects.setdefault(key, _describe(obj))
                entries[name] = {"listed": name in listed, "object": key}
            else:
                entries[name] = {"listed": name in listed, **_describe(obj)}
        modules[module_name] = entries
    out = Path(__file__).with_name(out_name)
    package, version = label.split()
    record = {"recorded_from": f'{label} (pip install "{package}=={version}")', "modules": modules, "objects": objects}
    out.write_text(json.dumps(record, indent=1, sort_keys=True))
    print(f"{sum(len(e) for e in modules.values())} names in {len(modules)} modules, {len(objects)} callables -> {out}")


if __name__ == "__main__":
    main(*sys.argv[1:4])
