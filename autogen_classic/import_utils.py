"""Optional imports: try them, require them where they are used, skip tests without them.

The classic ``autogen.import_utils`` path: classic code (and classic test files) guard optional
packages with these helpers::

    with optional_import_block() as result:
        import llmlingua
    print(result.is_successful)

    @require_optional_import("llmlingua", "long-context")
    class Compressor: ...          # building one without llmlingua raises ImportError naming the extra
"""

from __future__ import annotations

import functools
import importlib.util
import inspect
from collections.abc import Generator, Iterable
from contextlib import contextmanager
from typing import Any, Callable, Optional, TypeVar, Union

__all__ = ["get_missing_imports", "optional_import_block", "patch_object", "require_optional_import", "skip_on_missing_imports"]

T = TypeVar("T")

_PACKAGE = "autogen-classic"


class Result:
    """What ``optional_import_block`` saw: ``is_successful`` is False when an import in the block failed."""

    def __init__(self) -> None:
        self._failed = False

    @property
    def is_successful(self) -> bool:
        return not self._failed


@contextmanager
def optional_import_block() -> Generator[Result, None, None]:
    """Run imports that may fail: an ``ImportError`` inside the block is swallowed and recorded on the result."""
    result = Result()
    try:
        yield result
    except ImportError:
        result._failed = True


def _names(modules: Union[str, Iterable[str]]) -> list[str]:
    return [modules] if isinstance(modules, str) else list(modules)


def get_missing_imports(modules: Union[str, Iterable[str]]) -> list[str]:
    """The modules of ``modules`` that cannot be imported here (a dotted name counts by its top package)."""
    missing = []
    for name in _names(modules):
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):  # a parent package that is missing
            found = False
        if not found:
            missing.append(name)
    return missing


def _missing_error(missing: list[str], dep_target: str, where: str) -> ImportError:
    plural = "s" if len(missing) > 1 else ""
    names = ", ".join(repr(m) for m in missing)
    return ImportError(
        f"Module{plural} {names} needed for {where} {'are' if plural else 'is'} missing, please install it using "
        f"'pip install {_PACKAGE}[{dep_target}]'"
    )


def patch_object(o: T, *, missing_modules: Iterable[str], dep_target: str, fail_if_not_patchable: bool = True) -> T:
    """Make ``o`` (a function, method or class) raise ``ImportError`` naming ``missing_modules`` when used.

    Args:
        o: the object to patch; a class is patched in its ``__init__``.
        missing_modules: the modules ``o`` needs that are missing.
        dep_target: the extra to install (``pip install "autogen-classic[<dep_target>]"``).
        fail_if_not_patchable: raise ``ValueError`` for an object that cannot be patched, instead of returning it.
    """
    missing = list(missing_modules)
    if inspect.isclass(o):
        where = f"{o.__module__}.{o.__name__}"

        def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
            raise _missing_error(missing, dep_target, where)

        o.__init__ = __init__  # type: ignore[misc]
        return o
    if callable(o):
        where = f"{getattr(o, '__module__', '?')}.{getattr(o, '__name__', repr(o))}"

        if inspect.iscoroutinefunction(o):

            @functools.wraps(o)
            async def refuse_async(*args: Any, **kwargs: Any) -> Any:
                raise _missing_error(missing, dep_target, where)

            return refuse_async  # type: ignore[return-value]

        @functools.wraps(o)
        def refuse(*args: Any, **kwargs: Any) -> Any:
            raise _missing_error(missing, dep_target, where)

        return refuse  # type: ignore[return-value]
    if fail_if_not_patchable:
        raise ValueError(f"Cannot patch {o!r}: only functions, methods and classes can require optional imports.")
    return o


def require_optional_import(modules: Union[str, Iterable[str]], dep_target: str) -> Callable[[T], T]:
    """Decorate a function or class that needs ``modules``: when one is missing, using it raises ``ImportError``.

    Args:
        modules: the module name(s) needed.
        dep_target: the extra that installs them (``pip install "autogen-classic[<dep_target>]"``).
    """
    missing = get_missing_imports(modules)

    def decorator(o: T) -> T:
        return patch_object(o, missing_modules=missing, dep_target=dep_target) if missing else o

    return decorator


def skip_on_missing_imports(modules: Union[str, Iterable[str]], dep_target: Optional[str] = None) -> Callable[[T], T]:
    """Mark a test (function or class) to be skipped, with the reason, when one of ``modules`` is missing.

    The test also gets the mark ``dep_target`` (dashes as underscores; ``openai`` without one).

    Args:
        modules: the module name(s) the test needs.
        dep_target: the extra that installs them.
    """
    missing = get_missing_imports(modules)
    mark_name = dep_target.replace("-", "_") if dep_target else "openai"

    def decorator(o: T) -> T:
        import pytest

        marked = getattr(pytest.mark, mark_name)(o)
        if not missing:
            return marked  # type: ignore[no-any-return]
        extra = f"[{dep_target}]" if dep_target else ""
        plural = "s" if len(missing) > 1 else ""
        reason = f"Missing module{plural}: {', '.join(missing)}. Install using 'pip install {_PACKAGE}{extra}'"
        return pytest.mark.skip(reason)(marked)  # type: ignore[no-any-return]

    return decorator
