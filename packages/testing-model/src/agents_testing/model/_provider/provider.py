"""``ScriptedModelProvider``: scripted models chosen by the calling agent or the model name.

``ModelProvider.get_model`` only receives a model name, so the provider hands out a
routing model per name that picks the script when the runner calls it: by the name of
the agent whose turn is running (read from the SDK's current agent or turn span, which
exists even with tracing disabled), then by the model name, then the default.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable, Iterator, Mapping
from contextlib import aclosing, contextmanager
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol, Union, overload

from agents.items import ModelResponse, TResponseStreamEvent
from agents.models.interface import Model, ModelProvider
from pydantic import BaseModel

from agents_testing.core import compat, safe_repr

from .._call import ModelCall
from .._errors import (
    InvalidModelStep,
    UnconsumedModelSteps,
    invalid_argument,
    invalid_step,
    unconsumed_provider_steps,
    unscripted_call,
)
from .._request import ModelRequest, RequestModel
from .._script.validation import describe
from .._scripted_model import ScriptedModel
from .._step import ModelStep, StepInput

if TYPE_CHECKING:
    from agents import Agent
    from agents.retry import ModelRetryAdvice, ModelRetryAdviceRequest

__all__ = ["RoutedModelCall", "ScriptedModelProvider", "ScriptedModelProviderFactory"]

Script = ScriptedModel | Iterable[StepInput]
"""One key's script: a ``ScriptedModel``, or the steps to make one from."""

AgentKey = Union[str, "Agent[Any]"]

AgentPairs = Iterable[tuple[AgentKey, Script]]
"""Scripts by agent as ``(name or Agent, script)`` pairs: agents are not hashable."""


@dataclass(frozen=True)
class RoutedModelCall:
    """One model call answered by a :class:`ScriptedModelProvider`, in call order.

    ``script`` names the script that answered (``"agent 'Billing'"``, ``"model
    'gpt-4.1'"`` or ``"default"``); ``agent_name`` is the calling agent (None outside a
    run) and ``model_name`` the model name it asked for; ``call`` is the record the
    answering ``ScriptedModel`` keeps in its own ``calls``.
    """

    script: str
    agent_name: str | None
    model_name: str | None
    call: ModelCall


class ScriptedModelProvider(ModelProvider):
    """A model provider answering each agent, or each model name, from its own script.

    Give it as ``RunConfig(model_provider=...)``, or make it the SDK's default with
    :meth:`as_default` (the ``scripted_model_provider`` fixture does). A call is
    answered by the script of the calling agent's name (``by_agent``; an ``Agent`` key,
    given in a ``(agent, script)`` pair since agents are not hashable, stands for its
    name), else of the model name the agent gives (``by_model``), else
    by ``default``; with none of them it raises :class:`UnscriptedModelCall`. Agents
    given a ``Model`` instance never reach a provider and are not affected.
    ``stream_all_items``, ``check_tool_calls`` and ``extra_checks`` are passed to the
    ``ScriptedModel`` made for each script given as steps (the fixture turns them on).
    """

    # Two signatures rather than one union: a type checker infers a dict literal of
    # mixed scripts against a plain Mapping, and gives up against a union.
    @overload
    def __init__(
        self,
        *,
        by_agent: Mapping[str, Script] | None = None,
        by_model: Mapping[str, Script] | None = None,
        default: Script | None = None,
        stream_all_items: bool = False,
        check_tool_calls: bool | None = None,
        extra_checks: bool = False,
    ) -> None: ...

    @overload
    def __init__(
        self,
        *,
        by_agent: AgentPairs,
        by_model: Mapping[str, Script] | None = None,
        default: Script | None = None,
        stream_all_items: bool = False,
        check_tool_calls: bool | None = None,
        extra_checks: bool = False,
    ) -> None: ...

    def __init__(
        self,
        *,
        by_agent: Mapping[str, Script] | AgentPairs | None = None,
        by_model: Mapping[str, Script] | None = None,
        default: Script | None = None,
        stream_all_items: bool = False,
        check_tool_calls: bool | None = None,
        extra_checks: bool = False,
    ) -> None:
        # Scripts given as steps become ScriptedModels made with these options.
        options = {
            "stream_all_items": stream_all_items,
            "check_tool_calls": check_tool_calls,
            "extra_checks": extra_checks,
        }
        for name, value in (("stream_all_items", stream_all_items), ("extra_checks", extra_checks)):
            if not isinstance(value, bool):
                raise invalid_argument(f"ScriptedModelProvider({name})", "a bool", describe(value))
        if check_tool_calls is not None and not isinstance(check_tool_calls, bool):
            raise invalid_argument(
                "ScriptedModelProvider(check_tool_calls)",
                "a bool or None",
                describe(check_tool_calls),
            )
        self._by_agent = _scripts("by_agent", by_agent, _agent_name, options)
        self._by_model = _scripts("by_model", by_model, _model_key, options)
        self._default = (
            None if default is None else _model("default", "the default", default, options)
        )
        if not self._by_agent and not self._by_model and self._default is None:
            raise invalid_argument(
                "ScriptedModelProvider()",
                "at least one script (by_agent=..., by_model=... or default=...)",
                "none",
            )
        self._routers: dict[str | None, _RoutingModel] = {}
        self._answered: list[tuple[str, str | None, str | None, ScriptedModel, int]] = []

    # -- inspection ----------------------------------------------------------------

    @property
    def by_agent(self) -> Mapping[str, ScriptedModel]:
        """The script of each agent name (read-only; ``Agent`` keys are under their name)."""
        return MappingProxyType(self._by_agent)

    @property
    def by_model(self) -> Mapping[str, ScriptedModel]:
        """The script of each model name (read-only)."""
        return MappingProxyType(self._by_model)

    @property
    def default(self) -> ScriptedModel | None:
        """The script for calls that no agent or model name matches, if one was given."""
        return self._default

    @property
    def calls(self) -> tuple[RoutedModelCall, ...]:
        """Every call the provider's models answered, across all scripts, in call order."""
        return tuple(
            RoutedModelCall(label, agent, model_name, model.calls[index])
            for label, agent, model_name, model, index in self._answered
            if index < len(model.calls)
        )

    def assert_complete(self) -> None:
        """Raise :class:`UnconsumedProviderSteps` naming every script with steps left."""
        scripts = self._labelled()
        left: dict[str, UnconsumedModelSteps] = {}
        checked: set[int] = set()
        for label, model in scripts:
            # A model shared by several keys is one script, reported under its first key.
            if id(model) in checked:
                continue
            checked.add(id(model))
            try:
                model.assert_complete()
            except UnconsumedModelSteps as error:
                left[label] = error
        if left:
            raise unconsumed_provider_steps(left, len(checked))

    # -- the ModelProvider interface -----------------------------------------------------

    def get_model(self, model_name: str | None) -> Model:
        """The routing model for ``model_name``; the script is chosen when it is called."""
        router = self._routers.get(model_name)
        if router is None:
            router = self._routers[model_name] = _RoutingModel(self, model_name)
        return router

    @contextmanager
    def as_default(self) -> Iterator[ScriptedModelProvider]:
        """Make this the SDK's default model provider inside the ``with`` block.

        Every ``agents.MultiProvider`` (the provider of a ``RunConfig`` that names none)
        answers from this provider meanwhile, so ``Runner.run(agent, ...)`` without a
        run config is scripted. A run config naming another provider keeps it.
        """
        from agents.models.multi_provider import MultiProvider

        # MultiProvider is what RunConfig's default factory makes on every SDK release
        # from 0.14 on; replacing its public get_model reaches each run's fresh
        # instance, where the SDK has no setting for "the default provider".
        original = vars(MultiProvider)["get_model"]
        provider = self

        def get_model(self: MultiProvider, model_name: str | None) -> Model:
            return provider.get_model(model_name)

        get_model.__doc__ = original.__doc__
        MultiProvider.get_model = get_model  # type: ignore[method-assign]
        try:
            yield self
        finally:
            MultiProvider.get_model = original  # type: ignore[method-assign]

    # -- internals -----------------------------------------------------------------

    def _labelled(self) -> list[tuple[str, ScriptedModel]]:
        scripts = [(f"agent {safe_repr(name)}", model) for name, model in self._by_agent.items()]
        scripts += [(f"model {safe_repr(name)}", model) for name, model in self._by_model.items()]
        if self._default is not None:
            scripts.append(("default", self._default))
        return scripts

    def _route(self, model_name: str | None) -> tuple[str, str | None, ScriptedModel]:
        agent = compat.current_agent_name()
        if agent is not None and agent in self._by_agent:
            return f"agent {safe_repr(agent)}", agent, self._by_agent[agent]
        name = compat.default_model_name() if model_name is None else model_name
        if name in self._by_model:
            return f"model {safe_repr(name)}", agent, self._by_model[name]
        if self._default is not None:
            return "default", agent, self._default
        raise unscripted_call(agent, name, tuple(self._by_agent), tuple(self._by_model))

    def _answering(self, model_name: str | None) -> ScriptedModel:
        label, agent, model = self._route(model_name)
        # The model records the call synchronously when its coroutine or generator first
        # runs, right after this, so this index is the record's index.
        self._answered.append((label, agent, model_name, model, len(model.calls)))
        return model

    def _retry_advice(self, request: ModelRetryAdviceRequest) -> ModelRetryAdvice | None:
        for _, model in self._labelled():
            advice = model.get_retry_advice(request)
            if advice is not None:
                return advice
        return None


class _RoutingModel(RequestModel):
    """The model ``get_model`` returns: forwards each call to the script chosen for it."""

    def __init__(self, provider: ScriptedModelProvider, model_name: str | None) -> None:
        self._provider = provider
        self._model_name = model_name

    async def _respond(self, request: ModelRequest) -> ModelResponse:
        return await request.get_response(self._provider._answering(self._model_name))

    async def _stream(self, request: ModelRequest) -> AsyncIterator[TResponseStreamEvent]:
        stream = request.stream_response(self._provider._answering(self._model_name))
        async with aclosing(stream) as events:  # type: ignore[type-var]
            async for event in events:
                yield event

    def get_retry_advice(self, request: ModelRetryAdviceRequest) -> ModelRetryAdvice | None:
        return self._provider._retry_advice(request)


class ScriptedModelProviderFactory(Protocol):
    """What the ``scripted_model_provider`` fixture is: call it like ``ScriptedModelProvider``.

    Annotate the fixture with it, ``def test_x(scripted_model_provider:
    ScriptedModelProviderFactory)``; each provider it makes is the default for the test.
    """

    @overload
    def __call__(
        self,
        *,
        by_agent: Mapping[str, Script] | None = None,
        by_model: Mapping[str, Script] | None = None,
        default: Script | None = None,
        stream_all_items: bool = True,
        check_tool_calls: bool | None = None,
        extra_checks: bool | None = None,
    ) -> ScriptedModelProvider: ...

    @overload
    def __call__(
        self,
        *,
        by_agent: AgentPairs,
        by_model: Mapping[str, Script] | None = None,
        default: Script | None = None,
        stream_all_items: bool = True,
        check_tool_calls: bool | None = None,
        extra_checks: bool | None = None,
    ) -> ScriptedModelProvider: ...

    def __call__(
        self,
        *,
        by_agent: Mapping[str, Script] | AgentPairs | None = None,
        by_model: Mapping[str, Script] | None = None,
        default: Script | None = None,
        stream_all_items: bool = True,
        check_tool_calls: bool | None = None,
        extra_checks: bool | None = None,
    ) -> ScriptedModelProvider: ...


def _agent_name(key: object) -> str | None:
    from agents import Agent

    if isinstance(key, Agent):
        return key.name if isinstance(key.name, str) else None
    return key if isinstance(key, str) else None


def _model_key(key: object) -> str | None:
    return key if isinstance(key, str) else None


def _scripts(
    argument: str, given: object, key_name: Any, options: dict[str, Any]
) -> dict[str, ScriptedModel]:
    if given is None:
        return {}
    expected = "a mapping, a sequence of (key, script) pairs, or None"
    if isinstance(given, Mapping):
        pairs = list(given.items())
    elif isinstance(given, Iterable) and not isinstance(given, (str, bytes)):
        pairs = list(given)
        for pair in pairs:
            if not isinstance(pair, tuple) or len(pair) != 2:
                raise invalid_argument(
                    f"ScriptedModelProvider({argument})", expected, f"an item {describe(pair)}"
                )
    else:
        raise invalid_argument(f"ScriptedModelProvider({argument})", expected, describe(given))
    kind = "an agent name or Agent" if argument == "by_agent" else "a model name"
    noun = "agent" if argument == "by_agent" else "model"
    scripts: dict[str, ScriptedModel] = {}
    for key, script in pairs:
        name = key_name(key)
        if name is None:
            raise invalid_argument(
                f"ScriptedModelProvider({argument})", f"each key {kind}", describe(key)
            )
        if name in scripts:
            raise invalid_argument(
                f"ScriptedModelProvider({argument})",
                "each name once (an Agent key stands for its name)",
                f"{safe_repr(name)} more than once",
            )
        owner = f"{noun} {safe_repr(name)}"
        scripts[name] = _model(f"{argument}[{safe_repr(name)}]", owner, script, options)
    return scripts


def _model(argument: str, owner: str, script: object, options: dict[str, Any]) -> ScriptedModel:
    if isinstance(script, ScriptedModel):
        return script
    # Each of these is one step (or one item) that happens to be iterable, not a script.
    single = (str, bytes, Mapping, ModelResponse, ModelStep, BaseException, BaseModel)
    if isinstance(script, single) or not isinstance(script, Iterable):
        raise invalid_argument(
            f"ScriptedModelProvider({argument})",
            "a ScriptedModel or a sequence of steps (put a single step in a list)",
            describe(script),
        )
    try:
        return ScriptedModel(script, **options)
    except InvalidModelStep as error:
        raise invalid_step(
            error.reason, error.input_index, f"{error.detail} (in the script for {owner})"
        ) from None


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
