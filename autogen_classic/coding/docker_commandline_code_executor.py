"""The classic path of the Docker executor; the code lives in ``coding/containers/executor.py``.

The other names are the ones classic code imports from this path; they are the objects of their own modules.
"""

from .base import CodeBlock, CodeExecutor, CodeExtractor, CommandLineCodeResult
from .containers.executor import DockerCommandLineCodeExecutor
from .markdown_code_extractor import MarkdownCodeExtractor
from .utils import silence_pip

__all__ = ["DockerCommandLineCodeExecutor"]
