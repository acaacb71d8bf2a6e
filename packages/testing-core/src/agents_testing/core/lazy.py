"""Lazy package exports, so that loading a package (for example as a pytest plugin) costs
nothing until one of its names is used.

Public API for the boundary packages: each boundary's ``__init__`` maps its public
names to the private modules that define them with :func:`serve_lazily` (core's own with
:func:`lazy_exports`); the SDK is imported only when the first name is asked for.
Exported classes and functions report the package as their ``__module__`` (see
:func:`publish`), so tracebacks, ``repr()`` and pickles show
``agents_testing.model.UnexpectedModelCall``, never a private module.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import Any

__all__ = ["lazy_exports", "publish", "publish_module", "serve_lazily"]


def publish(package: str, objects: Iterable[object]) -> None:
    """Make each class or function defined in a private module of ``package`` report
    ``package`` as its ``__module__``.

    Objects from elsewhere (the SDK, another package) are left alone. Pickle finds a
    published class through the package attribute, which is the very same object.
    """
    private = package + "._"
    for value in objects:
        module = getattr(value, "__module__", None)
        if (
            isinstance(module, str)
            and module.startswith(private)
            and (isinstance(value, type) or callable(value))
        ):
            try:
                value.__module__ = package
            except (AttributeError, TypeError):
                continue  # a builtin or frozen object; it keeps its own module


def publish_module(namespace: dict[str, Any]) -> None:
    """Publish, as :func:`publish` does, what the private module of ``namespace`` (its
    ``globals()``) defines that its package exports.

    Called at the end of such a module, so that its classes show their public name
    however the module was first imported: code of the same package imports its private
    modules directly, never asking the package for a name.
    """
    parts = str(namespace["__name__"]).split(".")
    package = ".".join(parts[:2])
    exported = set(getattr(sys.modules.get(package), "__all__", ()))
    publish(package, [value for name, value in namespace.items() if name in exported])


def lazy_exports(
    package: str, namespace: dict[str, Any], exports: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """Module ``__getattr__`` and ``__dir__`` serving ``exports`` (name -> ``.module``).

    Use it at the end of a package ``__init__``::

        __getattr__, __dir__ = lazy_exports(__name__, globals(), {"Name": "._module"})
    """

    def _publish_loaded() -> None:
        # Internal modules import one another (the model imports its errors), so every
        # public object already loaded is published, not only the one asked for: an
        # error raised from inside then shows its public name too.
        loaded = []
        for name, module in exports.items():
            found = sys.modules.get(package + module if module.startswith(".") else module)
            if found is not None and name in vars(found):
                loaded.append(vars(found)[name])
        publish(package, loaded)

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module, package), name)
        _publish_loaded()
        namespace[name] = value  # later lookups are plain module attributes
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(exports))

    return __getattr__, __dir__


def serve_lazily(package: str, exports: Mapping[str, str]) -> None:
    """Give the package being imported the ``__getattr__`` and ``__dir__`` of
    :func:`lazy_exports` (name -> ``.module``).

    Call it at the end of a package ``__init__``, ``serve_lazily(__name__, {...})``. The
    functions are set on the module, not assigned in its source: type checkers see only
    the names the package imports under ``TYPE_CHECKING``, and flag any other.
    """
    namespace = vars(sys.modules[package])
    namespace["__getattr__"], namespace["__dir__"] = lazy_exports(package, namespace, exports)
