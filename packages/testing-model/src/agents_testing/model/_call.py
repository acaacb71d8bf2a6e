"""The recorded form of one model request."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, TypeAlias, cast

from agents_testing.core import SnapshotCache, detach

from ._request import ModelRequest

if TYPE_CHECKING:
    from agents.agent_output import AgentOutputSchemaBase
    from agents.handoffs import Handoff
    from agents.items import TResponseInputItem
    from agents.model_settings import ModelSettings
    from agents.models.interface import ModelTracing
    from agents.tool import Tool
    from openai.types.responses.response_prompt_param import ResponsePromptParam

__all__ = ["InputMessage", "ModelCall", "ToolOutput", "answer_records"]

# What a tool call's output item carries: text for function tools, a list of content
# parts for structured outputs, a mapping for a computer screenshot.
ToolOutput: TypeAlias = "str | list[Any] | dict[str, Any]"


class InputMessage(NamedTuple):
    """One message of a recorded request: its role and its text (text parts joined)."""

    role: str
    text: str


@dataclasses.dataclass(frozen=True, init=False)
class ModelCall:
    """One request the runner made to a :class:`ScriptedModel`, as the SDK normalized it.

    ``input``, ``model_settings`` and ``prompt`` are detached snapshots taken at the
    call: each access returns a fresh copy, so neither later mutation by the runner
    nor by the test changes what was recorded. ``tools``, ``handoffs``,
    ``output_schema`` and ``tracing`` are the very objects the runner passed
    (``tools`` and ``handoffs`` come in a new list each time).

    A test may build one itself from the same eleven fields (to unit-test a responder,
    for one); the snapshots are taken then. Calls compare equal field by field, and
    ``repr()``/``str()`` show every field with its value, as a frozen dataclass does.
    """

    __slots__ = (
        "_answer",
        "_conversation_id",
        "_handoffs",
        "_input",
        "_model_settings",
        "_output_schema",
        "_previous_response_id",
        "_prompt",
        "_streamed",
        "_system_instructions",
        "_tools",
        "_tracing",
    )

    if TYPE_CHECKING:
        # The private slots behind the fields (not fields themselves).
        _input: str | tuple[Any, ...]
        _model_settings: ModelSettings
        _prompt: ResponsePromptParam | None
        _tools: tuple[Tool, ...]
        _handoffs: tuple[Handoff[Any, Any], ...]
        _output_schema: AgentOutputSchemaBase | None
        _tracing: ModelTracing
        _system_instructions: str | None
        _previous_response_id: str | None
        _conversation_id: str | None
        _streamed: bool
        _answer: tuple[Any, ...] | None

    # The fields, in constructor order; each is served by a read-only property set below.
    system_instructions: str | None
    input: str | list[TResponseInputItem]
    model_settings: ModelSettings
    tools: list[Tool]
    output_schema: AgentOutputSchemaBase | None
    handoffs: list[Handoff[Any, Any]]
    tracing: ModelTracing
    previous_response_id: str | None = None
    conversation_id: str | None = None
    prompt: ResponsePromptParam | None = None
    streamed: bool = False

    def __init__(
        self,
        system_instructions: str | None,
        input: str | Sequence[TResponseInputItem],
        model_settings: ModelSettings,
        tools: Sequence[Tool],
        output_schema: AgentOutputSchemaBase | None,
        handoffs: Sequence[Handoff[Any, Any]],
        tracing: ModelTracing,
        previous_response_id: str | None = None,
        conversation_id: str | None = None,
        prompt: ResponsePromptParam | None = None,
        streamed: bool = False,
    ) -> None:
        # Snapshots are taken now, as for a recorded call; a value that cannot be copied
        # raises its own exception.
        parts = ModelRequest(
            system_instructions,
            cast(Any, input),
            model_settings,
            list(tools),
            output_schema,
            list(handoffs),
            tracing,
            previous_response_id,
            conversation_id,
        )
        snapshot = input if isinstance(input, str) else tuple(input)
        self._keep(
            parts,
            streamed,
            detach(snapshot, name="input", wrap_errors=False),
            detach(model_settings, name="model_settings", wrap_errors=False),
            None if prompt is None else detach(prompt, name="prompt", wrap_errors=False),
        )

    @classmethod
    def _record(
        cls,
        cache: SnapshotCache,
        request: ModelRequest,
        *,
        streamed: bool,
        previous_settings: ModelSettings | None = None,
        wrap_errors: bool = False,
    ) -> ModelCall:
        """Record a request without the constructor's checks, sharing unchanged snapshots.

        A value that cannot be copied raises before anything is recorded: its own
        exception (``wrap_errors=False``) or ``UncopyableValue``.
        """
        # The runner resends the whole (rebuilt) conversation every turn; the cache
        # lets unchanged items share one private snapshot instead of being copied again.
        input = request.input
        snapshot = (
            input
            if isinstance(input, str)
            else cache.snapshot_sequence(input, name="input", wrap_errors=wrap_errors)
        )
        settings = cache.snapshot_like(
            request.model_settings,
            previous_settings,
            name="model_settings",
            wrap_errors=wrap_errors,
        )
        prompt = request.prompt
        recorded_prompt = (
            None if prompt is None else detach(prompt, name="prompt", wrap_errors=wrap_errors)
        )
        call = object.__new__(cls)
        call._keep(request, streamed, snapshot, settings, recorded_prompt)
        return call

    def _keep(
        self,
        request: ModelRequest,
        streamed: bool,
        input: str | tuple[Any, ...],
        model_settings: ModelSettings,
        prompt: ResponsePromptParam | None,
    ) -> None:
        """Set the private slots: the snapshots given, the other parts as passed."""
        setter = object.__setattr__
        setter(self, "_input", input)
        setter(self, "_model_settings", model_settings)
        setter(self, "_prompt", prompt)
        setter(self, "_tools", tuple(request.tools))
        setter(self, "_handoffs", tuple(request.handoffs))
        setter(self, "_output_schema", request.output_schema)
        setter(self, "_tracing", request.tracing)
        setter(self, "_system_instructions", request.system_instructions)
        setter(self, "_previous_response_id", request.previous_response_id)
        setter(self, "_conversation_id", request.conversation_id)
        setter(self, "_streamed", streamed)
        setter(self, "_answer", None)

    def __getstate__(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__ if hasattr(self, name)}

    def __setstate__(self, state: dict[str, Any]) -> None:
        # Copies and pickles restore the private slots; the record stays read-only.
        for name, value in state.items():
            object.__setattr__(self, name, value)

    def _answered(self, output: Sequence[Any]) -> None:
        """Keep detached copies of the tool and handoff calls the model answered with."""
        object.__setattr__(self, "_answer", answer_records(output))

    def _answered_with(self, records: tuple[Any, ...]) -> None:
        """Keep ``records`` (made by :func:`answer_records`) as the calls answered with."""
        object.__setattr__(self, "_answer", records)

    @property
    def messages(self) -> list[InputMessage]:
        """The messages of the input in order, as ``InputMessage(role, text)``.

        A string input is one ``user`` message; tool calls, their outputs and other
        items are left out (see :meth:`tool_outputs`).
        """
        if isinstance(self._input, str):
            return [InputMessage("user", self._input)]
        return [
            InputMessage(str(item["role"]), _text(item.get("content")))
            for item in self._input
            if _is_message(item)
        ]

    @property
    def user_text(self) -> str | None:
        """The text of the last user message of the request; None when it has none."""
        for message in reversed(self.messages):
            if message.role == "user":
                return message.text
        return None

    def tool_outputs(self) -> dict[str, ToolOutput]:
        """The output of every tool call answered in the input, by call id, in order."""
        if isinstance(self._input, str):
            return {}
        found: dict[str, ToolOutput] = {}
        for item in self._input:
            if (
                isinstance(item, Mapping)
                and str(item.get("type", "")).endswith("_call_output")
                and isinstance(item.get("call_id"), str)
                and "output" in item
            ):
                found[item["call_id"]] = detach(item["output"])
        return found

    def tool_output(self, call_id: str) -> ToolOutput | None:
        """The output the input carries for tool call ``call_id``; None when it has none."""
        return self.tool_outputs().get(call_id)

    def __agents_testing_snapshot__(self) -> object:
        """The request as plain data for ``to_snapshot``: tools and handoffs by name."""
        schema = self._output_schema
        return {
            "system_instructions": self._system_instructions,
            "input": self.input,
            "model_settings": self._model_settings.to_json_dict(),
            "tools": [getattr(tool, "name", type(tool).__name__) for tool in self._tools],
            "handoffs": [handoff.tool_name for handoff in self._handoffs],
            "output_type": None if schema is None else schema.name(),
            "previous_response_id": self._previous_response_id,
            "conversation_id": self._conversation_id,
            "prompt": self.prompt,
            "streamed": self._streamed,
        }


# -- the eleven fields --------------------------------------------------------------------
# Each field is a read-only property over a private slot: reading ``input``,
# ``model_settings`` or ``prompt`` returns a fresh copy of the snapshot. Installed after
# the dataclass is made, so that the dataclass sees plain fields.


def _get_input(call: ModelCall) -> str | list[TResponseInputItem]:
    """A fresh detached copy of the input items (or the input string) the runner sent."""
    value = call._input
    if isinstance(value, str):
        return value
    return [detach(item) for item in value]


def _get_model_settings(call: ModelCall) -> ModelSettings:
    """A fresh detached copy of the resolved model settings of the request."""
    return detach(call._model_settings)


def _get_prompt(call: ModelCall) -> ResponsePromptParam | None:
    """A fresh detached copy of the prompt configuration, if any."""
    return None if call._prompt is None else detach(call._prompt)


def _get_tools(call: ModelCall) -> list[Tool]:
    """The tool objects the runner passed, in a new list."""
    return list(call._tools)


def _get_handoffs(call: ModelCall) -> list[Handoff[Any, Any]]:
    """The handoff objects the runner passed, in a new list."""
    return list(call._handoffs)


def _plain(slot: str, doc: str) -> property:
    def get(call: ModelCall) -> Any:
        return getattr(call, slot)

    return property(get, doc=doc)


_FIELD_PROPERTIES: dict[str, property] = {
    "system_instructions": _plain(
        "_system_instructions", "The system instructions of the request."
    ),
    "input": property(_get_input, doc=_get_input.__doc__),
    "model_settings": property(_get_model_settings, doc=_get_model_settings.__doc__),
    "tools": property(_get_tools, doc=_get_tools.__doc__),
    "output_schema": _plain(
        "_output_schema", "The output schema object the runner passed (identity kept)."
    ),
    "handoffs": property(_get_handoffs, doc=_get_handoffs.__doc__),
    "tracing": _plain("_tracing", "The tracing mode the runner passed."),
    "previous_response_id": _plain(
        "_previous_response_id", "The previous response id the runner passed, if any."
    ),
    "conversation_id": _plain("_conversation_id", "The conversation id the runner passed, if any."),
    "prompt": property(_get_prompt, doc=_get_prompt.__doc__),
    "streamed": _plain(
        "_streamed",
        "True for ``stream_response`` (``Runner.run_streamed``), False for ``get_response``.",
    ),
}
for _name, _served in _FIELD_PROPERTIES.items():
    setattr(ModelCall, _name, _served)
del _name, _served


def answer_records(output: Sequence[Any]) -> tuple[Any, ...]:
    """Detached records of the tool and handoff calls among ``output``, for trajectories.

    Messages and reasoning are left out: only calls make up a trajectory, and copying
    long texts on every call would cost every test.
    """
    return tuple(_call_record(item) for item in output if _is_call(item))


def _call_record(item: Any) -> Any:
    """A detached record of one call item; a function call keeps only its (immutable) strings."""
    if isinstance(item, Mapping):
        fields = item
    elif getattr(item, "type", None) == "function_call":
        fields = {name: getattr(item, name, None) for name in _FUNCTION_CALL_FIELDS}
    else:
        return detach(item)
    if fields.get("type") == "function_call" and all(
        isinstance(fields.get(name), (str, type(None))) for name in _FUNCTION_CALL_FIELDS
    ):
        return {name: fields.get(name) for name in _FUNCTION_CALL_FIELDS}
    return detach(item)


_FUNCTION_CALL_FIELDS = ("type", "name", "arguments", "call_id")


def _is_call(item: object) -> bool:
    kind = item.get("type") if isinstance(item, Mapping) else getattr(item, "type", None)
    return isinstance(kind, str) and kind.endswith("_call")


def _is_message(item: object) -> bool:
    return (
        isinstance(item, Mapping)
        and isinstance(item.get("role"), str)
        and item.get("type", "message") == "message"
    )


def _text(content: object) -> str:
    """The text of a message's content: the string itself, or its text parts joined."""
    if isinstance(content, str):
        return content
    if not isinstance(content, Sequence):
        return ""
    return "".join(
        part["text"]
        for part in content
        if isinstance(part, Mapping) and isinstance(part.get("text"), str)
    )


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
