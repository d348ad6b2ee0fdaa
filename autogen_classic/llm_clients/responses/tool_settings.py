"""The Responses API's built-in tools: their settings, their request form, and the classic output records.

``built_in_tools`` in a request names them: ``"web_search"`` and ``"image_generation"`` run on
OpenAI's side and need nothing here but their settings. ``"apply_patch"`` and ``"shell"`` ask the
caller to edit files or run commands on its machine; this client does not do that on its own (a
model client is no place to run commands), so asking for them is refused with the alternative:
a function tool registered on the agents, executed by the user proxy like any other tool.
The output records (``ShellCallOutput``, ``ApplyPatchCallOutput``, ...) are the classic shapes of
such results, for code that builds them itself.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Union

__all__ = [
    "ApplyPatchCallOutput",
    "BuiltInToolSettings",
    "IMAGE_SETTINGS",
    "ShellCallOutcome",
    "ShellCallOutput",
    "ShellCommandOutput",
    "built_in_tool_configs",
]

_QUALITIES = ["low", "medium", "high", "standard", "hd"]
_BACKGROUNDS = ["white", "black", "transparent"]
_FORMATS = ["png", "jpg", "jpeg", "webp"]
_CONTEXT_SIZES = ["low", "medium", "high"]
# The settings of the image_generation tool, in the order the tool is sent with them.
IMAGE_SETTINGS = ("quality", "size", "background", "output_format", "output_compression")
_LOCAL_TOOLS = ("apply_patch", "apply_patch_async", "shell")
KNOWN_BUILT_IN_TOOLS = ("web_search", "image_generation", *_LOCAL_TOOLS)


@dataclass
class ApplyPatchCallOutput:
    """The result of one file operation asked for by an ``apply_patch_call``."""

    call_id: str
    status: str
    output: str
    type: str = "apply_patch_call_output"

    def to_dict(self) -> dict[str, str]:
        """The Responses API input item."""
        return asdict(self)


@dataclass
class ShellCallOutcome:
    """How a command ended: ``type`` "exit" (with ``exit_code``) or "timeout"."""

    type: str
    exit_code: Union[int, None] = None

    def to_dict(self) -> dict[str, Any]:
        """The outcome as a dict."""
        return asdict(self)


@dataclass
class ShellCommandOutput:
    """What one command printed, and how it ended."""

    stdout: str = ""
    stderr: str = ""
    outcome: Union[ShellCallOutcome, None] = None

    def to_dict(self) -> dict[str, Any]:
        """The output as a dict (``outcome`` only when set)."""
        result: dict[str, Any] = {"stdout": self.stdout, "stderr": self.stderr}
        if self.outcome:
            result["outcome"] = self.outcome.to_dict()
        return result


@dataclass
class ShellCallOutput:
    """The answer to a ``shell_call``: the output of each of its commands."""

    call_id: str
    type: str = "shell_call_output"
    max_output_length: Union[int, None] = None
    output: Union[list[ShellCommandOutput], None] = None

    def __post_init__(self) -> None:
        if self.output is None:
            self.output = []

    def to_dict(self) -> dict[str, Any]:
        """The Responses API input item (``max_output_length`` and ``output`` only when set)."""
        result: dict[str, Any] = {"call_id": self.call_id, "type": self.type}
        if self.max_output_length is not None:
            result["max_output_length"] = self.max_output_length
        if self.output:
            result["output"] = [command.to_dict() for command in self.output]
        return result


class BuiltInToolSettings:
    """Default settings of the built-in tools for every request of a client."""

    def _init_tool_settings(self) -> None:
        self.image_output_params: dict[str, Any] = {
            "quality": None, "background": None, "size": None, "output_format": "png", "output_compression": None,
        }
        self.web_search_params: dict[str, Any] = {"user_location": None, "search_context_size": None}
        self._shell_allowed_commands: Union[list[str], None] = None
        self._shell_denied_commands: Union[list[str], None] = None
        self._shell_enable_command_filtering = True
        self._shell_dangerous_patterns: Union[list[tuple[str, str]], None] = None

    def set_image_output_params(
        self,
        quality: Union[str, None] = None,
        size: Union[str, None] = None,
        background: Union[str, None] = None,
        output_format: Union[str, None] = None,
        output_compression: Union[int, None] = None,
    ) -> None:
        """Set the defaults of the ``image_generation`` tool (None leaves a setting as it is).

        Raises:
            ValueError: a value is not one the API takes (the message lists those).
        """
        if quality is not None:
            if quality not in _QUALITIES:
                raise ValueError(f"quality must be one of {_QUALITIES}, got: {quality}")
            self.image_output_params["quality"] = quality
        if size is not None:
            self.image_output_params["size"] = size  # the API checks sizes per model
        if background is not None:
            if background not in _BACKGROUNDS:
                raise ValueError(f"background must be one of {_BACKGROUNDS}, got: {background}")
            self.image_output_params["background"] = background
        if output_format is not None:
            if output_format not in _FORMATS:
                raise ValueError(f"output_format must be one of {_FORMATS}, got: {output_format}")
            self.image_output_params["output_format"] = output_format
        if output_compression is not None:
            if not 0 <= output_compression <= 100:
                raise ValueError(f"output_compression must be between 0 and 100, got: {output_compression}")
            self.image_output_params["output_compression"] = output_compression

    def set_web_search_params(
        self, user_location: Union[dict[str, Any], None] = None, search_context_size: Union[str, None] = None
    ) -> None:
        """Set the defaults of the ``web_search`` tool.

        Args:
            user_location: e.g. ``{"type": "approximate", "city": "London", "country": "GB"}``.
            search_context_size: "low", "medium" or "high".
        """
        if user_location is not None:
            self.web_search_params["user_location"] = user_location
        if search_context_size is not None:
            if search_context_size not in _CONTEXT_SIZES:
                raise ValueError(f"search_context_size must be 'low', 'medium', or 'high', got: {search_context_size}")
            self.web_search_params["search_context_size"] = search_context_size

    def set_shell_params(
        self,
        allowed_commands: Union[list[str], None] = None,
        denied_commands: Union[list[str], None] = None,
        enable_command_filtering: Union[bool, None] = None,
        dangerous_patterns: Union[list[tuple[str, str]], None] = None,
    ) -> None:
        """Record the command filters of the ``shell`` tool (kept for classic code; see the module notes)."""
        if allowed_commands is not None:
            self._shell_allowed_commands = allowed_commands
        if denied_commands is not None:
            self._shell_denied_commands = denied_commands
        if enable_command_filtering is not None:
            self._shell_enable_command_filtering = enable_command_filtering
        if dangerous_patterns is not None:
            self._shell_dangerous_patterns = dangerous_patterns

    def _image_output_format(self) -> str:
        """The format generated images come in (``png`` unless set)."""
        return str(self.image_output_params.get("output_format") or "png")

    def _image_tool(self, overrides: Union[dict[str, Any], None], from_messages: dict[str, Any]) -> dict[str, Any]:
        settings = {**self.image_output_params, **from_messages, **(overrides or {})}
        tool: dict[str, Any] = {"type": "image_generation"}
        for name in IMAGE_SETTINGS:
            if settings.get(name) is not None:
                tool[name] = settings[name]
        return tool

    def _web_search_tool(self, overrides: Union[dict[str, Any], None]) -> dict[str, Any]:
        settings = {**self.web_search_params, **(overrides or {})}
        tool: dict[str, Any] = {"type": "web_search"}
        if settings.get("user_location"):
            tool["user_location"] = settings["user_location"]
        if settings.get("search_context_size") in _CONTEXT_SIZES:
            tool["search_context_size"] = settings["search_context_size"]
        return tool


def built_in_tool_configs(
    settings: BuiltInToolSettings,
    built_in_tools: Any,
    image_config: Union[dict[str, Any], None],
    web_search_config: Union[dict[str, Any], None],
    image_params_from_messages: dict[str, Any],
) -> list[dict[str, Any]]:
    """The request's tool entries for ``built_in_tools``.

    Raises:
        ValueError: ``built_in_tools`` is not a list of known names.
        NotImplementedError: it names a tool that runs on the caller's machine (apply_patch, shell).
    """
    if not built_in_tools:
        return []
    if isinstance(built_in_tools, str) or not isinstance(built_in_tools, (list, tuple)):
        raise ValueError(f"built_in_tools must be a list of tool names such as ['web_search'], got {built_in_tools!r}")
    unknown = [name for name in built_in_tools if name not in KNOWN_BUILT_IN_TOOLS]
    if unknown:
        raise ValueError(f"built_in_tools: unknown tool(s) {unknown}; the built-in tools are {list(KNOWN_BUILT_IN_TOOLS)}")
    local = [name for name in built_in_tools if name in _LOCAL_TOOLS]
    if local:
        raise NotImplementedError(
            f"built_in_tools {local}: tools that edit files or run commands on this machine are not run by the "
            "model client in autogen-classic. Register a function tool on the agents instead (register_function, "
            "executed by the user proxy) or use a code executor."
        )
    tools: list[dict[str, Any]] = []
    if "image_generation" in built_in_tools:
        tools.append(settings._image_tool(image_config, image_params_from_messages))
    if "web_search" in built_in_tools:
        tools.append(settings._web_search_tool(web_search_config))
    return tools
