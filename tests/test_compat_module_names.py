"""Every module-level name (private ones included) that AG2 Classic 0.14.1 code reaches in these modules is
importable at its classic path here, from the record ``tests/data/classic_module_names_autogen_0141.json``
(made by ``tests/data/record_module_names.py`` from an installed ``autogen==0.14.1``). The few left out are
named with the reason."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

RECORD = json.loads((Path(__file__).parent / "data" / "classic_module_names_autogen_0141.json").read_text())
NOT_SERVED = {
    # The vendored fast_depends library's own machinery: this package injects with its own engine.
    ("autogen.fast_depends.use", "CallModel"): "fast_depends' call model; injection is this package's engine",
    ("autogen.fast_depends.use", "build_call_model"): "the same",
    ("autogen.fast_depends.use", "_InjectWrapper"): "the same",
    ("autogen.fast_depends.use", "_wrap_inject"): "the same",
    ("autogen.fast_depends.use", "solve_async_gen"): "the same",
    ("autogen.fast_depends.use", "solve_gen"): "the same",
    **{("autogen.fast_depends.utils", name): "fast_depends' own async helpers, used only inside that library"
       for name in ("async_map", "asyncify", "collect_outer_stack_locals", "contextmanager_in_threadpool",
                    "get_typed_annotation", "get_typed_signature", "is_async_gen_callable", "is_gen_callable",
                    "run_async", "run_in_threadpool", "solve_generator_async", "solve_generator_sync")},
    # 0.14.1's copies of the moderation fields of a chat completion: the OpenAI SDK this package uses has none.
    **{("autogen.oai.oai_models.chat_completion", name): "not in the OpenAI SDK's ChatCompletion"
       for name in ("Moderation", "ModerationInputError", "ModerationInputModerationResults",
                    "ModerationInputModerationResultsResult", "ModerationOutputError",
                    "ModerationOutputModerationResults", "ModerationOutputModerationResultsResult")},
    ("autogen.events.agent_events", "result"): "the leftover variable of an import probe",
    ("autogen.import_utils", "_mark_object"): "the test-marking helper behind run_for_optional_imports, which "
                                                 "marks through pytest here",
}  # fmt: skip
CASES = [(module, name) for module, names in RECORD.items() if not module.startswith("_") for name in names]


@pytest.mark.parametrize(("module", "name"), CASES, ids=[f"{m}:{n}" for m, n in CASES])
def test_the_name_is_at_its_classic_path(module: str, name: str) -> None:
    if (module, name) in NOT_SERVED:
        pytest.skip(f"not served: {NOT_SERVED[module, name]}")
    ours = importlib.import_module(module.replace("autogen", "autogen_classic", 1))
    assert hasattr(ours, name), f"{module}.{name} is missing"


def test_the_record_is_of_0141_and_covers_what_the_issue_names() -> None:
    assert RECORD["_recorded_from_"] == "autogen==0.14.1"
    assert "_NO_AFTER_WORK_MATCHED" in RECORD["autogen.agentchat.group.group_utils"]
    assert "__TOOL_EXECUTOR_NAME__" in RECORD["autogen.agentchat.group.group_tool_executor"]
    assert "_set_return_annotation_to_any" in RECORD["autogen.tools.dependency_injection"]
    assert "_change_usage_summary_format" in RECORD["autogen.events.client_events"]
    assert "EventRole" in RECORD["autogen.events.agent_events"]
    assert "is_coroutine_callable" in RECORD["autogen.fast_depends.utils"]
    assert set(RECORD["autogen.oai.oai_models"]) >= {"ChatCompletion", "Choice", "CompletionUsage"}
