"""Everything that differs between the supported ``openai-agents`` releases.

Boundaries ask this module instead of testing versions or attributes themselves, so
that supporting a new SDK release means editing one file.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import Any, TypeVar

__all__ = [
    "MINIMUM_SDK",
    "function_arguments_done_has_name",
    "has_builtin_testing",
    "has_tool_decorator",
    "model_response_has_raw_usage",
    "sdk_at_least",
    "sdk_version",
]

MINIMUM_SDK = (0, 14)


@lru_cache(maxsize=1)
def sdk_version() -> tuple[int, ...]:
    """The installed ``openai-agents`` release as a tuple of ints, e.g. ``(0, 24, 0)``."""
    from importlib.metadata import version

    parts: list[int] = []
    for piece in version("openai-agents").split("."):
        digits = "".join(ch for ch in piece if ch.isdigit())
        if not digits:
            break
        parts.append(int(digits))
        if not piece.isdigit():
            break
    return tuple(parts)


def sdk_at_least(*release: int) -> bool:
    """Whether the installed SDK is ``release`` or newer, e.g. ``sdk_at_least(0, 21)``."""
    return sdk_version() >= release


def has_builtin_testing() -> bool:
    """Whether the installed SDK ships its own ``agents.testing`` (0.21 and later)."""
    return sdk_at_least(0, 21)


def has_tool_decorator() -> bool:
    """Whether the installed SDK has ``agents.decorators.tool`` (0.19.0 and later)."""
    return sdk_at_least(0, 19)


# --- Real provider models and the global tracing switch (used by the pytest plugin) ---

__all__ += ["TracingState", "capture_tracing_state", "provider_model_methods"]

# The SDK's model interfaces, each with the methods through which every request of its
# implementations starts (the rest of an interface works on a connection one of these
# made). The same from 0.14 to 0.24; the implementations are found, not listed: every
# subclass the SDK defines, so that LiteLLM, any-llm, the websocket transports and the
# models of later releases are covered as soon as their module is imported.
_MODEL_INTERFACES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("agents.models.interface", "Model", ("get_response", "stream_response")),
    ("agents.realtime.model", "RealtimeModel", ("connect",)),
    ("agents.voice.model", "STTModel", ("transcribe", "create_session")),
    ("agents.voice.model", "TTSModel", ("run",)),
)


def model_interfaces() -> tuple[tuple[type, tuple[str, ...]], ...]:
    """The SDK's model interfaces with their request methods (``Model``: ``get_response``, ...).

    Interfaces whose module cannot be imported (the realtime or voice extra is missing)
    are left out: nothing in that environment can implement them.
    """
    return tuple(_installed_classes(_MODEL_INTERFACES))


_Extra = TypeVar("_Extra")


def _installed_classes(
    table: Iterable[tuple[str, str, _Extra]],
) -> Iterator[tuple[type, _Extra]]:
    """The classes of ``table`` (module, class name, what goes with it) that the installed
    SDK has, each with what goes with it."""
    from importlib import import_module

    for module_name, class_name, extra in table:
        try:
            module = import_module(module_name)
        except ImportError:
            continue
        cls = getattr(module, class_name, None)
        if isinstance(cls, type):
            yield cls, extra


def is_provider_model(cls: type) -> bool:
    """Whether ``cls`` is a model the SDK itself defines (not one of its testing doubles)."""
    module = getattr(cls, "__module__", "") or ""
    parts = module.split(".")
    return parts[0] == "agents" and not any(part.startswith("testing") for part in parts)


def provider_model_methods() -> tuple[tuple[type, tuple[str, ...]], ...]:
    """The SDK's provider-backed model classes imported so far, with the request methods
    each defines itself (inherited ones are covered on the class that defines them).

    Found by walking the subclasses of :func:`model_interfaces`, so a release that adds a
    model needs no entry here. Optional integrations (LiteLLM, any-llm) appear once their
    module has been imported, which needs their package.
    """
    found: list[tuple[type, tuple[str, ...]]] = []
    seen: set[type] = set()
    for interface, methods in model_interfaces():
        pending: list[type] = list(interface.__subclasses__())
        while pending:
            cls = pending.pop()
            if cls in seen:
                continue
            seen.add(cls)
            pending.extend(cls.__subclasses__())
            own = tuple(name for name in methods if name in vars(cls))
            if own and is_provider_model(cls):
                found.append((cls, own))
    return tuple(found)


# Model-name prefixes that the SDK's ``MultiProvider`` hands to optional integrations,
# with the model class each one makes. Without the integration's package, asking for
# such a model raises ImportError before any request could be blocked.
_OPTIONAL_PREFIXES: dict[str, str] = {"litellm": "LitellmModel", "any-llm": "AnyLLMModel"}


def multi_provider_fallback() -> tuple[type, str, dict[str, str]] | None:
    """``MultiProvider``, its method making the provider for a prefix, and the optional
    prefixes with their model class names; ``None`` where the SDK routes no prefixes.

    The method is private (``_get_fallback_provider``, the same from 0.14 to 0.24).
    """
    try:
        from agents.models.multi_provider import MultiProvider
    except ImportError:
        return None
    if "_get_fallback_provider" not in vars(MultiProvider):
        return None
    return MultiProvider, "_get_fallback_provider", dict(_OPTIONAL_PREFIXES)


__all__ += [
    "is_provider_model",
    "model_interfaces",
    "multi_provider_fallback",
]


# Where a provider makes its default client: ``AsyncOpenAI()`` raises "Missing
# credentials" there when no key is set, before any request method is reached. Private
# methods of the SDK, identical from 0.14 to 0.24; the guard wraps them so that it
# answers first in every environment.
_PROVIDER_CLIENT_FACTORIES: tuple[tuple[str, str, str], ...] = (
    ("agents.models.openai_provider", "OpenAIProvider", "_get_client"),
    ("agents.voice.models.openai_model_provider", "OpenAIVoiceModelProvider", "_get_client"),
)


@lru_cache(maxsize=1)
def provider_client_factories() -> tuple[tuple[type, str], ...]:
    """The SDK's model providers with the method that makes their default OpenAI client."""
    return tuple(
        (cls, method)
        for cls, method in _installed_classes(_PROVIDER_CLIENT_FACTORIES)
        if method in vars(cls)
    )


def trace_exporter_class() -> type:
    """The SDK's exporter that uploads traces and spans to the provider (every release)."""
    from agents.tracing.processors import BackendSpanExporter

    return BackendSpanExporter


def flush_default_trace_processor() -> None:
    """Hand every span queued by the SDK's default trace processor to its exporter now."""
    from agents.tracing.processors import default_processor

    default_processor().force_flush()  # type: ignore[no-untyped-call,unused-ignore]


__all__ += ["flush_default_trace_processor", "provider_client_factories", "trace_exporter_class"]


__all__ += ["install_trace_provider"]


def install_trace_provider(processors: list[Any]) -> Any:
    """Make a new, enabled trace provider feeding only ``processors`` the global one.

    Returns the provider that was global before, for ``restore_trace_provider``. The
    new provider is switched on explicitly, so neither ``set_tracing_disabled(True)``
    on the previous provider nor ``OPENAI_AGENTS_DISABLE_TRACING`` silences it. Public
    tracing API only (``get_trace_provider``, ``set_trace_provider`` and the SDK's
    ``DefaultTraceProvider``), the same from 0.14 to 0.24.
    """
    from agents.tracing import get_trace_provider, set_trace_provider
    from agents.tracing.provider import DefaultTraceProvider

    previous = get_trace_provider()
    provider = DefaultTraceProvider()
    provider.set_processors(processors)
    provider.set_disabled(False)
    set_trace_provider(provider)
    return previous


# Generated values inside text the SDK writes for the model: the sandbox shell tool
# heads every output with a random chunk id and the measured wall time (0.14 to 0.24).
# (marker text, pattern whose first group is the volatile part, kind of value)
_VOLATILE_TEXT: tuple[tuple[str, str, str], ...] = (
    ("Chunk ID: ", r"(?m)^Chunk ID: ([0-9a-f]+)$", "chunk"),
    ("Wall time: ", r"(?m)^Wall time: ([0-9]+(?:\.[0-9]+)?) seconds$", "duration"),
)


def volatile_text_patterns() -> tuple[tuple[str, str, str], ...]:
    """Generated ids and durations that the SDK writes into text, as ``(marker, regex, kind)``.

    ``marker`` is a plain substring to test first; the regex's first group is the value
    to replace; ``kind`` is ``"duration"`` or the placeholder kind of an id.
    """
    return _VOLATILE_TEXT


__all__ += ["volatile_text_patterns"]


def run_loop_span_types() -> tuple[str, ...]:
    """Span types with which the runner itself frames a run: one ``task`` span per run and
    one ``turn`` span per turn (0.14 on; their usage data gains fields in later releases)."""
    return ("task", "turn")


__all__ += ["run_loop_span_types"]


def restore_trace_provider(previous: Any) -> None:
    """Put back the global trace provider that ``install_trace_provider`` returned."""
    from agents.tracing import set_trace_provider

    set_trace_provider(previous)


__all__ += ["restore_trace_provider"]


class TracingState:
    """The global tracing switch as it was, so a test can turn tracing off and put it back.

    The SDK has a public setter (``agents.set_tracing_disabled``) but no getter. Its
    default provider keeps the manual override in ``_manual_disabled`` (``None`` means
    "follow OPENAI_AGENTS_DISABLE_TRACING"), the same from 0.14 to 0.24; restoring that
    value, not just a boolean, keeps the environment variable in charge afterwards.
    """

    __slots__ = ("_manual", "_provider")

    def __init__(self) -> None:
        from agents.tracing import get_trace_provider

        self._provider = get_trace_provider()
        self._manual: object = getattr(self._provider, "_manual_disabled", _UNKNOWN)

    def restore(self) -> None:
        """Put the switch of the provider that was current at capture time back."""
        if self._manual is _UNKNOWN:
            # A custom provider without a readable state: tracing was on by default.
            self._provider.set_disabled(False)
            return
        self._provider._manual_disabled = self._manual  # type: ignore[attr-defined]
        refresh = getattr(self._provider, "_refresh_disabled_flag", None)
        if callable(refresh):
            refresh()
        elif isinstance(self._manual, bool):
            self._provider.set_disabled(self._manual)


_UNKNOWN = object()


def capture_tracing_state() -> TracingState:
    """Remember the global tracing switch; call ``.restore()`` on the result to put it back."""
    return TracingState()


@lru_cache(maxsize=1)
def model_response_has_raw_usage() -> bool:
    """Whether ``agents.ModelResponse`` has the ``raw_usage`` field (newer releases)."""
    import dataclasses

    from agents.items import ModelResponse

    return any(field.name == "raw_usage" for field in dataclasses.fields(ModelResponse))


@lru_cache(maxsize=1)
def function_arguments_done_has_name() -> bool:
    """Whether the bundled ``openai`` function-call-arguments done event carries ``name``."""
    from openai.types.responses import ResponseFunctionCallArgumentsDoneEvent

    return "name" in ResponseFunctionCallArgumentsDoneEvent.model_fields


__all__ += ["streamed_usage_attributes"]


@lru_cache(maxsize=1)
def streamed_usage_attributes() -> tuple[str | None, str | None]:
    """Private attribute names through which a streamed response hands the runner an exact
    ``Usage`` (on its ``usage``) and a raw usage snapshot (on the response); ``None`` where
    the installed SDK rebuilds usage from the token counts alone."""
    import agents.usage

    normalized = getattr(agents.usage, "_NORMALIZED_USAGE_ATTRIBUTE", None)
    raw = getattr(agents.usage, "_RAW_USAGE_ATTRIBUTE", None)
    return (
        normalized if isinstance(normalized, str) else None,
        raw if isinstance(raw, str) else None,
    )


# --- Realtime boundary ---

__all__ += ["realtime_has_conditional_send", "realtime_has_output_text_events"]


def realtime_has_output_text_events() -> bool:
    """Whether ``agents.realtime`` has ``RealtimeModelOutputTextDeltaEvent`` (0.19.3 and later)."""
    return sdk_at_least(0, 19, 3)


def realtime_has_conditional_send() -> bool:
    """Whether sessions send guardrail feedback through ``RealtimeModel.send_event_if``.

    The session and the model method arrived together in 0.19.3.
    """
    return sdk_at_least(0, 19, 3)


# --- Sandbox boundary ---

__all__ += ["sandbox_config_accepts_mapping", "sandbox_optional_operations"]

# Public workspace operations of ``BaseSandboxSession`` that only newer releases have:
# ``mv`` and ``same_file`` arrived in 0.23.1 (both back apply_patch renames).
_SANDBOX_MOVE_OPERATIONS: tuple[str, ...] = ("mv", "same_file")


def sandbox_optional_operations() -> tuple[str, ...]:
    """The optional public sandbox session operations of the installed SDK, e.g. ``("mv",)``."""
    return _SANDBOX_MOVE_OPERATIONS if sdk_at_least(0, 23, 1) else ()


def sandbox_config_accepts_mapping() -> bool:
    """Whether ``RunConfig(sandbox={"session": ...})`` accepts a plain dict (0.19+).

    Earlier releases need ``SandboxRunConfig(session=...)``.
    """
    return sdk_at_least(0, 19)


# --- Voice boundary ---

__all__ += [
    "voice_config_accepts_mapping",
    "voice_ends_flushed_turns",
    "voice_ends_silent_sessions",
    "voice_finalizes_intro_turn",
    "voice_reports_close_errors",
    "voice_speaks_short_segments",
]


def voice_config_accepts_mapping() -> bool:
    """Whether ``VoicePipeline(config=...)`` accepts a plain dict (0.19+; a dataclass before)."""
    return sdk_at_least(0, 19)


def voice_ends_flushed_turns() -> bool:
    """Whether a turn whose text already went to TTS still ends with ``turn_ended`` (0.17.3+).

    Earlier releases emit ``turn_ended`` only for a turn that leaves text in the buffer,
    so a text splitter that flushes everything leaves the turn open.
    """
    return sdk_at_least(0, 17, 3)


def voice_ends_silent_sessions() -> bool:
    """Whether a streamed run that produced no text still ends its stream (0.20+).

    Earlier releases start the audio dispatcher only with the first text, so a session
    that yields no turn (and no greeting) leaves the result's ``stream()`` waiting.
    """
    return sdk_at_least(0, 20)


def voice_speaks_short_segments() -> bool:
    """Whether every segment the text splitter releases is spoken (0.17.3+).

    Earlier releases drop a released segment shorter than 20 characters.
    """
    return sdk_at_least(0, 17, 3)


def voice_finalizes_intro_turn() -> bool:
    """Whether the pipeline ends the ``on_start()`` greeting as its own turn (0.20+).

    Earlier releases leave the greeting in the text buffer, so it is spoken together
    with the first user turn.
    """
    return sdk_at_least(0, 20)


def voice_reports_close_errors() -> bool:
    """Whether a failing ``StreamedTranscriptionSession.close()`` reaches the stream (0.20+).

    Earlier releases let the error escape before the session ends, so the result's
    ``stream()`` never finishes.
    """
    return sdk_at_least(0, 20)


# --- Cassettes ---

__all__ += ["openai_http_module"]


@lru_cache(maxsize=1)
def openai_http_module() -> Any:
    """The HTTP library the installed ``openai`` client is built on (``httpx2`` or ``httpx``).

    openai 3 moved from ``httpx`` to ``httpx2``; replayed provider errors need that
    library's ``Request`` and ``Response`` to be rebuilt as the client would raise them.
    """
    from importlib import import_module

    from openai import _exceptions

    for name in ("httpx2", "httpx"):
        if name in vars(_exceptions):
            return vars(_exceptions)[name]
    return import_module("httpx")


# --- Checked tool calls ---

__all__ += ["function_tool_namespace"]


def function_tool_namespace(tool: Any) -> str | None:
    """The namespace ``tool_namespace(...)`` put a function tool in, or None.

    The SDK keeps it in a private field (``_tool_namespace``, the same from 0.14 to 0.24),
    which only dispatch reads; a release without namespaces simply has none.
    """
    namespace = getattr(tool, "_tool_namespace", None)
    return namespace if isinstance(namespace, str) and namespace else None


# --- The agent of the running turn, and the default model ---


def current_agent_name() -> str | None:
    """The name of the agent whose turn is running in this context, or None outside a run.

    Read from the SDK's current span through the public tracing API. The runner makes
    an agent span current for every agent and, from 0.14 on (unless
    ``RunConfig.tracing={"include_task_and_turn_spans": False}`` on releases that have
    that switch), a turn span inside it that names the agent too. Both exist, as no-op
    spans that still carry their data, when tracing is disabled.
    """
    from agents.tracing import get_current_span

    span = get_current_span()
    if span is None:
        return None
    data = span.span_data
    kind = getattr(data, "type", None)
    if kind == "agent":
        name = getattr(data, "name", None)
    elif kind == "turn":
        name = getattr(data, "agent_name", None)
    else:
        return None
    return name if isinstance(name, str) else None


def default_model_name() -> str:
    """The model name the SDK's default provider uses for an agent that names none."""
    from agents.models.default_models import get_default_model

    return get_default_model()


__all__ += ["current_agent_name", "default_model_name"]


# --- MCP boundary ---

__all__ += ["mcp_error_results_keep_content", "mcp_server_options"]


@lru_cache(maxsize=1)
def mcp_server_options() -> frozenset[str]:
    """The keyword options ``agents.mcp.MCPServer.__init__`` takes on the installed SDK.

    0.14 to 0.16 take ``use_structured_content``, ``require_approval``,
    ``failure_error_function`` and ``tool_meta_resolver``; 0.17 adds
    ``custom_data_extractor``; later releases add ``tool_input_guardrails`` and
    ``tool_output_guardrails``. The abstract methods (``connect``, ``cleanup``, ``name``,
    ``list_tools``, ``call_tool``, ``list_prompts``, ``get_prompt``) and the resource
    methods are the same on every supported release.
    """
    import inspect

    from agents.mcp import MCPServer

    parameters = inspect.signature(MCPServer.__init__).parameters
    return frozenset(name for name in parameters if name != "self")


def mcp_error_results_keep_content() -> bool:
    """Whether, with ``use_structured_content``, a result flagged ``isError`` still reaches
    the model as its text content (0.20+); earlier releases send its structured content."""
    return sdk_at_least(0, 20)


# --- Smoke runs: what a failing function tool sends back to the model ---

__all__ += ["function_tool_failure_formatter"]


def function_tool_failure_formatter(tool: Any) -> Any:
    """The function that turns an exception of function tool ``tool`` into its output, or
    None when the exception fails the run instead (``failure_error_function=None``).

    The SDK keeps the choice in private fields (``_failure_error_function`` and
    ``_use_default_failure_error_function``, the same from 0.14 to 0.24); a tool without
    them uses the SDK's public ``default_tool_error_function``.
    """
    from agents.tool import default_tool_error_function

    if getattr(tool, "_use_default_failure_error_function", True) is not False:
        return default_tool_error_function
    return getattr(tool, "_failure_error_function", None)
