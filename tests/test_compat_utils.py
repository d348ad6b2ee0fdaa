"""Classic utility modules: math_utils, formatting_utils, io.console, function_utils and the tools deep names.

The math expectations were produced by ag2 0.7.3 on the same inputs (and the implementation was
compared with it on a few hundred thousand random LaTeX-like strings).
"""

import builtins
import importlib.util
import io
import sys
from typing import Annotated, Any, Optional

import pytest
from pydantic import BaseModel

import autogen_classic as autogen
import autogen_classic.function_utils as classic_function_utils
import autogen_classic.tools.function_utils as tool_function_utils
from autogen_classic import formatting_utils, math_utils
from autogen_classic.exception_utils import InvalidStateError
from autogen_classic.io import IOStream
from autogen_classic.io.console import IOConsole
from autogen_classic.testing.io import ScriptedIOStream

# ---------------------------------------------------------------- math_utils

EQUIV = [
    ("\\frac12", "1/2", 1.0),
    ("0.5", "\\frac{1}{2}", 1.0),
    ("\\dfrac{1}{2}", "\\frac12", 1.0),
    ("\\sqrt3", "\\sqrt{3}", 1.0),
    ("10\\%", "10", 1.0),
    ("5\\text{ cm}", "5", 1.0),
    ("90^\\circ", "90", 1.0),
    ("90^{\\circ}", "90", 1.0),
    ("\\$5", "5", 1.0),
    ("k = 3", "3", 1.0),
    ("x=3", "3", 1.0),
    ("abc=3", "3", 0.0),
    (".5", "0.5", 1.0),
    ("\\left(1,2\\right)", "(1,2)", 1.0),
    ("1 000", "1000", 1.0),
    ("3/4", "\\frac{3}{4}", 1.0),
    ("03/4", "\\frac{3}{4}", 0.0),
    ("a/b", "\\frac{a}{b}", 0.0),
    ("\\frac1{72}", "\\frac{1}{72}", 1.0),
    ("\\frac1b", "\\frac{1}{b}", 1.0),
    ("\\frac", "\\frac", 1.0),
    ("\\sqrt", "\\sqrt", 1.0),
    ("1\\text{ a}\\text{ b}", "1\\text{ a}\\text{ b}", 1.0),
    ("1\\text{ a}\\text{ b}", "1", 0.0),
    ("2\\!3", "23", 1.0),
    ("\\tfrac{2}{3}", "\\frac{2}{3}", 1.0),
    ("", "", 1.0),
    ("", "0", 0.0),
    ("1", "1.0", 0.0),
    ("\\\\frac12", "\\frac{1}{2}", 1.0),
    ("\\frac{1}2", "\\frac{1}{2}", 0.0),
    ("\\frac1", "\\frac1", 1.0),
    ("{.5}", "{0.5}", 1.0),
    ("x .5", "x0.5", 1.0),
]

BOXED = [
    ("The answer is \\boxed{\\frac{2}{3}}.", "\\boxed{\\frac{2}{3}}", "\\frac{2}{3}"),
    ("\\boxed{1} then \\boxed{2}", "\\boxed{2}", "2"),
    ("\\fbox{7}", "\\fbox{7}", None),
    ("\\boxed{a{b}c}", "\\boxed{a{b}c}", "a{b}c"),
    ("\\boxed{unclosed", None, None),
    ("no box", None, None),
    ("\\boxed 5", None, None),
    ("\\boxed}{x}", None, None),
    ("\\fbox{1} \\boxed{2}", "\\boxed{2}", "2"),
    ("\\boxed{}", "\\boxed{}", ""),
    ("", None, None),
    ("x \\boxed{\\sqrt{2}} y", "\\boxed{\\sqrt{2}}", "\\sqrt{2}"),
]

RESPONSES = ["\\boxed{1/2}", "so \\boxed{0.5}", "\\boxed{\\frac12}", "\\boxed{3}", "none", "\\boxed{3}", "\\boxed{7}"]


@pytest.mark.parametrize(("str1", "str2", "expected"), EQUIV)
def test_is_equiv(str1: str, str2: str, expected: float) -> None:
    assert math_utils.is_equiv(str1, str2) == expected
    assert math_utils.is_equiv(str2, str1) == expected


@pytest.mark.parametrize(("text", "last_boxed", "answer"), BOXED)
def test_boxed_answers(text: str, last_boxed: Optional[str], answer: Optional[str]) -> None:
    assert math_utils.last_boxed_only_string(text) == last_boxed
    assert math_utils.get_answer(text) == answer


@pytest.mark.parametrize(
    ("boxed", "inner"),
    [("\\boxed{x}", "x"), ("\\boxed{}", ""), ("\\boxed{", None), ("boxed{x}", None), ("\\boxed{x", None), ("", None),
     ("\\boxed{{1}}", "{1}")],
)
def test_remove_boxed(boxed: str, inner: Optional[str]) -> None:
    assert math_utils.remove_boxed(boxed) == inner


def test_none_answers(console: ScriptedIOStream) -> None:
    assert math_utils.get_answer(None) is None
    assert math_utils.is_equiv(None, "1") == 0.0
    assert math_utils.is_equiv(None, None) == 1.0
    assert console.output == "WARNING: Both None\n"
    assert math_utils.is_equiv_chain_of_thought("\\boxed{1/2}", "The result: \\boxed{0.5}") == 1.0


def test_voting_and_evaluation() -> None:
    assert math_utils.voting_counts(RESPONSES) == {0: 3, 3: 2, 6: 1}
    expected = {
        None: (0.0, False, 0.0),
        "\\boxed{\\frac{1}{2}}": (0.9801054711168694, True, 1.0),
        "\\boxed{3}": (0.9051354938357803, True, 0.0),
        "\\boxed{9}": (0.0, False, 0.0),
    }
    for solution, (expected_success, success, success_vote) in expected.items():
        assert math_utils.eval_math_responses(RESPONSES, solution) == {
            "expected_success": pytest.approx(expected_success, abs=1e-15), "success": success,
            "success_vote": success_vote, "voted_answer": "\\boxed{1/2}", "votes": 3,
        }
    assert math_utils.eval_math_responses([]) == {
        "expected_success": 0, "success": False, "success_vote": 0, "voted_answer": None, "votes": 0,
    }
    assert math_utils.eval_math_responses(["none", "nada"], "\\boxed{1}") == {
        "expected_success": 0.0, "success": False, "success_vote": 0.0, "voted_answer": "none", "votes": 0,
    }


def test_solve_problem_names_the_alternative() -> None:
    assert math_utils.DEFAULT_MODEL == "gpt-4"
    with pytest.raises(InvalidStateError, match="legacy autogen.Completion.*OpenAIWrapper.*eval_math_responses") as info:
        math_utils.solve_problem("1+1?", config_list=[{"model": "gpt-4"}])
    assert isinstance(info.value, AssertionError)  # what the reference raised


# ---------------------------------------------------------------- formatting_utils


def test_colored_is_termcolor_when_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    import termcolor

    assert formatting_utils.colored is termcolor.colored
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert formatting_utils.colored("hi", "red") == "\x1b[31mhi\x1b[0m"


def test_colored_falls_back_to_plain_text_without_termcolor(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def no_termcolor(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "termcolor" or name.startswith("termcolor."):
            raise ImportError("No module named 'termcolor'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_termcolor)
    spec = importlib.util.find_spec("autogen_classic.formatting_utils")
    assert spec is not None and spec.loader is not None
    fresh = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fresh)
    assert fresh.colored("hi", "red", "on_white", ["bold"], no_color=False, force_color=True) == "hi"
    assert fresh.colored(42) == "42"
    assert fresh.__all__ == ["colored"]


# ---------------------------------------------------------------- io.console


def test_io_console(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    console = IOConsole()
    assert isinstance(console, IOStream)
    assert autogen.io.IOConsole is IOConsole
    console.print("a", 1, sep="-", end="!\n")
    console.send("sent")
    monkeypatch.setattr(sys, "stdin", io.StringIO("typed\n"))
    assert console.input("prompt> ") == "typed"
    assert capsys.readouterr().out == "a-1!\nsent\nprompt> "
    assert isinstance(ScriptedIOStream(), autogen.io.InputStream)


# ---------------------------------------------------------------- function_utils faces and deep names


def test_function_utils_faces() -> None:
    assert classic_function_utils.__all__ is not None
    for name in ("get_function_schema", "load_basemodels_if_needed", "serialize_to_str"):
        assert getattr(classic_function_utils, name) is getattr(autogen.tools, name)
    for name in ("Function", "Parameters", "ToolFunction", "type2schema", "model_dump", "model_dump_json",
                 "AG2Field", "T", "get_typed_signature", "get_parameter_json_schema", "get_required_params",
                 "get_default_values", "get_parameters", "get_missing_annotations",
                 "get_load_param_if_needed_function"):
        assert hasattr(tool_function_utils, name), name
    from autogen_classic.tools.dependency_injection import Agent, Field
    from autogen_classic.tools.tool import ChatContext, get_context_params, get_function_schema, inject_params

    assert Agent is autogen.Agent and tool_function_utils.AG2Field is Field
    assert callable(get_context_params) and callable(inject_params) and callable(get_function_schema)
    assert ChatContext is autogen.tools.ChatContext


def test_schema_models_as_the_reference() -> None:
    parameters = tool_function_utils.get_parameters(["a"], {"a": int}, {})
    assert isinstance(parameters, tool_function_utils.Parameters)
    assert parameters.model_dump() == {"type": "object", "properties": {"a": {"type": "integer", "description": "a"}},
                                       "required": ["a"]}
    tool_function = tool_function_utils.ToolFunction(
        function=tool_function_utils.Function(description="d", name="n", parameters=parameters)
    )
    assert tool_function_utils.model_dump(tool_function) == {
        "type": "function",
        "function": {"description": "d", "name": "n", "parameters": parameters.model_dump()},
    }
    assert tool_function_utils.type2schema(list[int]) == {"items": {"type": "integer"}, "type": "array"}

    class Point(BaseModel):
        x: int

    assert tool_function_utils.model_dump_json(Point(x=1)) == '{"x":1}'
    assert tool_function_utils.get_typed_annotation(tool_function_utils.AG2Field("desc"), {}).__forward_arg__ == (
        "desc"
    )

    def f(a: Annotated[int, tool_function_utils.AG2Field("the a")]) -> int:
        return a

    assert classic_function_utils.get_function_schema(f, description="f")["function"]["parameters"]["properties"] == {
        "a": {"type": "integer", "description": "the a"}
    }
