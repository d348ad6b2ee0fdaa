"""Which shared options ``OpenAIWrapper`` takes, and a clear error for a misspelt one.

Shared options (the keyword arguments of ``OpenAIWrapper`` besides ``config_list``, i.e. the
top level of an ``llm_config``) apply to every endpoint, so they must be settings the client
knows: a ``chat.completions.create`` argument of the ``openai`` SDK, a client setting or a wrapper
setting, or a classic provider-specific key (see ``endpoint.providers``). A misspelt key such as
``temprature`` would otherwise reach the server unnoticed (or be refused there, request after
request). Fields the SDK does not know travel in ``extra_body``.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from functools import lru_cache

from ..endpoint.openai_client import AZURE_CLIENT_KEYS, CLIENT_KEYS
from ..endpoint.providers import PROVIDER_OPTION_KEYS
from ..endpoint.request import WRAPPER_KEYS
from ..endpoint.sdk_parameters import create_parameters

__all__ = ["UnknownOptionError", "accepted_options", "check_options"]

_OWN_KEYS = frozenset({"config_list", "model", "api_type", "structured_output"})


class UnknownOptionError(ValueError, TypeError):
    """A top-level ``llm_config`` key (an ``OpenAIWrapper`` option) that no endpoint takes.

    A ``ValueError``, as ag2 0.7 code expects of a bad ``llm_config``, and a ``TypeError``, which AG2 0.14
    raises for such a key ("unexpected keyword argument"): code catching either sees it.
    """


@lru_cache(maxsize=1)
def accepted_options() -> frozenset[str]:
    """The option names ``OpenAIWrapper`` accepts (the SDK's own ``create`` arguments, read once).

    Read from the SDK's function, never from whatever a tracing tool installed over it.
    """
    request = create_parameters()
    return frozenset(request) | CLIENT_KEYS | AZURE_CLIENT_KEYS | WRAPPER_KEYS | _OWN_KEYS | PROVIDER_OPTION_KEYS


def check_options(names: Iterable[str], where: str = "OpenAIWrapper") -> None:
    """Raise ``UnknownOptionError`` (a ``ValueError`` and a ``TypeError``) for option names that are not
    accepted, suggesting the closest ones.

    Args:
        names: the option names given (the top-level ``llm_config`` keys).
        where: how the caller is named in the message.
    """
    accepted = accepted_options()
    unknown = [name for name in names if name not in accepted]
    if not unknown:
        return
    problems = []
    for name in unknown:
        close = difflib.get_close_matches(str(name), sorted(accepted), n=2, cutoff=0.75)
        hint = f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""
        problems.append(f"{name!r}{hint}")
    plural = "s" if len(unknown) > 1 else ""
    raise UnknownOptionError(
        f"{where}: unknown option{plural} {', '.join(problems)}. Options are the arguments of the openai "
        "SDK's chat.completions.create (temperature, max_tokens, tools, response_format, ...), client settings "
        "(api_key, base_url, timeout, max_retries, ...) and wrapper settings (cache_seed, cache, filter_func, "
        "price, tags, ...). Send fields the SDK does not know in extra_body={...} (HTTP headers in "
        "extra_headers={...})."
    )
