"""The tokens an image costs with OpenAI's vision models (``num_tokens_from_gpt_image``)."""

from __future__ import annotations

import base64
import functools
import importlib.util
import io
import logging
import math
import os
import re
import urllib.request
from typing import Any

__all__ = ["image_part_tokens", "num_tokens_from_gpt_image"]

logger = logging.getLogger("autogen_classic.token_count_utils")

# Image token accounting of OpenAI's vision models: scale into max_edge x min_edge, then count tiles.
_IMAGE_PARAMS: dict[str, dict[str, int]] = {
    "gpt-4-vision": {"max_edge": 2048, "min_edge": 768, "tile_size": 512, "base": 85, "per_tile": 170},
    "gpt-4o-mini": {"max_edge": 2048, "min_edge": 768, "tile_size": 512, "base": 2833, "per_tile": 5667},
    "gpt-4o": {"max_edge": 2048, "min_edge": 768, "tile_size": 512, "base": 85, "per_tile": 170},
}
_DATA_URI = re.compile(r"data:image/(?:png|jpeg);base64,")

_image_warning_given = False


@functools.lru_cache(maxsize=1)
def _pillow_installed() -> bool:
    return importlib.util.find_spec("PIL") is not None


def image_part_tokens(image_url: dict[str, Any], model: str) -> int:
    """An image part's tokens, as the classic count: 0 without Pillow or for a model that takes no images."""
    global _image_warning_given
    if not _pillow_installed():
        if not _image_warning_given:
            logger.warning('Pillow is not installed: images count 0 tokens (pip install "autogen-classic[test]" has it).')
            _image_warning_given = True
        return 0
    try:
        return num_tokens_from_gpt_image(
            image_data=image_url.get("url"), model=model, low_quality=image_url.get("detail") == "low"
        )
    except ValueError as exc:
        logger.warning("Image tokens not counted: %s", exc)
        return 0


def _image_size(image_data: Any) -> tuple[int, int]:
    from PIL import Image  # noqa: PLC0415 - optional dependency

    if isinstance(image_data, Image.Image):
        return image_data.size
    text = str(image_data).strip("'\"")
    if text.startswith(("http://", "https://")):
        with urllib.request.urlopen(text, timeout=30) as response:  # noqa: S310 - the caller's own image URL
            raw = response.read()
    elif _DATA_URI.match(text):
        raw = base64.b64decode(_DATA_URI.sub("", text, count=1))
    elif os.path.exists(text):
        with open(text, "rb") as handle:
            raw = handle.read()
    else:
        raw = base64.b64decode(text)
    with Image.open(io.BytesIO(raw)) as image:
        return image.size


def num_tokens_from_gpt_image(
    image_data: Any, model: str = "gpt-4-vision", low_quality: bool = False
) -> int:
    """Return the tokens an image costs with an OpenAI vision model (0 when Pillow is not installed).

    The image is scaled so its longest edge is at most 2048 pixels and its shortest at most 768;
    the cost is a base count plus a count per 512x512 tile covering it (only the base count at
    low detail).

    Args:
        image_data: a PIL image, a file path, a URL, a ``data:image/...;base64,`` URI or base64 text.
        model: "gpt-4-vision" (also "gpt-4-turbo", "gpt-4v"), "gpt-4o" or "gpt-4o-mini".
        low_quality: whether the image is sent with ``"detail": "low"``.

    Raises:
        ValueError: the model is not a vision model listed above.
    """
    if not _pillow_installed():  # as in the classic package without Pillow
        return 0
    if any(name in model for name in ("gpt-4-vision", "gpt-4-turbo", "gpt-4v", "gpt-4-v")):
        params = _IMAGE_PARAMS["gpt-4-vision"]
    elif "gpt-4o-mini" in model:
        params = _IMAGE_PARAMS["gpt-4o-mini"]
    elif "gpt-4o" in model:
        params = _IMAGE_PARAMS["gpt-4o"]
    else:
        raise ValueError(
            f"Model {model} is not supported. Choose 'gpt-4-vision', 'gpt-4-turbo', 'gpt-4v', 'gpt-4-v', 'gpt-4o', "
            "or 'gpt-4o-mini'."
        )
    if low_quality:
        return params["base"]
    width, height = _image_size(image_data)
    if max(width, height) > params["max_edge"]:
        scale = params["max_edge"] / max(width, height)
        width, height = int(width * scale), int(height * scale)
    if min(width, height) > params["min_edge"]:
        scale = params["min_edge"] / min(width, height)
        width, height = int(width * scale), int(height * scale)
    tiles = math.ceil(width / params["tile_size"]) * math.ceil(height / params["tile_size"])
    return params["base"] + params["per_tile"] * tiles
