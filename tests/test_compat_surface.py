"""The classic surface: every public name of the classic modules, at the classic path.

Two records, each made by ``tests/data/record_classic_surface.py`` from an installed classic
package: ``classic_surface_autogen_0141.json`` (AG2 Classic ``autogen==0.14.1``, the reference) and
``classic_surface_ag2_073.json`` (``ag2==0.7.3``, whose code must keep running). For each module,
the names classic code imports from it (its ``__all__``, else its public names, plus the names
defined in the package that classic code imports from that path) and, for every callable, its
parameters (name, kind, default) and, for classes, their public methods and properties.

Each name must import from ``autogen_classic`` at the same path; callables must accept every
classic parameter under the same name, in the same position, with the same default. Extra
parameters are allowed only with a default (a classic call never has to pass them).
"""

from __future__ import annotations

import importlib
import inspect
import json
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import pytest

_DATA = Path(__file__).parent / "data"


def _load(label: str) -> Tuple[Dict[str, Dict[str, Any]], Dict[str, Dict[str, Any]]]:
    record = json.loads((_DATA / f"classic_surface_{label}.json").read_text())
    modules = {f"{label}|{m}": names for m, names in record["modules"].items()}
    objects = {f"{label}|{k}": v for k, v in record["objects"].items()}
    for names in modules.values():
        for entry in names.values():
            if entry.get("object"):
                entry["object"] = f"{label}|{entry['object']}"
    return modules, objects


MODULES: Dict[str, Dict[str, Any]] = {}
OBJECTS: Dict[str, Dict[str, Any]] = {}
for _label in ("autogen_0141", "ag2_073"):
    _modules, _objects = _load(_label)
    MODULES.update(_modules)
    OBJECTS.update(_objects)

# Differences kept on purpose, each with its reason (also listed in docs/migrating.md).
# Keys: "<object key>" for a whole callable, "<object key>.<method>" for one method.
# Callables the recording could not see as they are: ag2 0.7.3 replaces them by a (*args, **kwargs)
# placeholder when an optional package (llmlingua, Pillow) is missing. Their classic signatures:
CLASSIC_SIGNATURES: Dict[str, List[List[Any]]] = {
    "ag2_073|autogen.agentchat.contrib.capabilities.text_compressors:LLMLingua": [
        [
            "prompt_compressor_kwargs",
            "POSITIONAL_OR_KEYWORD",
            "{'model_name': 'microsoft/llmlingua-2-bert-base-multilingual-cased-meetingbank', "
            "'use_llmlingua2': True, 'device_map': 'cpu'}",
        ],
        ["structured_compression", "POSITIONAL_OR_KEYWORD", "False"],
    ],
    "ag2_073|autogen.agentchat.contrib.capabilities.text_compressors:LLMLingua.compress_text": [
        ["text", "POSITIONAL_OR_KEYWORD", None],
        ["compression_params", "VAR_KEYWORD", None],
    ],
    "ag2_073|autogen.token_count_utils:num_tokens_from_gpt_image": [
        ["image_data", "POSITIONAL_OR_KEYWORD", None],
        ["model", "POSITIONAL_OR_KEYWORD", "'gpt-4-vision'"],
        ["low_quality", "POSITIONAL_OR_KEYWORD", "False"],
    ],
    # autogen 0.14.1 does the same without Pillow.
    "autogen_0141|autogen.token_count_utils:num_tokens_from_gpt_image": [
        ["image_data", "POSITIONAL_OR_KEYWORD", None],
        ["model", "POSITIONAL_OR_KEYWORD", "'gpt-4-vision'"],
        ["low_quality", "POSITIONAL_OR_KEYWORD", "False"],
    ],
    # work_dir=Path('.') of ag2 0.7.3 is work_dir=None in autogen 0.14.1, meaning the same directory; we follow
    # 0.14.1 (a 0.7.3 call that leaves it out still gets the current directory).
    "ag2_073|autogen.coding:DockerCommandLineCodeExecutor": [
        ["image", "POSITIONAL_OR_KEYWORD", "'python:3-slim'"],
        ["container_name", "POSITIONAL_OR_KEYWORD", "None"],
        ["timeout", "POSITIONAL_OR_KEYWORD", "60"],
        ["work_dir", "POSITIONAL_OR_KEYWORD", "None"],
        ["bind_dir", "POSITIONAL_OR_KEYWORD", "None"],
        ["auto_remove", "POSITIONAL_OR_KEYWORD", "True"],
        ["stop_container", "POSITIONAL_OR_KEYWORD", "True"],
        ["execution_policies", "POSITIONAL_OR_KEYWORD", "None"],
    ],
}

# Methods whose 0.14.1 signature cannot also be 0.7.3's: ``run(message, *, ...)`` became ``run(recipient=None, ...)``.
# A 0.7.3 call (the task first, positional) still runs with 0.7.3's defaults (tests/test_classic_examples.py).
SIGNATURE_CHANGED_BY_0141 = {"run", "a_run"}

# Methods of a 0.14.1 class left out of this check, with the reason.
_UI_TOOLS = (
    "not on the runtime-checkable Agent protocols: isinstance(x, Agent) would then refuse 0.7.3-style agents "
    "without them; ConversableAgent has both"
)
METHODS_NOT_CHECKED_HERE: Dict[str, Dict[str, str]] = {
    "Agent": {"set_ui_tools": _UI_TOOLS, "unset_ui_tools": _UI_TOOLS},
    "LLMAgent": {"set_ui_tools": _UI_TOOLS, "unset_ui_tools": _UI_TOOLS},
}

# Callables whose defaults 0.14.1 changed: checked against the 0.14.1 record only (docs/migrating.md).
DEFAULTS_CHANGED_BY_0141 = {
    "ag2_073|autogen:ChatResult": "autogen_0141|autogen.agentchat.chat:ChatResult",
}

# Defaults whose repr is not comparable across packages (objects, paths of the install).
_UNCOMPARABLE_DEFAULT_MARKERS = ("<", "/")


def ours(module: str) -> Any:
    """Our module at the classic path ``module`` (``"<record>|autogen.x.y"`` or ``"autogen.x.y"``)."""
    module = module.split("|")[-1]
    return importlib.import_module("autogen_classic" + module[len("autogen") :])


def _params(obj: Any) -> Optional[List[inspect.Parameter]]:
    try:
        if inspect.isclass(obj):
            return list(inspect.signature(obj.__init__).parameters.values())[1:]
        return list(inspect.signature(obj).parameters.values())
    except (TypeError, ValueError):
        return None


def compare_params(recorded: List[List[Any]], actual: List[inspect.Parameter]) -> List[str]:
    """Differences that would break a classic call: missing/renamed/reordered params, changed defaults."""
    problems: List[str] = []
    by_name = {p.name: p for p in actual}
    has_var_kw = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in actual)
    has_var_pos = any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in actual)
    positional_ref = [r for r in recorded if r[1] in ("POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD")]
    positional_ours = [p for p in actual if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    for index, (name, kind, default) in enumerate(recorded):
        if kind == "VAR_POSITIONAL":
            if not has_var_pos:
                problems.append(f"*{name} missing")
            continue
        if kind == "VAR_KEYWORD":
            if not has_var_kw:
                problems.append(f"**{name} missing")
            continue
        param = by_name.get(name)
        if param is None:
            if not has_var_kw:
                problems.append(f"parameter {name!r} missing")
            continue
        if kind in ("POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD"):
            position = positional_ref.index([name, kind, default])
            if position >= len(positional_ours) or positional_ours[position].name != name:
                problems.append(f"parameter {name!r} not at position {position}")
        if default is None:
            continue
        if param.default is inspect.Parameter.empty:
            problems.append(f"parameter {name!r} lost its default {default}")
        elif not any(marker in default for marker in _UNCOMPARABLE_DEFAULT_MARKERS):
            if repr(param.default) != default:
                problems.append(f"parameter {name!r} default {param.default!r}, classic {default}")
    recorded_names = {r[0] for r in recorded}
    for param in actual:
        if param.name in recorded_names or param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        if param.default is inspect.Parameter.empty and param.kind is not param.VAR_KEYWORD:
            problems.append(f"extra parameter {param.name!r} has no default")
    return problems


NAME_CASES: List[Tuple[str, str]] = [(m, n) for m, names in MODULES.items() for n in names]


@pytest.mark.parametrize("module", sorted(MODULES))
def test_every_classic_name_imports_from_the_classic_path(module: str) -> None:
    mod = ours(module)
    missing = sorted(name for name in MODULES[module] if not hasattr(mod, name))
    assert not missing, f"{module}: missing {missing}"


@pytest.mark.parametrize("module", sorted(m for m, names in MODULES.items() if any(e["listed"] for e in names.values())))
def test_star_import_gives_the_listed_names(module: str) -> None:
    namespace: Dict[str, Any] = {}
    exec(f"from {ours(module).__name__} import *", namespace)  # noqa: S102
    listed = sorted(n for n, e in MODULES[module].items() if e["listed"])
    assert not [n for n in listed if n not in namespace], f"from {module} import * misses names"


def _callable_cases() -> List[Tuple[str, str, str]]:
    seen = set()
    cases = []
    for module, names in sorted(MODULES.items()):
        for name, entry in sorted(names.items()):
            key = entry.get("object")
            if key and key not in seen and OBJECTS[key].get("params") is not None:
                seen.add(key)
                cases.append((module, name, key))
    return cases


@pytest.mark.parametrize(("module", "name", "key"), _callable_cases(), ids=[c[2] for c in _callable_cases()])
def test_callable_accepts_every_classic_parameter(module: str, name: str, key: str) -> None:
    obj = getattr(ours(module), name)
    actual = _params(obj)
    assert actual is not None, f"{module}.{name} has no readable signature"
    if key in DEFAULTS_CHANGED_BY_0141:
        key = DEFAULTS_CHANGED_BY_0141[key]
    problems = compare_params(CLASSIC_SIGNATURES.get(key, OBJECTS[key]["params"]), actual)
    assert not problems, f"{module}.{name}: {problems}"


def _class_cases() -> List[Tuple[str, str, str]]:
    return [c for c in _callable_cases() if OBJECTS[c[2]]["kind"] == "class"]


@pytest.mark.parametrize(("module", "name", "key"), _class_cases(), ids=[c[2] for c in _class_cases()])
def test_class_has_every_classic_method_and_property(module: str, name: str, key: str) -> None:
    cls = getattr(ours(module), name)
    recorded = OBJECTS[key]
    problems: List[str] = []
    for prop in recorded.get("properties", []):
        if not hasattr(cls, prop):
            problems.append(f"property {prop} missing")
    for method, params in recorded.get("methods", {}).items():
        if key.startswith("ag2_073|") and method in SIGNATURE_CHANGED_BY_0141:
            continue  # checked against the 0.14.1 record; the 0.7.3 call form is served by argument type
        if key.startswith("autogen_0141|") and method in METHODS_NOT_CHECKED_HERE.get(key.split(":")[-1], {}):
            continue
        params = CLASSIC_SIGNATURES.get(f"{key}.{method}", params)
        member = getattr(cls, method, None)
        if member is None:
            problems.append(f"method {method} missing")
            continue
        if params is None:
            continue
        actual = _params(member)
        if actual is None:
            continue
        if actual and actual[0].name in ("self", "cls") and not inspect.ismethod(member):
            actual = actual[1:]
        problems += [f"{method}: {p}" for p in compare_params(params, actual)]
    assert not problems, f"{module}.{name}: {problems}"


def test_one_object_behind_every_classic_path() -> None:
    """Where the classic package re-exports one object at several paths, so do we (isinstance, `is`)."""
    paths: Dict[str, List[Tuple[str, str]]] = {}
    for module, names in MODULES.items():
        for name, entry in names.items():
            if entry.get("object"):
                paths.setdefault(entry["object"], []).append((module, name))
    split = []
    for key, places in paths.items():
        found = {id(getattr(ours(m), n, None)) for m, n in places}
        if len(found) > 1:
            split.append((key, sorted(places)))
    assert not split, split


# Constants whose classic values scripts rely on (paths and the package's own version excluded).
# Module state that starts with the recorded value but changes as the package is used (runtime logging
# keeps its logger after stop(), as the classic does), so other tests may leave it set.
MODULE_STATE = {"autogen_logger", "is_logging"}
CONSTANT_CASES = [
    (m, n, e["value"])
    for m, names in sorted(MODULES.items())
    for n, e in sorted(names.items())
    if "value" in e and not (isinstance(e["value"], str) and "/" in e["value"])
    and n != "__version__" and n not in MODULE_STATE
]


# Constants whose value changed between the records: the newer record's value is served (docs/migrating.md).
CHANGED_BY_0141 = {
    "ag2_073|autogen.DEFAULT_MODEL", "ag2_073|autogen.FAST_MODEL",
    "ag2_073|autogen.code_utils.DEFAULT_MODEL", "ag2_073|autogen.code_utils.FAST_MODEL",
}


@pytest.mark.parametrize(("module", "name", "value"), CONSTANT_CASES, ids=[f"{c[0]}.{c[1]}" for c in CONSTANT_CASES])
def test_classic_constants_keep_their_values(module: str, name: str, value: Any) -> None:
    if f"{module}.{name}" in CHANGED_BY_0141:
        newer = f"autogen_0141|{module.split('|')[1]}"
        value = MODULES[newer][name]["value"]
    assert getattr(ours(module), name) == value
