"""Where in the user's code a failure found at teardown belongs, and raising it there.

An end-of-test check runs inside fixture teardown, so its traceback would point into
the plugin. The fixtures raise it instead from a line of the user's test (the line
that made the double, or the test function itself), so the report shows that code.
"""

from __future__ import annotations

import inspect
import sys
from dataclasses import dataclass
from types import FrameType
from typing import NoReturn

__all__ = ["ReportSite", "caller_site", "function_site", "raise_at"]

# Modules whose frames never count as the user's code.
_OWN_PREFIX = "agents_testing."


@dataclass(frozen=True)
class ReportSite:
    """A line of a function in a source file: where a failure is shown to be raised."""

    filename: str
    function: str
    #: The line the function starts on (its first decorator, if any).
    firstlineno: int
    lineno: int


def _site_of(frame: FrameType) -> ReportSite:
    code = frame.f_code
    return ReportSite(code.co_filename, code.co_name, code.co_firstlineno, frame.f_lineno)


def caller_site() -> ReportSite | None:
    """The innermost frame on the stack outside this project's modules: the user's call."""
    frame: FrameType | None = sys._getframe(1)
    while frame is not None and str(frame.f_globals.get("__name__", "")).startswith(_OWN_PREFIX):
        frame = frame.f_back
    return None if frame is None else _site_of(frame)


def function_site(function: object) -> ReportSite | None:
    """The first line of ``function`` (a test function), or None if it has no source code."""
    try:
        code = inspect.unwrap(function).__code__  # type: ignore[arg-type]
    except (AttributeError, ValueError):
        return None
    return ReportSite(code.co_filename, code.co_name, code.co_firstlineno, code.co_firstlineno)


def raise_at(error: BaseException, site: ReportSite | None) -> NoReturn:
    """Raise ``error`` with a traceback that ends at ``site`` instead of in our code.

    The innermost frame is a stand-in compiled under the user's file name and line
    numbers (the way template engines point errors at template lines), so pytest shows
    that function's source with the line marked. Without a site, ``error`` is raised
    with its frames hidden.
    """
    __tracebackhide__ = True
    error = error.with_traceback(None)
    if site is None or site.lineno < site.firstlineno:
        raise error
    firstlineno, source = _stand_in_source(site)
    try:
        code = compile(source, site.filename, "exec", dont_inherit=True)
        code = code.replace(co_name=site.function, co_firstlineno=firstlineno)
    except (SyntaxError, ValueError):
        raise error from None
    exec(code, {"__name__": "__agents_testing_report__", "__agents_testing_error__": error})
    raise AssertionError("unreachable: the stand-in frame raises")  # pragma: no cover


def _stand_in_source(site: ReportSite) -> tuple[int, str]:
    """The stand-in's first line number and source: a ``raise`` at ``site.lineno``.

    The ``raise`` starts at the indentation of the user's line and spans at least as
    many columns, so a traceback that marks the raising columns (Python 3.11+) marks
    the whole line, which pytest then leaves unmarked, as for a plain statement.
    """
    import linecache

    line = linecache.getline(site.filename, site.lineno).rstrip("\r\n")
    indent = len(line) - len(line.lstrip())
    statement = "raise (__agents_testing_error__"
    statement += " " * max(0, len(line.encode()) - indent - len(statement) - 1) + ")"
    if not indent:
        return site.firstlineno, "\n" * (site.lineno - site.firstlineno) + statement + "\n"
    # An indented line needs a block opener on the line above it.
    firstlineno = min(site.firstlineno, site.lineno - 1)
    lead = "\n" * (site.lineno - 1 - firstlineno)
    return firstlineno, f"{lead}if 1:\n{' ' * indent}{statement}\n"
