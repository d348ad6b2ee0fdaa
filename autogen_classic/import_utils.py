"""Optional imports: try them, require them where they are used, skip or mark tests without them.

The classic ``autogen.import_utils`` path: classic code (and classic test files) guard optional
packages with these helpers::

    with optional_import_block() as result:
        import llmlingua
    print(result.is_successful)

    @require_optional_import("llmlingua", "long-context")
    class Compressor: ...          # using one without llmlingua raises ImportError naming the extra

    @run_for_optional_imports("llmlingua", "long-context")
    def test_compress(): ...       # marked long_context; fails with ImportError when llmlingua is missing

Modules may carry version bounds (``"openai>=1.0,<3"``, see :class:`ModuleInfo`).
"""

from __future__ import annotations

import asyncio
import functools
import importlib.metadata
import importlib.util
import inspect
import re
import sys
from abc import ABC, abstractmethod
from collections.abc import Generator, Iterable
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Generic, Optional, TypeVar, Union

__all__ = [
    "get_missing_imports",
    "optional_import_block",
    "patch_object",
    "require_optional_import",
    "run_for_optional_imports",
    "skip_on_missing_imports",
]

T = TypeVar("T")
G = TypeVar("G", bound=Union[Callable[..., Any], type])
F = TypeVar("F", bound=Callable[..., Any])

_PACKAGE = "autogen-classic"


def is_coroutine_callable(call: Callable[..., Any]) -> bool:
    """Whether calling ``call`` gives a coroutine: an ``async def`` function, or an object whose
    ``__call__`` is one (a class is never one: calling it builds an instance)."""
    if inspect.isclass(call):
        return False
    if asyncio.iscoroutinefunction(call):
        return True
    return asyncio.iscoroutinefunction(getattr(call, "__call__", None))  # noqa: B004 - the method itself


# ---------------------------------------------------------------- modules and their versions
def _version_key(text: str) -> tuple[Any, ...]:
    try:
        from packaging.version import Version

        return (0, Version(text))
    except Exception:  # noqa: BLE001 - no packaging, or a version it cannot read: compare the numbers
        return (1, tuple(int(n) for n in re.findall(r"\d+", text)))


@dataclass
class ModuleInfo:
    """A module name with optional version bounds, e.g. ``ModuleInfo.from_str("openai>=1.0,<3")``.

    Args:
        name: the module (import) name.
        min_version: the lowest version allowed (None: no bound).
        max_version: the highest version allowed (None: no bound).
        min_inclusive: whether ``min_version`` itself is allowed.
        max_inclusive: whether ``max_version`` itself is allowed.
    """

    name: str
    min_version: Optional[str] = None
    max_version: Optional[str] = None
    min_inclusive: bool = False
    max_inclusive: bool = False

    def is_in_sys_modules(self) -> Optional[str]:
        """Check the module among the imported ones (``sys.modules``) against the bounds.

        Returns:
            None when it is imported and its ``__version__`` is within the bounds; otherwise why not
            (``"'x' is not installed."``, a version too low or too high, or no version to check).
        """
        module = sys.modules.get(self.name)
        if module is None:
            return f"'{self.name}' is not installed."
        found = getattr(module, "__version__", None)
        found = found if isinstance(found, str) else None
        if found is None:
            return f"'{self.name}' is installed, but the version is not available." if self._bounded else None
        return self._check_version(found)

    @property
    def _bounded(self) -> bool:
        return bool(self.min_version or self.max_version)

    def _check_version(self, found: str) -> Optional[str]:
        have = _version_key(found)
        if self.min_version:
            low = _version_key(self.min_version)
            if have < low or (have == low and not self.min_inclusive):
                return f"'{self.name}' is installed, but the installed version {found} is too low (required '{self}')."
        if self.max_version:
            high = _version_key(self.max_version)
            if have > high or (have == high and not self.max_inclusive):
                return f"'{self.name}' is installed, but the installed version {found} is too high (required '{self}')."
        return None

    def __repr__(self) -> str:
        text = self.name
        if self.min_version:
            text += f"{'>=' if self.min_inclusive else '>'}{self.min_version}"
        if self.max_version:
            text += f"{'<=' if self.max_inclusive else '<'}{self.max_version}"
        return text

    @classmethod
    def from_str(cls, module_info: str) -> "ModuleInfo":
        """Read ``"name"`` or ``"name>=1.0,<2"`` (bounds with ``>``, ``>=``, ``<``, ``<=``).

        Raises:
            ValueError: the text is not a module name followed by such bounds.
        """
        match = re.match(r"^(?P<name>[a-zA-Z0-9_-]+)(?P<rest>.*)$", module_info.strip())
        if not match:
            raise ValueError(f"Invalid package information: {module_info}")
        info = cls(match.group("name"))
        rest = match.group("rest").strip()
        for operator, number in re.findall(r"(>=|<=|>|<)([0-9.]+)?", rest):
            if not number:
                raise ValueError(f"Invalid module information: {module_info}")
            if operator.startswith(">"):
                info.min_version, info.min_inclusive = number, operator == ">="
            else:
                info.max_version, info.max_inclusive = number, operator == "<="
        return info


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


def _installed_version(name: str) -> Optional[str]:
    found = getattr(sys.modules.get(name), "__version__", None)
    if isinstance(found, str):
        return found
    try:
        return importlib.metadata.version(name)
    except (importlib.metadata.PackageNotFoundError, ValueError):
        return None


def get_missing_imports(modules: Union[str, Iterable[str]]) -> dict[str, str]:
    """The entries of ``modules`` that cannot be imported here, or whose version is out of bounds, each with why.

    As in AG2 Classic 0.14: a dict from the module's name (bounds left out) to the reason, e.g.
    ``{"llmlingua": "'llmlingua' is not installed."}`` or ``"'openai' is installed, but the installed version
    1.2 is too low (required 'openai>=2.0')."``. A dotted name counts by its top package; an entry may carry
    bounds (``"openai>=1.0"``), checked against the installed version when it can be found. (0.14.1 counts
    only modules already imported; here a module counts when it can be imported.)
    """
    missing: dict[str, str] = {}
    for entry in _names(modules):
        info = ModuleInfo.from_str(entry) if re.search(r"[<>]", entry) else None
        name = info.name if info is not None else entry
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):  # a parent package that is missing
            found = False
        if not found:
            missing[name] = f"'{name}' is not installed."
        elif info is not None:
            version = _installed_version(name)
            problem = info._check_version(version) if version is not None else None
            if problem is not None:
                missing[name] = problem
    return missing


def import_optional(*modules: str, needed_by: str, install_hint: str) -> Any:
    """Import ``modules`` (parts of one optional package) and return the package, or raise ``ImportError``
    saying what needs it and how to install it.

    Args:
        modules: the modules to import, e.g. ``"docker"`` or ``"websockets.sync.server"``.
        needed_by: what needs the package, as the message starts, e.g. ``"IOWebsockets"``.
        install_hint: the install command, e.g. ``'pip install "autogen-classic[docker]"'``.
    """
    package = modules[0].split(".")[0]
    try:
        for module in modules:
            importlib.import_module(module)
    except ImportError as err:
        raise ImportError(
            f"{needed_by} needs the '{package}' package, which is not installed. Install it with: {install_hint}"
        ) from err
    return sys.modules[package]


def _missing_error(missing: Union[Iterable[str], dict[str, str]], dep_target: str, where: str) -> ImportError:
    """AG2 Classic 0.14's message: what is missing for ``where``, a line per module saying why, and the install."""
    reasons = dict(missing) if isinstance(missing, dict) else {name: f"'{name}' is not installed." for name in missing}
    plural = len(reasons) > 1
    lines = [f"{'Modules' if plural else 'A module'} needed for {where} {'are' if plural else 'is'} missing:"]
    lines += [f" - {reason}" for reason in reasons.values()]
    lines += [f"Please install {'them' if plural else 'it'} using:", f"'pip install {_PACKAGE}[{dep_target}]'"]
    return ImportError("\n".join(lines))


# ---------------------------------------------------------------- patching what needs a missing module
class PatchObject(ABC, Generic[T]):
    """Replaces one kind of object by a stand-in that raises ``ImportError`` naming the missing modules.

    Subclasses say which objects they ``accept`` and how they ``patch`` them; :meth:`create` picks the
    first registered subclass that accepts an object.

    Args:
        o: the object to patch.
        missing_modules: the missing modules (names, or a dict of name -> why, as ``ModuleInfo`` says).
        dep_target: the extra that installs them.
    """

    _registry: ClassVar[list[type["PatchObject[Any]"]]] = []

    def __init__(self, o: T, missing_modules: Union[Iterable[str], dict[str, str]], dep_target: str) -> None:
        if not self.accept(o):
            raise ValueError(f"Cannot patch object of type {type(o)}")
        self.o = o
        self.missing_modules = missing_modules
        self.dep_target = dep_target

    @classmethod
    @abstractmethod
    def accept(cls, o: Any) -> bool:
        """Whether this patcher handles ``o``."""

    @abstractmethod
    def patch(self, except_for: Iterable[str]) -> T:
        """The stand-in for the object (the object itself when its name is in ``except_for``)."""

    def get_object_with_metadata(self) -> Any:
        """The function whose module and name the error message shows."""
        return self.o

    @property
    def msg(self) -> str:
        """The message of the ``ImportError``."""
        o = self.get_object_with_metadata()
        name = str(getattr(o, "__name__", None) or repr(o))
        where = f"{o.__module__}.{name}" if getattr(o, "__module__", None) else name
        return str(_missing_error(self.missing_modules, self.dep_target, where))

    def copy_metadata(self, retval: Any) -> None:
        """Give the stand-in the original's name, module and docstring."""
        for attribute in ("__doc__", "__name__", "__qualname__", "__module__"):
            with suppress(AttributeError, TypeError):
                setattr(retval, attribute, getattr(self.get_object_with_metadata(), attribute))

    def _refusing(self, f: Callable[..., Any]) -> Callable[..., Any]:
        message = self.msg
        if inspect.iscoroutinefunction(f):

            @functools.wraps(f)
            async def refuse_async(*args: Any, **kwargs: Any) -> Any:
                raise ImportError(message)

            return refuse_async

        @functools.wraps(f)
        def refuse(*args: Any, **kwargs: Any) -> Any:
            raise ImportError(message)

        return refuse

    @classmethod
    def register(cls) -> Callable[[type["PatchObject[Any]"]], type["PatchObject[Any]"]]:
        """Class decorator adding a patcher to the ones :meth:`create` tries, in order."""

        def decorator(subclass: type["PatchObject[Any]"]) -> type["PatchObject[Any]"]:
            cls._registry.append(subclass)
            return subclass

        return decorator

    @classmethod
    def create(
        cls, o: T, *, missing_modules: Union[Iterable[str], dict[str, str]], dep_target: str
    ) -> Optional["PatchObject[T]"]:
        """The patcher for ``o``, or None when no registered patcher accepts it."""
        for subclass in cls._registry:
            if subclass.accept(o):
                return subclass(o, missing_modules, dep_target)
        return None


@PatchObject.register()
class PatchCallable(PatchObject[F]):
    """Patches a function or bound method (sync or async)."""

    @classmethod
    def accept(cls, o: Any) -> bool:
        return inspect.isfunction(o) or inspect.ismethod(o)

    def patch(self, except_for: Iterable[str]) -> F:
        if self.o.__name__ in except_for:
            return self.o
        return self._refusing(self.o)  # type: ignore[return-value]


@PatchObject.register()
class PatchStatic(PatchObject[F]):
    """Patches a ``staticmethod`` object (as found in a class ``__dict__``)."""

    @classmethod
    def accept(cls, o: Any) -> bool:
        return isinstance(o, staticmethod)

    def patch(self, except_for: Iterable[str]) -> F:
        if self.get_object_with_metadata().__name__ in except_for:
            return self.o
        return staticmethod(self._refusing(self.o.__func__))  # type: ignore[attr-defined,return-value]

    def get_object_with_metadata(self) -> Any:
        return self.o.__func__  # type: ignore[attr-defined]


@PatchObject.register()
class PatchInit(PatchCallable[F]):
    """Patches a built-in ``__init__`` (a method descriptor, e.g. ``object.__init__``) as a function is patched."""

    @classmethod
    def accept(cls, o: Any) -> bool:
        return inspect.ismethoddescriptor(o) and getattr(o, "__name__", None) == "__init__"


@PatchObject.register()
class PatchProperty(PatchObject[Any]):
    """Patches a property: reading it raises."""

    @classmethod
    def accept(cls, o: Any) -> bool:
        return inspect.isdatadescriptor(o) and getattr(o, "fget", None) is not None

    def patch(self, except_for: Iterable[str]) -> property:
        if self.o.fget.__name__ in except_for:
            return self.o  # type: ignore[no-any-return]
        return property(self._refusing(self.o.fget))

    def get_object_with_metadata(self) -> Any:
        return self.o.fget


@PatchObject.register()
class PatchClass(PatchObject[type]):
    """Patches a class in place: building one and using the methods and properties it defines raise."""

    @classmethod
    def accept(cls, o: Any) -> bool:
        return inspect.isclass(o)

    def patch(self, except_for: Iterable[str]) -> type:
        except_for = list(except_for)
        if self.o.__name__ in except_for:
            return self.o
        members = dict(vars(self.o))
        if "__init__" not in members:
            # An inherited __init__: building an instance must still fail.
            members["__init__"] = _init_of(self.o)
        for name, member in members.items():
            if name.startswith("__") and name != "__init__":
                continue
            patched = patch_object(member, missing_modules=self.missing_modules, dep_target=self.dep_target,
                                   fail_if_not_patchable=False, except_for=except_for)
            if patched is not member:
                with suppress(AttributeError, TypeError):
                    setattr(self.o, name, patched)
        return self.o


def _init_of(cls: type) -> Callable[..., Any]:
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        pass

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    __init__.__module__ = cls.__module__
    return __init__


def patch_object(
    o: T,
    *,
    missing_modules: Union[Iterable[str], dict[str, str]],
    dep_target: str,
    fail_if_not_patchable: bool = True,
    except_for: Union[str, Iterable[str], None] = None,
) -> T:
    """Make ``o`` raise ``ImportError`` naming ``missing_modules`` when used.

    Args:
        o: a function or method (sync or async), a staticmethod, a property or a class (patched in
            place: its ``__init__`` and the methods and properties it defines).
        missing_modules: the modules ``o`` needs that are missing.
        dep_target: the extra to install (``pip install "autogen-classic[<dep_target>]"``).
        fail_if_not_patchable: raise ``ValueError`` for an object that cannot be patched, instead of returning it.
        except_for: names of objects (or class members) to leave working.
    """
    patcher = PatchObject.create(o, missing_modules=missing_modules, dep_target=dep_target)
    if patcher is None:
        if fail_if_not_patchable:
            raise ValueError(
                f"Cannot patch object of type {type(o)}: only functions, methods, properties and classes can "
                "require optional imports."
            )
        return o
    skip = [except_for] if isinstance(except_for, str) else list(except_for or [])
    return patcher.patch(except_for=skip)


def require_optional_import(
    modules: Union[str, Iterable[str]], dep_target: str, *, except_for: Union[str, Iterable[str], None] = None
) -> Callable[[T], T]:
    """Decorate a function or class that needs ``modules``: when one is missing, using it raises ``ImportError``.

    Args:
        modules: the module name(s) needed (bounds allowed: ``"openai>=1.0"``).
        dep_target: the extra that installs them (``pip install "autogen-classic[<dep_target>]"``).
        except_for: names of members (or of the object) that keep working without the modules.
    """
    missing = get_missing_imports(modules)

    def decorator(o: T) -> T:
        if not missing:
            return o
        return patch_object(o, missing_modules=missing, dep_target=dep_target, except_for=except_for)

    return decorator


def _mark(o: T, dep_target: Optional[str]) -> T:
    import pytest

    mark_name = dep_target.replace("-", "_") if dep_target else "openai"
    return getattr(pytest.mark, mark_name)(o)  # type: ignore[no-any-return]


def _missing_text(missing: dict[str, str], dep_target: Optional[str]) -> str:
    extra = f"[{dep_target}]" if dep_target else ""
    plural = "s" if len(missing) > 1 else ""
    return f"Missing module{plural}: {', '.join(missing)}. Install using 'pip install {_PACKAGE}{extra}'"


def run_for_optional_imports(modules: Union[str, Iterable[str]], dep_target: str) -> Callable[[G], G]:
    """Mark a test (function or class) with ``dep_target`` and make it fail when ``modules`` are missing.

    Unlike :func:`skip_on_missing_imports`, a missing module is an error: a test run that selects
    the mark (``pytest -m long_context``) is expected to have the extra installed. A test class is
    patched as :func:`require_optional_import` does.

    Args:
        modules: the module name(s) the test needs.
        dep_target: the extra that installs them; the mark is its name with dashes as underscores.
    """

    def decorator(o: G) -> G:
        missing = get_missing_imports(modules)
        if isinstance(o, type):
            return _mark(require_optional_import(modules, dep_target)(o), dep_target)
        if is_coroutine_callable(o):

            @functools.wraps(o)
            async def a_wrapped(*args: Any, **kwargs: Any) -> Any:
                if missing:
                    raise ImportError(_missing_text(missing, dep_target))
                return await o(*args, **kwargs)

            return _mark(a_wrapped, dep_target)  # type: ignore[return-value]

        @functools.wraps(o)
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            if missing:
                raise ImportError(_missing_text(missing, dep_target))
            return o(*args, **kwargs)

        return _mark(wrapped, dep_target)  # type: ignore[return-value]

    return decorator


def skip_on_missing_imports(modules: Union[str, Iterable[str]], dep_target: Optional[str] = None) -> Callable[[T], T]:
    """Mark a test (function or class) to be skipped, with the reason, when one of ``modules`` is missing.

    The test also gets the mark ``dep_target`` (dashes as underscores; ``openai`` without one).

    Args:
        modules: the module name(s) the test needs.
        dep_target: the extra that installs them.
    """
    missing = get_missing_imports(modules)

    def decorator(o: T) -> T:
        import pytest

        marked = _mark(o, dep_target)
        if not missing:
            return marked
        return pytest.mark.skip(_missing_text(missing, dep_target))(marked)  # type: ignore[no-any-return]

    return decorator
