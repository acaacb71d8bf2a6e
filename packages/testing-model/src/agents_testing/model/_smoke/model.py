"""``SmokeModel``: a model double with no script that calls every tool it is offered.

For each agent it serves (by the name of the agent whose turn runs), it answers the
first calls with one round of function calls each — every selected tool once, with
arguments generated from the tool's JSON Schema or given by the test — then, when asked,
hands off to a not yet visited agent, and last gives a final output valid for the
agent's output type. It is a :class:`ScriptedModel` whose next step is made per call,
so it records calls, streams and traces exactly as one.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from agents_testing.core import compat, safe_repr

from .._errors import invalid_argument
from .._items.calls import function_call, handoff_call
from .._items.messages import assistant_message
from .._items.messages import final_output as final_output_item
from .._script.normalize import normalize_step
from .._script.validation import ValueProblem, checked_json, describe
from .._scripted_model import ScriptedModel
from .errors import smoke_generation_failed, smoke_tools_failed
from .report import SmokeCall, ToolReport, failure_recognizer
from .values import Unsatisfiable, value_for

if TYPE_CHECKING:
    from agents.tool import FunctionTool
    from agents.usage import Usage

    from .._call import ModelCall
    from .._step import QueuedStep

__all__ = ["DEFAULT_SMOKE_TEXT", "SmokeModel"]

DEFAULT_SMOKE_TEXT = "Smoke run complete."
"""The final answer of an agent without an output type, unless ``final_output`` says otherwise."""

_UNSET: Any = object()


class _Issued:
    """A function call the model made, and what it needs to judge the output later."""

    __slots__ = ("agent", "arguments", "call_id", "recognizes_failure", "round", "tool")

    def __init__(
        self,
        tool: FunctionTool,
        arguments: dict[str, Any],
        call_id: str,
        agent: str | None,
        round: int,
    ) -> None:
        self.tool = tool.name
        self.arguments = arguments
        self.call_id = call_id
        self.agent = agent
        self.round = round
        self.recognizes_failure = failure_recognizer(tool)


class SmokeModel(ScriptedModel):
    """A model that smoke-tests an agent's tools: no script, schema-generated arguments.

    Each agent it serves gets ``calls_per_tool`` rounds of calls — every selected function
    tool (``@function_tool``, MCP tools once listed, agents as tools) once per round, in the
    order offered — then a final output: ``final_output`` (text for an agent without an
    output type, a value of the type otherwise) or, left out, ``"Smoke run complete."`` or a
    value generated from the output type's JSON Schema. ``handoffs=True`` (or the names of
    the agents to go to) makes each agent hand off to a not yet visited agent before its
    final output, so one run walks a chain of agents.

    Arguments are generated from each tool's schema with a ``random.Random`` seeded by
    ``seed``, the agent, the tool and the round, so a run is the same every time;
    ``arguments={"tool": {...}}`` (or a list, one per round) gives them for some tools. For
    many argument sets, draw them with ``smoke_arguments(agent)`` under ``@given`` and pass
    them as ``arguments``.

    ``report`` (per tool: its calls, each ``returned``, ``raised`` or ``not_run``),
    ``failed_tools``, ``not_run_tools`` and ``assert_tools_ok()`` say what happened. It
    records ``calls`` like any ``ScriptedModel``; use one per run.
    """

    def __init__(
        self,
        *,
        tools: Iterable[str] | None = None,
        calls_per_tool: int = 1,
        arguments: Mapping[str, Mapping[str, Any] | Sequence[Mapping[str, Any]]] | None = None,
        seed: int = 0,
        final_output: object = _UNSET,
        handoffs: bool | Iterable[str] = False,
        default_usage: Usage | None = None,
        emit_traces: bool = False,
        stream_all_items: bool = False,
    ) -> None:
        super().__init__(
            (),
            emit_traces=emit_traces,
            default_usage=default_usage,
            stream_all_items=stream_all_items,
        )
        if isinstance(calls_per_tool, bool) or not isinstance(calls_per_tool, int):
            raise invalid_argument(
                "calls_per_tool", "an int of 1 or more", describe(calls_per_tool)
            )
        if calls_per_tool < 1:
            raise invalid_argument(
                "calls_per_tool", "an int of 1 or more", describe(calls_per_tool)
            )
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise invalid_argument("seed", "an int", describe(seed))
        self._only = _names(tools, "tools")
        self._calls_per_tool = calls_per_tool
        self._given = _checked_arguments(arguments, calls_per_tool)
        self._seed = seed
        self._final = final_output
        if isinstance(handoffs, bool):
            self._handoff_to: tuple[str, ...] | bool = handoffs
        else:
            self._handoff_to = _names(handoffs, "handoffs") or ()
        self._rounds: dict[str, int] = {}
        self._visited: set[str] = set()
        self._issued: list[_Issued] = []
        self._offered: dict[str, None] = {}
        self._counter = 0

    def enqueue(self, step: object) -> None:
        """Refused: a smoke model has no script (use a ``ScriptedModel`` for scripted steps)."""
        raise invalid_argument(
            "SmokeModel.enqueue(step)", "nothing: a SmokeModel makes every answer itself", "a step"
        )

    def extend(self, steps: object) -> None:
        """Refused: a smoke model has no script (use a ``ScriptedModel`` for scripted steps)."""
        raise invalid_argument(
            "SmokeModel.extend(steps)", "nothing: a SmokeModel makes every answer itself", "steps"
        )

    # -- what happened ------------------------------------------------------------------

    @property
    def smoke_calls(self) -> tuple[SmokeCall, ...]:
        """Every tool call made, in order, with its outcome so far."""
        outputs: dict[str, Any] = {}
        for call in self._calls:
            outputs.update(call.tool_outputs())
        found = []
        for issued in self._issued:
            if issued.call_id in outputs:
                output = outputs[issued.call_id]
                outcome = "raised" if issued.recognizes_failure(output) else "returned"
            else:
                output, outcome = None, "not_run"
            found.append(
                SmokeCall(
                    issued.tool,
                    json.loads(json.dumps(issued.arguments)),
                    issued.call_id,
                    issued.agent,
                    issued.round,
                    outcome,  # type: ignore[arg-type]
                    output,
                )
            )
        return tuple(found)

    @property
    def report(self) -> dict[str, ToolReport]:
        """Per tool name, in the order first called: its calls and their outcomes."""
        grouped: dict[str, list[SmokeCall]] = {}
        for call in self.smoke_calls:
            grouped.setdefault(call.tool, []).append(call)
        return {name: ToolReport(name, tuple(calls)) for name, calls in grouped.items()}

    @property
    def failed_tools(self) -> list[str]:
        """The tools that raised on at least one call, in the order first called."""
        return [name for name, report in self.report.items() if report.raised]

    @property
    def not_run_tools(self) -> list[str]:
        """The tools called at least once without running (the run stopped before them)."""
        return [
            name
            for name, report in self.report.items()
            if any(call.outcome == "not_run" for call in report.calls)
        ]

    def assert_tools_ok(self) -> None:
        """Raise ``SmokeToolsFailed`` (an ``AssertionError``) unless every call returned."""
        calls = self.smoke_calls
        if not calls or any(call.outcome != "returned" for call in calls):
            raise smoke_tools_failed(calls)

    # -- answering a call ------------------------------------------------------------------

    def _answering(self, call: ModelCall, index: int) -> QueuedStep:
        self._admit(call)
        return normalize_step(self._answer(call), index)

    def _answer(self, call: ModelCall) -> list[Any]:
        from agents.tool import FunctionTool

        agent = compat.current_agent_name()
        key = agent if agent is not None else "<no agent>"
        offered = [tool for tool in call._tools if isinstance(tool, FunctionTool)]
        for tool in offered:
            self._offered.setdefault(tool.name)
        selected = [tool for tool in offered if self._only is None or tool.name in self._only]
        if self._only is not None and not self._handoff_to:
            self._check_known(self._only, "tools")
        done = self._rounds.get(key, 0)
        if selected and done < self._calls_per_tool:
            self._rounds[key] = done + 1
            return [self._call_tool(tool, agent, done) for tool in selected]
        self._visited.add(key)
        handoff = self._next_handoff(call)
        if handoff is not None:
            return [handoff]
        if self._only is not None:
            self._check_known(self._only, "tools")
        self._check_known(tuple(self._given), "arguments")
        return [self._final_output(call, key)]

    def _call_tool(self, tool: FunctionTool, agent: str | None, round: int) -> Any:
        given = self._given.get(tool.name)
        if given is not None:
            arguments = dict(given[round % len(given)])
        else:
            rng = random.Random(f"{self._seed}:{agent}:{tool.name}:{round}")
            try:
                arguments = value_for(tool.params_json_schema, rng)
            except Unsatisfiable as problem:
                raise smoke_generation_failed(tool.name, problem.path, problem.reason) from None
            if not isinstance(arguments, dict):
                raise smoke_generation_failed(
                    tool.name, "$", f"the schema describes {describe(arguments)}, not an object"
                )
        self._counter += 1
        call_id = f"smoke_{self._counter}"
        self._issued.append(_Issued(tool, arguments, call_id, agent, round))
        return function_call(
            tool.name, arguments, call_id=call_id, namespace=compat.function_tool_namespace(tool)
        )

    def _next_handoff(self, call: ModelCall) -> Any:
        if self._handoff_to is False:
            return None
        wanted = None if self._handoff_to is True else self._handoff_to
        for handoff in call._handoffs:
            target = handoff.agent_name
            if target in self._visited or (wanted is not None and target not in wanted):
                continue
            self._visited.add(target)
            arguments: Any = None
            schema = handoff.input_json_schema
            if isinstance(schema, Mapping) and schema.get("properties"):
                rng = random.Random(f"{self._seed}:handoff:{target}")
                try:
                    arguments = value_for(schema, rng)
                except Unsatisfiable as problem:
                    raise smoke_generation_failed(
                        handoff.tool_name, problem.path, problem.reason
                    ) from None
            self._counter += 1
            return handoff_call(handoff, arguments, call_id=f"smoke_{self._counter}")
        return None

    def _final_output(self, call: ModelCall, key: str) -> Any:
        schema = call._output_schema
        plain = schema is None or schema.is_plain_text()
        if self._final is not _UNSET:
            if plain:
                if not isinstance(self._final, str):
                    raise invalid_argument(
                        "final_output",
                        "text, since the agent has no output type",
                        describe(self._final),
                    )
                return assistant_message(self._final)
            if isinstance(self._final, str):
                return assistant_message(self._final)  # JSON text given as it is
            return final_output_item(self._final, output_type=schema)
        if plain:
            return assistant_message(DEFAULT_SMOKE_TEXT)
        assert schema is not None
        rng = random.Random(f"{self._seed}:{key}:final")
        target = f"the final output ({schema.name()})"
        try:
            value = value_for(schema.json_schema(), rng)
        except Unsatisfiable as problem:
            raise smoke_generation_failed(target, problem.path, problem.reason) from None
        text = json.dumps(value)
        try:
            schema.validate_json(text)
        except Exception as error:
            raise smoke_generation_failed(
                target, "$", f"{type(error).__name__}: {safe_repr(str(error), 200)}"
            ) from None
        return assistant_message(text)

    def _check_known(self, names: Sequence[str], argument: str) -> None:
        unknown = [name for name in names if name not in self._offered]
        if unknown:
            raise invalid_argument(
                argument,
                f"names of function tools the agents of this run offer "
                f"({', '.join(self._offered) or 'none'})",
                ", ".join(repr(name) for name in unknown),
            )


def _names(value: Iterable[str] | None, argument: str) -> tuple[str, ...] | None:
    if value is None:
        return None
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise invalid_argument(argument, "a list of names", describe(value))
    names = tuple(value)
    for name in names:
        if not isinstance(name, str):
            raise invalid_argument(argument, "a list of names (str)", describe(name))
    return names


def _checked_arguments(
    arguments: object, calls_per_tool: int
) -> dict[str, tuple[dict[str, Any], ...]]:
    if arguments is None:
        return {}
    if not isinstance(arguments, Mapping):
        raise invalid_argument(
            "arguments",
            "a mapping of tool name to arguments (or a list of them)",
            describe(arguments),
        )
    checked: dict[str, tuple[dict[str, Any], ...]] = {}
    for name, value in arguments.items():
        where = f"arguments[{safe_repr(name, 40)}]"
        if not isinstance(name, str):
            raise invalid_argument("arguments", "tool names (str) as keys", describe(name))
        sets = [value] if isinstance(value, Mapping) else value
        if not isinstance(sets, Sequence) or isinstance(sets, (str, bytes)) or not sets:
            raise invalid_argument(
                where, "an argument object, or a non-empty list of them", describe(value)
            )
        for position, one in enumerate(sets):
            if not isinstance(one, Mapping):
                raise invalid_argument(f"{where}[{position}]", "an argument object", describe(one))
        try:
            checked[name] = tuple(
                checked_json(one, f"{where}[{position}]") for position, one in enumerate(sets)
            )
        except ValueProblem as problem:
            raise invalid_argument(where, "JSON data", str(problem)) from None
    return checked


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
