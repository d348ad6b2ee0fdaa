"""The classic paths that re-export the config-list helpers and the typed entries: the same names as before
they re-exported their owners' names wholesale, each the owner's own object."""

from __future__ import annotations

import importlib

import pytest

ENTRIES = [
    "AnthropicLLMConfigEntry", "AnthropicV2LLMConfigEntry", "AzureOpenAILLMConfigEntry", "BedrockLLMConfigEntry",
    "BedrockV2LLMConfigEntry", "CerebrasLLMConfigEntry", "CohereLLMConfigEntry", "DeepSeekLLMConfigEntry",
    "GeminiLLMConfigEntry", "GroqLLMConfigEntry", "MistralLLMConfigEntry", "OllamaLLMConfigEntry",
    "OpenAILLMConfigEntry", "OpenAIResponsesLLMConfigEntry", "OpenAIResponsesV2LLMConfigEntry",
    "OpenAIV2LLMConfigEntry", "TogetherLLMConfigEntry",
]  # fmt: skip
CONFIG_LIST = [
    "DEFAULT_AZURE_API_VERSION", "config_list_from_dotenv", "config_list_from_json", "config_list_from_models",
    "config_list_gpt4_gpt35", "config_list_openai_aoai", "filter_config", "get_config", "get_config_list",
    "get_first_llm_config",
]  # fmt: skip

FACES = {
    "autogen_classic.oai.openai_utils": (
        [*CONFIG_LIST, "NON_CACHE_KEY", "OAI_PRICE1K", "get_key", "is_valid_api_key"],
        "autogen_classic.oai.config_list",
    ),
    "autogen_classic.llm_config.types": ([*ENTRIES, "ConfigEntries"], "autogen_classic.oai.entries.config_entries"),
    "autogen_classic.oai.entries": (
        [
            *ENTRIES, "ConfigEntries", "ENTRY_CLASSES", "entry_class_for", "ApplicationConfig", "ChatCompletionsEntry",
            "HIDDEN", "LLMConfigEntry", "LLMConfigEntryDict", "hide_secrets", "is_hidden_name", "AzureOpenAIEntryDict",
            "DeepSeekEntryDict", "OpenAIEntryDict", "OpenAIResponsesEntryDict", "OpenAIV2EntryDict",
        ],  # fmt: skip
        "autogen_classic.oai.entries.config_entries",
    ),
}


@pytest.mark.parametrize("face", sorted(FACES))
def test_a_face_exports_its_names_no_more_no_fewer(face: str) -> None:
    names, _ = FACES[face]
    module = importlib.import_module(face)
    assert sorted(module.__all__) == sorted(names)
    star: dict[str, object] = {}
    exec(f"from {face} import *", star)
    assert sorted(n for n in star if n != "__builtins__") == sorted(names)


@pytest.mark.parametrize("face", sorted(FACES))
def test_a_face_gives_the_owners_objects(face: str) -> None:
    names, owner_path = FACES[face]
    module, owner = importlib.import_module(face), importlib.import_module(owner_path)
    for name in names:
        if hasattr(owner, name):
            assert getattr(module, name) is getattr(owner, name), name


def test_the_union_and_the_lookup_by_api_type_cover_every_entry() -> None:
    from autogen_classic.oai.entries import ENTRY_CLASSES, ConfigEntries

    assert sorted(entry.__name__ for entry in ConfigEntries.__args__) == ENTRIES
    assert {cls.__name__ for cls in ENTRY_CLASSES.values()} == set(ENTRIES)
