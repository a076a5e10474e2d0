"""Lazy package exports (PEP 562): a command line that runs one engine imports only what it uses.

A package lists, per submodule, the names it re-exports; ``from package import name`` imports the
submodule on first use. A submodule is also reachable as an attribute before anybody imported it.
Where a submodule and a name it exports share a name (``iccf.explain``), the package attribute
is the exported name, as an eager ``from .explain import explain`` leaves it: importing the
submodule later does not rebind it.
"""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(
    package: str, exports: Mapping[str, tuple[str, ...]], submodules: tuple[str, ...] = ()
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` of ``package``: ``exports`` maps a submodule to its names."""
    module_of = {name: module for module, names in exports.items() for name in names}
    known = set(submodules) | set(exports)
    namespace = sys.modules[package].__dict__
    shadowed = frozenset(module_of) & known
    if shadowed:
        sys.modules[package].__class__ = _shadowing(shadowed)

    def __getattr__(name: str) -> Any:
        module = module_of.get(name)
        if module is not None:
            value = getattr(importlib.import_module(f"{package}.{module}"), name)
        elif name in known:
            value = importlib.import_module(f"{package}.{name}")
        else:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        namespace[name] = value  # once: the next look-up does not come here
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(module_of) | known)

    return __getattr__, __dir__


def _shadowing(names: frozenset[str]) -> type[types.ModuleType]:
    class Package(types.ModuleType):
        def __setattr__(self, name: str, value: Any) -> None:
            # the import system binds a submodule to its package: not over the exported name
            if name in names and isinstance(value, types.ModuleType):
                return
            super().__setattr__(name, value)

    return Package
