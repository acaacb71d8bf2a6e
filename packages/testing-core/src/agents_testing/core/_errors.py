"""Error bases shared by every boundary.

Each boundary defines its own base on :class:`BoundaryError` (``ModelScriptError``,
``SandboxScriptError``, ...) and concrete errors that also inherit one of the kind bases
below, so tooling can treat "a step was left over" the same way for every double. A
concrete error is built as ``Error(message, *, field=value, ...)``: it declares its
fields as annotations under :func:`error_fields`, which writes the constructor, and it
pickles and copies as its message and those fields. Index fields are 0-based;
human-readable messages count from 1 (see :func:`ordinal`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import InitVar, dataclass
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

if TYPE_CHECKING:
    from typing_extensions import dataclass_transform
else:

    def dataclass_transform(**options: object) -> Callable[[Any], Any]:
        return lambda function: function


__all__ = [
    "AgentsTestingError",
    "BoundaryError",
    "IncompatibleOpenAIClient",
    "InvalidStepError",
    "ModelRequestBlocked",
    "NetworkBlocked",
    "UnconsumedStepsError",
    "UncopyableValue",
    "UnexpectedCallError",
    "UnsnapshottableValue",
    "error_fields",
    "ordinal",
]

E = TypeVar("E", bound=type)


def ordinal(index: int) -> int:
    """The 1-based number of a 0-based index, for messages meant for people."""
    return index + 1


class AgentsTestingError(Exception):
    """Base of every error raised by an agents-testing double.

    An error built as ``Error(message, *, field=value, ...)``, as the SDK's own testing
    errors are, names those keyword fields in ``_keyword_fields`` (:func:`error_fields`
    does): it then pickles and copies as its message and those fields.
    """

    _keyword_fields: ClassVar[tuple[str, ...]] = ()

    def __reduce__(self) -> str | tuple[Any, ...]:
        if not self._keyword_fields:
            return super().__reduce__()
        message = self.args[0] if self.args else ""
        fields = {name: getattr(self, name) for name in self._keyword_fields}
        return (_rebuild, (type(self), message, fields))


def _rebuild(
    kind: Callable[..., AgentsTestingError], message: object, fields: dict[str, Any]
) -> AgentsTestingError:
    return kind(message, **fields)


@dataclass(eq=False, repr=False)
class BoundaryError(AgentsTestingError):
    """Base of each boundary's own error base (``SandboxScriptError``, ...).

    Made with the message alone, or, in a subclass under :func:`error_fields`, with the
    message and the subclass's fields as keywords. A subclass that works something out
    from its fields does so in ``__post_init__(self, message)``, after calling
    ``super().__post_init__(message)``.
    """

    message: InitVar[str]

    def __post_init__(self, message: str) -> None:
        super().__init__(message)


@dataclass_transform(kw_only_default=True, eq_default=False, field_specifiers=(dataclasses.field,))
def error_fields(cls: E) -> E:
    """Give a :class:`BoundaryError` subclass the constructor of its annotated fields.

    ``Error(message, *, field=value, ...)``: each annotation of the class body is a
    keyword field (with its default when it has one); it is set on the error, and the
    error pickles and copies as its message and its fields. Equality, hashing and
    ``repr`` stay the exception's own.
    """
    made: Any = dataclass(kw_only=True, eq=False, repr=False)(cls)
    made._keyword_fields = tuple(item.name for item in dataclasses.fields(made) if item.init)
    return cls


@error_fields
class InvalidStepError(BoundaryError):
    """A scripted step was malformed and rejected before it was queued.

    ``reason`` is a machine-readable string (each boundary lists its own), ``input_index``
    the 0-based position of the step in the sequence the test passed and ``detail`` what
    is wrong (the message when not given).
    """

    reason: str
    input_index: int
    detail: str = ""

    def __post_init__(self, message: str) -> None:
        super().__post_init__(message)
        self.detail = self.detail or message


class UnexpectedCallError(AgentsTestingError):
    """The code under test made a call that the script did not expect."""


class UnconsumedStepsError(AgentsTestingError):
    """``assert_complete()`` found scripted steps that were never used.

    ``remaining_steps`` is how many are left (the same count as the double's own
    ``remaining_steps``); ``pending_steps`` holds them in script order, each in the
    boundary's own form. A boundary error whose constructor takes only the pending
    steps fills both with :meth:`_set_pending_steps` and pickles as it is.
    """

    remaining_steps: int
    pending_steps: tuple[object, ...]

    def _set_pending_steps(self, pending_steps: tuple[object, ...]) -> None:
        self.pending_steps = pending_steps
        self.remaining_steps = len(pending_steps)

    def __reduce__(self) -> str | tuple[Any, ...]:
        if self._keyword_fields:
            return super().__reduce__()
        return (type(self), (self.pending_steps,))


class ModelRequestBlocked(AgentsTestingError):
    """A real SDK model was about to call its provider while model requests are blocked.

    Raised by the pytest plugin's guard (``--agents-block-model-requests``) before any
    connection is attempted. ``test`` is the pytest node id, ``model`` the model class
    name and ``operation`` the method that was called.
    """

    def __init__(self, test: str, model: str, operation: str) -> None:
        self.test = test
        self.model = model
        self.operation = operation
        super().__init__(
            f"{test}: {model}.{operation}() would send a request to the model provider, "
            "but real model requests are blocked (--agents-block-model-requests or "
            "agents_block_model_requests = true). Use a scripted double instead, or mark "
            "the test with @pytest.mark.agents_allow_model_requests to let it reach the "
            "provider."
        )

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.test, self.model, self.operation))


class NetworkBlocked(AgentsTestingError, ConnectionError):
    """A test tried to reach a host outside this machine while the network is blocked.

    Raised by the pytest plugin's network block (``--agents-block-network``) instead of
    connecting or looking the name up. ``test`` is the pytest node id, ``host`` the host
    name or address, ``port`` the port (``None`` when not known yet) and ``operation``
    what was attempted: ``"connect"``, ``"name lookup"`` or ``"trace upload"``. It is a
    ``ConnectionError``, so code that handles an unreachable host handles it too; the
    test fails all the same.
    """

    def __init__(self, test: str, host: str, port: int | None, operation: str) -> None:
        self.test = test
        self.host = host
        self.port = port
        self.operation = operation
        target = host if port is None else f"{host}:{port}"
        super().__init__(
            f"{test}: {operation} of {target} was blocked: the network is blocked "
            "(--agents-block-network or agents_block_network = true) and only loopback "
            "addresses (127.0.0.0/8, ::1, localhost) may be reached. Replace the remote "
            "service with a double, a cassette or a local server, or mark the test with "
            "@pytest.mark.agents_allow_network (--agents-allow-network lifts an ini-enabled "
            "block for a whole run)."
        )

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.test, self.host, self.port, self.operation))


class UncopyableValue(AgentsTestingError):
    """A value handed to a double could not be snapshotted for its recorded history.

    ``path`` says where the value sat, starting from the name of what was recorded
    (``raw_usage['a']``, ``input[2]['content']``, ``settings.voice``); ``value_type`` is
    the qualified name of the value's type. The copy's own failure is the ``__cause__``.
    """

    def __init__(self, path: str, value_type: str, problem: str) -> None:
        self.path = path
        self.value_type = value_type
        self.problem = problem
        super().__init__(
            f"Cannot snapshot {path}: {problem}. Recorded history keeps detached copies, "
            "so pass plain data, pydantic models or objects that copy.deepcopy can copy "
            "(not locks, generators, open or closed files, memoryviews or other live "
            "resources)."
        )

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.path, self.value_type, self.problem))


class UnsnapshottableValue(AgentsTestingError, TypeError):
    """``to_snapshot`` met a value it cannot turn into plain JSON-able data.

    ``path`` says where the value sat (``value['items'][2]['output']``), ``value_type``
    is the qualified name of its type and ``problem`` what is wrong with it.
    """

    def __init__(self, path: str, value_type: str, problem: str) -> None:
        self.path = path
        self.value_type = value_type
        self.problem = problem
        super().__init__(
            f"Cannot snapshot {path}: {problem}. to_snapshot() takes plain data, pydantic "
            "models, dataclasses, enums, bytes, run results, the scripted doubles and their "
            "calls, captured traces, and any object with an __agents_testing_snapshot__() "
            "method; convert other values to one of these first."
        )

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.path, self.value_type, self.problem))


class IncompatibleOpenAIClient(AgentsTestingError, RuntimeError):
    """The installed ``openai`` cannot make the SDK's own values on this SDK release.

    openai 2.45 made a token-details field required that openai-agents 0.14 to 0.17 do
    not fill in, so those releases cannot make a ``Usage`` (and no run works) with a newer
    client. ``openai_version`` and ``agents_version`` are the installed releases; the
    pydantic error is the ``__cause__``.
    """

    def __init__(self, openai_version: str, agents_version: str) -> None:
        self.openai_version = openai_version
        self.agents_version = agents_version
        super().__init__(
            f"openai {openai_version} cannot make the SDK's Usage on openai-agents "
            f"{agents_version}: openai 2.45 made a token-details field required that "
            "openai-agents 0.14 to 0.17 do not fill in, so no run can work. Pin openai<2.45 "
            '(pip install "openai<2.45"), or upgrade openai-agents to 0.18 or later.'
        )

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.openai_version, self.agents_version))


# Public names show agents_testing.core, however this module was first imported.
from .lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
