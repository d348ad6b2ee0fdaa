"""Tool calls on the embedded model: a chat handler that runs inside the llama.cpp server process.

llama.cpp's OpenAI-compatible server answers with ``tool_calls`` only through a function-calling chat
format. This one, registered as ``autogen-classic-tools``, answers a request without tools (or with
``tool_choice="none"``) through the model's own chat template, as a plain server does, so plain chat
and ``response_format`` work as before. A request with tools is answered in three steps:

1. the offered functions (name and JSON schema of the arguments) are listed at the end of the system
   message, with the notation to use: ``functions.<name>:`` and the arguments as JSON, or ``message:``
   and text;
2. a grammar lets the model choose one of ``functions.<name>:`` (one per offered function) and
   ``message:``: a tool call or a text answer. ``tool_choice`` unset or ``"auto"`` offers both,
   ``"required"`` only the functions; a named ``tool_choice`` skips the choice;
3. for a call, a grammar built from the function's JSON schema writes the arguments, so they parse
   (strings and lists the schema leaves unbounded are capped at 200 characters and 20 items);
   a text answer is written by the model's own template, as if no tools were offered.

Earlier calls in the conversation are shown in the same notation, and tool results as messages
"Result of <name>: ...". One call is made per answer. Legacy ``functions``/``function_call`` requests
get a ``function_call`` answer.

``main`` is the entry point of the server's process for every chat format (``server.py`` starts this
file by path): it registers the handler and puts each chat request through ``chat_request.py`` first,
so content-part lists in any role and assistant ``"content": null`` are accepted, which llama.cpp's
request model refuses on its own.

The module imports llama_cpp and runs only in the server's process; the package never imports it.
"""

from __future__ import annotations

import importlib.util
import json
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import llama_cpp
from llama_cpp import llama_chat_format, llama_grammar

__all__ = ["CHAT_FORMAT", "handle_chat_completion", "main", "register"]

CHAT_FORMAT = "autogen-classic-tools"
"""The name the handler is registered under (the server's ``--chat_format``)."""

_END = "<|im_end|>"
_TEXT_MARK = "message:"
_CALL_MARK = "functions.{name}:"
_DEFAULT_SYSTEM = "You are a helpful AI assistant."
_ARGUMENTS_MAX_TOKENS = 512  # when the request sets no max_tokens
# A string or list the schema leaves unbounded gets these bounds in the grammar, so a model stuck
# repeating itself (this one fills an order number it was not given with digits) still closes its JSON.
_MAX_STRING = 200
_MAX_ITEMS = 20
# Sampling settings a request may set, passed on to every completion the handler makes.
_SAMPLING = (
    "temperature", "top_p", "top_k", "min_p", "typical_p", "seed", "presence_penalty", "frequency_penalty",
    "repeat_penalty", "tfs_z", "mirostat_mode", "mirostat_tau", "mirostat_eta", "model", "logits_processor",
    "logit_bias",
)  # fmt: skip
_template_handlers: dict[int, tuple[llama_cpp.Llama, Any]] = {}


def _sibling(name: str) -> ModuleType:
    """The module ``name`` of this folder: through the package when imported from it, else by path (the
    server's process never imports the package, which loads all of autogen_classic)."""
    if __package__:
        return importlib.import_module(f"{__package__}.{name}")
    # Started by path (see server.py): load the file under a private name, leaving sys.path alone.
    private = f"_autogen_classic_local_{name}"
    if private not in sys.modules:
        spec = importlib.util.spec_from_file_location(private, Path(__file__).with_name(f"{name}.py"))
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[private] = module
        spec.loader.exec_module(module)
    return sys.modules[private]


_chat_request = _sibling("chat_request")


# ------------------------------------------------------------------------------------- the conversation
def _text(content: Any) -> str:
    """The text of a message's content: a string, None or a list of parts (as ``chat_request`` renders them)."""
    if content is None or isinstance(content, (str, list)):
        return str(_chat_request.content_text(content))
    return str(content)


def _call_text(name: str, arguments: Any) -> str:
    return f"{_CALL_MARK.format(name=name)}\n{_text(arguments) or '{}'}"


def _plain_messages(messages: list[dict[str, Any]], marks: bool) -> list[dict[str, str]]:
    """The conversation as system/user/assistant messages of text the chat template can show.

    Calls become ``functions.<name>:`` lines of the assistant, results user messages "Result of
    <name>: ...". ``marks``: put ``message:`` before the assistant's text answers too (the notation
    the model is asked to answer in when tools are offered).
    """
    names: dict[str, str] = {}  # tool_call_id -> function name, to label the results
    plain: list[dict[str, str]] = []
    for message in messages:
        role = message.get("role", "user")
        content = _text(message.get("content"))
        if role == "assistant":
            calls = list(message.get("tool_calls") or [])
            if message.get("function_call"):
                calls.append({"function": message["function_call"]})
            if calls and content == "None":
                content = ""  # a forwarded call's null content arrives as the text "None" (as in classic AutoGen)
            parts = [f"{_TEXT_MARK}\n{content}" if marks else content] if content else []
            for call in calls:
                function = call.get("function") or {}
                names[str(call.get("id", ""))] = str(function.get("name", ""))
                parts.append(_call_text(str(function.get("name", "")), function.get("arguments")))
            plain.append({"role": "assistant", "content": "\n".join(parts)})
        elif role in ("tool", "function"):
            name = message.get("name") or names.get(str(message.get("tool_call_id", "")), "the function")
            plain.append({"role": "user", "content": f"Result of {name}: {content}"})
        else:
            plain.append({"role": "system" if role in ("system", "developer") else "user", "content": content})
    return plain


def _tool_section(functions: list[dict[str, Any]], required: bool) -> str:
    # Each function is listed in the notation of a call, followed by its parameters: on a labeled set
    # this 135M model chose no better with descriptions or "name(arg: type): description" lines, and a
    # little worse (bench/bench_local_tools.py; the numbers are in the docs).
    lines = ["You can call these functions (each name is followed by the JSON schema of its arguments):", ""]
    for function in functions:
        lines += [_CALL_MARK.format(name=function["name"]), json.dumps(function.get("parameters") or {})]
    lines += ["", "Reply with either a message or a function call."]
    if not required:
        lines.append(f"For a message, write {_TEXT_MARK} and the message on the next line.")
    lines.append("For a function call, write functions.<name>: and its arguments as JSON on the next line.")
    return "\n".join(lines)


def _chatml(messages: list[dict[str, str]]) -> str:
    turns = "".join(f"<|im_start|>{m['role']}\n{m['content']}{_END}\n" for m in messages)
    return turns + "<|im_start|>assistant\n"


def _tool_prompt(messages: list[dict[str, Any]], functions: list[dict[str, Any]], required: bool) -> str:
    plain = _plain_messages(messages, marks=True)
    section = _tool_section(functions, required)
    # The tools go after the agent's own instructions, so requests of one agent share a cached prefix.
    if plain and plain[0]["role"] == "system":
        plain[0] = {"role": "system", "content": f"{plain[0]['content']}\n\n{section}".lstrip()}
    else:
        plain.insert(0, {"role": "system", "content": f"{_DEFAULT_SYSTEM}\n\n{section}"})
    return _chatml(plain)


# ------------------------------------------------------------------------------------------- generation
def _literal(text: str) -> str:
    return json.dumps(text)  # a JSON string is a valid GBNF literal for the characters of names


def _bounded(schema: Any) -> Any:
    """A copy of a JSON schema in which unbounded strings and arrays get a maximum length."""
    if isinstance(schema, list):
        return [_bounded(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    bounded = {key: _bounded(value) for key, value in schema.items()}
    if isinstance(schema.get("properties"), dict):  # its keys are parameter names, not schema keywords
        bounded["properties"] = {name: _bounded(value) for name, value in schema["properties"].items()}
    free = not any(key in schema for key in ("enum", "const", "pattern", "format"))
    if schema.get("type") == "string" and free and "maxLength" not in schema:
        bounded["maxLength"] = max(_MAX_STRING, int(schema.get("minLength", 0)))
    if schema.get("type") == "array" and "maxItems" not in schema:
        bounded["maxItems"] = max(_MAX_ITEMS, int(schema.get("minItems", 0)))
    return bounded


def _arguments_grammar(function: dict[str, Any]) -> llama_cpp.LlamaGrammar:
    schema = _bounded(function.get("parameters") or {"type": "object", "properties": {}})
    try:
        return llama_grammar.LlamaGrammar.from_json_schema(json.dumps(schema), verbose=False)
    except Exception:  # a schema the converter does not handle: any JSON object still parses
        return llama_grammar.LlamaGrammar.from_string(llama_grammar.JSON_GBNF, verbose=False)


def _complete(llama: llama_cpp.Llama, prompt: str, sampling: dict[str, Any], **options: Any) -> dict[str, Any]:
    # special=True: the chat markers in the prompt are the model's control tokens, not text.
    tokens = llama.tokenize(prompt.encode("utf-8"), add_bos=False, special=True)
    return llama.create_completion(tokens, stream=False, **sampling, **options)  # type: ignore[return-value]


def _choose(
    llama: llama_cpp.Llama, prompt: str, names: list[str], text: bool, sampling: dict[str, Any]
) -> tuple[str | None, dict[str, Any]]:
    """Let the model pick a function (its name) or, when ``text``, a text answer (None)."""
    marks = {_CALL_MARK.format(name=name): name for name in names}
    options = list(marks) + ([_TEXT_MARK] if text else [])
    grammar = llama_grammar.LlamaGrammar.from_string("root ::= " + " | ".join(map(_literal, options)), verbose=False)
    longest = max(len(llama.tokenize(option.encode("utf-8"), add_bos=False)) for option in options)
    completion = _complete(llama, prompt, sampling, grammar=grammar, max_tokens=longest + 4, stop=[_END])
    return marks.get(completion["choices"][0]["text"].strip()), completion


def _usage(*completions: dict[str, Any]) -> dict[str, int]:
    # The steps share the conversation (evaluated once, then reused from the cache): count it once.
    prompt = max(int(c["usage"]["prompt_tokens"]) for c in completions)
    generated = sum(int(c["usage"]["completion_tokens"]) for c in completions)
    return {"prompt_tokens": prompt, "completion_tokens": generated, "total_tokens": prompt + generated}


def _response(
    first: dict[str, Any], message: dict[str, Any], finish_reason: str, usage: dict[str, int]
) -> dict[str, Any]:
    return {
        "id": "chat" + str(first["id"]),
        "object": "chat.completion",
        "created": int(first.get("created") or time.time()),
        "model": first["model"],
        "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": finish_reason}],
        "usage": usage,
    }


def _as_chunks(response: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """A finished call as the chunks of a stream: the role, the whole call, the finish reason."""
    choice = response["choices"][0]
    message = choice["message"]
    head = {key: response[key] for key in ("id", "created", "model")}
    delta: dict[str, Any] = {}
    if message.get("tool_calls"):
        delta["tool_calls"] = [{"index": i, **call} for i, call in enumerate(message["tool_calls"])]
    if message.get("function_call"):
        delta["function_call"] = message["function_call"]
    for part, finish in (({"role": "assistant"}, None), (delta, None), ({}, choice["finish_reason"])):
        choices = [{"index": 0, "delta": part, "logprobs": None, "finish_reason": finish}]
        yield {**head, "object": "chat.completion.chunk", "choices": choices}


def _template_handler(llama: llama_cpp.Llama) -> Any:
    """The handler of the model's own chat template (what the server uses without a chat format)."""
    cached = _template_handlers.get(id(llama))
    if cached is not None and cached[0] is llama:
        return cached[1]
    template = llama.metadata.get("tokenizer.chat_template")
    if template:

        def token(token_id: int) -> str:
            return llama.detokenize([token_id], special=True).decode("utf-8", errors="ignore") if token_id >= 0 else ""

        formatter = llama_chat_format.Jinja2ChatFormatter(
            template=template, eos_token=token(llama.token_eos()), bos_token=token(llama.token_bos()),
            stop_token_ids=[llama.token_eos()],
        )  # fmt: skip
        handler = formatter.to_chat_handler()
    else:
        handler = llama_chat_format.get_chat_completion_handler("chatml")
    _template_handlers[id(llama)] = (llama, handler)
    return handler


def _plain_answer(
    llama: llama_cpp.Llama,
    messages: list[dict[str, Any]],
    stream: bool,
    stop: str | list[str] | None,
    max_tokens: int | None,
    response_format: dict[str, Any] | None,
    params: dict[str, Any],
) -> Any:
    """The answer of the model's own chat template to the conversation, tools left out."""
    handler = _template_handler(llama)
    plain = _plain_messages(messages, marks=False)
    return handler(llama=llama, messages=plain, stream=stream, stop=stop or [], max_tokens=max_tokens,
                   response_format=response_format, **params)  # fmt: skip


# -------------------------------------------------------------------------------------------- the handler
def handle_chat_completion(
    *,
    llama: llama_cpp.Llama,
    messages: list[dict[str, Any]],
    functions: list[dict[str, Any]] | None = None,
    function_call: Any = None,
    tools: list[dict[str, Any]] | None = None,
    tool_choice: Any = None,
    stream: bool = False,
    stop: str | list[str] | None = None,
    max_tokens: int | None = None,
    response_format: dict[str, Any] | None = None,
    **params: Any,
) -> Any:
    """Answer one chat completion request (the llama.cpp chat handler signature)."""
    legacy = bool(functions) and not tools
    if legacy:
        tools = [{"type": "function", "function": function} for function in functions or []]
        if function_call is not None:
            tool_choice = function_call if isinstance(function_call, str) else {"function": function_call}
    offered = [tool["function"] for tool in tools or [] if tool.get("type", "function") == "function"
               and tool.get("function")]  # fmt: skip
    if not offered or tool_choice == "none":
        return _plain_answer(llama, messages, stream, stop, max_tokens, response_format, params)

    sampling = {key: params[key] for key in _SAMPLING if params.get(key) is not None}
    names = [str(function["name"]) for function in offered]
    forced = tool_choice.get("function", {}).get("name") if isinstance(tool_choice, dict) else None
    if forced is not None and forced not in names:
        raise ValueError(
            f"tool_choice names the function {forced!r}, which is not among the tools ({', '.join(names)})."
        )
    prompt = _tool_prompt(messages, offered, required=tool_choice == "required" or forced is not None)
    steps: list[dict[str, Any]] = []
    name = forced
    if name is None:
        name, decision = _choose(llama, prompt, names, text=tool_choice != "required", sampling=sampling)
        steps.append(decision)

    if name is None:  # a text answer, written as if no tools were offered: the notation confuses the model
        answer = _plain_answer(llama, messages, stream, stop, max_tokens, response_format, params)
        if not stream:
            answer["usage"] = _usage(*steps, answer)
        return answer
    function = offered[names.index(name)]
    completion = _complete(
        llama, f"{prompt}{_CALL_MARK.format(name=name)}\n", sampling, stop=[_END],
        max_tokens=max_tokens or _ARGUMENTS_MAX_TOKENS, grammar=_arguments_grammar(function),
    )  # fmt: skip
    steps.append(completion)
    arguments, finish = completion["choices"][0]["text"].strip(), "tool_calls"
    try:
        # strict=False: llama.cpp's JSON grammar lets raw newlines into strings; dumps escapes them.
        arguments = json.dumps(json.loads(arguments, strict=False), ensure_ascii=False)
    except ValueError:  # cut short by max_tokens
        finish = "length"
    call = {"name": name, "arguments": arguments}
    message: dict[str, Any]
    if legacy:
        message = {"role": "assistant", "content": None, "function_call": call}
        finish = "function_call" if finish != "length" else finish
    else:
        tool_call = {"id": f"call_{uuid.uuid4().hex[:24]}", "type": "function", "function": call}
        message = {"role": "assistant", "content": None, "tool_calls": [tool_call]}
    response = _response(steps[0], message, finish, _usage(*steps))
    return _as_chunks(response) if stream else response


def register() -> None:
    """Register the handler with llama.cpp under ``CHAT_FORMAT`` (a second call replaces it)."""
    llama_chat_format.LlamaChatCompletionHandlerRegistry().register_chat_completion_handler(
        CHAT_FORMAT, handle_chat_completion, overwrite=True  # type: ignore[arg-type]  # plain dicts for TypedDicts
    )


# ------------------------------------------------------------------------------------------- the server
def main(argv: list[str]) -> None:
    """Register the handler, then run llama.cpp's server with ``argv`` (its command-line arguments), with
    chat requests put through ``chat_request.accept_request`` whatever its ``--chat_format``."""
    register()
    import llama_cpp.server.app as server_app

    build = server_app.create_app

    def create_app(*args: Any, **kwargs: Any) -> Any:
        return _chat_request.ChatRequestMiddleware(build(*args, **kwargs))

    # Replaced before the server's __main__ imports the name.
    server_app.create_app = create_app  # type: ignore[assignment]
    from llama_cpp.server.__main__ import main as serve

    sys.argv = [sys.argv[0], *argv]
    serve()


if __name__ == "__main__":
    main(sys.argv[1:])
