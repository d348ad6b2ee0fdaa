"""The classic ``autogen.tools.experimental``: ``ReliableTool`` and, by name, the tools of outside services.

``ReliableTool`` (with ``ReliableToolError``, ``SuccessfulExecutionParameters`` and ``ToolExecutionDetails``)
works here. The other tools need outside services this package does not provide: they import, and building
one raises the classic ``ImportError`` naming the modules it needs (see ``.services``).
"""

from .reliable import ReliableTool, ReliableToolError, SuccessfulExecutionParameters, ToolExecutionDetails
from .services import (
    BrowserUseTool,
    Crawl4AITool,
    DeepResearchTool,
    DiscordRetrieveTool,
    DiscordSendTool,
    DuckDuckGoSearchTool,
    GoogleSearchTool,
    PerplexitySearchTool,
    QuickResearchTool,
    SlackRetrieveRepliesTool,
    SlackRetrieveTool,
    SlackSendTool,
    TavilySearchTool,
    TelegramRetrieveTool,
    TelegramSendTool,
    TinyFishFetchTool,
    TinyFishSearchTool,
    TinyFishTool,
    WikipediaPageLoadTool,
    WikipediaQueryRunTool,
    YoutubeSearchTool,
)

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
    "ReliableTool",
    "ReliableToolError",
    "SlackRetrieveRepliesTool",
    "SlackRetrieveTool",
    "SlackSendTool",
    "SuccessfulExecutionParameters",
    "TavilySearchTool",
    "TelegramRetrieveTool",
    "TelegramSendTool",
    "TinyFishFetchTool",
    "TinyFishSearchTool",
    "TinyFishTool",
    "ToolExecutionDetails",
    "WikipediaPageLoadTool",
    "WikipediaQueryRunTool",
    "YoutubeSearchTool",
]
