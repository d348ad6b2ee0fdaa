"""Tool calls on the embedded model: what the engine does not do, done in the server's process.

llama.cpp answers a chat request through the model's chat template; given ``tools``, SmolLM2's template
only describes them and the model answers in text. This module answers a request with tools (or legacy
``functions``) in up to three steps, each a completion of the engine under a grammar:

1. **call or text** (``tool_choice`` unset or ``"auto"``, what agents send): the offered functions are listed
   at the end of the system message (``functions.<name>:`` and the JSON schema of the arguments), and a grammar
   lets the model write one of ``functions.<name>:`` or ``message:``. A text answer is then written by the
   model's own template, as if no tools were offered (the notation confuses the model);
2. **which function** (several offered, none named by ``tool_choice``): each function is scored by how likely
   the model finds the conversation's last request after "The following message is about <the function's
   description>." and after "Topic: <the description>" (``choice_prompts``); the function whose description
   best explains the request wins. A 135M model reads a request far better this way than by naming a function
   after a list: on the 20 routing requests of ``notebooks/07_group_patterns.ipynb`` it routes 16 right instead
   of 8 (``bench/bench_embedded_model.py``);
3. **arguments**: a grammar made from the function's JSON schema writes them, so they parse (strings and
   lists the schema leaves unbounded are capped at 200 characters and 20 items, and an object takes only the
   properties it declares unless its schema says otherwise).

Earlier calls in the conversation are shown in the same notation, tool results as messages "Result of
<name>: ...". One call is made per answer; legacy ``functions`` requests get a ``function_call``.

The module runs in the server's process with only the standard library: ``answer_chat`` takes the engine
(``engine.Engine``) as an argument.
"""

from __future__ import annotations

import json
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["CHAT_FORMAT", "MODEL_TEMPLATE", "ChoiceError", "answer_chat", "choice_prompts", "schema_grammar"]

CHAT_FORMAT = "autogen-classic-tools"
"""Tool calls as described above (the server's default)."""
MODEL_TEMPLATE = "chat_template.default"
"""The model's own template alone: requests with tools get text answers."""

_END = "<|im_end|>"
_TEXT_MARK = "message:"
_CALL_MARK = "functions.{name}:"
_DEFAULT_SYSTEM = "You are a helpful AI assistant."
_ARGUMENTS_MAX_TOKENS = 512  # when the request sets no max_tokens
_CHOICE_MAX_TOKENS = 64  # longer than any "functions.<name>:" mark; the grammar ends it
# A string or list the schema leaves unbounded gets these bounds, so a model stuck repeating itself (this
# one fills an order number it was not given with digits) still closes its JSON.
_MAX_STRING = 200
_MAX_ITEMS = 20
_REQUEST_CHARS = 600  # the end of the last request that the functions are scored on
# Sampling settings a request may set, passed on to every completion made for it.
_SAMPLING = (
    "temperature", "top_p", "top_k", "min_p", "typical_p", "seed", "presence_penalty", "frequency_penalty",
    "repeat_penalty", "mirostat", "mirostat_tau", "mirostat_eta", "logit_bias",
)  # fmt: skip
# What a plain chat answer passes on to the engine, beside the messages.
_CHAT_KEYS = (*_SAMPLING, "max_tokens", "max_completion_tokens", "stop", "response_format", "n", "logprobs",
              "top_logprobs", "stream_options", "grammar", "json_schema")  # fmt: skip

Engine = Any  # engine.Engine: chat(request, on_chunk) and complete(request)


if __package__:
    from . import json_grammar as _json_grammar
else:  # started by path in the server's process, which loads its siblings first (server_process.py)
    _json_grammar = sys.modules["_autogen_classic_local_json_grammar"]
Emit = Callable[[dict[str, Any]], Any]


class ChoiceError(ValueError):
    """A request whose ``tool_choice`` cannot be met (answered 400, naming the field)."""

    param = "tool_choice"


# ------------------------------------------------------------------------------------- the conversation
def _text(content: Any, content_text: Callable[[Any], str]) -> str:
    if content is None or isinstance(content, (str, list)):
        return content_text(content)
    return str(content)


def _call_text(name: str, arguments: Any) -> str:
    text = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return f"{_CALL_MARK.format(name=name)}\n{text or '{}'}"


def plain_messages(messages: list[dict[str, Any]], marks: bool, content_text: Callable[[Any], str]) -> list[dict[str, str]]:
    """The conversation as system/user/assistant messages of text the chat template can show.

    Calls become ``functions.<name>:`` lines of the assistant, results user messages "Result of
    <name>: ...". ``marks``: put ``message:`` before the assistant's text answers too (the notation the
    model is asked to answer in when tools are offered).
    """
    names: dict[str, str] = {}  # tool_call_id -> function name, to label the results
    plain: list[dict[str, str]] = []
    for message in messages:
        role = message.get("role", "user")
        content = _text(message.get("content"), content_text)
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


def _tool_prompt(plain: list[dict[str, str]], functions: list[dict[str, Any]], required: bool) -> str:
    section = _tool_section(functions, required)
    plain = list(plain)
    # The tools go after the agent's own instructions, so requests of one agent share a cached prefix.
    if plain and plain[0]["role"] == "system":
        plain[0] = {"role": "system", "content": f"{plain[0]['content']}\n\n{section}".lstrip()}
    else:
        plain.insert(0, {"role": "system", "content": f"{_DEFAULT_SYSTEM}\n\n{section}"})
    return _chatml(plain)


def _last_request(plain: list[dict[str, str]]) -> str:
    """The text the functions are scored on: the last message not written by the assistant or the system."""
    for message in reversed(plain):
        if message["role"] == "user" and message["content"].strip():
            return message["content"].strip()[-_REQUEST_CHARS:]
    return ""


def choice_prompts(function: dict[str, Any]) -> tuple[str, str]:
    """The two texts a request is scored after, for one function: its description (else its name) as the topic.

    A request's score is the sum of its log-probabilities after both: two phrasings make the ranking depend
    less on the wording of one (on the routing sets of the benchmark, each alone routes 13-14 of 20 right, the
    pair 16).
    """
    about = str(function.get("description") or "").strip() or str(function["name"]).replace("_", " ")
    topic = about.rstrip(".")
    return f"The following message is about {topic[:1].lower()}{topic[1:]}.\n\nMessage: ", f"Topic: {about}\nMessage: "


# ------------------------------------------------------------------------------------------- generation
def _literal(text: str) -> str:
    # A JSON string is a GBNF literal; ensure_ascii=False keeps characters beyond the BMP whole.
    return json.dumps(text, ensure_ascii=False)


def _bounded(schema: Any, caps: bool = True) -> Any:
    """A copy of a JSON schema whose objects take only the properties they declare (unless the schema says
    otherwise) and, with ``caps``, whose unbounded strings and arrays get a maximum length."""
    if isinstance(schema, list):
        return [_bounded(item, caps) for item in schema]
    if not isinstance(schema, dict):
        return schema
    bounded = {key: _bounded(value, caps) for key, value in schema.items()}
    if isinstance(schema.get("properties"), dict):  # its keys are parameter names, not schema keywords
        bounded["properties"] = {name: _bounded(value, caps) for name, value in schema["properties"].items()}
        # The properties declared and no others: llama.cpp would let the model add its own.
        bounded.setdefault("additionalProperties", False)
    if not caps:
        return bounded
    free = not any(key in schema for key in ("enum", "const", "pattern", "format"))
    if schema.get("type") == "string" and free and "maxLength" not in schema:
        bounded["maxLength"] = max(_MAX_STRING, int(schema.get("minLength", 0)))
    if schema.get("type") == "array" and "maxItems" not in schema:
        bounded["maxItems"] = max(_MAX_ITEMS, int(schema.get("minItems", 0)))
    return bounded


def schema_grammar(schema: Any, caps: bool = False) -> str:
    """The grammar (llama.cpp's ``grammar``) of the JSON documents ``schema`` allows, written compactly: at most
    one space between tokens, and objects with the properties they declare only (see ``json_grammar.py``)."""
    return _grammar_of(_bounded(schema if isinstance(schema, dict) else {}, caps))


def _grammar_of(closed: dict[str, Any]) -> str:
    """The compact grammar of a schema already closed (and bounded) by ``_bounded``."""
    compact = _json_grammar.gbnf(closed)
    if compact is not None:
        return str(compact)
    # Beyond what json_grammar writes: llama.cpp's converter, told to put at most one space between tokens.
    options = {"whitespace_pattern": " ?"}
    return "%llguidance {}\nstart: %json " + json.dumps({**closed, "x-guidance": options}, ensure_ascii=False)


def _response_format_grammar(response_format: Any) -> str | None:
    """The grammar for a ``response_format`` carrying a schema (llama.cpp's ``json_object`` + ``schema`` form,
    or OpenAI's ``json_schema``), else None (no format, or any JSON object: left to the engine)."""
    if not isinstance(response_format, dict):
        return None
    schema = response_format.get("schema")
    if response_format.get("type") == "json_schema":
        inner = response_format.get("json_schema")
        schema = inner.get("schema") if isinstance(inner, dict) else None
    return schema_grammar(schema) if isinstance(schema, dict) and schema else None


def _choose(engine: Engine, prompt: str, names: list[str], text: bool, sampling: dict[str, Any]) -> tuple[str | None, dict[str, Any]]:
    """Let the model write a function's mark (returns its name) or, when ``text``, the text mark (None)."""
    marks = {_CALL_MARK.format(name=name): name for name in names}
    options = list(marks) + ([_TEXT_MARK] if text else [])
    grammar = "root ::= " + " | ".join(map(_literal, options))
    completion = engine.complete({"prompt": prompt, **sampling, "grammar": grammar, "max_tokens": _CHOICE_MAX_TOKENS,
                                  "stop": [_END]})  # fmt: skip
    return marks.get(completion["choices"][0]["text"].strip()), completion


def _rank(engine: Engine, request: str, functions: list[dict[str, Any]]) -> tuple[str, list[dict[str, Any]]]:
    """The function under whose description the model finds ``request`` most likely, and the completions."""
    scores: dict[str, float] = {}
    completions = []
    grammar = "root ::= " + _literal(request)
    for function in functions:
        name = str(function["name"])
        scores[name] = 0.0
        for prompt in choice_prompts(function):
            completion = engine.complete({
                "prompt": prompt, "grammar": grammar, "n_probs": 1, "temperature": 0, "max_tokens": len(request) + 8,
            })  # fmt: skip
            tokens = (completion["choices"][0].get("logprobs") or {}).get("content") or []
            scores[name] += sum(float(token.get("logprob", 0.0)) for token in tokens)
            completions.append(completion)
    return max(scores, key=lambda name: scores[name]), completions


def _usage(*completions: dict[str, Any]) -> dict[str, int]:
    # The steps share the conversation (evaluated once, then reused from the cache): count it once.
    prompt = max(int(c["usage"]["prompt_tokens"]) for c in completions)
    generated = sum(int(c["usage"]["completion_tokens"]) for c in completions)
    return {"prompt_tokens": prompt, "completion_tokens": generated, "total_tokens": prompt + generated}


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


def _plain_answer(engine: Engine, request: dict[str, Any], plain: list[dict[str, str]], emit: Emit | None) -> dict[str, Any] | None:
    """The answer of the model's own chat template to the conversation, tools left out."""
    chat = {key: request[key] for key in _CHAT_KEYS if request.get(key) is not None}
    grammar = _response_format_grammar(chat.get("response_format"))
    if grammar is not None:
        del chat["response_format"]
        chat["grammar"] = grammar
    return engine.chat({**chat, "messages": plain}, emit)


# -------------------------------------------------------------------------------------------- the handler
def answer_chat(engine: Engine, request: dict[str, Any], content_text: Callable[[Any], str],
                emit: Emit | None = None, chat_format: str = CHAT_FORMAT) -> dict[str, Any] | None:  # fmt: skip
    """Answer one chat completion request: the response, or None when it was streamed to ``emit``.

    Args:
        engine: the engine of this process.
        request: the OpenAI request body (its messages' content already text, see ``chat_request.py``).
        content_text: renders a message's content as text.
        emit: takes each chunk of a streamed answer (None: not streamed).
        chat_format: ``CHAT_FORMAT`` (tool calls) or ``MODEL_TEMPLATE`` (text answers only).

    Raises:
        ChoiceError: ``tool_choice`` names a function that is not offered.
        engine.EngineError: llama.cpp refused a completion (e.g. a prompt longer than the context).
    """
    messages = request.get("messages") or []
    functions, tools, tool_choice = request.get("functions"), request.get("tools"), request.get("tool_choice")
    legacy = bool(functions) and not tools
    if legacy:
        tools = [{"type": "function", "function": function} for function in functions or []]
        call = request.get("function_call")
        if call is not None:
            tool_choice = call if isinstance(call, str) else {"function": call}
    offered = [tool["function"] for tool in tools or [] if isinstance(tool, dict)
               and tool.get("type", "function") == "function" and tool.get("function")]  # fmt: skip
    if not offered or tool_choice == "none" or chat_format == MODEL_TEMPLATE:
        return _plain_answer(engine, request, plain_messages(messages, False, content_text), emit)

    sampling = {key: request[key] for key in _SAMPLING if request.get(key) is not None}
    names = [str(function["name"]) for function in offered]
    forced = tool_choice.get("function", {}).get("name") if isinstance(tool_choice, dict) else None
    if forced is not None and forced not in names:
        raise ChoiceError(
            f"tool_choice names the function {forced!r}, which is not among the tools ({', '.join(names)})."
        )
    plain = plain_messages(messages, True, content_text)
    prompt = _tool_prompt(plain, offered, required=tool_choice == "required" or forced is not None)
    steps: list[dict[str, Any]] = []
    name = forced
    if name is None and tool_choice != "required":
        name, decision = _choose(engine, prompt, names, text=True, sampling=sampling)
        steps.append(decision)
        if name is None:  # a text answer, written as if no tools were offered
            answer = _plain_answer(engine, request, plain_messages(messages, False, content_text), emit)
            if answer is not None:
                answer["usage"] = _usage(*steps, answer)
            return answer
        name = None  # a call: which one is chosen below, by the descriptions
    if name is None:
        query = _last_request(plain)
        if len(offered) > 1 and query:
            name, ranking = _rank(engine, query, offered)
            steps += ranking
        else:
            name, decision = _choose(engine, prompt, names, text=False, sampling=sampling)
            steps.append(decision)
    assert name is not None
    function = offered[names.index(name)]
    schema = _bounded(function.get("parameters") or {"type": "object", "properties": {}})
    arguments_request = {"prompt": f"{prompt}{_CALL_MARK.format(name=name)}\n", **sampling, "stop": [_END],
                         "max_tokens": request.get("max_tokens") or _ARGUMENTS_MAX_TOKENS}  # fmt: skip
    if _takes_nothing(schema):  # a hand-off's transfer tool: nothing to write, nothing to cut short
        arguments, finish = "{}", "tool_calls"
    else:
        completion = _complete_arguments(engine, arguments_request, schema)
        steps.append(completion)
        arguments, finish = completion["choices"][0]["text"].strip(), "tool_calls"
    try:
        # strict=False: the JSON grammar lets raw newlines into strings; dumps escapes them.
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
    first = steps[0]
    response = {
        "id": f"chatcmpl-{uuid.uuid4().hex[:24]}",
        "object": "chat.completion",
        "created": int(first.get("created") or time.time()),
        "model": first.get("model"),
        "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": finish}],
        "usage": _usage(*steps),
    }
    if emit is None:
        return response
    for chunk in _as_chunks(response):
        emit(chunk)
    return None


def _takes_nothing(schema: Any) -> bool:
    """Whether the only arguments the schema allows are none: an object without properties or others."""
    return (isinstance(schema, dict) and schema.get("type") == "object" and not schema.get("properties")
            and schema.get("additionalProperties") is False)  # fmt: skip


def _complete_arguments(engine: Engine, request: dict[str, Any], schema: Any) -> dict[str, Any]:
    try:
        return dict(engine.complete({**request, "grammar": _grammar_of(schema)}))
    except Exception as error:  # noqa: BLE001 - only llama.cpp's 400 for a schema it cannot turn into a grammar
        if getattr(error, "status", None) != 400:
            raise
        return dict(engine.complete({**request, "grammar": schema_grammar({"type": "object"})}))  # any object parses
