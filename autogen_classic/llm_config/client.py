"""Classic path ``autogen.llm_config.client``: the ``ModelClient`` protocol (defined in ``oai.model_client``)."""

from ..oai.model_client import ModelClient

__all__ = ["ModelClient"]
