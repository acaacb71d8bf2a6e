"""Detached snapshots of call data.

Whatever the SDK or the test hands to a double may be mutated afterwards; recorded
history must not change with it. :func:`detach` copies plain data and pydantic models
deeply, copies other objects the way ``copy.deepcopy`` does, keeps live runtime
objects (functions, classes, the SDK's tools, handoffs, agents, models, output schemas,
tracing, playback trackers, streamed audio inputs and sessions) by identity, and copies
cyclic data as cyclic data. A value it cannot copy raises :class:`UncopyableValue`
naming where the value sat.
"""

from __future__ import annotations

import contextlib
import copyreg
import sys
import types
import weakref
from collections.abc import Mapping
from operator import is_
from types import MappingProxyType
from typing import Any, TypeVar, get_args, get_origin

from pydantic import BaseModel
from pydantic_core import PydanticUndefined

from .._errors import UncopyableValue
from .._values import safe_repr

__all__ = ["detach", "readonly"]

T = TypeVar("T")

_ATOMIC: frozenset[type] = frozenset(
    {str, int, float, bool, bytes, complex, type(None), frozenset, range, type(Ellipsis)}
)

# Behaviour, not data: copying them would break identity and copy nothing worth having.
_KEPT: frozenset[type] = frozenset(
    {
        type,
        type(NotImplemented),
        types.FunctionType,
        types.BuiltinFunctionType,
        types.MethodType,
        types.CodeType,
        weakref.ref,
        property,
    }
)

# Live SDK objects keep their identity wherever they sit (module, class name); a
# class whose module is not imported cannot have instances, so nothing is imported.
_LIVE_CLASSES: tuple[tuple[str, str], ...] = (
    ("agents.tool", "Tool"),
    ("agents.handoffs", "Handoff"),
    ("agents.agent", "AgentBase"),
    ("agents.agent_output", "AgentOutputSchemaBase"),
    ("agents.guardrail", "InputGuardrail"),
    ("agents.guardrail", "OutputGuardrail"),
    ("agents.models.interface", "Model"),
    ("agents.computer", "Computer"),
    ("agents.computer", "AsyncComputer"),
    ("agents.mcp.server", "MCPServer"),
    ("agents.tracing.spans", "Span"),
    ("agents.tracing.traces", "Trace"),
    ("agents.realtime.model", "RealtimeModel"),
    ("agents.realtime.model", "RealtimePlaybackTracker"),
    ("agents.voice.input", "StreamedAudioInput"),
    ("agents.voice.model", "StreamedTranscriptionSession"),
    ("agents.voice.model", "STTModel"),
    ("agents.voice.model", "TTSModel"),
    ("agents.sandbox.session.base_sandbox_session", "BaseSandboxSession"),
)

_live_by_kind: dict[type, bool] = {}


class _Failure(Exception):
    """An uncopyable value met while copying; path segments are added while unwinding."""

    def __init__(self, value: object, error: BaseException) -> None:
        super().__init__()
        self.value = value
        self.error = error
        self.segments: list[str] = []

    def within(self, segment: str) -> _Failure:
        self.segments.append(segment)
        return self


def detach(value: T, *, name: str = "value", wrap_errors: bool = True) -> T:
    """Return a deep copy of ``value`` that shares no mutable state with it.

    A value that cannot be copied raises, by default, :class:`UncopyableValue` naming
    where it sat (``name`` starts the path: ``detach(usage, name="raw_usage")`` reports
    ``raw_usage['a']``). With ``wrap_errors=False`` the copy's own exception object is
    re-raised instead, unwrapped, with that explanation attached as a PEP 678 note
    (Python 3.11+), as the SDK's built-in doubles behave.
    """
    try:
        return _detach(value, {})  # type: ignore[no-any-return]
    except _Failure as failure:
        original, wrapped = failure.error, _uncopyable(name, failure)
    except RecursionError as error:
        original = error
        wrapped = UncopyableValue(
            name,
            _type_name(value),
            f"it is nested more deeply than the interpreter's recursion limit "
            f"({sys.getrecursionlimit()}) allows to copy",
        )
    if wrap_errors:
        raise wrapped from original
    # Raised outside the handler, so the caller's exception is not chained to ours.
    raise _noted(original, wrapped)


def _noted(error: BaseException, explanation: UncopyableValue) -> BaseException:
    """``error`` itself, carrying ``explanation``'s message as a note where Python has notes."""
    add_note = getattr(error, "add_note", None)
    if add_note is not None:
        # A value's exception may refuse attributes (``__slots__`` on a C type, a frozen
        # class): the note is a courtesy, the original exception is the contract.
        with contextlib.suppress(Exception):
            add_note(f"agents-testing: {explanation}")
    return error


def readonly(
    mapping: Mapping[str, Any], *, name: str = "value", wrap_errors: bool = True
) -> Mapping[str, Any]:
    """A read-only, detached view of ``mapping`` (copy failures as in :func:`detach`)."""
    return MappingProxyType(detach(dict(mapping), name=name, wrap_errors=wrap_errors))


def _uncopyable(name: str, failure: _Failure) -> UncopyableValue:
    path = name + "".join(reversed(failure.segments))
    error = failure.error
    return UncopyableValue(
        path,
        _type_name(failure.value),
        # The copy error's class only: its text may repeat the value, which can be data
        # that must not reach a log; the error itself is the cause.
        f"a {_type_name(failure.value)} cannot be copied ({type(error).__name__}, the cause)",
    )


def _type_name(value: object) -> str:
    kind = type(value)
    module = getattr(kind, "__module__", None)
    if module in (None, "builtins"):
        return kind.__qualname__
    return f"{module}.{kind.__qualname__}"


def _detach(value: Any, memo: dict[int, Any]) -> Any:
    kind = type(value)
    if kind in _ATOMIC:
        return value
    known = memo.get(id(value))
    if known is not None:
        return known
    if kind is dict:
        return _detach_dict(value, memo)
    if kind is list:
        copied: list[Any] = []
        memo[id(value)] = copied
        append = copied.append
        for item in value:
            if type(item) in _ATOMIC:
                append(item)
                continue
            try:
                append(_detach(item, memo))
            except _Failure as failure:
                raise failure.within(f"[{len(copied)}]") from None
        return copied
    if kind is tuple:
        return _detach_tuple(value, memo)
    return _detach_other(value, kind, memo)


def _detach_dict(value: dict[Any, Any], memo: dict[int, Any]) -> dict[Any, Any]:
    copied: dict[Any, Any] = {}
    memo[id(value)] = copied
    for key, item in value.items():
        if type(key) not in _ATOMIC:
            try:
                key = _detach(key, memo)
            except _Failure as failure:
                raise failure.within(f" key {safe_repr(key, 60)}") from None
        if type(item) in _ATOMIC:
            copied[key] = item
            continue
        try:
            copied[key] = _detach(item, memo)
        except _Failure as failure:
            raise failure.within(f"[{safe_repr(key, 60)}]") from None
    return copied


def _detach_tuple(value: tuple[Any, ...], memo: dict[int, Any]) -> tuple[Any, ...]:
    items: list[Any] = []
    append = items.append
    for item in value:
        if type(item) in _ATOMIC:
            append(item)
            continue
        try:
            append(_detach(item, memo))
        except _Failure as failure:
            raise failure.within(f"[{len(items)}]") from None
    # A cycle through the tuple may have copied it already; that copy is the one.
    known = memo.get(id(value))
    if known is not None:
        return known  # type: ignore[no-any-return]
    copied = value if all(map(is_, items, value)) else tuple(items)
    memo[id(value)] = copied
    return copied


def _detach_fields(state: Mapping[str, Any], memo: dict[int, Any]) -> dict[str, Any]:
    """Copy an object's attribute mapping; failures are reported as ``.name``."""
    copied: dict[str, Any] = {}
    for name, item in state.items():
        if type(item) in _ATOMIC:
            copied[name] = item
            continue
        try:
            copied[name] = _detach(item, memo)
        except _Failure as failure:
            raise failure.within(f".{name}") from None
    return copied


def _detach_other(value: Any, kind: type, memo: dict[int, Any]) -> Any:
    if kind in _KEPT or issubclass(kind, type) or _is_live(kind):
        return value
    if isinstance(value, BaseModel):
        return _detach_model(value, type(value), memo)
    if kind is set:
        members: set[Any] = set()
        memo[id(value)] = members
        for member in value:
            try:
                members.add(member if type(member) in _ATOMIC else _detach(member, memo))
            except _Failure as failure:
                raise failure.within(f" member {safe_repr(member, 60)}") from None
        return members
    if kind is bytearray:
        return bytearray(value)
    if kind is MappingProxyType:
        copied = MappingProxyType(_detach(dict(value), memo))
        memo[id(value)] = copied
        return copied
    return _detach_reduced(value, kind, memo)


def _detach_model(value: BaseModel, kind: type[BaseModel], memo: dict[int, Any]) -> BaseModel:
    # What BaseModel.__deepcopy__ does, with failures reported by field name.
    copied = kind.__new__(kind)
    memo[id(value)] = copied
    setter = object.__setattr__
    setter(copied, "__dict__", _detach_fields(value.__dict__, memo))
    extra = value.__pydantic_extra__
    setter(copied, "__pydantic_extra__", None if extra is None else _detach_fields(extra, memo))
    setter(copied, "__pydantic_fields_set__", set(getattr(value, "__pydantic_fields_set__", ())))
    private = getattr(value, "__pydantic_private__", None)
    if private is not None:
        private = _detach_fields(
            {key: item for key, item in private.items() if item is not PydanticUndefined}, memo
        )
    setter(copied, "__pydantic_private__", private)
    return copied


def _detach_reduced(value: Any, kind: type, memo: dict[int, Any]) -> Any:
    """Copy any other object through its copy protocol, as ``copy.deepcopy`` does."""
    try:
        copier = getattr(value, "__deepcopy__", None)
        if copier is not None:
            copied = copier(memo)
            memo[id(value)] = copied
            _keep_alive(value, memo)
            return copied
        reductor = copyreg.dispatch_table.get(kind)
        reduced = reductor(value) if reductor is not None else value.__reduce_ex__(4)
    except _Failure:
        raise
    except Exception as error:
        raise _Failure(value, error) from None
    if isinstance(reduced, str):
        return value
    # The reduce tuple may hold temporaries whose ids must not be reused meanwhile.
    _keep_alive(reduced, memo)
    return _reconstruct(value, memo, *reduced)


def _reconstruct(
    value: Any,
    memo: dict[int, Any],
    func: Any,
    args: tuple[Any, ...],
    state: Any = None,
    listiter: Any = None,
    dictiter: Any = None,
    *_: Any,
) -> Any:
    try:
        copied = func(*(_detach(arg, memo) for arg in args)) if args else func()
    except _Failure:
        raise
    except Exception as error:
        raise _Failure(value, error) from None
    memo[id(value)] = copied
    if state is not None:
        slots = None
        if type(state) is dict:
            state = _detach_fields(state, memo)
        elif type(state) is tuple and len(state) == 2:
            fields, slots = state
            state = (
                None if fields is None else _detach_fields(fields, memo),
                None if slots is None else _detach_fields(slots, memo),
            )
        else:
            state = _detach(state, memo)
        try:
            if hasattr(copied, "__setstate__"):
                copied.__setstate__(state)
            else:
                if type(state) is tuple and len(state) == 2:
                    state, slots = state
                if state is not None:
                    copied.__dict__.update(state)
                if slots is not None:
                    for key, item in slots.items():
                        setattr(copied, key, item)
        except Exception as error:
            raise _Failure(value, error) from None
    if listiter is not None:
        for index, item in enumerate(listiter):
            try:
                copied.append(_detach(item, memo))
            except _Failure as failure:
                raise failure.within(f"[{index}]") from None
    if dictiter is not None:
        for key, item in dictiter:
            try:
                copied[_detach(key, memo)] = _detach(item, memo)
            except _Failure as failure:
                raise failure.within(f"[{safe_repr(key, 60)}]") from None
    return copied


def _keep_alive(value: object, memo: dict[int, Any]) -> None:
    # The same slot copy.deepcopy uses, so __deepcopy__ methods given our memo agree.
    memo.setdefault(id(memo), []).append(value)


def _is_live(kind: type) -> bool:
    live = _live_by_kind.get(kind)
    if live is None:
        live = _live_by_kind[kind] = issubclass(kind, _live_classes())
    return live


def _live_classes() -> tuple[type, ...]:
    found: list[type] = []
    for module_name, name in _LIVE_CLASSES:
        module = sys.modules.get(module_name)
        target = getattr(module, name, None) if module is not None else None
        if target is None:
            continue
        for member in get_args(target) or (target,):
            origin = get_origin(member) or member
            if isinstance(origin, type):
                found.append(origin)
    return tuple(found)


# Public names show agents_testing.core, however this module was first imported.
from ..lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
