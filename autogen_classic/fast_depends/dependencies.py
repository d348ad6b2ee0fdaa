"""The classic path ``autogen.fast_depends.dependencies`` (code in ``tools.dependency_injection``)."""

from ..tools.dependency_injection import Dependency as Depends
from ..tools.dependency_injection import Provider, dependency_provider

__all__ = ["Depends", "Provider", "dependency_provider"]
