"""Classic helpers classic test files and modules import: import_utils, _pydantic, doc_utils,
the legacy code-generation names of code_utils, and image tokens in token counts."""

from __future__ import annotations

import asyncio
import logging
import sys
from typing import Annotated, Optional, Union

import pytest
from pydantic import BaseModel

import autogen_classic as autogen
from autogen_classic._pydantic import model_dump, model_dump_json, type2schema
from autogen_classic.doc_utils import export_module
from autogen_classic.import_utils import (
    get_missing_imports,
    optional_import_block,
    patch_object,
    require_optional_import,
    skip_on_missing_imports,
)

ABSENT = "autogen_classic_absent_module_for_tests"


def test_optional_import_block_records_a_failed_import_and_goes_on() -> None:
    with optional_import_block() as result:
        import json  # noqa: F401
    assert result.is_successful
    with optional_import_block() as result:
        __import__(ABSENT)
        raise AssertionError("not reached: the import fails first")
    assert not result.is_successful


def test_get_missing_imports_names_only_what_is_missing() -> None:
    # AG2 Classic 0.14: a dict from each missing module to why it is missing.
    assert get_missing_imports(["json", ABSENT, "os.path"]) == {ABSENT: f"'{ABSENT}' is not installed."}
    assert get_missing_imports("json") == {}
    assert get_missing_imports(f"{ABSENT}.sub") == {f"{ABSENT}.sub": f"'{ABSENT}.sub' is not installed."}
    assert get_missing_imports("pytest>=1000") == {
        "pytest": f"'pytest' is installed, but the installed version {pytest.__version__} is too low (required 'pytest>=1000')."
    }
    assert get_missing_imports("pytest>=1.0,<1000") == {}


def test_require_optional_import_raises_import_error_naming_module_and_extra_when_used() -> None:
    @require_optional_import([ABSENT, "json"], "long-context")
    def compress(text: str) -> str:
        return text

    with pytest.raises(ImportError) as info:
        compress("x")
    assert str(info.value) == (
        f"A module needed for {__name__}.compress is missing:\n - '{ABSENT}' is not installed.\n"
        "Please install it using:\n'pip install autogen-classic[long-context]'"
    )

    @require_optional_import([ABSENT, ABSENT + "2"], "x")
    class Needs:
        def __init__(self) -> None:
            pass

    with pytest.raises(ImportError, match=r"^Modules needed for .*__init__ are missing:\n - .*\n - .*\nPlease install them using:\n'pip install autogen-classic\[x\]'"):
        Needs()

    @require_optional_import("json", "x")
    def present(a: int) -> int:
        return a + 1

    assert present(1) == 2


def test_patch_object_covers_coroutines_and_refuses_what_cannot_be_patched() -> None:
    async def fetch() -> int:
        return 1

    patched = patch_object(fetch, missing_modules=[ABSENT], dep_target="x")
    with pytest.raises(ImportError, match=ABSENT):
        asyncio.run(patched())
    with pytest.raises(ValueError, match="Cannot patch"):
        patch_object(3, missing_modules=[ABSENT], dep_target="x")
    assert patch_object(3, missing_modules=[ABSENT], dep_target="x", fail_if_not_patchable=False) == 3


def test_skip_on_missing_imports_marks_and_skips_with_the_reason() -> None:
    def needs_absent() -> None: ...

    def needs_json() -> None: ...

    skipped = skip_on_missing_imports([ABSENT], "long-context")(needs_absent)
    marks = {m.name: m for m in skipped.pytestmark}
    assert set(marks) == {"long_context", "skip"}
    assert marks["skip"].args == (f"Missing module: {ABSENT}. Install using 'pip install autogen-classic[long-context]'",)
    kept = skip_on_missing_imports("json")(needs_json)
    assert [m.name for m in kept.pytestmark] == ["openai"]


def test_pydantic_helpers_at_the_classic_private_path() -> None:
    class A(BaseModel):
        a: str
        b: int = 2

    assert model_dump(A(a="aaa")) == {"a": "aaa", "b": 2}
    assert model_dump_json(A(a="aaa")).replace(" ", "") == '{"a":"aaa","b":2}'
    assert type2schema(str) == {"type": "string"}
    assert type2schema(None) == {"type": "null"}
    assert type2schema(Optional[int]) == {"anyOf": [{"type": "integer"}, {"type": "null"}]}
    assert type2schema(dict[str, int]) == {"additionalProperties": {"type": "integer"}, "type": "object"}
    assert type2schema(Annotated[str, "some text"]) == {"type": "string"}
    assert type2schema(Union[int, float]) == {"anyOf": [{"type": "integer"}, {"type": "number"}]}


def test_export_module_returns_the_object_unchanged() -> None:
    def f() -> int:
        return 1

    assert export_module("autogen")(f) is f


@pytest.mark.parametrize("name", ["improve_code", "improve_function", "generate_assertions", "generate_code",
                                  "implement", "eval_function_completions"])
def test_legacy_code_generation_helpers_import_and_say_what_to_use(name: str) -> None:
    from autogen_classic import code_utils

    helper = getattr(code_utils, name)
    args = {"improve_code": (["a.py"], "faster"), "improve_function": ("a.py", "f", "faster"),
            "generate_assertions": ("def f(): ...",), "generate_code": (), "implement": ("def f(): ...",),
            "eval_function_completions": (["x"], "def f(): ...")}[name]
    with pytest.raises(AssertionError, match="legacy Completion API") as info:
        helper(*args)
    assert isinstance(info.value, RuntimeError)
    assert "OpenAIWrapper" in str(info.value)
    with pytest.raises(RuntimeError, match="PassAssertionFilter"):
        code_utils.PassAssertionFilter("assert f() == 1")


# A 5x5 PNG: one 512-pixel tile at high detail.
PNG = (
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAUAAAAFCAYAAACNbyblAAAAHElEQVQI12P4"
    "//8/w38GIAXDIBKE0DHxgljNBAAO9TXL0Y4OHwAAAABJRU5ErkJggg=="
)


def _with_image(detail: Optional[str] = None) -> list[dict]:
    image = {"url": PNG, **({"detail": detail} if detail else {})}
    return [
        {"role": "system", "content": "you are a helpful assistant."},
        {"role": "user", "content": [{"type": "text", "text": "hello"}, {"type": "image_url", "image_url": image}]},
    ]


def test_images_in_messages_count_as_the_vision_model_bills_them() -> None:
    pytest.importorskip("PIL", reason="Pillow (installed with the test extra through matplotlib) reads the image size")
    from autogen_classic.token_count_utils import _num_token_from_messages, count_token

    text_only = [_with_image()[0], {"role": "user", "content": [{"type": "text", "text": "hello"}]}]
    text = count_token(text_only, model="gpt-4-vision-preview")
    assert count_token(_with_image(), model="gpt-4-vision-preview") == text + 85 + 170
    assert count_token(_with_image("low"), model="gpt-4-vision-preview") == text + 85
    assert _num_token_from_messages(messages=_with_image(), model="gpt-4-vision-preview") == text + 255


def test_an_image_for_a_model_without_vision_prices_counts_zero_with_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    pytest.importorskip("PIL", reason="Pillow (installed with the test extra through matplotlib) reads the image size")
    from autogen_classic.token_count_utils import count_token

    text_only = [_with_image()[0], {"role": "user", "content": [{"type": "text", "text": "hello"}]}]
    with caplog.at_level(logging.WARNING, logger="autogen_classic.token_count_utils"):
        assert count_token(_with_image(), model="gpt-3.5-turbo") == count_token(text_only, model="gpt-3.5-turbo")
    assert "is not supported" in caplog.text


def test_import_optional_names_what_needs_the_package_and_how_to_install_it() -> None:
    from autogen_classic.import_utils import import_optional

    assert import_optional("json.decoder", needed_by="x", install_hint="y").__name__ == "json"
    with pytest.raises(ImportError) as caught:
        import_optional("no_such_package_here.sub", needed_by="The thing", install_hint='pip install "thing"')
    assert str(caught.value) == (
        "The thing needs the 'no_such_package_here' package, which is not installed. Install it with: pip install \"thing\""
    )
