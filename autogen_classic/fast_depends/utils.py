"""The classic path ``autogen.fast_depends.utils``: ``is_coroutine_callable`` (code in ``import_utils``)."""

from ..import_utils import is_coroutine_callable

__all__ = ["is_coroutine_callable"]
