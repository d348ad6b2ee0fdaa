"""The classic experimental tools that work through outside services (web search, crawling, browsing, messaging
platforms). Their names import as in the classic package; building one raises the classic optional-import error
naming the modules (and the extra) it needs.

This package ships none of these services: where every module is installed, building one raises
``NotImplementedError`` instead.
"""

from __future__ import annotations

from typing import Any, Optional, Union

from ...import_utils import require_optional_import
from ...llm_config import LLMConfig
from ..tool import Tool

__all__ = [
    "BrowserUseTool",
    "Crawl4AITool",
    "DeepResearchTool",
    "DiscordRetrieveTool",
    "DiscordSendTool",
    "DuckDuckGoSearchTool",
    "GoogleSearchTool",
    "PerplexitySearchTool",
    "QuickResearchTool",
    "SlackRetrieveRepliesTool",
    "SlackRetrieveTool",
    "SlackSendTool",
    "TavilySearchTool",
    "TelegramRetrieveTool",
    "TelegramSendTool",
    "TinyFishFetchTool",
    "TinyFishSearchTool",
    "TinyFishTool",
    "WikipediaPageLoadTool",
    "WikipediaQueryRunTool",
    "YoutubeSearchTool",
]

_BROWSER_USE = ["langchain_anthropic", "langchain_google_genai", "langchain_ollama", "langchain_openai",
                "langchain_core", "browser_use"]
_ModelConfig = Optional[Union[LLMConfig, dict[str, Any]]]


def _not_served(tool: object) -> None:
    raise NotImplementedError(
        f"{type(tool).__name__} works through an outside service that autogen_classic does not provide."
    )


@require_optional_import(_BROWSER_USE, "browser-use")
class BrowserUseTool(Tool):
    """Performs a task in a web browser."""

    def __init__(self, *, llm_config: _ModelConfig = None, browser: Any = None,
                 agent_kwargs: Optional[dict[str, Any]] = None,
                 browser_config: Optional[dict[str, Any]] = None) -> None:
        _not_served(self)


@require_optional_import(["crawl4ai"], "crawl4ai")
class Crawl4AITool(Tool):
    """Crawls a website and extracts information from it."""

    def __init__(self, llm_config: _ModelConfig = None, extraction_model: Optional[type[Any]] = None,
                 llm_strategy_kwargs: Optional[dict[str, Any]] = None) -> None:
        _not_served(self)


# Its web surfer browses with the browser-use tool.
@require_optional_import(_BROWSER_USE, "browser-use")
class DeepResearchTool(Tool):
    """Delegates a web research task to teams of agents."""

    def __init__(self, llm_config: Union[LLMConfig, dict[str, Any]], max_web_steps: int = 30) -> None:
        _not_served(self)


@require_optional_import(["discord"], "commsagent-discord")
class DiscordSendTool(Tool):
    """Sends a message to a Discord channel."""

    def __init__(self, *, bot_token: str, channel_name: str, guild_name: str) -> None:
        _not_served(self)


@require_optional_import(["discord"], "commsagent-discord")
class DiscordRetrieveTool(Tool):
    """Retrieves messages from a Discord channel."""

    def __init__(self, *, bot_token: str, channel_name: str, guild_name: str) -> None:
        _not_served(self)


@require_optional_import(["duckduckgo_search"], "duckduckgo_search")
class DuckDuckGoSearchTool(Tool):
    """Searches the web with DuckDuckGo."""

    def __init__(self) -> None:
        _not_served(self)


@require_optional_import(["googleapiclient"], "google-search")
class GoogleSearchTool(Tool):
    """Searches the web with the Google Search API."""

    def __init__(self, *, search_api_key: Optional[str] = None, search_engine_id: Optional[str] = None,
                 use_internal_llm_tool_if_available: bool = True) -> None:
        _not_served(self)


@require_optional_import(["googleapiclient"], "google-search")
class YoutubeSearchTool(Tool):
    """Searches YouTube videos with the YouTube Data API."""

    def __init__(self, *, youtube_api_key: Optional[str] = None) -> None:
        _not_served(self)


@require_optional_import(["perplexity"], "perplexity")
class PerplexitySearchTool(Tool):
    """Searches the web with the Perplexity AI search API."""

    def __init__(self, model: str = "sonar", api_key: Optional[str] = None, max_tokens: int = 1000,
                 search_domain_filter: Optional[list[str]] = None) -> None:
        _not_served(self)


@require_optional_import(["tavily", "crawl4ai", "tiktoken", "tldextract", "bs4"], "quick-research")
class QuickResearchTool(Tool):
    """Researches several queries on the web in parallel."""

    def __init__(self, *, llm_config: LLMConfig, tavily_api_key: Optional[str] = None,
                 num_results_per_query: int = 3) -> None:
        _not_served(self)


@require_optional_import(["slack_sdk"], "commsagent-slack")
class SlackSendTool(Tool):
    """Sends a message to a Slack channel."""

    def __init__(self, *, bot_token: str, channel_id: str) -> None:
        _not_served(self)


@require_optional_import(["slack_sdk"], "commsagent-slack")
class SlackRetrieveTool(Tool):
    """Retrieves messages from a Slack channel."""

    def __init__(self, *, bot_token: str, channel_id: str) -> None:
        _not_served(self)


@require_optional_import(["slack_sdk"], "commsagent-slack")
class SlackRetrieveRepliesTool(Tool):
    """Retrieves the replies to a Slack message."""

    def __init__(self, *, bot_token: str, channel_id: str) -> None:
        _not_served(self)


@require_optional_import(["tavily"], "tavily")
class TavilySearchTool(Tool):
    """Searches the web with the Tavily Search API."""

    def __init__(self, *, llm_config: _ModelConfig = None, tavily_api_key: Optional[str] = None) -> None:
        _not_served(self)


@require_optional_import(["telethon"], "commsagent-telegram")
class TelegramSendTool(Tool):
    """Sends a message to a Telegram channel, group or user."""

    def __init__(self, *, api_id: str, api_hash: str, chat_id: str) -> None:
        _not_served(self)


@require_optional_import(["telethon"], "commsagent-telegram")
class TelegramRetrieveTool(Tool):
    """Retrieves messages from a Telegram channel."""

    def __init__(self, *, api_id: str, api_hash: str, chat_id: str) -> None:
        _not_served(self)


@require_optional_import(["tinyfish"], "tinyfish")
class TinyFishTool(Tool):
    """Scrapes a web page with TinyFish, following a goal in natural language."""

    def __init__(self, *, llm_config: _ModelConfig = None, tinyfish_api_key: Optional[str] = None) -> None:
        _not_served(self)


@require_optional_import(["tinyfish"], "tinyfish")
class TinyFishSearchTool(Tool):
    """Searches the web with TinyFish."""

    def __init__(self, *, llm_config: _ModelConfig = None, tinyfish_api_key: Optional[str] = None) -> None:
        _not_served(self)


@require_optional_import(["tinyfish"], "tinyfish")
class TinyFishFetchTool(Tool):
    """Extracts the content of web pages with TinyFish."""

    def __init__(self, *, llm_config: _ModelConfig = None, tinyfish_api_key: Optional[str] = None) -> None:
        _not_served(self)


@require_optional_import(["wikipediaapi"], "wikipedia")
class WikipediaQueryRunTool(Tool):
    """Searches Wikipedia and returns page summaries."""

    def __init__(self, language: str = "en", top_k: int = 3, verbose: bool = False) -> None:
        _not_served(self)


@require_optional_import(["wikipediaapi"], "wikipedia")
class WikipediaPageLoadTool(Tool):
    """Loads the content of Wikipedia pages with their metadata."""

    def __init__(self, language: str = "en", top_k: int = 3, truncate: int = 4000, verbose: bool = False) -> None:
        _not_served(self)
