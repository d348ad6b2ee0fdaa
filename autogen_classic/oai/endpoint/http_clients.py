"""The HTTP clients under the openai SDK clients: which ones, how they share TLS, and how they are closed.

Sync requests go through the SDK's default httpx client. Async requests go through the SDK's aiohttp
client (``openai.DefaultAioHttpClient``) when it is installed: it spends about a third less CPU per
request than httpx's own async stack, which is what limits many chats running at once on one event
loop. ``AUTOGEN_CLASSIC_ASYNC_HTTP=httpx`` in the environment keeps async requests on httpx. A
``config_list`` entry's own ``http_client`` is used as given for its side (sync or async) and never
closed here.

Every client built here shares one TLS context. The async HTTP client is one per event loop, shared by
every agent's SDK client on that loop (so one connection pool serves all chats running at once), and
it is closed when the loop ends through ``asyncio.run`` (or ``loop.shutdown_asyncgens()``): scripts end
without "Unclosed client session" warnings, and agents dropped mid-loop leave no open connection behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import importlib
import os
import ssl
import weakref
from collections.abc import AsyncGenerator
from typing import Any

import openai

from ..secrets import exception_chain

__all__ = [
    "ASYNC_HTTP_ENV",
    "connection_error_from_timeout",
    "loop_http_client",
    "sdk_http_library",
    "shared_ssl_context",
    "sync_http_client",
]

ASYNC_HTTP_ENV = "AUTOGEN_CLASSIC_ASYNC_HTTP"
_ASYNC_HTTP_CHOICES = ("aiohttp", "httpx")


@functools.lru_cache(maxsize=1)
def sdk_http_library() -> Any:
    """The HTTP library under the openai SDK's clients (``httpx``, or ``httpx2`` in newer SDK releases)."""
    return importlib.import_module(openai.DefaultHttpxClient.__mro__[1].__module__.partition(".")[0])


@functools.lru_cache(maxsize=1)
def shared_ssl_context() -> ssl.SSLContext | bool:
    """One TLS context for every client this process builds (``True``: let the library build its own).

    Building a context loads the CA bundle (about 20 ms); without sharing, every agent paid it twice
    (sync and async client) and 50 agents built at once spent a second on it. The context is made by
    the SDK's own HTTP library, so certificates and ``SSL_CERT_FILE``/``SSL_CERT_DIR`` are honoured the
    same way (read once, when the first client is built).
    """
    create = getattr(sdk_http_library(), "create_ssl_context", None)
    if create is None:
        return True
    try:
        context: ssl.SSLContext = create()
    except Exception:  # noqa: BLE001 - any trouble here: each client builds its context as it always did
        return True
    return context


class _SyncHttpClient(openai.DefaultHttpxClient):  # type: ignore[misc,valid-type]
    """The SDK's default sync HTTP client on the shared TLS context, closed when garbage collected."""

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            if not self.is_closed:
                self.close()


_AioHttpClient: Any = getattr(openai, "DefaultAioHttpClient", None)


def _async_http_choice() -> str:
    """``aiohttp`` or ``httpx`` from ``AUTOGEN_CLASSIC_ASYNC_HTTP`` (``aiohttp`` when unset).

    Raises:
        ValueError: the variable holds something else.
    """
    choice = os.environ.get(ASYNC_HTTP_ENV, "").strip().lower() or "aiohttp"
    if choice not in _ASYNC_HTTP_CHOICES:
        raise ValueError(
            f"Invalid {ASYNC_HTTP_ENV}={os.environ[ASYNC_HTTP_ENV]!r}: use 'aiohttp' (the default) or 'httpx'."
        )
    return choice


def sync_http_client() -> Any:
    """A new sync HTTP client for an ``openai.OpenAI``/``AzureOpenAI`` client."""
    return _SyncHttpClient(verify=shared_ssl_context())


def _new_async_http_client() -> Any:
    if _async_http_choice() == "aiohttp" and _AioHttpClient is not None:
        try:
            return _AioHttpClient(verify=shared_ssl_context())
        except RuntimeError:  # the SDK was installed without its aiohttp extra
            pass
    return openai.DefaultAsyncHttpxClient(verify=shared_ssl_context())


# Per event loop: its shared async HTTP client and the suspended generator that closes it. The loop
# keeps its async generators only weakly, so this entry is what keeps the closer alive.
_loop_clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, tuple[Any, Any]] = weakref.WeakKeyDictionary()


async def _close_at_loop_end(client: Any) -> AsyncGenerator[None, None]:
    # Suspended at the yield for the loop's whole life; the loop's shutdown of async generators
    # (the last step of asyncio.run) resumes it, and the finally block closes the client.
    try:
        yield
    finally:
        with contextlib.suppress(Exception):
            if not client.is_closed:
                await client.aclose()


async def loop_http_client() -> Any:
    """The running event loop's async HTTP client: aiohttp when the SDK can use it, else httpx.

    Created on first use and closed when the loop shuts down its async generators.

    Raises:
        ValueError: ``AUTOGEN_CLASSIC_ASYNC_HTTP`` is set to something other than ``aiohttp`` or ``httpx``.
    """
    loop = asyncio.get_running_loop()
    entry = _loop_clients.get(loop)
    if entry is not None and not entry[0].is_closed:
        return entry[0]
    client = _new_async_http_client()
    closer = _close_at_loop_end(client)
    _loop_clients[loop] = (client, closer)
    await closer.asend(None)  # runs to the yield: from now on the loop finalizes it at shutdown
    return client


def connection_error_from_timeout(err: openai.APITimeoutError) -> tuple[openai.APIConnectionError, BaseException] | None:
    """The connection error an aiohttp failure reported as a timeout really is, with its root cause.

    The SDK's aiohttp adapter maps every aiohttp connection error that is not a timeout (connection
    refused, DNS failure, server disconnected) to a connect *timeout*, which would send users off
    raising timeouts. Returns None when ``err`` is a real timeout.
    """
    chain = exception_chain(err)
    from_aiohttp = [e for e in chain if type(e).__module__.partition(".")[0] == "aiohttp"]
    if not from_aiohttp or any(isinstance(e, (TimeoutError, asyncio.TimeoutError)) for e in from_aiohttp):
        return None
    corrected = openai.APIConnectionError(request=err.request)
    return corrected, chain[-1]
