"""``OpenAIClient``: one OpenAI, Azure OpenAI or OpenAI-compatible endpoint behind the ModelClient protocol."""

from __future__ import annotations

import asyncio
import inspect
import logging
import os
import weakref
from collections.abc import Mapping
from typing import Any

import openai
from openai.types.chat import ChatCompletion, ChatCompletionMessage

from ...exception_utils import InvalidArgumentError
from ..client_utils import HIDE_TOOLS_VALUES, FormatterProtocol, should_hide_tools, validate_parameter
from ..errors import MalformedResponseError
from .classic_hooks import DEEPSEEK_REASONER, ClassicRequestHooks, is_reasoning_model, takes_no_system_role
from .http_clients import connection_error_from_timeout, loop_http_client, sync_http_client
from .providers import OPENAI, OPENAI_DEFAULT_BASE_URL, Provider, provider_for
from .request import SDK_FAST_PATH_KEY, response_format_param
from .sdk_route import (
    completion_from_http,
    fast_path_params,
    fast_path_setting,
    is_json_encoding_error,
    parsed_completion,
    post_arguments,
    postable,
    replaced_on_object,
    sdk_is_watched,
    stand_in_sdk,
)
from .sdk_parameters import create_parameters
from .sdk_sides import ASYNC_SIDE, SYNC_SIDE, SdkSide, run_unsuspended
from ..secrets import is_valid_api_key, redact_url
from .streaming import StreamAccumulator
from ..usage import cost_for_tokens

__all__ = [
    "AZURE_CLIENT_KEYS",
    "CLIENT_KEYS",
    "MISSING_MODEL_ERROR",
    "OPENAI_DEFAULT_BASE_URL",
    "OPEN_API_BASE_URL_PREFIX",
    "SDK_FAST_PATH_KEY",
    "OpenAIClient",
    "check_completion",
]

logger = logging.getLogger("autogen_classic.oai")

OPEN_API_BASE_URL_PREFIX = "https://api.openai.com"

# The openai SDK's own words for a request without a model (classic code may match on them).
MISSING_MODEL_ERROR = (
    "Missing required arguments; Expected either ('messages' and 'model') or ('messages', 'model' and 'stream') "
    "arguments to be given"
)

# Settings consumed when building the SDK client; they are never sent as request parameters.
CLIENT_KEYS = frozenset(
    {
        "api_key",
        "base_url",
        "organization",
        "project",
        "timeout",
        "max_retries",
        "default_headers",
        "default_query",
        "http_client",
        "websocket_base_url",
    }
)
AZURE_CLIENT_KEYS = frozenset(
    {"api_version", "azure_endpoint", "azure_deployment", "azure_ad_token", "azure_ad_token_provider"}
)


def _is_async_http_client(client: Any) -> bool:
    return client is not None and inspect.iscoroutinefunction(getattr(client, "aclose", None))


_LOCAL_PLACEHOLDER_KEY = "not-needed"
# Providers whose classic client is the OpenAI one (so it rewrites roles for Mistral-named models).
_OPENAI_ROUTES = frozenset({"OpenAI", "DeepSeek"})


def _default_azure_token_provider() -> Any:
    """The bearer-token provider of ``"azure_ad_token_provider": "DEFAULT"`` (Azure's default credential chain)."""
    try:
        import azure.identity  # noqa: PLC0415 - optional dependency, needed only for this setting
    except ImportError:
        raise ImportError(
            '"azure_ad_token_provider": "DEFAULT" needs the azure-identity package: pip install azure-identity'
        ) from None
    return azure.identity.get_bearer_token_provider(
        azure.identity.DefaultAzureCredential(), "https://cognitiveservices.azure.com/.default"
    )


def check_completion(response: Any, stand_in: bool = False) -> ChatCompletion:
    """Return ``response`` if it is a chat completion with at least one message, else raise.

    Args:
        response: what the SDK client returned.
        stand_in: the SDK client was replaced by another object (a test double, a fake client): what
            it returns is taken as it is, as classic AutoGen takes it.
    """
    if stand_in and not isinstance(response, ChatCompletion):
        return response  # type: ignore[no-any-return]
    if not isinstance(response, ChatCompletion):
        raise MalformedResponseError(f"expected a chat completion object, got {type(response).__name__}")
    if not response.choices:
        raise MalformedResponseError("the completion has no choices")
    for choice in response.choices:
        if getattr(choice, "message", None) is None:
            raise MalformedResponseError("a choice has no message")
    return response


# Per event loop: its async SDK clients by their settings. Endpoints with equal settings (every agent of
# a study, built afresh for each chat) share one, instead of building one each on their first request.
_loop_sdk_clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[Any, Any]] = weakref.WeakKeyDictionary()


def _settings_key(is_azure: bool, kwargs: Mapping[str, Any]) -> Any:
    """A hashable key equal for equal client settings; None when a setting cannot be compared so."""
    items = []
    for name, value in sorted(kwargs.items()):
        if isinstance(value, Mapping):
            value = tuple(sorted(value.items()))
        try:
            hash(value)
        except TypeError:
            return None
        items.append((name, value))
    return is_azure, tuple(items)


async def _loop_sdk_client(loop: asyncio.AbstractEventLoop, is_azure: bool, kwargs: dict[str, Any]) -> Any:
    key = _settings_key(is_azure, kwargs)
    shared = _loop_sdk_clients.setdefault(loop, {})
    client = shared.get(key) if key is not None else None
    if client is None or client._client.is_closed:  # after the loop closed its pool, a new client on a new pool
        if not _is_async_http_client(kwargs.get("http_client")):  # the config's own async client is used as is
            kwargs = {**kwargs, "http_client": await loop_http_client()}
        client = openai.AsyncAzureOpenAI(**kwargs) if is_azure else openai.AsyncOpenAI(**kwargs)
        if key is not None:
            shared[key] = client
    return client


def _unusable_base_url(kwargs: Mapping[str, Any]) -> str | None:
    """The entry's ``base_url`` when it is no http(s) URL (accepted when the client is built, refused on use)."""
    base_url = kwargs.get("base_url")
    if isinstance(base_url, str) and not base_url.startswith(("http://", "https://")):
        return base_url
    return None


class OpenAIClient(ClassicRequestHooks):
    """Sends chat-completion requests to one endpoint with the real ``openai`` SDK.

    Args:
        client: the merged ``config_list`` entry (``model``, ``api_key``, ``base_url``,
            ``api_type``, ``api_version``, ``timeout``, ``max_retries``, ``default_headers``, ...),
            as ``OpenAIWrapper`` builds it; or, as in the classic package, a ready ``openai.OpenAI``
            / ``openai.AzureOpenAI`` client to wrap. While a tracing tool (or any wrapper) wraps the
            SDK, every request parameter the SDK has goes to ``chat.completions.create`` as its own
            keyword argument, so the tool sees the request; while nothing does, a request skips the
            SDK's typed walk of messages and tools (same body, less CPU). ``"sdk_fast_path"`` in the
            entry fixes the route: False always through ``create``, True never (see ``sdk_route``).
        response_format: a pydantic model (or JSON-schema dict) every request asks for; replies
            are shown through its ``format()`` method when it has one.

    Attributes:
        _oai_client: the sync SDK client requests go through (the classic attribute). Replacing it
            (``client._oai_client = MagicMock()``), or patching its ``chat.completions.create``,
            sends every request, sync and async, through the replacement.

    The classic request hooks (``_handle_openai_bad_request_error``,
    ``_patch_messages_for_deepseek_reasoner``, ``_process_reasoning_model_params``, ...) are called
    where classic AutoGen calls them (see ``classic_hooks``).

    Raises:
        ValueError: the entry lacks what its endpoint needs (a key for a hosted endpoint, an
            Azure endpoint or API version), names a provider without an OpenAI-compatible endpoint,
            or has an ``sdk_fast_path`` that is not True or False.
    """

    def __init__(self, client: Any, response_format: Any = None) -> None:
        self.response_format = response_format
        self._sdk_replaced = False
        self._async_clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Any] = weakref.WeakKeyDictionary()
        if isinstance(client, (openai.OpenAI, openai.AzureOpenAI)):
            self._wrap(client)
            return
        if not isinstance(client, Mapping):
            raise TypeError(
                "OpenAIClient: client must be a config dict or an openai.OpenAI / openai.AzureOpenAI client, "
                f"got {type(client).__name__}"
            )
        config = client
        self.api_type: str = str(config.get("api_type") or "openai")
        self.model: str | None = config.get("model")
        self.sdk_fast_path: bool | None = fast_path_setting(config)
        self.provider: Provider | None = None if self.is_azure else provider_for(config)
        keys = CLIENT_KEYS | (AZURE_CLIENT_KEYS if self.is_azure else frozenset())
        kwargs = {k: v for k, v in config.items() if k in keys and v is not None}
        if self.is_azure:
            kwargs = self._azure_kwargs(kwargs)
        else:
            kwargs = self._provider_kwargs(kwargs, self.provider, config)  # type: ignore[arg-type]
        self._kwargs = kwargs
        self._wrapped = False
        self._unusable_base_url = _unusable_base_url(kwargs)
        self.max_retries: int = int(kwargs.get("max_retries", openai.DEFAULT_MAX_RETRIES))
        self.base_url: str = str(
            kwargs.get("azure_endpoint") or kwargs.get("base_url") or os.environ.get("AZURE_OPENAI_ENDPOINT") or ""
        )
        # The sync SDK client is built on the first sync request: a study running thousands of agents on
        # the async path never pays for one. Azure settings and a config's own HTTP client are checked
        # by the SDK as the client is built, so those are built now, as in classic AutoGen.
        self._sync_sdk: openai.OpenAI | openai.AzureOpenAI | None = None
        if self.is_azure or "http_client" in kwargs:
            self._sync_sdk = self._new_sync_sdk()
        self._warn_on_key_shape()

    def _new_sync_sdk(self) -> openai.OpenAI | openai.AzureOpenAI:
        # A config's http_client serves the side it was made for (sync or async); the other side gets the default.
        kwargs = self._kwargs
        own = kwargs.get("http_client")
        if own is None or _is_async_http_client(own):
            kwargs = {**kwargs, "http_client": sync_http_client()}
        return openai.AzureOpenAI(**kwargs) if self.is_azure else openai.OpenAI(**kwargs)

    @property
    def _client(self) -> openai.OpenAI | openai.AzureOpenAI:
        """The sync SDK client (built on first use)."""
        sdk = self._sync_sdk
        if sdk is None:
            sdk = self._sync_sdk = self._new_sync_sdk()
        return sdk

    @property
    def _oai_client(self) -> Any:
        """The sync SDK client every sync request goes through (classic AutoGen's attribute)."""
        return self._client

    @_oai_client.setter
    def _oai_client(self, client: Any) -> None:
        # From now on every request, async ones too (in a worker thread), goes through ``client``.
        self._sync_sdk = client
        self._sdk_replaced = True

    def _wrap(self, client: openai.OpenAI | openai.AzureOpenAI) -> None:
        """Serve requests through a ready SDK client (async requests run it in a worker thread)."""
        self.api_type = "azure" if isinstance(client, openai.AzureOpenAI) else "openai"
        self.model = None
        self.sdk_fast_path = False
        self.provider = None if self.is_azure else OPENAI
        self._kwargs = {"api_key": client.api_key}
        self._wrapped = True
        self._unusable_base_url = None
        self.max_retries = int(client.max_retries)
        self.base_url = str(client.base_url)
        self._sync_sdk = client
        self._warn_on_key_shape()

    def _warn_on_key_shape(self) -> None:
        if self.is_azure or not self.base_url.startswith(OPEN_API_BASE_URL_PREFIX):
            return
        key = self._kwargs.get("api_key")
        if isinstance(key, str) and not is_valid_api_key(key):
            logger.warning(
                "The API key specified is not a valid OpenAI format; it won't work with the OpenAI-hosted model."
            )

    @property
    def is_azure(self) -> bool:
        return self.api_type.startswith("azure")

    @property
    def secrets(self) -> list[str]:
        """Secret values this client holds (for scrubbing error text)."""
        return [v for k, v in self._kwargs.items() if k in ("api_key", "azure_ad_token") and isinstance(v, str) and v]

    def describe(self, model: str | None = None) -> str:
        """A key-free description of the endpoint, e.g. ``gpt-4o at https://api.openai.com/v1``."""
        suffix = " (azure)" if self.is_azure else ""
        return f"{model or self.model or '<model from request>'} at {redact_url(self.base_url)}{suffix}"

    def __repr__(self) -> str:
        return f"OpenAIClient({self.describe()})"

    @staticmethod
    def _provider_kwargs(kwargs: dict[str, Any], provider: Provider, config: Mapping[str, Any]) -> dict[str, Any]:
        """Fill in the provider's base URL and key (from its environment variable) when the entry has none."""
        base_url = str(kwargs.get("base_url") or provider.default_base_url(config))
        kwargs["base_url"] = base_url
        if kwargs.get("api_key"):
            return kwargs
        env_key = provider.env_key()
        if env_key:
            kwargs["api_key"] = env_key
            return kwargs
        hosted = base_url.rstrip("/") == provider.base_url.rstrip("/") or base_url.startswith(OPEN_API_BASE_URL_PREFIX)
        if provider.key_required and hosted:
            variables = " or ".join(provider.key_env)
            raise InvalidArgumentError(
                f"Invalid llm_config: no 'api_key' for the {provider.name} endpoint at {redact_url(base_url)}. "
                f"Add \"api_key\" to the config_list entry or set the {variables} environment variable."
            )
        # Local OpenAI-compatible servers (Ollama, vLLM, llama.cpp) ignore the key, but the SDK needs one.
        kwargs["api_key"] = _LOCAL_PLACEHOLDER_KEY
        return kwargs

    @staticmethod
    def _azure_kwargs(kwargs: dict[str, Any]) -> dict[str, Any]:
        base_url = kwargs.pop("base_url", None)
        if not kwargs.get("azure_endpoint"):
            if base_url:
                kwargs["azure_endpoint"] = base_url
            elif not os.environ.get("AZURE_OPENAI_ENDPOINT"):
                raise ValueError(
                    "Invalid llm_config: an api_type 'azure' entry needs 'base_url' (the resource endpoint, e.g. "
                    "'https://my-resource.openai.azure.com'), or the AZURE_OPENAI_ENDPOINT environment variable."
                )
        if not kwargs.get("api_version") and not os.environ.get("OPENAI_API_VERSION"):
            raise ValueError(
                "Invalid llm_config: an api_type 'azure' entry needs 'api_version', e.g. "
                '"api_version": "2024-02-01" (or the OPENAI_API_VERSION environment variable).'
            )
        if kwargs.get("azure_ad_token_provider") == "DEFAULT":
            kwargs["azure_ad_token_provider"] = _default_azure_token_provider()
        has_credentials = kwargs.get("api_key") or kwargs.get("azure_ad_token") or kwargs.get("azure_ad_token_provider")
        from_env = os.environ.get("AZURE_OPENAI_API_KEY") or os.environ.get("AZURE_OPENAI_AD_TOKEN")
        if not has_credentials and not from_env:
            raise ValueError(
                'Invalid llm_config: no credentials for the Azure endpoint. Add "api_key" (or "azure_ad_token", or '
                '"azure_ad_token_provider") to the config_list entry or set the AZURE_OPENAI_API_KEY environment '
                "variable."
            )
        return kwargs

    async def _async_client(self) -> openai.AsyncOpenAI | openai.AsyncAzureOpenAI:
        # An async HTTP connection pool belongs to one event loop, so keep one SDK client per loop.
        loop = asyncio.get_running_loop()
        client = self._async_clients.get(loop)
        if client is None:
            client = self._async_clients[loop] = await _loop_sdk_client(loop, self.is_azure, self._kwargs)
        return client

    def _request_params(self, params_in: dict[str, Any]) -> dict[str, Any]:
        if self._unusable_base_url is not None and not self._sdk_replaced:
            raise ValueError(
                f"Invalid llm_config: base_url {self._unusable_base_url!r} is not a URL; it must start with "
                "http:// or https://, e.g. 'http://localhost:11434/v1' for Ollama."
            )
        if params_in.get("model") is None:
            raise TypeError(
                f"{MISSING_MODEL_ERROR} (no 'model' in this config_list entry, in llm_config or in create(); "
                'add e.g. "model": "gpt-4o-mini")'
            )
        hide_tools = params_in.get("hide_tools")
        if hide_tools is not None:
            params_in = {k: v for k, v in params_in.items() if k != "hide_tools"}
            hide_tools = validate_parameter(
                {"hide_tools": hide_tools}, "hide_tools", str, False, "never", None, list(HIDE_TOOLS_VALUES)
            )
            if should_hide_tools(params_in.get("messages") or [], params_in.get("tools"), hide_tools):
                params_in = {k: v for k, v in params_in.items() if k not in ("tools", "tool_choice")}
        model = params_in["model"]
        # Mistral-named models reached the OpenAI way (vLLM, LM Studio, a proxy...) get no system role;
        # the providers' own routes (api_type "mistral", "together"...) keep it, as their classic clients do.
        no_system_role = takes_no_system_role(model) and (self.provider is None or self.provider.name in _OPENAI_ROUTES)
        if is_reasoning_model(model) or model == DEEPSEEK_REASONER or no_system_role:
            # These requests' messages are rewritten in place by the classic hooks: copies, not the chat's own.
            params_in = {**params_in}
            if isinstance(params_in.get("messages"), list):
                params_in["messages"] = [dict(m) if isinstance(m, Mapping) else m for m in params_in["messages"]]
                if no_system_role:
                    self._convert_system_role_to_user(params_in["messages"])
            if is_reasoning_model(model):
                self._process_reasoning_model_params(params_in)
        if self.response_format is not None and params_in.get("response_format") is None:
            params_in = {**params_in, "response_format": response_format_param(self.response_format)}
        if self.provider is not None:
            params_in = self.provider.adapt(params_in)
        # Every argument the SDK has goes to create() by name, so wrappers of create (tracing tools) see
        # the request; settings it has no argument for (vLLM's top_k, Ollama's options) go in extra_body.
        known = create_parameters()
        params = {k: v for k, v in params_in.items() if k in known}
        extra = {k: v for k, v in params_in.items() if k not in known}
        if extra:
            params["extra_body"] = {**extra, **(params_in.get("extra_body") or {})}
        if self.is_azure and isinstance(params.get("model"), str):
            params["model"] = params["model"].replace(".", "")  # Azure deployment names cannot contain dots
        if params.get("stream"):
            if "stream_options" not in params:
                params["stream_options"] = {"include_usage": True}
            elif params["stream_options"] is None:
                del params["stream_options"]  # for servers that reject the option
        else:
            params.pop("stream_options", None)
            if params.get("response_format") is None:
                params["stream"] = False  # said explicitly, as classic AutoGen's requests do
            else:  # a structured-output request goes without it, as AG2 Classic 0.14's parse requests do
                params.pop("stream", None)
        return params

    def create(self, params: dict[str, Any]) -> ChatCompletion:
        """Send one chat-completions request (streamed when ``params["stream"]`` is true)."""
        params = self._request_params(params)
        send = type(self)._handle_openai_bad_request_error(self._send)
        return send(**params)  # type: ignore[no-any-return]

    def _send(self, **params: Any) -> ChatCompletion:
        """Send ``params`` through the sync SDK client (``_send_through``, run in the caller's thread)."""
        return run_unsuspended(self._send_through(params, self._client, SYNC_SIDE))

    async def a_create(self, params: dict[str, Any]) -> ChatCompletion:
        """Async twin of ``create`` on ``openai.AsyncOpenAI``.

        A ready SDK client given to the constructor, a replaced ``_oai_client`` and a sync client whose
        ``chat.completions.create`` was patched are used as they are, in a worker thread.
        """
        if self._wrapped or self._sdk_replaced or (self._sync_sdk is not None and replaced_on_object(self._sync_sdk)):
            return await asyncio.to_thread(self.create, params)
        params = self._request_params(params)
        send = type(self)._handle_openai_bad_request_error(self._a_send)
        try:
            return await send(**params)  # type: ignore[no-any-return]
        except openai.APITimeoutError as err:
            corrected = connection_error_from_timeout(err)
            if corrected is None:
                raise
            raise corrected[0] from corrected[1]

    async def _a_send(self, **params: Any) -> ChatCompletion:
        """Send ``params`` through this event loop's async SDK client (``_send_through``)."""
        return await self._send_through(params, await self._async_client(), ASYNC_SIDE)

    async def _send_through(self, params: dict[str, Any], sdk: Any, side: SdkSide) -> ChatCompletion:
        """Send ``params`` through ``sdk`` by the route ``sdk_route`` chooses: the one logic of both SDK clients.

        ``side`` gets the results of the SDK calls (awaits them on the async client, see ``sdk_sides``).
        """
        completions = sdk.chat.completions  # looked up per call: wrappers installed later are used
        past_the_walk = self._past_the_walk(sdk, completions)
        if params.get("stream"):
            accumulator = StreamAccumulator()
            try:
                sent = fast_path_params(params) if past_the_walk else params
                await side.drain(completions.create(**sent), accumulator.add)
            except BaseException:
                accumulator.finish(interrupted=True)
                raise
            accumulator.finish()
            return check_completion(accumulator.result(params))
        if past_the_walk:
            if postable(params, self.is_azure):
                try:
                    posted = await side.result_of(sdk.post(**post_arguments(params)))
                    return check_completion(completion_from_http(posted))
                except TypeError as err:
                    if not is_json_encoding_error(err):
                        raise
                    return check_completion(await side.result_of(completions.create(**params)))
            raw = await side.result_of(completions.with_raw_response.create(**fast_path_params(params)))
            return check_completion(parsed_completion(raw))
        stand_in = self._sdk_replaced and stand_in_sdk(sdk)
        return check_completion(await side.result_of(completions.create(**params)), stand_in)

    def _past_the_walk(self, sdk: Any, completions: Any) -> bool:
        """Whether this request skips the SDK's typed walk of messages and tools (see ``sdk_route``)."""
        if self._sdk_replaced and stand_in_sdk(sdk):
            return False  # an object standing in for the SDK client is only known to have chat.completions.create
        if self.sdk_fast_path is None:
            return not sdk_is_watched(sdk, completions)
        return self.sdk_fast_path

    def message_retrieval(self, response: ChatCompletion) -> list[str | ChatCompletionMessage]:
        """Return each choice's text, or its message object when it calls a tool or function.

        With a ``response_format`` that has a ``format()`` method, texts are shown through it.
        """
        response_format = self.response_format  # the protocol check costs ~15 us: skipped when there is none
        formatter = None
        if response_format is not None and isinstance(response_format, FormatterProtocol):
            formatter = response_format
        out: list[str | ChatCompletionMessage] = []
        for choice in response.choices:
            message = choice.message
            if message.function_call is not None or message.tool_calls is not None:
                out.append(message)
            elif formatter is not None and message.content is not None:
                try:
                    out.append(formatter.model_validate_json(message.content).format())  # type: ignore[attr-defined]
                except ValueError:
                    out.append(message.content)  # not valid for the schema: show the raw text rather than fail
            else:
                out.append(message.content)  # type: ignore[arg-type]
        return out

    def cost(self, response: ChatCompletion) -> float:
        """Return the USD cost of ``response`` from the price table (0 for unknown models)."""
        usage = response.usage
        return cost_for_tokens(
            response.model or self.model,
            usage.prompt_tokens if usage is not None else 0,
            usage.completion_tokens if usage is not None else 0,
        )

    @staticmethod
    def get_usage(response: ChatCompletion) -> dict[str, Any]:
        """Return the classic usage dict: prompt/completion/total tokens, cost and model."""
        usage = response.usage
        return {
            "prompt_tokens": usage.prompt_tokens if usage is not None else 0,
            "completion_tokens": (usage.completion_tokens or 0) if usage is not None else 0,
            "total_tokens": usage.total_tokens if usage is not None else 0,
            "cost": getattr(response, "cost", 0) or 0,
            "model": response.model,
        }
