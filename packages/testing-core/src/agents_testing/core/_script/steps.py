"""Steps a test writes as dicts: the call they answer, an optional matcher, one outcome.

``{"method": "exec", "result": ..., "match": ...}`` (sandbox), ``{"tool": "rate",
"responder": ...}`` (MCP): a step names what the call must name, may carry a ``match``,
and has exactly one outcome, a ``result``, a ``responder`` (a function of the recorded
call returning the result) or an ``error`` to raise (a boundary may add outcomes and
keys of its own, such as the MCP server's ``crash`` and ``delay``). A boundary with such steps
subclasses :class:`StepReader` with what is particular to it (the key and its values, how
a result is checked and snapshotted, its error) and gets each step checked when the
script is built, ``any_order()`` groups included; :class:`DictStep` is the checked step.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar, Generic, Literal, NoReturn, TypeVar

from .._errors import InvalidStepError, error_fields
from .._values import callable_problem, safe_repr
from .group import GroupEntry, build_entry

__all__ = ["OUTCOMES", "DictStep", "OutcomeKind", "Part", "StepReader"]

OutcomeKind = Literal["result", "responder", "error"]
OUTCOMES: tuple[OutcomeKind, ...] = ("result", "responder", "error")

Part = Literal[
    "steps",
    "mapping",
    "name",
    "unknown",
    "fields",
    "matcher",
    "outcome",
    "responder",
    "error",
    "result",
    "value",
    "group",
    "fault",
]
"""What a refusal is about, for the boundary's error: the sequence of steps, a step that
is no dict, its name missing or not a str, a name the boundary does not know, unknown
keys, the matcher, the number of outcomes, the responder, the error, a result that
cannot be kept, an outcome value of the wrong kind, an ``any_order()`` group, or a fault
the boundary scripts (a delay, a crash)."""


@dataclasses.dataclass(frozen=True)
class DictStep:
    """A checked step: ``target`` is what the call must name; ``value`` is the snapshotted
    result, the responder or the error, as ``kind`` (an :data:`OutcomeKind`, or an outcome
    the boundary adds) says."""

    input_index: int
    target: str
    kind: str
    value: Any
    match: Any

    #: The key a step dict names its call with.
    name_key: ClassVar[str] = "name"

    def spec(self) -> Any:
        """The step as a fresh step dict (the boundary's ``TypedDict``), for inspection and
        error reports.

        Changing it changes nothing in the script; responders, matchers and error objects
        are the ones the test scripted.
        """
        value = self.fresh_result() if self.kind == "result" else self.value
        spec: dict[str, Any] = {self.name_key: self.target, self.kind: value}
        if self.match is not None:
            spec["match"] = self.fresh_match()
        return spec

    def fresh_result(self) -> Any:
        """A copy of the result to hand out, shared with nothing queued."""
        return self.value

    def fresh_match(self) -> Any:
        """The matcher as a step dict shows it."""
        return self.match


St = TypeVar("St", bound=DictStep)


@error_fields
class _Refused(InvalidStepError):
    """A step refused while it was read (``reason`` is the :data:`Part`); the boundary's
    own error is made from it."""

    name: str | None = None

    @classmethod
    def of(cls, part: str, name: str | None, detail: str) -> _Refused:
        return cls(detail, reason=part, input_index=0, name=name, detail=detail)

    @classmethod
    def regrouped(cls, error: InvalidStepError | None, detail: str) -> _Refused:
        if error is None:
            return cls.of("group", None, detail)
        return cls.of(error.reason, getattr(error, "name", None), detail)


class StepReader(Generic[St]):
    """Reads a boundary's step dicts into its steps, checking each one.

    A subclass names the key (``name_key``), what it names (``name_noun``) and the
    recorded call's class (``call_type``, for the messages about matchers and
    responders), and writes :meth:`invalid`, the boundary's error for a refused part,
    and :meth:`make`, its step. The other hooks have defaults: any name, a callable
    matcher, no default outcome, an ``Exception`` to raise, a result kept as it is. A
    boundary with outcomes of its own lists them in ``outcomes`` and checks their values
    in :meth:`other_outcome`; further optional keys (``extra_keys``) it reads in
    :meth:`make` from the step dict.
    """

    name_key: ClassVar[str]
    name_noun: ClassVar[str]
    call_type: ClassVar[str]
    outcomes: ClassVar[tuple[str, ...]] = OUTCOMES
    extra_keys: ClassVar[tuple[str, ...]] = ()

    def __init__(self, *, extra_checks: bool = False) -> None:
        self.extra_checks = extra_checks
        self.keys = frozenset({self.name_key, "match", *self.outcomes, *self.extra_keys})

    # -- what a boundary says ----------------------------------------------------------

    def invalid(self, part: Part, index: int, name: str | None, detail: str) -> BaseException:
        """The boundary's error for step ``index`` (0-based) refused at ``part``."""
        raise NotImplementedError

    def make(
        self, index: int, name: str, kind: str, value: Any, match: Any, spec: dict[str, Any]
    ) -> St:
        """The boundary's step of checked parts; ``spec`` is the step dict as read, for the
        boundary's own keys (refused with :meth:`refuse`)."""
        raise NotImplementedError

    def check_name(self, index: int, name: str) -> None:
        """Refuse a name the boundary does not know (with :meth:`refuse`)."""

    def matcher(self, index: int, name: str, match: object) -> object:
        """The matcher as the step keeps it; a callable of the call by default."""
        problem = callable_problem(match, "match", self.call_type)
        if problem is not None:
            self.refuse("matcher", name, problem)
        return match

    def absent_outcome(self, name: str) -> tuple[OutcomeKind, object] | None:
        """The outcome of a step that gives none, when the boundary has one."""
        return None

    def other_outcome(self, name: str, kind: str, value: object) -> object:
        """The value of an outcome the boundary adds to ``outcomes``, checked (refused with
        :meth:`refuse`), as the step keeps it."""
        return value

    def error_problem(self, error: object) -> str | None:
        """Why ``error`` cannot be raised by a step, or ``None``."""
        from .._values import exception_problem

        return exception_problem(error)

    def result(self, index: int, name: str, result: object) -> object:
        """The result as the step keeps it (checked, snapshotted)."""
        return result

    def refuse(
        self, part: Part, name: str | None, detail: str, cause: BaseException | None = None
    ) -> NoReturn:
        """Refuse the step being read: the boundary's error for ``part`` is raised."""
        raise _Refused.of(part, name, detail) from cause

    # -- reading -----------------------------------------------------------------------

    def build(self, steps: Iterable[object]) -> list[St | GroupEntry[St]]:
        """Every step (or ``any_order()`` group) checked, in order; the first one
        refused raises the boundary's error."""
        if isinstance(steps, (Mapping, str, bytes)) or not isinstance(steps, Iterable):
            detail = f"steps is a sequence of step dicts, got {type(steps).__name__}"
            raise self.invalid("steps", 0, None, detail)
        return [self.entry(index, raw) for index, raw in enumerate(steps)]

    def entry(self, index: int, raw: object) -> St | GroupEntry[St]:
        """Script position ``index``: one step, or an ``any_order()`` group of them."""
        try:
            return build_entry(raw, lambda value: self._read(index, value), _Refused.regrouped)
        except _Refused as refused:
            failure = refused
        # Raised outside the handler: only the cause of the refusal is chained to it.
        part: Any = failure.reason
        raise self.invalid(part, index, failure.name, failure.detail) from failure.__cause__

    def _read(self, index: int, raw: object) -> St:
        spec = self._mapping(raw)
        name = spec.get(self.name_key)
        if not isinstance(name, str):
            self.refuse("name", None, f"a step needs a {self.name_key!r} naming {self.name_noun}")
        name = str.__str__(name)  # a plain str, whatever subclass was given
        unknown = [key for key in spec if not (type(key) is str and key in self.keys)]
        if unknown:
            self.refuse(
                "fields",
                name,
                f"unknown key(s) {', '.join(safe_repr(key, 40) for key in unknown[:5])}; "
                f"use {', '.join(map(repr, sorted(self.keys)))}",
            )
        self.check_name(index, name)
        match = spec.get("match")
        if match is not None:
            match = self.matcher(index, name, match)
        given = [key for key in self.outcomes if key in spec]
        kind: str
        value: object
        absent = self.absent_outcome(name) if not given else None
        if absent is not None:
            kind, value = absent
        elif len(given) != 1:
            found = ", ".join(given) if given else "none"
            *first, last = map(repr, self.outcomes)
            self.refuse(
                "outcome",
                name,
                f"give exactly one of {', '.join(first)} or {last} (found: {found})",
            )
        else:
            kind = given[0]
            value = spec[kind]
        if kind == "responder":
            problem = callable_problem(value, "responder", self.call_type)
            if problem is not None:
                self.refuse("responder", name, problem)
        elif kind == "error":
            problem = self.error_problem(value)
            if problem is not None:
                self.refuse("error", name, f"'error': {problem}")
        elif kind == "result":
            value = self.result(index, name, value)
        else:
            value = self.other_outcome(name, kind, value)
        return self.make(index, name, kind, value, match, spec)

    def _mapping(self, raw: object) -> dict[Any, Any]:
        if not isinstance(raw, Mapping):
            self.refuse("mapping", None, f"a step is a dict, got {type(raw).__name__}")
        try:
            # One copy, read once: a mapping that changes (or fails) later cannot matter.
            return dict(raw)
        except Exception as error:
            detail = f"the step mapping could not be read ({type(error).__name__})"
            self.refuse("mapping", None, detail, error)


# Public names show agents_testing.core, however this module was first imported.
from ..lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
