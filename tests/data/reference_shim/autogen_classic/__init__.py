"""Stands in for ``autogen_classic`` when a classic example script is run under the reference package.

Put this folder first on ``PYTHONPATH`` of an interpreter that has the classic package installed (never this
project's): ``import autogen_classic as autogen`` and ``from autogen_classic.x.y import z`` then load the
classic ``autogen`` and ``autogen.x.y``, so one script runs unchanged on both packages and their outputs can
be compared (``tests/test_classic_examples_014.py --record``).
"""

import importlib
import importlib.abc
import importlib.util
import sys

_PREFIX = "autogen_classic."


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname, path=None, target=None):  # noqa: D102 - importlib protocol
        if fullname.startswith(_PREFIX):
            return importlib.util.spec_from_loader(fullname, self)
        return None

    def create_module(self, spec):  # noqa: D102 - importlib protocol
        return importlib.import_module("autogen." + spec.name[len(_PREFIX):])

    def exec_module(self, module):  # noqa: D102 - importlib protocol
        pass


sys.meta_path.insert(0, _Alias())
_classic = importlib.import_module("autogen")
sys.modules[__name__] = _classic
