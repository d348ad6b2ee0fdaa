"""The embedded server's process: the engine and the HTTP front, started by ``server.py`` from this file's path.

Started by path, not through the package: importing ``autogen_classic`` would load all of it (seconds of
start-up) for a process that needs only this folder's engine-side modules, which use the standard library
and the engine. The port is bound before the model loads, so a taken port fails at once; a missing engine or
system library exits with a message that names the fix (the parent shows the end of this process's log).
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

EXIT_PORT_TAKEN = 98  # errno EADDRINUSE
EXIT_NO_ENGINE = 3


def _sibling(name: str) -> ModuleType:
    """This folder's module ``name``, loaded by path under a private name (sys.path left alone)."""
    private = f"_autogen_classic_local_{name}"
    if private not in sys.modules:
        spec = importlib.util.spec_from_file_location(private, Path(__file__).with_name(f"{name}.py"))
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[private] = module
        spec.loader.exec_module(module)
    return sys.modules[private]


def _arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="autogen-classic embedded model server")
    parser.add_argument("--model", required=True)
    parser.add_argument("--model_alias", required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--n_ctx", type=int, required=True)
    parser.add_argument("--n_threads", type=int, required=True)
    parser.add_argument("--chat_format", required=True)
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    """Bind, load the model, serve until terminated; the exit status says what went wrong."""
    args = _arguments(argv)
    _sibling("json_grammar")  # before tool_calls, which reads it from sys.modules
    http_front, tool_calls, chat_request = _sibling("http_front"), _sibling("tool_calls"), _sibling("chat_request")
    try:
        front = http_front.make_server(args.host, args.port, None, tool_calls, chat_request, args.chat_format)
    except OSError as error:
        print(f"Cannot listen on {args.host}:{args.port}: address already in use ({error})", flush=True)
        return EXIT_PORT_TAKEN
    try:
        engine = _sibling("engine").Engine(args.model, args.model_alias, args.n_ctx, args.n_threads)
    except ImportError as error:  # the engine, or a system library it links (libgomp.so.1)
        print(f"Cannot load the inference engine xllamacpp: {error}", flush=True)
        if "libgomp" in str(error):
            print("It needs the system's OpenMP runtime: apt-get install libgomp1 (Debian, Ubuntu), "
                  "dnf install libgomp (Fedora), apk add libgomp (Alpine).", flush=True)  # fmt: skip
        return EXIT_NO_ENGINE
    front.engine = engine
    print(f"Serving {args.model_alias} on http://{args.host}:{front.server_address[1]}/v1", flush=True)
    try:
        front.serve_forever(poll_interval=0.5)
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
