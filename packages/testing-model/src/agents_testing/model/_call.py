"""The recorded form of one model request."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, TypeAlias

from agents_testing.core import SnapshotCache, detach, safe_repr

if TYPE_CHECKING:
    from agents.agent_output import AgentOutputSchemaBase
    from agents.handoffs import Handoff
    from agents.items import TResponseInputItem
    from agents.model_settings import ModelSettings
    from agents.models.interface import ModelTracing
    from agents.tool import Tool
    from openai.types.responses.response_prompt_param import ResponsePromptParam

__all__ = ["InputMessage", "ModelCall", "ToolOutput"]

# What a tool call's output item carries: text for function tools, a list of content
# parts for structured outputs, a mapping for a computer screenshot.
ToolOutput: TypeAlias = "str | list[Any] | dict[str, Any]"


class InputMessage(NamedTuple):
    """One message of a recorded request: its role and its text (text parts joined)."""

    role: str
    text: str


class ModelCall:
    """One request the runner made to a :class:`ScriptedModel`, as the SDK normalized it.

    ``input``, ``model_settings`` and ``prompt`` are detached snapshots taken at the
    call: each access returns a fresh copy, so neither later mutation by the runner
    nor by the test changes what was recorded. ``tools``, ``handoffs``,
    ``output_schema`` and ``tracing`` are the very objects the runner passed
    (``tools`` and ``handoffs`` come in a new list each time).
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

    def __init__(self) -> None:
        raise TypeError("ModelCall objects are recorded by ScriptedModel; read them from .calls.")

    @classmethod
    def _record(
        cls,
        cache: SnapshotCache,
        *,
        system_instructions: str | None,
        input: str | Sequence[TResponseInputItem],
        model_settings: ModelSettings,
        tools: Sequence[Tool],
        output_schema: AgentOutputSchemaBase | None,
        handoffs: Sequence[Handoff[Any, Any]],
        tracing: ModelTracing,
        previous_response_id: str | None,
        conversation_id: str | None,
        prompt: ResponsePromptParam | None,
        streamed: bool,
        previous_settings: ModelSettings | None = None,
    ) -> ModelCall:
        call = object.__new__(cls)
        setter = object.__setattr__
        # The runner resends the whole (rebuilt) conversation every turn; the cache
        # lets unchanged items share one private snapshot instead of being copied again.
        setter(
            call,
            "_input",
            input if isinstance(input, str) else cache.snapshot_sequence(input, name="input"),
        )
        setter(
            call,
            "_model_settings",
            cache.snapshot_like(model_settings, previous_settings, name="model_settings"),
        )
        setter(call, "_prompt", None if prompt is None else detach(prompt, name="prompt"))
        setter(call, "_tools", tuple(tools))
        setter(call, "_handoffs", tuple(handoffs))
        setter(call, "_output_schema", output_schema)
        setter(call, "_tracing", tracing)
        setter(call, "_system_instructions", system_instructions)
        setter(call, "_previous_response_id", previous_response_id)
        setter(call, "_conversation_id", conversation_id)
        setter(call, "_streamed", streamed)
        setter(call, "_answer", None)
        return call

    def _answered(self, output: Sequence[Any]) -> None:
        """Keep detached copies of the tool and handoff calls the model answered with.

        Messages and reasoning are left out: only calls make up a trajectory, and
        copying long texts on every call would cost every test.
        """
        calls = tuple(_call_record(item) for item in output if _is_call(item))
        object.__setattr__(self, "_answer", calls)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"ModelCall is a read-only record; cannot set {name!r}.")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"ModelCall is a read-only record; cannot delete {name!r}.")

    @property
    def input(self) -> str | list[TResponseInputItem]:
        """A fresh detached copy of the input items (or the input string) the runner sent."""
        if isinstance(self._input, str):
            return self._input
        return [detach(item) for item in self._input]

    @property
    def model_settings(self) -> ModelSettings:
        """A fresh detached copy of the resolved model settings of the request."""
        return detach(self._model_settings)

    @property
    def prompt(self) -> ResponsePromptParam | None:
        """A fresh detached copy of the prompt configuration, if any."""
        return None if self._prompt is None else detach(self._prompt)

    @property
    def tools(self) -> list[Tool]:
        """The tool objects the runner passed, in a new list."""
        return list(self._tools)

    @property
    def handoffs(self) -> list[Handoff[Any, Any]]:
        """The handoff objects the runner passed, in a new list."""
        return list(self._handoffs)

    @property
    def output_schema(self) -> AgentOutputSchemaBase | None:
        """The output schema object the runner passed (identity kept)."""
        return self._output_schema

    @property
    def tracing(self) -> ModelTracing:
        """The tracing mode the runner passed."""
        return self._tracing

    @property
    def system_instructions(self) -> str | None:
        """The system instructions of the request."""
        return self._system_instructions

    @property
    def previous_response_id(self) -> str | None:
        """The previous response id the runner passed, if any."""
        return self._previous_response_id

    @property
    def conversation_id(self) -> str | None:
        """The conversation id the runner passed, if any."""
        return self._conversation_id

    @property
    def streamed(self) -> bool:
        """True for ``stream_response`` (``Runner.run_streamed``), False for ``get_response``."""
        return self._streamed

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

    def __repr__(self) -> str:
        size = "str" if isinstance(self._input, str) else f"{len(self._input)} items"
        return (
            f"ModelCall(streamed={self._streamed}, input=<{size}>, "
            f"tools={safe_repr([getattr(tool, 'name', tool) for tool in self._tools])}, "
            f"system_instructions={safe_repr(self._system_instructions)})"
        )


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
