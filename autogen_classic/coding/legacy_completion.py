"""The classic code-generation helpers that ran on the legacy ``Completion`` API.

They are importable where classic code imports them (``autogen.code_utils``), so a module that
imports them alongside the helpers it does use still loads; calling one raises an error naming
what to use instead, since the legacy ``Completion`` API (openai<1) is not provided.
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Union

from ..exception_utils import InvalidStateError

__all__ = [
    "PassAssertionFilter",
    "eval_function_completions",
    "generate_assertions",
    "generate_code",
    "implement",
    "improve_code",
    "improve_function",
]

_ALTERNATIVE = (
    "It needs the legacy Completion API (openai<1), which autogen_classic does not provide. Ask a model through "
    "OpenAIWrapper(config_list=...).create(messages=[...]) or an AssistantAgent, and run code with "
    "autogen_classic.code_utils.execute_code or a LocalCommandLineCodeExecutor."
)


def _refuse(name: str) -> InvalidStateError:
    return InvalidStateError(f"{name}: {_ALTERNATIVE}")


def improve_code(files: Any, objective: Any, suggest_only: bool = True, **config: Any) -> tuple[str, float]:
    """(Legacy Completion API) Improve code in ``files`` toward ``objective``; raises, naming the alternative."""
    raise _refuse("improve_code")


def improve_function(file_name: Any, func_name: Any, objective: Any, **config: Any) -> tuple[str, float]:
    """(Legacy Completion API) Improve ``func_name`` in ``file_name``; raises, naming the alternative."""
    raise _refuse("improve_function")


def generate_assertions(definition: str, **config: Any) -> tuple[str, float]:
    """(Legacy Completion API) Generate assertions for a function ``definition``; raises, naming the alternative."""
    raise _refuse("generate_assertions")


def eval_function_completions(
    responses: list[str],
    definition: str,
    test: Optional[str] = None,
    entry_point: Optional[str] = None,
    assertions: Optional[Union[str, Callable[[str], tuple[str, float]]]] = None,
    timeout: Optional[float] = 3,
    use_docker: Optional[bool] = True,
) -> dict[str, Any]:
    """(Legacy Completion API) Evaluate function completions; raises, naming the alternative."""
    raise _refuse("eval_function_completions")


def implement(
    definition: str,
    configs: Optional[list[dict[str, Any]]] = None,
    assertions: Optional[Union[str, Callable[[str], tuple[str, float]]]] = generate_assertions,
) -> tuple[str, float]:
    """(Legacy Completion API) Implement a function from its ``definition``; raises, naming the alternative."""
    raise _refuse("implement")


def generate_code(pattern: str = r"```[ \t]*(\w+)?[ \t]*\r?\n(.*?)\r?\n[ \t]*```", **config: Any) -> tuple[str, float]:
    """(Legacy Completion API) Generate code; raises, naming the alternative."""
    raise _refuse("generate_code")


class PassAssertionFilter:
    """(Legacy Completion API) A response filter on assertions; building one raises, naming the alternative.

    Args:
        assertions: the assertions responses had to pass.
    """

    def __init__(self, assertions: Any) -> None:
        raise _refuse("PassAssertionFilter")
