"""The compact JSON grammars of the embedded server (``local/json_grammar.py``), checked on the real engine.

Each grammar is handed to llama.cpp as the embedded server hands it, with prompts that push the model to
write more than the schema allows; what comes back must parse and match the schema, written with at most
one space between tokens.
"""

from __future__ import annotations

import json
import re
from typing import Any

import openai
import pytest

from autogen_classic import local
from autogen_classic.local import json_grammar, tool_calls


def test_schemas_beyond_the_writer_are_left_to_llama_cpp() -> None:
    assert json_grammar.gbnf({"anyOf": [{"type": "string"}, {"type": "integer"}]}) is None
    assert json_grammar.gbnf({"$ref": "#/$defs/x"}) is None
    assert json_grammar.gbnf({"type": "string", "pattern": "^a+$"}) is None
    # Several optional properties and none required: which comma goes where is llama.cpp's business.
    assert json_grammar.gbnf({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
                              "additionalProperties": False}) is None  # fmt: skip
    grammar = tool_calls.schema_grammar({"anyOf": [{"type": "string"}, {"type": "integer"}]})
    assert grammar.startswith("%llguidance {}\nstart: %json ")
    assert json.loads(grammar.split("%json ", 1)[1])["x-guidance"] == {"whitespace_pattern": " ?"}


def test_a_selection_schema_becomes_one_rule_per_value() -> None:
    schema = {"type": "object", "properties": {"speaker": {"type": "string", "enum": ["coder", "critic"]}},
              "required": ["speaker"]}  # fmt: skip
    grammar = tool_calls.schema_grammar(schema)
    assert 'space ::= " "?' in grammar.splitlines()
    assert 'root-value-speaker ::= ("\\"coder\\"" | "\\"critic\\"") space' in grammar.splitlines()
    assert 'root-value ::= "{" space "\\"speaker\\"" space ":" space root-value-speaker "}" space' in grammar


SCHEMAS: list[dict[str, Any]] = [
    {"type": "object", "properties": {"speaker": {"type": "string", "enum": ["coder", "critic", "planner"]}},
     "required": ["speaker"]},
    {"type": "object", "properties": {"order_id": {"type": "string", "maxLength": 12}, "count": {"type": "integer"},
                                      "express": {"type": "boolean"}}, "required": ["order_id", "count"]},
    {"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "string", "maxLength": 10},
                                               "minItems": 1, "maxItems": 3},
                                      "note": {"type": ["string", "null"], "maxLength": 20}}, "required": ["tags"]},
    {"type": "object", "properties": {"price": {"type": "number"}, "kind": {"const": "quote"}},
     "required": ["kind", "price"]},
]  # fmt: skip


def _matches(value: Any, schema: dict[str, Any]) -> bool:
    import jsonschema

    try:
        jsonschema.validate(value, schema)
        return True
    except jsonschema.ValidationError:
        return False


@pytest.mark.parametrize("schema", SCHEMAS, ids=["enum", "scalars", "array-and-null", "number-and-const"])
def test_the_engine_writes_json_the_schema_allows(embedded_server: local.EmbeddedServer, schema: dict[str, Any]) -> None:
    client = openai.OpenAI(base_url=embedded_server.base_url, api_key="not-needed", max_retries=0, timeout=120)
    prompt = "Answer in JSON with many extra fields, comments and long explanations: who reviews the order 12345?"
    response = client.chat.completions.create(
        model=local.MODEL_NAME, temperature=0, max_tokens=120,
        messages=[{"role": "user", "content": prompt}],
        response_format={"type": "json_object", "schema": schema},  # type: ignore[typeddict-unknown-key]
    )  # fmt: skip
    text = response.choices[0].message.content or ""
    value = json.loads(text)
    assert _matches({**value}, {**schema, "additionalProperties": False}), text
    assert not re.search(r"\s\s|\n", text), text  # compact: never two blanks in a row, never a newline

