"""What every ``scripted_*`` fixture shares: one registry of doubles per test.

Public API for the boundary pytest plugins: a boundary's fixture asks for the core
plugin's ``_agents_testing_doubles`` fixture (a :class:`ScriptedDoubles`) and returns
``doubles.track("fixture_name", factory)``. Making the double, remembering it, checking
it with ``assert_complete()`` at the end of the test and switching tracing off meanwhile
happen here, once. Imported by the pytest plugins only, never by the library itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ParamSpec, Protocol, TypeVar

import pytest

if TYPE_CHECKING:
    from ._errors import UnconsumedStepsError
    from ._report_site import ReportSite
    from .compat import TracingState

# Every pytest run of a project that installs agents-testing loads the plugins, so what
# they need only once a fixture is used is imported inside the functions below.

__all__ = [
    "ALLOW_MARKER",
    "CALL_REPORT",
    "DOUBLES",
    "FIXTURE_MARKER",
    "MODEL_REQUESTS_BLOCKED",
    "FixtureOptions",
    "ScriptedDoubles",
    "blocks_model_requests",
    "note_unconsumed",
]

FIXTURE_MARKER = "agents_testing"
ALLOW_MARKER = "agents_allow_model_requests"
_SECTION = "unconsumed scripted steps"

P = ParamSpec("P")


class _Checkable(Protocol):
    def assert_complete(self) -> None: ...


D = TypeVar("D", bound=_Checkable)


@dataclass(frozen=True)
class FixtureOptions:
    """How the ``scripted_*`` fixtures behave in one test, from ``@pytest.mark.agents_testing``."""

    assert_complete: bool = True
    disable_tracing: bool = True
    check_tool_calls: bool = True
    #: The checks a bare double leaves off to behave as the SDK's built-in one does
    #: (each double's ``extra_checks`` argument); the fixtures turn them on.
    extra_checks: bool = True

    @classmethod
    def for_item(cls, item: pytest.Item) -> FixtureOptions:
        marker = item.get_closest_marker(FIXTURE_MARKER)
        if marker is None:
            return cls()
        known = ("assert_complete", "disable_tracing", "check_tool_calls", "extra_checks")
        problems = [f"unknown keyword {key!r}" for key in marker.kwargs if key not in known]
        problems += [
            f"{key}={value!r} is not a bool"
            for key, value in marker.kwargs.items()
            if key in known and not isinstance(value, bool)
        ]
        if marker.args:
            problems.append("positional arguments are not accepted")
        if problems:
            pytest.fail(
                f"@pytest.mark.{FIXTURE_MARKER}: {'; '.join(problems)}. "
                f"It takes assert_complete=<bool>, disable_tracing=<bool>, "
                f"check_tool_calls=<bool> and extra_checks=<bool>.",
                pytrace=False,
            )
        return cls(**marker.kwargs)


@dataclass(frozen=True)
class _Made:
    label: str
    double: _Checkable
    #: The user's line that made the double: where its end-of-test failure is shown.
    site: ReportSite | None


class ScriptedDoubles:
    """Every double made through a ``scripted_*`` fixture during one test.

    Entered for the duration of the test: tracing is switched off on entry (unless the
    marker says otherwise) and restored on exit, and a test whose body passed fails at
    teardown with the first double's ``Unconsumed...`` error.
    """

    def __init__(self, item: pytest.Item) -> None:
        self.options = FixtureOptions.for_item(item)
        self._item = item
        self._made: list[_Made] = []
        self._calls: dict[str, int] = {}
        self._tracing: TracingState | None = None

    def __enter__(self) -> ScriptedDoubles:
        self._item.stash[DOUBLES] = self
        if self.options.disable_tracing:
            from agents import set_tracing_disabled

            from .compat import capture_tracing_state

            self._tracing = capture_tracing_state()
            set_tracing_disabled(True)
        return self

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        __tracebackhide__ = True
        if self._tracing is not None:
            self._tracing.restore()
        report = self._item.stash.get(CALL_REPORT, None)
        # Only a passed body is checked here; a failed one already carries the
        # unconsumed steps as a section of its report (see note_unconsumed).
        if exc is None and self.options.assert_complete and report is not None and report.passed:
            self._raise_unconsumed()

    def track(self, fixture: str, factory: Callable[P, D]) -> Callable[P, D]:
        """Wrap ``factory`` so each double it makes is remembered for the final check."""

        from ._report_site import caller_site

        def make(*args: P.args, **kwargs: P.kwargs) -> D:
            double = factory(*args, **kwargs)
            self._calls[fixture] = self._calls.get(fixture, 0) + 1
            label = f"{fixture}() call {self._calls[fixture]} ({type(double).__name__})"
            self._made.append(_Made(label, double, caller_site()))
            return double

        # Named for the fixture (that is what a failing test's locals show), while
        # help() and inspect.signature() follow __wrapped__ to the real constructor.
        make.__name__ = make.__qualname__ = fixture
        make.__doc__ = factory.__doc__
        make.__wrapped__ = factory  # type: ignore[attr-defined]
        return make

    def checked(self, fixture: str, factory: Callable[..., D], **defaults: Any) -> Callable[..., D]:
        """:meth:`track` for a boundary fixture: ``factory``'s doubles, with the test's checks.

        An argument of ``factory`` named for a marker option (``extra_checks``,
        ``check_tool_calls``) that the call leaves out or passes as ``None`` takes the
        test's setting (on unless ``@pytest.mark.agents_testing`` says otherwise);
        ``defaults`` are the fixture's own defaults for other arguments
        (``stream_all_items=True``). ``inspect.signature`` shows the fixture's defaults.
        """
        import inspect

        signature = inspect.signature(factory)
        marked = {
            name: getattr(self.options, name)
            for name in ("extra_checks", "check_tool_calls")
            if name in signature.parameters
        }

        def make(*args: Any, **kwargs: Any) -> D:
            for name, value in defaults.items():
                kwargs.setdefault(name, value)
            for name, value in marked.items():
                if kwargs.get(name) is None:
                    kwargs[name] = value
            return factory(*args, **kwargs)

        make.__signature__ = signature.replace(  # type: ignore[attr-defined]
            parameters=[
                parameter.replace(default=None)
                if parameter.name in marked
                else parameter.replace(default=defaults[parameter.name])
                if parameter.name in defaults
                else parameter
                for parameter in signature.parameters.values()
            ]
        )
        make.__doc__ = factory.__doc__
        return self.track(fixture, make)

    def unconsumed(self) -> list[tuple[str, UnconsumedStepsError]]:
        """Each double whose script has steps left, with the error it reports."""
        return [(entry.label, error) for entry, error in self._unconsumed()]

    def _unconsumed(self) -> list[tuple[_Made, UnconsumedStepsError]]:
        from ._errors import UnconsumedStepsError

        found: list[tuple[_Made, UnconsumedStepsError]] = []
        for entry in self._made:
            try:
                entry.double.assert_complete()
            except UnconsumedStepsError as error:
                found.append((entry, error))
        return found

    def _raise_unconsumed(self) -> None:
        __tracebackhide__ = True
        found = self._unconsumed()
        if not found:
            return
        if len(found) > 1:
            described = [(entry.label, error) for entry, error in found]
            self._item.add_report_section("teardown", _SECTION, _describe(described))
        from ._report_site import raise_at

        # Raised afresh at the user's line that made the double: the frames of the
        # double's own check and of this plugin say nothing about the test.
        first, error = found[0]
        raise_at(error, first.site)


def _describe(found: list[tuple[str, UnconsumedStepsError]]) -> str:
    return "\n\n".join(
        f"{label} has steps left:\n{type(error).__name__}: {error}" for label, error in found
    )


DOUBLES = pytest.StashKey[ScriptedDoubles]()
CALL_REPORT = pytest.StashKey[pytest.TestReport]()
#: Whether this run blocks real model requests (the option, or the ini key not lifted).
MODEL_REQUESTS_BLOCKED = pytest.StashKey[bool]()


def blocks_model_requests(item: pytest.Item) -> bool:
    """Whether real model requests are blocked in test ``item`` (the guard is installed)."""
    return item.config.stash.get(MODEL_REQUESTS_BLOCKED, False) and (
        item.get_closest_marker(ALLOW_MARKER) is None
    )


def note_unconsumed(item: pytest.Item, report: pytest.TestReport) -> None:
    """Attach unconsumed steps to a failed call report, after the user's own failure."""
    doubles = item.stash.get(DOUBLES, None)
    if doubles is None or not doubles.options.assert_complete:
        return
    try:
        found = doubles.unconsumed()
    except Exception as error:
        # A double whose own check breaks must not turn the user's failure into an
        # internal error of pytest; say what happened next to the failure instead.
        report.sections.append(
            (_SECTION, f"assert_complete() failed: {type(error).__name__}: {error}")
        )
        return
    if found:
        report.sections.append((_SECTION, _describe(found)))
