"""User functions that generated code may import, with the packages and imports they need.

``LocalCommandLineCodeExecutor(functions=[...])`` writes these functions into a module in
its working directory (``functions.py`` by default), so code written by a model can do
``from functions import my_tool``. ``to_stub`` renders a function's signature and
docstring for the prompt that tells the model which functions exist.
"""

from __future__ import annotations

import ast
import functools
import inspect
import types
from dataclasses import dataclass, field
from textwrap import dedent, indent
from typing import Any, Callable, Generic, ParamSpec, TypeVar, Union

__all__ = [
    "Alias",
    "FunctionWithRequirements",
    "FunctionWithRequirementsStr",
    "Import",
    "ImportFromModule",
    "P",
    "T",
    "build_python_functions_file",
    "function_source",
    "import_statement",
    "required_packages",
    "to_stub",
    "with_requirements",
]

T = TypeVar("T")
P = ParamSpec("P")


@dataclass
class Alias:
    """An import under another name: ``import name as alias`` (or ``name as alias`` inside a from-import)."""

    name: str
    alias: str


@dataclass
class ImportFromModule:
    """A from-import: ``from module import a, b as c`` for ``imports=["a", Alias("b", "c")]``."""

    module: str
    imports: list[Union[str, Alias]]


# A global import a function needs: "math" (import math), ImportFromModule(...) or Alias(...).
Import = Union[str, ImportFromModule, Alias]


def import_statement(im: Import) -> str:
    """Return the Python statement for one global import."""
    if isinstance(im, str):
        return f"import {im}"
    if isinstance(im, Alias):
        return f"import {im.name} as {im.alias}"
    names = ", ".join(name if isinstance(name, str) else f"{name.name} as {name.alias}" for name in im.imports)
    return f"from {im.module} import {names}"


@dataclass
class FunctionWithRequirementsStr:
    """A function given as source text (exactly one ``def``), with its packages and global imports.

    The text is compiled at construction to check it and to know the function's name and
    signature; the object itself cannot be called.

    Raises:
        ValueError: the text does not compile or run, or does not define exactly one function.
    """

    func: str
    _compiled_func: Callable[..., Any]
    _func_name: str
    python_packages: list[str] = field(default_factory=list)
    global_imports: list[Import] = field(default_factory=list)

    def __init__(
        self, func: str, python_packages: list[str] = [], global_imports: list[Import] = []  # noqa: B006
    ):
        """Compile ``func`` (source text with one function).

        Args:
            func (str): the function's source code.
            python_packages (list[str]): pip requirements the function needs.
            global_imports (list): imports the function needs (``str``, ``ImportFromModule`` or ``Alias``).
        """
        self.func = func
        self.python_packages = list(python_packages)
        self.global_imports = list(global_imports)
        module = types.ModuleType("func_module")
        module.__file__ = "<not a real path>/func_module.py"
        try:
            # dont_inherit: this module's own "from __future__ import annotations" must not turn the
            # user's annotations into strings (a stub would show "a: 'int'").
            exec(compile(func, "func_module.py", "exec", dont_inherit=True), module.__dict__)  # noqa: S102
        except Exception as e:
            raise ValueError(f"Could not compile function: {e}") from e
        defined = [(name, value) for name, value in sorted(vars(module).items()) if inspect.isfunction(value)]
        if len(defined) != 1:
            raise ValueError("The string must contain exactly one function")
        self._func_name, self._compiled_func = defined[0]

    def __call__(self, *args: Any, **kwargs: Any) -> None:
        """Not callable: the function exists only as text for the executor."""
        raise NotImplementedError("String based function with requirement objects are not directly callable")


@dataclass
class FunctionWithRequirements(Generic[T, P]):
    """A Python function with the pip packages and global imports it needs; calling it calls ``func``."""

    func: Callable[P, T]
    python_packages: list[str] = field(default_factory=list)
    global_imports: list[Import] = field(default_factory=list)

    @classmethod
    def from_callable(
        cls, func: Callable[P, T], python_packages: list[str] = [], global_imports: list[Import] = []  # noqa: B006
    ) -> FunctionWithRequirements[T, P]:
        """Wrap ``func`` with its requirements."""
        return cls(python_packages=python_packages, global_imports=global_imports, func=func)

    @staticmethod
    def from_str(
        func: str, python_packages: list[str] = [], global_imports: list[Import] = []  # noqa: B006
    ) -> FunctionWithRequirementsStr:
        """Build a ``FunctionWithRequirementsStr`` from source text."""
        return FunctionWithRequirementsStr(func=func, python_packages=python_packages, global_imports=global_imports)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> T:
        """Call the wrapped function."""
        return self.func(*args, **kwargs)


def with_requirements(
    python_packages: list[str] = [], global_imports: list[Import] = []  # noqa: B006 - classic signature
) -> Callable[[Callable[P, T]], FunctionWithRequirements[T, P]]:
    """Decorator: attach pip packages and global imports to a function for ``LocalCommandLineCodeExecutor``.

    Args:
        python_packages (list[str], optional): pip requirements (may carry versions). Defaults to [].
        global_imports (list, optional): imports the function needs. Defaults to [].

    Returns:
        A decorator turning the function into a ``FunctionWithRequirements`` that keeps its name and docstring.
    """

    def wrap(func: Callable[P, T]) -> FunctionWithRequirements[T, P]:
        wrapped = FunctionWithRequirements(python_packages=python_packages, global_imports=global_imports, func=func)
        functools.update_wrapper(wrapped, func)
        return wrapped

    return wrap


def to_stub(func: Union[Callable[..., Any], FunctionWithRequirementsStr]) -> str:
    """Return the stub of a function for a prompt: ``def`` line, docstring, then ``...``.

    Args:
        func (callable or FunctionWithRequirementsStr): the function.
    """
    if isinstance(func, FunctionWithRequirementsStr):
        return to_stub(func._compiled_func)
    stub = f"def {func.__name__}{inspect.signature(func)}:\n"
    if func.__doc__:
        stub += indent('"""' + dedent(func.__doc__) + '"""', "    ") + "\n"
    return stub + "    ..."


def function_source(
    func: Union[FunctionWithRequirements[Any, Any], Callable[..., Any], FunctionWithRequirementsStr],
) -> str:
    """The source of one function for the functions module, without its decorators."""
    if isinstance(func, FunctionWithRequirementsStr):
        return func.func
    target = func.func if isinstance(func, FunctionWithRequirements) else func
    source = dedent(inspect.getsource(target))
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    node = tree.body[0] if tree.body else None
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.decorator_list:
        # Decorators (e.g. @with_requirements(...)) need names the module does not have.
        return "".join(source.splitlines(keepends=True)[node.lineno - 1 :])
    return source


def build_python_functions_file(
    funcs: list[Union[FunctionWithRequirements[Any, Any], Callable[..., Any], FunctionWithRequirementsStr]],
) -> str:
    """The text of the functions module: the global imports (each once), then every function."""
    imports: list[str] = []
    for func in funcs:
        if isinstance(func, (FunctionWithRequirements, FunctionWithRequirementsStr)):
            for im in func.global_imports:
                statement = import_statement(im)
                if statement not in imports:
                    imports.append(statement)
    content = "\n".join(imports) + "\n\n"
    for func in funcs:
        content += function_source(func) + "\n\n"
    return content


def required_packages(
    funcs: list[Union[FunctionWithRequirements[Any, Any], Callable[..., Any], FunctionWithRequirementsStr]],
) -> list[str]:
    """The pip packages that the ``FunctionWithRequirements`` in ``funcs`` declare, each once."""
    packages: list[str] = []
    for func in funcs:
        # As in the classic executor, only FunctionWithRequirements trigger installs.
        if isinstance(func, FunctionWithRequirements):
            packages.extend(p for p in func.python_packages if p not in packages)
    return packages
