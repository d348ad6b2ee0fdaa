"""llm_config validation and config_list helpers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from autogen_classic.oai import (
    OpenAIWrapper,
    config_list_from_json,
    config_list_from_models,
    config_list_openai_aoai,
    filter_config,
    get_config_list,
    validate_llm_config,
)

SECRET = "sk-test-SECRET-abcdefghijklmnop"


@pytest.fixture(autouse=True)
def _no_ambient_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (
        "OPENAI_API_KEY",
        "OPENAI_API_BASE",
        "AZURE_OPENAI_API_KEY",
        "AZURE_OPENAI_API_BASE",
        "OPENAI_API_VERSION",
    ):
        monkeypatch.delenv(name, raising=False)


# ----------------------------------------------------------------------------- validation
@pytest.mark.parametrize(
    "llm_config, fragments",
    [
        ({"config_list": "gpt-4"}, ["config_list: must be a list of dicts (got str)"]),
        ({"config_list": ["gpt-4"]}, ["config_list[0]: must be a dict (got str)"]),
        ({"config_list": [{"model": "m"}], "temperature": "hot"}, ["temperature:", "valid number", "got str 'hot'"]),
        ({"config_list": [{"model": "m", "timeout": 0}]}, ["config_list[0].timeout: must be > 0 seconds", "e.g. 60"]),
        ({"config_list": [{"model": "m", "max_retries": -1}]}, ["config_list[0].max_retries: must be >= 0"]),
        ({"config_list": [{"model": "m", "price": [0.01]}]}, ["config_list[0].price: must hold exactly two prices"]),
        ({"config_list": [{"model": "m", "price": "cheap"}]}, ["config_list[0].price", "[prompt_price_per_1k_tokens"]),
        ({"config_list": [{"model": "m", "base_url": "localhost:8000"}]}, ["base_url: must start with http://"]),
        ({"config_list": [{"model": "m"}], "tools": {"name": "f"}}, ["tools", "list of tool dicts"]),
        ({"config_list": [{"model": "m"}], "response_format": {"type": "xml"}}, ["response_format", "json_schema"]),
        ({"config_list": [{"model": "m"}], "stream": "yes"}, ["stream", "True or False"]),
    ],
)
def test_invalid_llm_config_names_key_and_fix(llm_config: dict[str, Any], fragments: list[str]) -> None:
    with pytest.raises(ValueError) as info:
        validate_llm_config(llm_config)
    for fragment in fragments:
        assert fragment in str(info.value)
    # the wrapper validates the same way
    with pytest.raises(ValueError) as info2:
        OpenAIWrapper(**llm_config)
    assert str(info2.value) == str(info.value)


def test_validation_errors_never_show_secret_values() -> None:
    for bad in ({"model": "m", "api_key": 12345678901234}, {"model": "m", "api_key": SECRET, "temperature": "x"}):
        with pytest.raises(ValueError) as info:
            validate_llm_config({"config_list": [bad]})
        assert SECRET not in str(info.value) and "12345678901234" not in str(info.value)
    with pytest.raises(ValueError) as info:
        validate_llm_config({"config_list": [{"model": "m", "api_key": 1234567890123}]})
    assert "config_list[0].api_key" in str(info.value) and "value hidden" in str(info.value)


def test_llm_config_must_be_a_dict() -> None:
    with pytest.raises(TypeError, match="llm_config must be a dict"):
        validate_llm_config(["gpt-4"])  # type: ignore[arg-type]


def test_valid_config_is_returned_as_copies_with_unknown_keys_kept() -> None:
    entry = {"model": "m", "api_key": SECRET, "price": (0.1, 0.2), "tags": ["a"], "custom_param": 3}
    config = {"config_list": [entry], "cache_seed": None, "temperature": 0.5, "frequency_penalty": 1}
    out = validate_llm_config(config)
    assert out == {"config_list": [entry], "cache_seed": None, "temperature": 0.5, "frequency_penalty": 1}
    assert out["config_list"][0] is not entry
    assert validate_llm_config({"model": "gpt-4o", "api_key": SECRET}) == {"model": "gpt-4o", "api_key": SECRET}


def test_model_may_come_from_the_top_level() -> None:
    out = validate_llm_config({"model": "gpt-4o", "config_list": [{"api_key": SECRET}]})
    assert out["config_list"] == [{"api_key": SECRET}]


def test_openai_entry_without_any_key_is_rejected_but_local_server_is_not() -> None:
    with pytest.raises(ValueError, match="no 'api_key' for the OpenAI endpoint.*OPENAI_API_KEY"):
        OpenAIWrapper(config_list=[{"model": "gpt-4o"}])
    client = OpenAIWrapper(config_list=[{"model": "llama3", "base_url": "http://localhost:11434/v1"}])
    assert "llama3 at http://localhost:11434/v1" in repr(client)


def test_azure_entry_needs_endpoint_and_version() -> None:
    with pytest.raises(ValueError, match="needs 'base_url'"):
        OpenAIWrapper(
            config_list=[{"model": "gpt-4", "api_type": "azure", "api_key": SECRET, "api_version": "2024-02-01"}]
        )
    with pytest.raises(ValueError, match="needs 'api_version'"):
        OpenAIWrapper(
            config_list=[
                {"model": "gpt-4", "api_type": "azure", "api_key": SECRET, "base_url": "https://x.openai.azure.com"}
            ]
        )
    client = OpenAIWrapper(
        config_list=[
            {
                "model": "gpt-4",
                "api_type": "azure",
                "api_key": SECRET,
                "base_url": "https://x.openai.azure.com",
                "api_version": "2024-02-01",
            }
        ]
    )
    assert "gpt-4 at https://x.openai.azure.com (azure)" in repr(client)
    assert SECRET not in repr(client)


# ----------------------------------------------------------------------------- config lists
def test_get_config_list() -> None:
    assert get_config_list(["k1", " ", "k2"], api_type="azure", api_version="2024-02-01") == [
        {"api_key": "k1", "api_type": "azure", "api_version": "2024-02-01"},
        {"api_key": "k2", "api_type": "azure", "api_version": "2024-02-01"},
    ]
    assert get_config_list(["k1"], base_urls=["http://a/v1"]) == [{"api_key": "k1", "base_url": "http://a/v1"}]
    with pytest.raises(ValueError, match="The length of api_keys must match the length of base_urls"):
        get_config_list(["k1", "k2"], base_urls=["http://a"])
    with pytest.raises(TypeError, match="api_keys must be a list"):
        get_config_list("k1")  # type: ignore[arg-type]


CONFIGS = [
    {"model": "gpt-4o", "api_key": "a", "tags": ["fast", "cloud"]},
    {"model": "gpt-4", "api_key": "b", "api_type": "azure"},
    {"model": "llama3", "base_url": "http://localhost:11434/v1", "tags": ["local"]},
]


def test_filter_config() -> None:
    assert filter_config(CONFIGS, {"model": ["gpt-4o", "llama3"]}) == [CONFIGS[0], CONFIGS[2]]
    assert filter_config(CONFIGS, {"tags": ["local"]}) == [CONFIGS[2]]
    assert filter_config(CONFIGS, {"api_type": ["azure"]}) == [CONFIGS[1]]
    # As in the classic package, a config without the key matches no value, None included
    assert filter_config(CONFIGS, {"api_type": [None]}) == []
    assert filter_config(CONFIGS, {"model": {"gpt-4"}, "api_type": ["azure"]}) == [CONFIGS[1]]
    assert filter_config(CONFIGS, {"model": ["gpt-4"]}, exclude=True) == [CONFIGS[0], CONFIGS[2]]
    assert filter_config(CONFIGS, None) is CONFIGS
    assert filter_config(CONFIGS, {"model": "gpt-4"}) == [CONFIGS[1]]  # a single value means that value
    with pytest.raises(TypeError, match=r"filter_dict\['model'\] is None"):
        filter_config(CONFIGS, {"model": None})  # type: ignore[dict-item]


def test_config_list_from_json_env_var_file_and_filter(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_CONFIGS", json.dumps(CONFIGS))
    assert config_list_from_json("MY_CONFIGS", filter_dict={"model": ["gpt-4"]}) == [CONFIGS[1]]
    path = tmp_path / "OAI_CONFIG_LIST"
    path.write_text(json.dumps(CONFIGS[:2]))
    monkeypatch.delenv("OAI_CONFIG_LIST", raising=False)
    assert config_list_from_json(file_location=str(tmp_path)) == CONFIGS[:2]
    monkeypatch.setenv("PATH_TO_CONFIGS", str(path))  # the variable may name a file
    assert config_list_from_json("PATH_TO_CONFIGS") == CONFIGS[:2]


def test_config_list_from_json_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOPE_LIST", raising=False)
    with pytest.raises(FileNotFoundError, match="no environment variable 'NOPE_LIST' and no file"):
        config_list_from_json("NOPE_LIST", file_location=str(tmp_path))
    monkeypatch.setenv("BAD_LIST", '[{"model": "m", "api_key": "' + SECRET + '"')
    with pytest.raises(ValueError, match="environment variable BAD_LIST is not valid JSON") as info:
        config_list_from_json("BAD_LIST")
    assert SECRET not in str(info.value)
    monkeypatch.setenv("OBJ_LIST", '{"model": "m"}')
    with pytest.raises(ValueError, match="must hold a JSON list of objects"):
        config_list_from_json("OBJ_LIST")


def test_config_list_openai_aoai_from_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "k-openai")
    monkeypatch.setenv("AZURE_OPENAI_API_KEY", "k-az1\nk-az2")
    monkeypatch.setenv("AZURE_OPENAI_API_BASE", "https://a.openai.azure.com\nhttps://b.openai.azure.com")
    configs = config_list_openai_aoai(key_file_path=str(tmp_path))
    assert configs == [
        {"api_key": "k-openai"},
        {
            "api_key": "k-az1",
            "base_url": "https://a.openai.azure.com",
            "api_type": "azure",
            "api_version": "2024-02-01",
        },
        {
            "api_key": "k-az2",
            "base_url": "https://b.openai.azure.com",
            "api_type": "azure",
            "api_version": "2024-02-01",
        },
    ]
    assert config_list_openai_aoai(key_file_path=None, exclude="aoai") == [{"api_key": "k-openai"}]
    assert [c["model"] for c in config_list_from_models(key_file_path=None, exclude="aoai", model_list=["a", "b"])] == [
        "a",
        "b",
    ]
    with pytest.raises(ValueError, match="exclude must be None, 'openai' or 'aoai'"):
        config_list_openai_aoai(exclude="azure")


def test_config_list_openai_aoai_prefers_key_files_and_leaves_environment_alone(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "key_openai.txt").write_text("k-file\n")
    (tmp_path / "base_openai.txt").write_text("http://localhost:8000/v1\n")
    configs = config_list_openai_aoai(key_file_path=str(tmp_path), exclude="aoai")
    assert configs == [{"api_key": "k-file", "base_url": "http://localhost:8000/v1"}]
    import os

    assert "OPENAI_API_KEY" not in os.environ


def test_an_entry_found_valid_is_remembered_by_content_and_a_bad_one_is_never() -> None:
    from autogen_classic.oai.configuration import config as config_module

    good = {"model": "gpt-4o-mini", "api_key": "sk-remembered", "max_tokens": 10}
    first = config_module.validate_config_entry(good)
    assert first == good and first is not good
    assert config_module._hashable_entry(good) in config_module._VALID_ENTRIES
    assert config_module.validate_config_entry(dict(good)) == good  # equal content: no new validation needed
    bad = {**good, "max_tokens": "ten"}
    for _ in range(2):  # refused every time, never remembered
        with pytest.raises(ValueError, match="max_tokens"):
            config_module.validate_config_entry(bad)
    assert config_module._hashable_entry(bad) not in config_module._VALID_ENTRIES
    assert config_module._hashable_entry({"model": "m", "default_headers": {"X": "1"}}) is None  # not remembered
