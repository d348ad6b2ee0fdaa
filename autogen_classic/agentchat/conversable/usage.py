"""An agent's model usage: printing it, reading it, and registering custom model clients."""

from __future__ import annotations

from typing import Any, Optional, Union

from ...events.chat_events import ConversableAgentUsageSummaryEvent, ConversableAgentUsageSummaryNoCostIncurredEvent
from ...io.emit import emit

__all__ = ["UsageMixin"]


class UsageMixin:
    """The usage methods of ``ConversableAgent``; they read the agent's ``client`` (None without a model)."""

    client: Any
    name: str

    def print_usage_summary(self, mode: Union[str, list[str]] = ["actual", "total"]) -> None:
        """Print the model usage of this agent."""
        if self.client is None:
            emit(ConversableAgentUsageSummaryNoCostIncurredEvent, recipient=self.name)
        else:
            emit(ConversableAgentUsageSummaryEvent, recipient=self.name)
            self.client.print_usage_summary(mode)

    def get_actual_usage(self) -> Optional[dict[str, Any]]:
        """Usage without cache hits, or None without a model."""
        return None if self.client is None else self.client.actual_usage_summary

    def get_total_usage(self) -> Optional[dict[str, Any]]:
        """Usage including cache hits, or None without a model."""
        return None if self.client is None else self.client.total_usage_summary

    def register_model_client(self, model_client_cls: type, **kwargs: Any) -> None:
        """Register a custom model client class for the config entries that name it (``model_client_cls``)."""
        if self.client is None:
            raise ValueError(f"Agent '{self.name}' has no llm_config, so it has no model client to register with.")
        self.client.register_model_client(model_client_cls, **kwargs)
