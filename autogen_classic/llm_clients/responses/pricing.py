"""What a Responses API answer costs: tokens by the price table, generated images by size and quality."""

from __future__ import annotations

import logging
import threading
from typing import Any, Union

from ...oai.usage import OAI_PRICE1K, lookup_price

__all__ = [
    "IMAGE_PRICING",
    "IMAGE_VALID_QUALITIES",
    "IMAGE_VALID_SIZES",
    "OAI_PRICE1K",
    "CostTracking",
    "calculate_image_cost",
    "calculate_token_cost",
]

logger = logging.getLogger("autogen_classic.llm_clients")

# USD per generated image, by model, quality and size.
IMAGE_PRICING: dict[str, dict[str, dict[str, float]]] = {
    "gpt-image-1": {
        "low": {"1024x1024": 0.011, "1024x1536": 0.016, "1536x1024": 0.016},
        "medium": {"1024x1024": 0.042, "1024x1536": 0.063, "1536x1024": 0.063},
        "high": {"1024x1024": 0.167, "1024x1536": 0.25, "1536x1024": 0.25},
    },
    "dall-e-3": {
        "standard": {"1024x1024": 0.040, "1024x1792": 0.080, "1792x1024": 0.080},
        "hd": {"1024x1024": 0.080, "1024x1792": 0.120, "1792x1024": 0.120},
    },
    "dall-e-2": {"standard": {"1024x1024": 0.020, "512x512": 0.018, "256x256": 0.016}},
}

IMAGE_VALID_SIZES: dict[str, list[str]] = {
    "gpt-image-1": ["1024x1024", "1024x1536", "1536x1024"],
    "dall-e-3": ["1024x1024", "1024x1792", "1792x1024"],
    "dall-e-2": ["1024x1024", "512x512", "256x256"],
}

IMAGE_VALID_QUALITIES: dict[str, list[str]] = {
    "gpt-image-1": ["low", "medium", "high"],
    "dall-e-3": ["standard", "hd"],
    "dall-e-2": ["standard"],
}


def calculate_image_cost(
    model: str = "gpt-image-1", size: str = "1024x1024", quality: str = "high"
) -> tuple[float, Union[str, None]]:
    """The cost of one generated image.

    Args:
        model: "gpt-image-1", "dall-e-3" or "dall-e-2" (any case).
        size: e.g. "1024x1024" (see ``IMAGE_VALID_SIZES``).
        quality: "low" / "medium" / "high" (gpt-image-1), "standard" / "hd" (dall-e-3); dall-e-2 has one price.

    Returns:
        ``(cost, None)``, or ``(0.0, message)`` naming what is not valid and the valid values.
    """
    model = model.lower()
    quality = quality.lower()
    if model not in IMAGE_PRICING:
        return 0.0, f"Invalid model: {model}. Valid models: {list(IMAGE_PRICING.keys())}"
    if size not in IMAGE_VALID_SIZES[model]:
        return 0.0, f"Invalid size {size} for {model}. Valid sizes: {IMAGE_VALID_SIZES[model]}"
    tier = "standard" if model == "dall-e-2" else quality
    prices = IMAGE_PRICING[model].get(tier)
    if prices is None:
        return 0.0, f"Invalid quality '{quality}' for {model}. Valid qualities: {IMAGE_VALID_QUALITIES[model]}"
    return prices[size], None


def calculate_token_cost(
    model: str, prompt_tokens: int, completion_tokens: int, custom_price: Union[tuple[float, float], None] = None
) -> float:
    """The cost in USD of a request's tokens.

    Args:
        model: the model that answered; priced from ``OAI_PRICE1K`` (a dated snapshot that is not
            listed is priced like its base model). Models not in the table cost 0.
        prompt_tokens: input tokens.
        completion_tokens: output tokens.
        custom_price: ``(input_price_per_1k, output_price_per_1k)`` used instead of the table.
    """
    price = custom_price if custom_price is not None else lookup_price(model)
    if price is None:
        return 0.0
    return (price[0] * prompt_tokens + price[1] * completion_tokens) / 1000


class CostTracking:
    """The running totals of one client: token and image costs, tokens, and an optional custom price."""

    def _init_costs(self) -> None:
        self._costs_lock = threading.Lock()
        self._image_costs = 0.0
        self._token_costs = 0.0
        self._total_prompt_tokens = 0
        self._total_completion_tokens = 0
        self._custom_price: Union[tuple[float, float], None] = None

    def _count(self, model: str, prompt_tokens: int, completion_tokens: int, image_cost: float) -> float:
        """Price one answer's tokens, add it to the totals and return the token cost."""
        token_cost = calculate_token_cost(model, prompt_tokens, completion_tokens, self._custom_price)
        if token_cost == 0.0 and prompt_tokens > 0 and self._custom_price is None and lookup_price(model) is None:
            logger.warning(
                "Model %s not found in pricing table. Token cost will be 0. Use set_custom_price() to set custom "
                "pricing.",
                model,
            )
        with self._costs_lock:
            self._token_costs += token_cost
            self._image_costs += image_cost
            self._total_prompt_tokens += prompt_tokens
            self._total_completion_tokens += completion_tokens
        return token_cost

    def get_image_costs(self) -> float:
        """The cost of every image generated through this client so far (the API does not report it)."""
        return self._image_costs

    def reset_image_costs(self) -> None:
        """Set the image costs back to zero."""
        self._image_costs = 0.0

    def get_token_costs(self) -> float:
        """The cost of every token used through this client so far."""
        return self._token_costs

    def reset_token_costs(self) -> None:
        """Set the token costs and token counts back to zero."""
        self._token_costs = 0.0
        self._total_prompt_tokens = 0
        self._total_completion_tokens = 0

    def get_total_costs(self) -> float:
        """Token costs plus image costs."""
        return self._token_costs + self._image_costs

    def reset_all_costs(self) -> None:
        """Set every total back to zero."""
        self.reset_token_costs()
        self.reset_image_costs()

    def get_cumulative_usage(self) -> dict[str, Any]:
        """``prompt_tokens``, ``completion_tokens``, ``total_tokens``, ``token_cost``, ``image_cost``, ``total_cost``."""
        return {
            "prompt_tokens": self._total_prompt_tokens,
            "completion_tokens": self._total_completion_tokens,
            "total_tokens": self._total_prompt_tokens + self._total_completion_tokens,
            "token_cost": self._token_costs,
            "image_cost": self._image_costs,
            "total_cost": self._token_costs + self._image_costs,
        }

    def set_custom_price(self, input_price_per_1k: float, output_price_per_1k: float) -> None:
        """Price tokens at these USD prices per 1000 tokens instead of the price table."""
        self._custom_price = (input_price_per_1k, output_price_per_1k)

    def clear_custom_price(self) -> None:
        """Price tokens from the price table again."""
        self._custom_price = None
