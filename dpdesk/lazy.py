"""Public names of a package, imported from their modules on first use.

A package's ``__init__`` lists its public names and the modules that define them; importing
the package then costs nothing (no pandas, numpy or OpenDP), and ``package.name`` imports
the one module that is needed.
"""

from __future__ import annotations

import importlib
from typing import Callable


def exports(package: str, public: dict[str, str]) -> Callable[[str], object]:
    """The module-level ``__getattr__`` (PEP 562) for ``package`` with ``public`` = {name: module}."""

    def __getattr__(name: str):
        module = public.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(module), name)

    return __getattr__
