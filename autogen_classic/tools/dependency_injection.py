"""Dependency injection for tools: parameters the executor fills in and the model never sees.

A tool parameter is injected, and left out of the schema sent to the model, when it is

* a context: annotated with a ``BaseContext`` subclass, e.g. ``ctx: ChatContext`` (the executor
  agent passes a ``ChatContext`` for it), or
* a dependency: ``Annotated[T, Depends(provider)]`` or ``param: T = Depends(provider)``, where
  ``provider`` is a callable (``on(value)`` makes one for a fixed value) or a ``BaseContext`` instance.

``inject_params`` turns a function into one that resolves its dependencies on every call and
checks and converts the remaining arguments from the type hints (pydantic), so a model's
``"2"`` for an ``int`` parameter arrives as ``2``.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import types
import weakref
from abc import ABC
from collections.abc import Iterable, Iterator
from typing import Annotated, Any, Callable, Optional, TypeVar, Union, get_args, get_origin, get_type_hints

from pydantic import ConfigDict, validate_call

from ..exception_utils import InvalidArgumentError, InvalidArgumentTypeError
from ..import_utils import is_coroutine_callable
from ..types import Agent  # also the classic name ``dependency_injection.Agent``
from .agent_protocol import ToolAgent
from .call_validation import keyword_checked, signature_checked
from .signatures import Field, get_typed_signature  # string annotations resolved, so injected params are found

__all__ = [
    "BaseContext",
    "ChatContext",
    "Depends",
    "Field",
    "Provider",
    "dependency_provider",
    "get_context_params",
    "inject_params",
    "on",
    "remove_params",
]

T = TypeVar("T")


class BaseContext(ABC):  # noqa: B024 - a marker base class with nothing abstract, as in classic AutoGen
    """Base class of the context objects a tool can ask for.

    Subclass it for your own context and pass an instance with ``Depends``::

        class Account(BaseContext, BaseModel):
            username: str

        def balance(account: Annotated[Account, Depends(Account(username="alice"))]) -> str: ...
    """


class ChatContext(BaseContext):
    """The chat a tool is executed in: declare ``ctx: ChatContext`` and the executor agent passes it.

    Args:
        agent: the agent executing the tool.
    """

    def __init__(self, agent: ToolAgent) -> None:
        self._agent = agent

    @property
    def chat_messages(self) -> dict[Agent, list[dict[Any, Any]]]:
        """The executing agent's messages, per conversation partner."""
        return self._agent.chat_messages

    @property
    def last_message(self) -> Optional[dict[str, Any]]:
        """The last message the executing agent exchanged (None before any)."""
        return self._agent.last_message()


def on(x: T) -> Callable[[], T]:
    """A dependency provider that always gives ``x``: ``Annotated[int, Depends(on(42))]``.

    Args:
        x: the value to inject.
    """

    def inner(_x: T = x) -> T:
        return _x

    return inner


class Dependency:
    """The marker ``Depends`` returns: a provider called (once per tool call) to fill a parameter."""

    def __init__(self, dependency: Any, *, use_cache: bool = True) -> None:
        self.dependency = dependency
        self.use_cache = use_cache

    def __repr__(self) -> str:
        name = getattr(self.dependency, "__name__", None) or repr(self.dependency)
        return f"Depends({name})"


def Depends(x: Any) -> Any:  # noqa: N802 - classic name
    """Mark a tool parameter as injected: it is filled from ``x`` and hidden from the model.

    Args:
        x: a callable giving the value (its own parameters may be dependencies too; generator
            functions are set up before and closed after the tool call), or a ``BaseContext``
            instance to inject as it is.

    Example::

        def get_weather(city: str, key: Annotated[str, Depends(on("secret"))]) -> str: ...
    """
    if isinstance(x, BaseContext):
        return Dependency(lambda: x)
    return Dependency(x)


# ---------------------------------------------------------------- finding injected parameters
def _unwrap_staticmethod(f: Any) -> Callable[..., Any]:
    if isinstance(f, staticmethod):
        return f.__func__  # type: ignore[no-any-return]
    return f  # type: ignore[no-any-return]


def _fix_staticmethod(f: Any) -> Callable[..., Any]:
    """A plain function calling a staticmethod object's function (with its name and docstring); other callables
    are returned as they are. Classic helper of ``inject_params``."""
    if not isinstance(f, staticmethod):
        return f  # type: ignore[no-any-return]
    inner = f.__func__

    @functools.wraps(inner)
    def call(*args: Any, **kwargs: Any) -> Any:
        return inner(*args, **kwargs)

    return call


def _set_return_annotation_to_any(f: Callable[..., Any]) -> Callable[..., Any]:
    """A wrapper of ``f`` (async when ``f`` is) whose signature says it returns ``Any``: what a tool returns is
    passed on as it is, never checked against its annotation. Classic helper of ``inject_params``."""
    if inspect.iscoroutinefunction(f) or inspect.iscoroutinefunction(getattr(f, "__call__", None)):

        @functools.wraps(f)
        async def wrapped(*args: Any, **kwargs: Any) -> Any:
            return await f(*args, **kwargs)

    else:

        @functools.wraps(f)  # type: ignore[no-redef]
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            return f(*args, **kwargs)

    wrapped.__signature__ = inspect.signature(f).replace(return_annotation=Any)  # type: ignore[attr-defined]
    return wrapped


def _context_class(annotation: Any) -> Optional[type]:
    """The class an annotation names: ``C``, ``Annotated[C, ...]``, ``Optional[C]`` (else None)."""
    if get_origin(annotation) is Annotated:
        return _context_class(get_args(annotation)[0])
    if get_origin(annotation) in (Union, types.UnionType):
        members = [a for a in get_args(annotation) if a is not type(None)]
        return _context_class(members[0]) if members else None
    return annotation if isinstance(annotation, type) else None


def _is_context_param(param: inspect.Parameter, subclass: type = BaseContext) -> bool:
    cls = _context_class(param.annotation)
    return cls is not None and issubclass(cls, subclass)


def _is_depends_param(param: inspect.Parameter) -> bool:
    """Whether ``param`` is filled by a dependency (``= Depends(f)`` or ``Annotated[T, Depends(f)]``)."""
    return _dependency_of(param) is not None


def _dependency_of(param: inspect.Parameter) -> Optional[Dependency]:
    if isinstance(param.default, Dependency):
        return param.default
    if get_origin(param.annotation) is Annotated:
        for meta in param.annotation.__metadata__:
            if isinstance(meta, Dependency):
                return meta
    return None


def get_context_params(func: Callable[..., Any], subclass: Union[type[BaseContext], type[ChatContext]]) -> list[str]:
    """Names of the parameters of ``func`` annotated with ``subclass`` (e.g. ``ChatContext``).

    Args:
        func: the function to inspect.
        subclass: the context class to look for.
    """
    sig = get_typed_signature(_unwrap_staticmethod(func))
    return [p.name for p in sig.parameters.values() if _is_context_param(p, subclass)]


# ---------------------------------------------------------------- resolving dependencies
_casting_providers: "weakref.WeakKeyDictionary[Any, Callable[..., Any]]" = weakref.WeakKeyDictionary()


def _casting(provider: Callable[..., Any]) -> Callable[..., Any]:
    """``provider`` with its arguments converted from its own type hints, as classic AutoGen calls providers.

    A provider ``def user(user_id: int)`` filled from a tool call's ``"user_id": "7"`` gets ``7``. Built
    once per provider; a provider pydantic cannot wrap is called as it is.
    """
    try:
        return _casting_providers[provider]
    except (KeyError, TypeError):
        pass
    call = signature_checked(provider)
    with contextlib.suppress(TypeError):  # not weak-referenceable: built again next time
        _casting_providers[provider] = call
    return call


class Provider:
    """Providers standing in for others while tools run: ``override(original, override)``, or for a block
    ``with provider.scope(original, override): ...``; ``clear()`` forgets them all (AG2 Classic 0.14's
    ``fast_depends`` provider; ``dependency_provider`` is the one every tool call consults)."""

    dependency_overrides: dict[Callable[..., Any], Callable[..., Any]]

    def __init__(self) -> None:
        self.dependency_overrides = {}

    def clear(self) -> None:
        """Forget every override."""
        self.dependency_overrides = {}

    def override(self, original: Callable[..., Any], override: Callable[..., Any]) -> None:
        """Call ``override`` wherever a tool depends on ``original``, until cleared."""
        self.dependency_overrides[original] = override

    @contextlib.contextmanager
    def scope(self, original: Callable[..., Any], override: Callable[..., Any]) -> Iterator[None]:
        """Call ``override`` wherever a tool depends on ``original`` inside the block."""
        self.dependency_overrides[original] = override
        try:
            yield
        finally:
            self.dependency_overrides.pop(original, None)


dependency_provider = Provider()
"""The overrides every tool call consults."""


def _provider_of(dependency: Dependency) -> Callable[..., Any]:
    # A test or an application may stand another provider in for this one (dependency_provider.override).
    return dependency_provider.dependency_overrides.get(dependency.dependency, dependency.dependency)


class _Resolver:
    """Resolves the dependencies of one call, calling each provider at most once (when cached)."""

    def __init__(self, call_kwargs: dict[str, Any]) -> None:
        self._call_kwargs = call_kwargs
        self._cache: dict[int, Any] = {}

    def _provider_kwargs(self, provider: Callable[..., Any]) -> tuple[dict[str, Any], dict[str, Dependency]]:
        try:
            params = get_typed_signature(provider).parameters.values()
        except (TypeError, ValueError):
            return {}, {}
        given: dict[str, Any] = {}
        nested: dict[str, Dependency] = {}
        for param in params:
            dependency = _dependency_of(param)
            if dependency is not None:
                nested[param.name] = dependency
            elif param.name in self._call_kwargs:
                # A provider parameter may be filled from the tool call's own arguments.
                given[param.name] = self._call_kwargs[param.name]
        return given, nested

    def resolve(self, dependency: Dependency, stack: contextlib.ExitStack) -> Any:
        key = id(dependency.dependency)
        if dependency.use_cache and key in self._cache:
            return self._cache[key]
        provider = _provider_of(dependency)
        kwargs, nested = self._provider_kwargs(provider)
        for name, sub in nested.items():
            kwargs[name] = self.resolve(sub, stack)
        call = _casting(provider) if kwargs else provider
        if inspect.isgeneratorfunction(provider):
            value = stack.enter_context(contextlib.contextmanager(call)(**kwargs))
        else:
            value = call(**kwargs)
        self._cache[key] = value
        return value

    async def a_resolve(self, dependency: Dependency, stack: contextlib.AsyncExitStack) -> Any:
        key = id(dependency.dependency)
        if dependency.use_cache and key in self._cache:
            return self._cache[key]
        provider = _provider_of(dependency)
        kwargs, nested = self._provider_kwargs(provider)
        for name, sub in nested.items():
            kwargs[name] = await self.a_resolve(sub, stack)
        call = _casting(provider) if kwargs else provider
        if inspect.isasyncgenfunction(provider):
            value = await stack.enter_async_context(contextlib.asynccontextmanager(call)(**kwargs))
        elif inspect.isgeneratorfunction(provider):
            value = stack.enter_context(contextlib.contextmanager(call)(**kwargs))
        else:
            value = call(**kwargs)
            if inspect.isawaitable(value):
                value = await value
        self._cache[key] = value
        return value


def _is_async_provider(provider: Any) -> bool:
    return inspect.iscoroutinefunction(provider) or inspect.isasyncgenfunction(provider) or (
        not inspect.isfunction(provider) and inspect.iscoroutinefunction(getattr(provider, "__call__", None))
    )


def _check_providers(func_name: str, dependencies: dict[str, Dependency], is_async: bool, seen: set[int]) -> None:
    for name, dependency in dependencies.items():
        provider = dependency.dependency
        if not callable(provider):
            raise InvalidArgumentTypeError(
                f"Depends({provider!r}) for parameter '{name}' of '{func_name}': the dependency must be a callable "
                "or a BaseContext instance; use Depends(on(value)) to inject a fixed value."
            )
        if not is_async and _is_async_provider(provider):
            provider_name = getattr(provider, "__name__", repr(provider))
            raise InvalidArgumentError(
                f"You cannot use async dependency `{provider_name}` at sync main: parameter '{name}' of "
                f"'{func_name}' depends on an async function; make '{func_name}' async or the dependency sync."
            )
        if id(provider) in seen:
            continue
        seen.add(id(provider))
        try:
            params = get_typed_signature(provider).parameters.values()
            nested = {p.name: d for p in params if (d := _dependency_of(p)) is not None}
        except (TypeError, ValueError):
            nested = {}
        _check_providers(func_name, nested, is_async, seen)


def inject_params(f: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``f`` so its injected parameters are filled in and hidden from its signature.

    The wrapper resolves ``Depends`` parameters on each call, accepts context parameters (such as a
    ``ChatContext``) as keyword arguments, checks and converts the other arguments from the type
    hints, and ignores keyword arguments ``f`` does not take. Its ``__signature__`` lists only the
    parameters a model fills, so schemas built from it leave the injected ones out.

    Args:
        f: the function (sync or async; a staticmethod object is accepted too).

    Returns:
        The wrapper (async when ``f`` is), or ``f`` itself when its signature cannot be read.

    Raises:
        InvalidArgumentTypeError: a ``Depends`` is given something that is not callable.
        InvalidArgumentError: a sync ``f`` depends on an async provider.
    """
    f = _unwrap_staticmethod(f)
    try:
        signature = inspect.signature(f)
        typed = get_typed_signature(f)
    except (TypeError, ValueError):
        return f

    dependencies = {p.name: d for p in typed.parameters.values() if (d := _dependency_of(p)) is not None}
    contexts = [p.name for p in typed.parameters.values() if p.name not in dependencies and _is_context_param(p)]
    hidden = set(dependencies) | set(contexts)
    is_async = inspect.iscoroutinefunction(f)
    func_name = getattr(f, "__name__", repr(f))
    _check_providers(func_name, dependencies, is_async, set())

    call = keyword_checked(f)
    takes_any_keyword = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in signature.parameters.values())
    accepted = {p.name for p in signature.parameters.values() if p.kind is not inspect.Parameter.VAR_POSITIONAL}

    def call_kwargs(kwargs: dict[str, Any]) -> dict[str, Any]:
        # A model sometimes adds arguments the function does not take: they are ignored.
        if takes_any_keyword:
            return dict(kwargs)
        return {k: v for k, v in kwargs.items() if k in accepted}

    if is_async:

        @functools.wraps(f)
        async def _a_injected(*args: Any, **kwargs: Any) -> Any:
            given = call_kwargs(kwargs)
            resolver = _Resolver(kwargs)
            async with contextlib.AsyncExitStack() as stack:
                for name, dependency in dependencies.items():
                    given[name] = await resolver.a_resolve(dependency, stack)
                return await call(*args, __input__=kwargs, **given)

        wrapper: Callable[..., Any] = _a_injected
    else:

        @functools.wraps(f)
        def _injected(*args: Any, **kwargs: Any) -> Any:
            given = call_kwargs(kwargs)
            resolver = _Resolver(kwargs)
            with contextlib.ExitStack() as stack:
                for name, dependency in dependencies.items():
                    given[name] = resolver.resolve(dependency, stack)
                return call(*args, __input__=kwargs, **given)

        wrapper = _injected

    wrapper.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=[p for p in signature.parameters.values() if p.name not in hidden]
    )
    return wrapper


# ---------------------------------------------------------------- the lower-level names of classic AutoGen
def FastDepends(dependency: Callable[..., Any], *, use_cache: bool = True, cast: bool = True) -> Any:  # noqa: N802
    """The plain dependency marker (classic ``dependency_injection.FastDepends``): ``x: T = FastDepends(f)``.

    Unlike :func:`Depends`, ``dependency`` must be a callable; ``cast`` is accepted for compatibility
    (the arguments of a provider are not converted).

    Args:
        dependency: the provider called to fill the parameter.
        use_cache: call the provider once per call of the decorated function, even if several
            parameters depend on it.
        cast: accepted; the value a provider returns is passed as it is.
    """
    if not callable(dependency):
        raise InvalidArgumentTypeError(
            f"FastDepends needs a callable provider; got {type(dependency).__name__} {dependency!r:.60}. "
            "Use Depends(on(value)) for a fixed value."
        )
    return Dependency(dependency, use_cache=use_cache)


def inject(
    func: Optional[Callable[..., Any]] = None,
    *,
    cast: bool = True,
    extra_dependencies: Any = (),
    pydantic_config: Optional[ConfigDict] = None,
    dependency_overrides_provider: Any = None,
    wrap_model: Callable[[Any], Any] = lambda model: model,
) -> Any:
    """Fill the ``Depends`` / ``FastDepends`` parameters of ``func`` on every call (``@inject`` or ``@inject()``).

    Unlike :func:`inject_params`, the signature is kept as it is and unknown keyword arguments are errors.
    A dependency always fills its parameter, even when the caller passed a value for it (as in classic
    AutoGen).

    Args:
        func: the function (sync or async); None to use ``inject(...)`` as a decorator factory.
        cast: check and convert the arguments from the type hints (pydantic).
        extra_dependencies: more dependencies (``Depends(f)`` markers) resolved before each call, for their
            effects.
        pydantic_config: the pydantic configuration of the checks.
        dependency_overrides_provider: an object with ``dependency_overrides`` (provider -> replacement).
        wrap_model: accepted for compatibility.
    """
    if func is None:
        return lambda f: inject(f, cast=cast, extra_dependencies=extra_dependencies, pydantic_config=pydantic_config,
                                dependency_overrides_provider=dependency_overrides_provider, wrap_model=wrap_model)
    f = _unwrap_staticmethod(func)
    typed = get_typed_signature(f)
    overrides = getattr(dependency_overrides_provider, "dependency_overrides", None) or {}

    def effective(dependency: Dependency) -> Dependency:
        replacement = overrides.get(dependency.dependency)
        return Dependency(replacement, use_cache=dependency.use_cache) if replacement is not None else dependency

    dependencies = {p.name: effective(d) for p in typed.parameters.values() if (d := _dependency_of(p)) is not None}
    extras = [effective(d) for d in extra_dependencies if isinstance(d, Dependency)]
    is_async = is_coroutine_callable(f)
    _check_providers(getattr(f, "__name__", repr(f)), {**dependencies, **{str(i): d for i, d in enumerate(extras)}},
                     is_async, set())
    call = f
    if cast:
        config = ConfigDict(arbitrary_types_allowed=True, **(pydantic_config or {}))
        with contextlib.suppress(Exception):  # annotations pydantic cannot read: run unchecked
            call = validate_call(f, config=config)

    if is_async:

        @functools.wraps(f)
        async def _a_injected(*args: Any, **kwargs: Any) -> Any:
            resolver = _Resolver(kwargs)
            async with contextlib.AsyncExitStack() as stack:
                for extra in extras:
                    await resolver.a_resolve(extra, stack)
                for name, dependency in dependencies.items():
                    kwargs[name] = await resolver.a_resolve(dependency, stack)
                return await call(*args, **kwargs)

        return _a_injected

    @functools.wraps(f)
    def _injected(*args: Any, **kwargs: Any) -> Any:
        resolver = _Resolver(kwargs)
        with contextlib.ExitStack() as stack:
            for extra in extras:
                resolver.resolve(extra, stack)
            for name, dependency in dependencies.items():
                kwargs[name] = resolver.resolve(dependency, stack)
            return call(*args, **kwargs)

    return _injected


def remove_params(func: Callable[..., Any], sig: inspect.Signature, params: Iterable[str]) -> None:
    """Set ``func.__signature__`` to ``sig`` without the parameters named in ``params``.

    Args:
        func: the function whose visible signature changes (it is changed in place).
        sig: the signature to start from (usually ``inspect.signature(func)``).
        params: the names of the parameters to hide.
    """
    hidden = set(params)
    func.__signature__ = sig.replace(  # type: ignore[attr-defined]
        parameters=[p for p in sig.parameters.values() if p.name not in hidden]
    )


def _remove_injected_params_from_signature(func: Callable[..., Any]) -> Callable[..., Any]:
    """Hide the context and dependency parameters of ``func`` from its signature (``__signature__``).

    Args:
        func: the function; a staticmethod object is wrapped first, so its function is left as it is.

    Returns:
        The function with the visible signature.
    """
    if isinstance(func, staticmethod):
        inner = func.__func__

        @functools.wraps(inner)
        def unwrapped(*args: Any, **kwargs: Any) -> Any:
            return inner(*args, **kwargs)

        func = unwrapped
    sig = inspect.signature(func)
    typed = get_typed_signature(func)
    hidden = [p.name for p in typed.parameters.values() if _is_context_param(p) or _is_depends_param(p)]
    remove_params(func, sig, hidden)
    return func


def _described(annotation: Any) -> Any:
    """``Annotated[T, "text", ...]`` as ``Annotated[T, Field(description="text"), ...]``; else None."""
    if get_origin(annotation) is not Annotated:
        return None
    metadata = annotation.__metadata__
    if not metadata or not isinstance(metadata[0], str):
        return None
    return Annotated[(get_args(annotation)[0], Field(description=metadata[0]), *metadata[1:])]  # type: ignore[valid-type]


def _string_metadata_to_description_field(func: Callable[..., Any]) -> Callable[..., Any]:
    """Turn the string metadata of ``func``'s annotations into ``Field`` descriptions, in place.

    ``Annotated[int, "the count"]`` becomes ``Annotated[int, Field(description="the count")]`` in
    ``func.__annotations__`` (also inside ``Optional[...]``), so ``get_type_hints(func,
    include_extras=True)`` shows ``Field`` objects afterwards. Annotations that cannot be evaluated
    are left as they are.

    Returns:
        ``func`` itself.
    """
    try:
        hints = get_type_hints(func, include_extras=True)
    except Exception:  # noqa: BLE001 - unresolvable annotations: nothing to convert
        return func
    annotations = getattr(func, "__annotations__", None)
    if not isinstance(annotations, dict):
        return func
    for name, annotation in hints.items():
        replaced = _described(annotation)
        if replaced is None and get_origin(annotation) in (Union, types.UnionType):
            members = get_args(annotation)
            first = _described(members[0]) if members else None
            if first is not None:
                replaced = Union[(first, *members[1:])]  # type: ignore[valid-type]
        if replaced is not None:
            annotations[name] = replaced
    return func
