"""The classic path ``autogen.fast_depends``: the dependency injection of tools.

AG2 Classic 0.14 vendors the ``fast_depends`` library for ``Depends`` in tool signatures; here the same names
are this package's own engine (``autogen_classic.tools.dependency_injection``): ``Depends`` marks a parameter
filled by a provider, ``inject`` wraps a function so calling it fills them, and ``dependency_provider``
overrides providers (in tests, for instance).
"""

from .dependencies import Provider, dependency_provider
from .use import Depends, inject

__all__ = ["Depends", "Provider", "dependency_provider", "inject"]
