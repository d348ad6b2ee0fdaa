"""The classic path ``autogen.fast_depends.use``: ``Depends`` and ``inject`` (code in ``tools.dependency_injection``)."""

from ..tools.dependency_injection import Depends, dependency_provider, inject

__all__ = ["Depends", "dependency_provider", "inject"]
