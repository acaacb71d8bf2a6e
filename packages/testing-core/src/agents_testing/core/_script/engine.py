"""The script engine every double answers its calls with.

:class:`ScriptedDouble` is the part of a scripted double that follows its script: it
holds the :class:`StepScript`, chooses the step that answers a call (the next position's
steps whose target the call names, then the first whose matcher accepts it), calls
matchers and responders by one protocol, plays a step's outcome (a result, a responder's
value or an error) and reports what went wrong through the boundary's own errors. A
boundary's double inherits it next to the SDK class it stands in for, or holds an
instance of a subclass (which keeps the double's class cheap to import), and says only
what is particular to it, in the ``_``-hooks below.

Matchers and responders take one argument, the recorded call (or the copy of it that
:meth:`ScriptedDouble._handed` gives). Only ``False`` rejects a call. A matcher that
returns an awaitable, or a callable that cannot be called with the call, is a malformed
step; a boundary reports those always or only with its extra checks (``checks_calls``).
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable
from typing import Any, ClassVar, Generic, Literal, NoReturn, Protocol, TypeVar

from .fifo import Entry, StepScript

__all__ = [
    "CallableProblem",
    "ScriptedDouble",
    "Step",
    "close_awaitable",
    "fresh_error",
    "raised_by_the_call",
]

CallableProblem = Literal["call", "awaitable"]
"""What a matcher or responder did wrong: it could not be called with the call
(``"call"``), or a matcher answered with an awaitable (``"awaitable"``)."""


class Step(Protocol):
    """What the engine reads of a step: what call it answers, and its matcher."""

    @property
    def target(self) -> str | None: ...

    @property
    def match(self) -> Any: ...


S = TypeVar("S", bound=Step)
C = TypeVar("C")
P = TypeVar("P")


def raised_by_the_call(error: BaseException) -> bool:
    """Whether ``error`` came from the call itself rather than from the callable's own code.

    The handler's frame is the first on the traceback. Nothing after it means no frame of
    the callable ever ran: Python could not bind the argument, or a callable written in C
    (``len``, ``max``) refused it. Either way the callable cannot take the call, whatever
    its signature says.
    """
    traceback = error.__traceback__
    return traceback is not None and traceback.tb_next is None


def close_awaitable(value: object) -> None:
    """Close an awaitable that will never be awaited (no "never awaited" warning)."""
    close = getattr(value, "close", None)
    if callable(close):
        close()


def fresh_error(error: BaseException | type[BaseException]) -> BaseException:
    """The exception a scripted error raises: the instance, or a new one of a class."""
    return error() if isinstance(error, type) else error


class ScriptedDouble(Generic[S, C, P]):
    """The script of a double and how its calls are answered from it.

    ``S`` is the boundary's step, ``C`` its recorded call and ``P`` the form in which
    ``pending_steps`` hands a step out.

    ``_script`` holds the steps (plain positions and ``any_order()`` groups). ``_errors``
    holds the boundary's error base: one of those raised by a matcher (a cassette's
    request diff, say) is remembered like any violation of the script. With ``remembers`` the
    first violation is kept and :meth:`assert_complete` raises it again, even when the
    SDK turned it into output for the model; with ``checks_calls`` a matcher or responder
    that cannot take the call is reported as a malformed step.
    """

    _errors: ClassVar[tuple[type[BaseException], ...]] = ()
    #: The recorded call's class, as messages about matchers and responders name it.
    _call_type: ClassVar[str] = "call"

    _script: StepScript[S]
    _violation: BaseException | None
    _remembers: bool
    _checks_calls: bool
    _hands: bool

    def _start_script(
        self, steps: Iterable[S | Entry[S]], *, remembers: bool, checks_calls: bool
    ) -> None:
        self._script = StepScript(steps)
        self._violation = None
        self._remembers = remembers
        self._checks_calls = checks_calls
        # Whether matchers get something other than the call itself (a copy).
        self._hands = type(self)._handed is not ScriptedDouble._handed

    # -- what a boundary says ----------------------------------------------------------

    def _spec(self, step: S) -> P:
        """The step as ``pending_steps`` hands it out."""
        raise NotImplementedError

    def _unconsumed(self, pending: tuple[S, ...]) -> BaseException:
        """The error of ``assert_complete()`` for the steps left."""
        raise NotImplementedError

    def _unexpected(self, call: C, candidates: tuple[S, ...], grouped: bool) -> BaseException:
        """The error of a call that no step of the next position answers.

        ``candidates`` are that position's steps (empty when the script is done).
        """
        raise NotImplementedError

    def _rejected(self, call: C, same: tuple[S, ...], grouped: bool) -> BaseException:
        """The error of a call every matcher of the steps that could answer it rejected."""
        raise NotImplementedError

    def _invalid_callable(
        self, step: S, role: Literal["match", "responder"], problem: CallableProblem
    ) -> BaseException:
        """The malformed-step error of a matcher or responder that did ``problem``."""
        if problem == "awaitable":
            detail = f"'{role}' returned an awaitable; a matcher must answer at once"
        else:
            detail = f"'{role}' could not be called with the {self._call_type}"
        return self._malformed(step, role, detail)

    def _malformed(
        self, step: S, role: Literal["match", "responder"], detail: str
    ) -> BaseException:
        """The malformed-step error saying ``detail`` of ``step``'s matcher or responder."""
        raise NotImplementedError

    def _handed(self, call: C) -> Any:
        """What a matcher or responder is given for ``call`` (a copy, unless it is read-only)."""
        return call

    def _matches_value(self, match: Any, call: C) -> bool:
        """Whether ``call`` meets a matcher that is not callable (a boundary's own kind)."""
        raise TypeError(f"a matcher must be callable, got {type(match).__name__}")

    # -- inspection --------------------------------------------------------------------

    @property
    def remaining_steps(self) -> int:
        """How many scripted steps are not yet consumed (group members count one each)."""
        return len(self._script)

    @property
    def pending_steps(self) -> tuple[P, ...]:
        """The steps not yet consumed, in script order (group members included)."""
        return tuple(self._spec(step) for step in self._script)

    def assert_complete(self) -> None:
        """Raise the boundary's ``Unconsumed…`` error when scripted steps are left.

        A double that remembers violations first raises the first one of the run, if
        there was one.
        """
        if self._violation is not None:
            raise self._violation
        self._script.assert_complete(self._unconsumed)

    def __agents_testing_snapshot__(self) -> object:
        """What ``to_snapshot`` records of the double: its calls."""
        return self.calls  # type: ignore[attr-defined]

    # -- answering a call --------------------------------------------------------------

    def _take(self, call: C, target: str | None = None) -> S:
        """Consume and return the step that answers ``call``, or raise the boundary's error.

        The candidates are the next position's steps whose ``target`` is ``target`` (every
        one when it is ``None``); the first whose matcher accepts the call answers it.
        Synchronous: concurrent calls consume steps in the order they arrive.
        """
        script = self._script
        # A plain step, the common case, is read and taken straight from the script's
        # queue: the method calls of StepScript's own protocol would add a few percent to
        # a realtime round trip.
        entries = script._entries
        if entries and not isinstance(head := entries[0], Entry):
            if head.target != target:
                self._fail(self._unexpected(call, (head,), False))
            if head.match is None or self._accepts(head, call):
                entries.popleft()
                script._consumed += 1
                return head
            self._fail(self._rejected(call, (head,), False))
        if not script:
            self._fail(self._unexpected(call, (), False))
        candidates = script.candidates()
        same = tuple(step for step in candidates if target is None or step.target == target)
        if not same:
            self._fail(self._unexpected(call, candidates, True))
        for step in same:
            if self._accepts(step, call):
                script.take_candidate(step)
                return step
        self._fail(self._rejected(call, same, True))

    def _accepts(self, step: S, call: C) -> bool:
        """The verdict of ``step``'s matcher on ``call``: only ``False`` rejects.

        A matcher's own exception propagates as it is and leaves the step pending.
        """
        match = step.match
        if match is None:
            return True
        if not callable(match):
            return self._matches_value(match, call)
        try:
            verdict = match(self._handed(call) if self._hands else call)
        except self._errors as error:
            # One of ours (a cassette's request diff): remembered like any violation.
            self._remember(error)
            raise
        except TypeError as error:
            if self._checks_calls and raised_by_the_call(error):
                self._fail(self._invalid_callable(step, "match", "call"), error)
            raise
        if verdict is True or verdict is False:
            return verdict  # the common answer, at no further cost
        if inspect.isawaitable(verdict):
            close_awaitable(verdict)
            if self._checks_calls:
                self._fail(self._invalid_callable(step, "match", "awaitable"))
        # Any other value (None, 0, an array, an awaitable) accepts the call.
        return True

    async def _call_responder(self, step: S, call: C, responder: Any) -> Any:
        """What ``responder`` (sync or async) answers ``call`` with, awaited."""
        try:
            value = responder(self._handed(call) if self._hands else call)
        except TypeError as error:
            if self._checks_calls and raised_by_the_call(error):
                self._fail(self._invalid_callable(step, "responder", "call"), error)
            raise
        if inspect.isawaitable(value):
            value = await value
        return value

    def _remember(self, error: BaseException) -> None:
        if self._remembers and self._violation is None:
            self._violation = error

    def _fail(self, error: BaseException, cause: BaseException | None = None) -> NoReturn:
        """Raise a violation of the script, remembered first (when the double remembers)."""
        self._remember(error)
        if cause is not None:
            raise error from cause
        raise error


# Public names show agents_testing.core, however this module was first imported.
from ..lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
