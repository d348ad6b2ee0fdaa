"""GBNF grammars for JSON schemas, written the compact way the embedded model's prompts were tuned on.

llama.cpp's own converter (llguidance) lets the model put any whitespace between JSON tokens; SmolLM2 then
writes ``{\\n  "speaker": ...`` and, in that different context, chooses other speakers than it did under the
grammars of llama-cpp-python, on which the selection prompts were measured (``bench/selection_cases*.json``).
This module writes grammars of that shape: after every token at most one space (``space ::= " "?``), an
object's declared properties in their order (the required ones, then each optional one or not), and no other
properties unless the schema allows them.

It covers the schemas tools and structured selection send: objects, arrays, strings (with ``maxLength``),
numbers, integers, booleans, null, ``enum`` and ``const``, and ``type`` lists. For anything else (``$ref``,
``anyOf``, ``pattern``, ...) ``gbnf`` returns None and the caller falls back to llama.cpp's converter.
Standard library only: it runs in the server's process.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["gbnf"]

_SPACE = 'space ::= " "?'
_CHAR = r'char ::= [^"\\\x7F\x00-\x1F] | "\\" (["\\/bfnrt] | "u" [0-9a-fA-F]{4})'
_PRIMITIVES = {
    "boolean": '("true" | "false") space',
    "null": '"null" space',
    "integer": '("-"? ([0-9] | [1-9] [0-9]{0,15})) space',
    "number": '("-"? ([0-9] | [1-9] [0-9]{0,15})) ("." [0-9]+)? ([eE] [-+]? [0-9]{1,15})? space',
}
_HANDLED = {"type", "properties", "required", "additionalProperties", "items", "enum", "const", "maxLength",
            "minLength", "maxItems", "minItems", "title", "description", "default", "examples", "format", "$schema",
            "strict"}  # fmt: skip


class _Unsupported(Exception):
    pass


def _literal(value: Any) -> str:
    return json.dumps(json.dumps(value, ensure_ascii=False), ensure_ascii=False)


class _Writer:
    def __init__(self) -> None:
        self.rules: dict[str, str] = {}

    def rule(self, name: str, body: str) -> str:
        key = name
        number = 1
        while key in self.rules and self.rules[key] != body:
            number += 1
            key = f"{name}{number}"
        self.rules[key] = body
        return key

    def value(self, schema: Any, name: str) -> str:
        if schema is True or schema == {}:
            return self.any_json()
        if not isinstance(schema, dict) or set(schema) - _HANDLED:
            raise _Unsupported
        if "const" in schema:
            return self.rule(name, f"{_literal(schema['const'])} space")
        if "enum" in schema:
            if not schema["enum"]:
                raise _Unsupported
            return self.rule(name, "(" + " | ".join(_literal(v) for v in schema["enum"]) + ") space")
        kind = schema.get("type")
        if isinstance(kind, list):
            return self.rule(name, " | ".join(self.value({**schema, "type": k}, f"{name}-{k}") for k in kind))
        if kind == "object" or (kind is None and "properties" in schema):
            return self.object(schema, name)
        if kind == "array":
            return self.array(schema, name)
        if kind == "string":
            if schema.get("format"):
                raise _Unsupported
            low, high = int(schema.get("minLength", 0)), schema.get("maxLength")
            repeat = "*" if high is None and low == 0 else f"{{{low},{'' if high is None else int(high)}}}"
            self.rules["char"] = _CHAR.split(" ::= ", 1)[1]
            return self.rule(name, f'"\\"" char{repeat} "\\"" space')
        if kind in _PRIMITIVES:
            return self.rule(kind, _PRIMITIVES[kind])
        if kind is None:
            return self.any_json()
        raise _Unsupported

    def object(self, schema: dict[str, Any], name: str) -> str:
        properties = schema.get("properties") or {}
        if not isinstance(properties, dict):
            raise _Unsupported
        extra = schema.get("additionalProperties", False if properties else True)
        if extra is not False:
            if properties:
                raise _Unsupported  # declared properties plus free ones: left to llama.cpp
            return self.rule(name, self.any_object())
        required = [key for key in properties if key in (schema.get("required") or [])]
        optional = [key for key in properties if key not in required]
        if not required and len(optional) > 1:
            raise _Unsupported  # which comma goes where would need a rule per subset: left to llama.cpp
        pairs = {key: f'{_literal(key)} space ":" space {self.value(properties[key], f"{name}-{_safe(key)}")}'
                 for key in properties}  # fmt: skip
        body = ' "," space '.join(pairs[key] for key in required)
        for key in optional:
            body = f'{body} ("," space {pairs[key]})?' if body else f"({pairs[key]})?"
        return self.rule(name, f'"{{" space {body} "}}" space' if body else '"{" space "}" space')

    def array(self, schema: dict[str, Any], name: str) -> str:
        item = self.value(schema.get("items", {}), f"{name}-item")
        low, high = int(schema.get("minItems", 0)), schema.get("maxItems")
        if low == 0 and high is None:
            return self.rule(name, f'"[" space ({item} ("," space {item})*)? "]" space')
        if high is not None and int(high) == 0:
            return self.rule(name, '"[" space "]" space')
        rest_low, rest_high = max(low - 1, 0), None if high is None else int(high) - 1
        rest = f'("," space {item}){{{rest_low},{"" if rest_high is None else rest_high}}}'
        body = f"{item} {rest}"
        return self.rule(name, f'"[" space {body if low else f"({body})?"} "]" space')

    def any_json(self) -> str:
        self.rules["json-value"] = (
            '(json-object | json-array | "\\"" char* "\\"" | ("-"? [0-9]+ ("." [0-9]+)?) | "true" | "false" | "null") space'
        )
        self.rules["json-object"] = '"{" space ("\\"" char* "\\"" space ":" space json-value ("," space "\\"" char* "\\"" space ":" space json-value)*)? "}"'
        self.rules["json-array"] = '"[" space (json-value ("," space json-value)*)? "]"'
        self.rules["char"] = _CHAR.split(" ::= ", 1)[1]
        return "json-value"

    def any_object(self) -> str:
        self.any_json()
        return "json-object space"


def _safe(key: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in key) or "p"


def gbnf(schema: Any) -> str | None:
    """The GBNF grammar of the JSON documents ``schema`` allows, written compactly; None when it uses what
    this writer does not cover (the caller then leaves the schema to llama.cpp)."""
    writer = _Writer()
    try:
        root = writer.value(schema, "root-value")
    except (_Unsupported, TypeError, ValueError):
        return None
    rules = [f"root ::= {root}", _SPACE] + [f"{name} ::= {body}" for name, body in writer.rules.items()]
    return "\n".join(rules) + "\n"
