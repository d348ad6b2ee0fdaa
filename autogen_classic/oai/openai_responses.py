"""The classic path of ``OpenAIResponsesClient``, the Responses API client (``"api_type": "responses"``).

A thin face: the client lives in ``llm_clients.openai_responses``, which builds on ``oai``, so nothing in the
package imports this module (the import contracts in setup.cfg list its import).
"""

from ..llm_clients.openai_responses import OpenAIResponsesClient

__all__ = ["OpenAIResponsesClient"]
