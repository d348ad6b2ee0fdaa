"""``OpenAIWrapper``: one client over a list of endpoints, with failover, caching and usage."""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

import openai

from .. import runtime_logging
from ..cache import Cache
from ..cache.keys import get_key
from ..exception_utils import ModelToolNotSupportedError
from ..io.base import IOStream
from ..types import content_str
from ..logger.logger_utils import format_ts
from ..events.client_events import StreamEvent, UsageSummaryEvent  # noqa: F401 - importable here, as in AG2 Classic 0.14
from ..io.emit import emit_quiet, listening
from ..events.run_events import ModelRequestEvent
from ..token_count_utils import count_token
from .client_utils import FormatterProtocol, merge_config_with_tools
from .configuration.config import validate_llm_config
from .configuration.options import check_options
from .endpoint.openai_client import AZURE_CLIENT_KEYS, CLIENT_KEYS, OPEN_API_BASE_URL_PREFIX, OpenAIClient
from .endpoint.providers import classic_llm_client_class, is_llm_client, v2_client_class
from .endpoint.stream_chunks import StreamChunkMerging, register_chunk_owner
from .entries import (
    AzureOpenAIEntryDict,
    AzureOpenAILLMConfigEntry,
    DeepSeekEntryDict,
    DeepSeekLLMConfigEntry,
    LLMConfigEntry,
    LLMConfigEntryDict,
    OpenAIEntryDict,
    OpenAILLMConfigEntry,
    OpenAIResponsesEntryDict,
    OpenAIResponsesLLMConfigEntry,
    OpenAIV2EntryDict,
    OpenAIV2LLMConfigEntry,
)
from .endpoint.request import (
    LEGACY_CACHE_DIR,
    LEGACY_DEFAULT_CACHE_SEED,
    WRAPPER_KEYS,
    PreparedCall,
    decode_cached,
    encode_for_cache,
    formatted_retrieval,
    instantiate,
    prepare_call,
)
from .errors import (
    AllEndpointsFailedError,
    AllEndpointsTimedOutError,
    EndpointAttempt,
    MalformedResponseError,
    describe_failure,
)
from .model_client import ChatCompletionExtended, ModelClient, PlaceHolderClient  # noqa: F401 - classic path too
from .secrets import is_valid_api_key, redact_url, scrub_exception
from .wrapper_settings import (
    AOPENAI_FALLBACK_KWARGS,
    OPENAI_FALLBACK_KWARGS,
    log_cache_seed_value,
    routing_method_of,
)
from .usage import OAI_PRICE1K, cost_for_tokens, print_usage_summary, update_usage_summary

__all__ = [
    "AOPENAI_FALLBACK_KWARGS",
    "ERROR",
    "LEGACY_CACHE_DIR",
    "LEGACY_DEFAULT_CACHE_SEED",
    "OAI_PRICE1K",
    "OPENAI_FALLBACK_KWARGS",
    "OPEN_API_BASE_URL_PREFIX",
    "TOOL_ENABLED",
    "content_str",
    "AzureOpenAIEntryDict",
    "AzureOpenAILLMConfigEntry",
    "Cache",
    "DeepSeekEntryDict",
    "DeepSeekLLMConfigEntry",
    "FormatterProtocol",
    "IOStream",
    "LLMConfigEntry",
    "LLMConfigEntryDict",
    "ModelClient",
    "ModelToolNotSupportedError",
    "OpenAIClient",
    "OpenAIEntryDict",
    "OpenAILLMConfigEntry",
    "OpenAIResponsesEntryDict",
    "OpenAIResponsesLLMConfigEntry",
    "OpenAIV2EntryDict",
    "OpenAIV2LLMConfigEntry",
    "OpenAIWrapper",
    "PlaceHolderClient",
    "count_token",
    "get_key",
    "is_valid_api_key",
    "log_cache_seed_value",
    "merge_config_with_tools",
]

# Classic flags: the openai SDK is a dependency, so it is always there and always supports tools.
ERROR: ImportError | None = None
TOOL_ENABLED = True

logger = logging.getLogger("autogen_classic.oai")

# One DEBUG record per completed model request (model, endpoint, tokens, latency, cache hit).
request_logger = logging.getLogger("autogen_classic.oai.client")

_RETRYABLE_BY_NEXT_ENTRY = (openai.APIError, MalformedResponseError, json.JSONDecodeError, OSError)


def _shown_url(url: Any) -> Any:
    """An endpoint's URL as events and log records show it: None when unknown, a password in it masked."""
    if not url:
        return None
    masked = redact_url(str(url))
    return url if masked == str(url) else masked


def _annotate(response: Any, **attributes: Any) -> None:
    """Set the classic extra attributes (``cost``, ``config_id``, ...) on a response."""
    extra = getattr(response, "__pydantic_extra__", None)
    if isinstance(extra, dict) and not any(name in type(response).model_fields for name in attributes):
        extra.update(attributes)  # pydantic's __setattr__ is slow and these are never validated
        return
    for name, value in attributes.items():
        try:
            setattr(response, name, value)
        except ValueError:  # a pydantic model without such a field (a UnifiedResponse): kept beside its fields
            object.__setattr__(response, name, value)


@dataclass
class _EndpointCall:
    """One request the failover loop wants made: ``client`` answers ``params``. The face that makes it (sync or
    async) stores the answer in ``response``, or what the call raised in ``error``."""

    client: Any
    params: dict[str, Any]
    response: Any = None
    error: Exception | None = None


class OpenAIWrapper(StreamChunkMerging):
    """A client for a list of model endpoints, tried in order until one answers.

    Args:
        config_list: one dict per endpoint (``model``, ``api_key``, ``base_url``, ``api_type``,
            ``api_version``, ``timeout``, ``max_retries``, ``price``, ``tags``, ``model_client_cls``,
            and request settings such as ``temperature``). Endpoints are tried in this order.
            ``api_type`` names the provider ("openai", "azure", "anthropic", "google", "mistral",
            "groq", "together", "cerebras", "ollama", "deepseek", "cohere"); every provider is
            reached through its OpenAI-compatible endpoint, with its key variable (e.g.
            ``GROQ_API_KEY``) when ``api_key`` is absent. An entry without ``base_url`` uses the
            provider's endpoint (for OpenAI: ``OPENAI_BASE_URL`` when set). ``model`` may be left
            out and given to ``create()``. An empty or missing ``config_list`` means one endpoint
            described by ``base_config``. ``"api_type": "responses"`` uses the OpenAI Responses API
            (``OpenAIResponsesClient``); "openai_v2" / "responses_v2" answer with a ``UnifiedResponse``.
        **base_config: settings shared by every entry (an entry's own value wins): client
            settings (``timeout``, ``max_retries``, ...), request settings (``temperature``,
            ``tools``, ``response_format``, ...) and wrapper settings (``cache_seed``, ``filter_func``).
            ``OpenAIWrapper(**llm_config)`` is how agents build their client (an ``LLMConfig``
            too). ``routing_method`` is "fixed_order" (the default: entries in order, the next one
            on failure) or "round_robin" (each request starts with the next entry).

    Entries may be typed entries (``OpenAILLMConfigEntry(...)``) as well as dicts.

    Streamed function and tool calls are assembled through the classic chunk hooks
    (``_update_dict_from_chunk``, ``_update_function_call_from_chunk``,
    ``_update_tool_calls_from_chunk``), looked up on ``OpenAIWrapper`` for every delta.

    Raises:
        ValueError: the configuration is invalid, or a shared option is unknown (e.g. a misspelt
            ``temprature``; that error is also a ``TypeError``, as in AG2 0.14); the message names the
            key and the fix. Fields the SDK does not know
            are sent with ``extra_body={...}``.
    """

    extra_kwargs: ClassVar[frozenset[str]] = WRAPPER_KEYS
    openai_kwargs: ClassVar[frozenset[str]] = CLIENT_KEYS | AZURE_CLIENT_KEYS
    total_usage_summary: dict[str, Any] | None = None
    actual_usage_summary: dict[str, Any] | None = None

    def __init__(self, *, config_list: list[dict[str, Any]] | None = None, **base_config: Any) -> None:
        # Settings of the wrapper itself (an LLMConfig may hold them); they never reach an endpoint.
        self.routing_method = routing_method_of(base_config.pop("routing_method", None))
        self._round_robin_index = 0
        base_config.pop("check_every_ms", None)  # taken by LLMConfig for compatibility; not used
        if config_list is not None and not isinstance(config_list, (str, bytes, dict)):
            config_list = [e.model_dump() if isinstance(e, LLMConfigEntry) else e for e in config_list]
        raw = dict(base_config) if config_list is None else {**base_config, "config_list": config_list}
        llm_config = validate_llm_config(raw)
        entries = llm_config.pop("config_list", None) or [{}]
        if not all(entry.get("model_client_cls") for entry in entries):
            # Shared options reach every OpenAI endpoint: a misspelt one is refused here, not per request.
            # (Custom clients take options of their own; an entry's own keys describe its server.)
            check_options(base_config)
        self._clients: list[Any] = []
        self._config_list: list[dict[str, Any]] = []
        for entry in entries:
            merged = {**llm_config, **entry}
            if merged.get("model_client_cls"):
                self._clients.append(PlaceHolderClient(merged))
                logger.info(
                    "Custom model client %s in config_list: call register_model_client before create.",
                    merged["model_client_cls"],
                )
            elif (v2_class := v2_client_class(merged.get("api_type"))) is not None:
                # "openai_v2" / "responses_v2": a client answering with a UnifiedResponse (llm_clients).
                settings = {k: v for k, v in merged.items() if k in CLIENT_KEYS and v is not None}
                self._clients.append(v2_class(response_format=merged.get("response_format"), **settings))
            elif (classic_class := classic_llm_client_class(merged.get("api_type"))) is not None:
                # "responses": the Responses API, answering with the SDK's Response (OpenAIResponsesClient).
                settings = {k: v for k, v in merged.items() if k in CLIENT_KEYS and v is not None}
                self._clients.append(classic_class(settings, response_format=merged.get("response_format")))
            else:
                self._clients.append(OpenAIClient(merged))
            self._config_list.append({k: v for k, v in merged.items() if k not in self.openai_kwargs})
        self._usage_lock = threading.Lock()
        self.total_usage_summary = None
        self.actual_usage_summary = None
        self.wrapper_id = id(self)
        if runtime_logging.is_logging:
            runtime_logging.log_new_wrapper(self, {"config_list": config_list, "base_config": base_config})
            for client, entry in zip(self._clients, entries):
                if isinstance(client, OpenAIClient):
                    settings = {**llm_config, **entry}
                    runtime_logging.log_new_client(
                        client, self, {k: v for k, v in settings.items() if k in self.openai_kwargs}
                    )

    def __repr__(self) -> str:
        return f"OpenAIWrapper(endpoints=[{', '.join(self._describe(i) for i in range(len(self._clients)))}])"

    # ----------------------------------------------------------------- custom clients
    def register_model_client(self, model_client_cls: type, **kwargs: Any) -> None:
        """Activate the ``config_list`` entries that name ``model_client_cls``.

        Args:
            model_client_cls: a class following the ``ModelClient`` protocol; it is built as
                ``model_client_cls(config, **kwargs)`` with its ``config_list`` entry.
            **kwargs: extra constructor arguments.
        """
        if not isinstance(model_client_cls, type):
            raise TypeError(
                f"register_model_client: model_client_cls must be a class, got {type(model_client_cls).__name__}"
            )
        already = False
        for i, client in enumerate(self._clients):
            if isinstance(client, PlaceHolderClient):
                if client.config.get("model_client_cls") == model_client_cls.__name__:
                    self._clients[i] = model_client_cls(client.config, **kwargs)
                    if runtime_logging.is_logging:
                        runtime_logging.log_new_client(self._clients[i], self, {"config": client.config, **kwargs})
                    return
            elif isinstance(client, model_client_cls):
                already = True
        if already:
            logger.warning(
                "Model client %s is already registered. Add more entries in the config_list to use multiple model clients.",
                model_client_cls.__name__,
            )
            return
        raise ValueError(
            f'Model client "{model_client_cls.__name__}" is being registered but was not found in the config_list. '
            f'Please make sure to include an entry in the config_list with "model_client_cls": "{model_client_cls.__name__}"'
        )

    def _require_activated(self) -> None:
        pending = [c.config["model_client_cls"] for c in self._clients if isinstance(c, PlaceHolderClient)]
        if pending:
            raise RuntimeError(
                f"Model client(s) {pending} are not activated. Please register the custom model clients using "
                "`register_model_client` or filter them out form the config list."
            )

    # ----------------------------------------------------------------- create
    @classmethod
    def instantiate(
        cls,
        template: str | Callable[[dict[str, Any]], str] | None,
        context: dict[str, Any] | None = None,
        allow_format_str_template: bool | None = False,
    ) -> str | None:
        """Fill a prompt template from ``context`` (see ``create``'s ``context``)."""
        return instantiate(template, context, bool(allow_format_str_template))

    def create(self, **config: Any) -> Any:
        """Make a chat completion, trying each ``config_list`` entry in order.

        Keyword Args:
            messages: the chat messages (required).
            cache: a ``Cache`` (or None). When given, the legacy ``cache_seed`` is ignored.
            cache_seed: (legacy) seed of a disk cache under ``.cache/<seed>``; unset, None or False:
                no cache (AG2 Classic 0.14's default; 0.2 and 0.7.3 cached under seed 41 unless told
                otherwise). Used only when ``cache`` is None.
            agent: the agent making the call (for logging).
            context: values for templated message contents (see ``allow_format_str_template``).
            filter_func: ``filter_func(context=..., response=...) -> bool``; a rejected response
                makes the next entry try (the last entry's response is returned anyway).
            allow_format_str_template: fill ``{name}`` fields of string contents from ``context``.
            **params: request parameters for the endpoint (``tools``, ``tool_choice``,
                ``functions``, ``response_format``, ``stream``, ``temperature``, ``timeout``, ...).
                Settings in ``llm_config``/``config_list`` take precedence over these.

        Returns:
            The completion (an ``openai`` ``ChatCompletion`` for OpenAI endpoints) with extra
            attributes ``cost``, ``config_id`` (index of the entry that answered) and ``pass_filter``.

        Raises:
            AllEndpointsFailedError: every entry failed; the message lists each endpoint
                (model and base URL) and its reason. ``AllEndpointsTimedOutError`` (also a
                ``TimeoutError``) when every entry timed out.
            RuntimeError: a custom model client named in ``config_list`` was not registered.
        """
        steps = self._failover(config)
        step = next(steps)
        while isinstance(step, _EndpointCall):
            try:
                step.response = step.client.create(step.params)
            except Exception as err:  # noqa: BLE001 - sorted by _failover_or_raise
                step.error = err
            step = next(steps)
        return step

    async def a_create(self, **config: Any) -> Any:
        """Async twin of ``create``: OpenAI endpoints use ``openai.AsyncOpenAI``; custom clients
        use their ``a_create`` when they have one, otherwise ``create`` in a worker thread."""
        steps = self._failover(config)
        step = next(steps)
        while isinstance(step, _EndpointCall):
            try:
                a_create = getattr(step.client, "a_create", None)
                if a_create is not None and inspect.iscoroutinefunction(a_create):
                    step.response = await a_create(step.params)
                else:
                    step.response = await asyncio.to_thread(step.client.create, step.params)
            except Exception as err:  # noqa: BLE001 - sorted by _failover_or_raise
                step.error = err
            step = next(steps)
        return step

    def _failover(self, config: dict[str, Any]) -> Iterator[Any]:
        """The request loop of ``create`` and ``a_create``, written once and free of I/O.

        Yields an ``_EndpointCall`` for each entry that needs a fresh answer (a cached one needs none); the face
        sends it, sync or async, and stores its ``response`` or ``error`` before asking for the next step. The
        last step yielded is the accepted response. Errors the next entry cannot fix, and the end of the list
        with no answer, are raised from here.
        """
        self._require_activated()
        attempts: list[EndpointAttempt] = []
        rejected: Any | None = None
        order = self._request_order()
        last = order[-1]
        for i in order:
            client = self._clients[i]
            call = prepare_call(config, self._config_list[i], isinstance(client, OpenAIClient))
            started = time.time()
            response = self._lookup(call, client)
            cached = response is not None
            if not cached:
                fresh = _EndpointCall(client, call.params)
                yield fresh
                if fresh.error is not None:
                    attempts.append(self._failover_or_raise(i, client, call, fresh.error))
                    continue
                response = fresh.response
                self._record(call, client, response)
            self._after_request(call, client, response, started, cached)
            if self._accept(call, client, response, i, last):
                yield response
                return
            rejected = response
        yield self._give_up(attempts, rejected)

    # ----------------------------------------------------------------- create steps
    def _request_order(self) -> list[int]:
        """The indices of the entries in the order this request tries them (see ``routing_method``)."""
        indices = list(range(len(self._clients)))
        if self.routing_method != "round_robin" or len(indices) < 2:
            return indices
        with self._usage_lock:
            start = self._round_robin_index
            self._round_robin_index = (start + 1) % len(indices)
        return indices[start:] + indices[:start]

    def _describe(self, index: int, model: str | None = None) -> str:
        client = self._clients[index]
        if isinstance(client, OpenAIClient):
            return client.describe(model)
        if isinstance(client, PlaceHolderClient):
            name = client.config.get("model_client_cls")
        else:
            name = type(client).__name__
        return f"{model or self._config_list[index].get('model') or '<model>'} via {name}"

    def _lookup(self, call: PreparedCall, client: Any) -> Any | None:
        """Return a cached response (counted in the total usage only), or None."""
        if call.cache is None or call.cache_key is None:
            return None
        response = decode_cached(call.cache.get(call.cache_key, None))
        if response is None:
            return None
        if getattr(response, "cost", None) is None:
            try:
                _annotate(response, cost=self._cost(call, client, response))
            except AttributeError:
                pass
        with self._usage_lock:
            self.total_usage_summary = update_usage_summary(self.total_usage_summary, client.get_usage(response))
        return response

    def _cost(self, call: PreparedCall, client: Any, response: Any) -> float:
        if call.price is not None:
            usage = getattr(response, "usage", None)
            if isinstance(usage, dict):  # a UnifiedResponse counts its tokens in a dict
                return cost_for_tokens(None, usage.get("prompt_tokens", 0), usage.get("completion_tokens", 0), call.price)
            return cost_for_tokens(
                None,
                getattr(usage, "prompt_tokens", 0) if usage is not None else 0,
                getattr(usage, "completion_tokens", 0) if usage is not None else 0,
                call.price,
            )
        return float(client.cost(response) or 0)

    def _record(self, call: PreparedCall, client: Any, response: Any) -> None:
        """Price a fresh response, count it in both summaries and store it in the cache."""
        _annotate(response, cost=self._cost(call, client, response))
        usage = client.get_usage(response)
        with self._usage_lock:
            self.actual_usage_summary = update_usage_summary(self.actual_usage_summary, usage)
            self.total_usage_summary = update_usage_summary(self.total_usage_summary, dict(usage) if usage else None)
        if call.cache is not None and call.cache_key is not None:
            try:
                call.cache.set(call.cache_key, encode_for_cache(response))
            except Exception as err:  # noqa: BLE001 - an unstorable answer is still a good answer
                logger.warning("The response could not be cached (%s: %s).", type(err).__name__, err)

    def _after_request(self, call: PreparedCall, client: Any, response: Any, started: float, cached: bool) -> None:
        """Report one completed model request (fresh or from the cache) to whoever observes requests.

        The one place requests are reported: runtime logging (a ``chat_completions`` row) and a DEBUG
        record on the ``autogen_classic.oai.client`` logger, and a ``ModelRequestMessage`` event for
        streams that listen beyond the plain console. Off, they cost a few flag checks.
        """
        if runtime_logging.is_logging:
            runtime_logging.log_chat_completion(
                invocation_id=uuid.uuid4(),
                client_id=id(client),
                wrapper_id=self.wrapper_id,
                agent=call.agent,
                request=call.params,
                response=response,
                is_cached=int(cached),
                cost=float(getattr(response, "cost", 0) or 0),
                start_time=format_ts(started),
            )
        stream = IOStream.get_default()
        debug = request_logger.isEnabledFor(logging.DEBUG)
        if not (debug or listening(stream)):
            return
        try:
            usage = client.get_usage(response) or {}
        except Exception:  # noqa: BLE001 - a client without usage still gets its record
            usage = {}
        facts = {
            "model": call.params.get("model") or getattr(response, "model", None),
            "base_url": _shown_url(getattr(client, "base_url", None)),
            "prompt_tokens": usage.get("prompt_tokens") or 0,
            "completion_tokens": usage.get("completion_tokens") or 0,
            "total_tokens": usage.get("total_tokens") or 0,
            "latency": time.time() - started,
            "cache_hit": cached,
        }
        if debug:
            # The same facts as record attributes, for handlers that store fields rather than text.
            request_logger.debug(
                "model request: model=%(model)s base_url=%(base_url)s prompt_tokens=%(prompt_tokens)s "
                "completion_tokens=%(completion_tokens)s total_tokens=%(total_tokens)s latency=%(latency).3fs "
                "cache_hit=%(cache_hit)s",
                facts,
                extra=facts,
            )
        if listening(stream):  # the facts are gathered only for a listener
            emit_quiet(ModelRequestEvent, stream,
                source_name=getattr(call.agent, "name", None), base_url=None if facts["base_url"] is None else
                str(facts["base_url"]), model=facts["model"], prompt_tokens=facts["prompt_tokens"],
                completion_tokens=facts["completion_tokens"], total_tokens=facts["total_tokens"],
                cost=float(getattr(response, "cost", 0) or 0), latency=facts["latency"], is_cached=cached,
            )

    def _accept(self, call: PreparedCall, client: Any, response: Any, index: int, last: int) -> bool:
        retrieval = formatted_retrieval(client.message_retrieval, call.formatter)
        try:
            # Kept out of pydantic's fields and extras so the response still serialises to JSON.
            object.__setattr__(response, "message_retrieval_function", retrieval)
        except (AttributeError, TypeError):
            setattr(response, "message_retrieval_function", retrieval)
        pass_filter = call.filter_func is None or bool(call.filter_func(context=call.context, response=response))
        _annotate(response, config_id=index, pass_filter=pass_filter)
        return pass_filter or index == last

    def _failover_or_raise(self, index: int, client: Any, call: PreparedCall, err: Exception) -> EndpointAttempt:
        """Return the failed attempt when the next entry should try; re-raise errors the next entry cannot fix."""
        if isinstance(client, OpenAIClient) or is_llm_client(client):
            secrets = client.secrets
            scrub_exception(err, *secrets)
            if not isinstance(err, _RETRYABLE_BY_NEXT_ENTRY):
                raise err
            if getattr(err, "code", None) == "content_filter":
                raise err  # the content itself was refused; another endpoint would refuse it too
            retries: int | None = client.max_retries
        else:
            secrets = [str(v) for k, v in self._config_list[index].items() if "key" in k and isinstance(v, str)]
            scrub_exception(err, *secrets)
            retries = None
        endpoint = self._describe(index, call.params.get("model"))
        reason = describe_failure(err, retries, secrets)
        logger.warning("config_list[%d] (%s) failed: %s", index, endpoint, reason)
        return EndpointAttempt(index=index, endpoint=endpoint, reason=reason, error=err)

    @staticmethod
    def _give_up(attempts: list[EndpointAttempt], rejected: Any | None) -> Any:
        if rejected is not None:
            return rejected  # a filtered-out answer beats no answer; pass_filter tells the caller
        error_cls = (
            AllEndpointsTimedOutError if attempts and all(a.timed_out for a in attempts) else AllEndpointsFailedError
        )
        error = error_cls(attempts)
        raise error from (attempts[-1].error if attempts else None)

    # ----------------------------------------------------------------- usage
    def print_usage_summary(self, mode: str | list[str] = ["actual", "total"]) -> None:  # noqa: B006 - classic default
        """Print the usage summary through the console stream.

        Args:
            mode: "actual" (excluding cache hits), "total" (including them), or both (the default).
        """
        print_usage_summary(self.actual_usage_summary, self.total_usage_summary, mode)

    def clear_usage_summary(self) -> None:
        """Forget the usage recorded so far."""
        with self._usage_lock:
            self.total_usage_summary = None
            self.actual_usage_summary = None

    @classmethod
    def extract_text_or_completion_object(
        cls, response: Any
    ) -> list[str] | list[ModelClient.ModelClientResponseProtocol.Choice.Message]:
        """Return, per choice, the text, or the message object when it carries a tool or function call.

        Args:
            response: a response returned by ``create``/``a_create``.
        """
        retrieve = getattr(response, "message_retrieval_function", None)
        if callable(retrieve):
            return retrieve(response)
        return [
            choice.message
            if getattr(choice.message, "function_call", None) is not None
            or getattr(choice.message, "tool_calls", None) is not None
            else choice.message.content
            for choice in response.choices
        ]


register_chunk_owner(OpenAIWrapper)


def __getattr__(name: str) -> Any:
    # OpenAIResponsesClient lives in llm_clients, which builds on this package: loaded on first use.
    if name == "OpenAIResponsesClient":
        return classic_llm_client_class("responses")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
