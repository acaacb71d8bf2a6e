"""``ScriptedMCPServer``: an SDK ``MCPServer`` whose tool calls are answered by a script.

It subclasses the SDK's ``agents.mcp.MCPServer``, so ``Agent(mcp_servers=[server])``
lists its tools, converts them, asks for approval and calls them exactly as it does a
stdio or HTTP server. The listing is static (``tools=``); each ``call_tool`` records a
detached :class:`MCPCall` and consumes the next step of one global FIFO. There is no
process, connection or protocol behind it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Mapping
from types import TracebackType
from typing import TYPE_CHECKING, Any, Literal

from agents.mcp import MCPServer

from agents_testing.core import (
    AnyOrder,
    ReadOnly,
    ScriptedDouble,
    compat,
    detach,
    exception_problem,
    fresh_error,
    scripted_wait,
    seconds_problem,
)

from ._call import MCPCall, MCPRequest, copy_call, readonly
from ._errors import InvalidMCPArgument, InvalidMCPStepReason, MCPScriptError
from ._faults import closed_session_error, connection_closed, request_timeout
from ._listing import serve
from ._listing.definitions import (
    ScriptedPrompt,
    ScriptedResource,
    read_prompts,
    read_resource_templates,
    read_resources,
    read_tools,
)
from ._listing.filter import apply_tool_filter, check_tool_filter
from ._results.coerce import coerce_result, fresh_result
from ._schema.check import argument_violation, result_violation
from ._script.build import build_steps, invalid_step, result_cycle
from ._script.violations import rejected_call, schema_error, unconsumed_steps, unexpected_call
from ._spec import MCPStepSpec
from ._steps import Step
from ._wire import attribute

if TYPE_CHECKING:
    from agents.agent import AgentBase
    from agents.run_context import RunContextWrapper

    from mcp.types import (
        CallToolResult,
        GetPromptResult,
        ListPromptsResult,
        ListResourcesResult,
        ListResourceTemplatesResult,
        ReadResourceResult,
        Tool,
    )

__all__ = ["ScriptedMCPServer"]

_NOT_CONNECTED = "Server not initialized. Make sure you call `connect()` first."
_UNSET: Any = object()

StepInput = MCPStepSpec | AnyOrder[MCPStepSpec]


class ScriptedMCPServer(ScriptedDouble[Step, MCPCall, MCPStepSpec], MCPServer):
    """An MCP server whose tools, prompts and resources are listed from definitions and
    whose tool calls are answered by scripted steps, in one FIFO order.

    Pass it as ``Agent(mcp_servers=[server])`` and connect it as any server
    (``async with server:``). Inspect ``calls``, ``requests``, ``remaining_steps`` and
    ``pending_steps``; finish a test with ``assert_complete()``. The SDK's server options
    (``tool_filter``, ``cache_tools_list``, ``use_structured_content``,
    ``require_approval``, ``failure_error_function``, ``max_retry_attempts``, ...) work as
    on the SDK's own servers. ``extra_checks=True`` checks arguments and results against
    the tools' schemas, refuses steps for tools the server does not list, and makes
    ``assert_complete()`` report the first script violation of the run.

    Faults (our own, opt-in): a step's ``delay`` makes the server take that long (on the
    event loop's clock) before its outcome; ``"crash": True`` makes it die mid-call;
    ``client_session_timeout_seconds`` fails a call that takes longer, as the SDK's
    servers' client sessions do. The errors are the installed ``mcp`` client's.
    """

    _call_type = "MCPCall"
    _errors = (MCPScriptError,)

    def __init__(
        self,
        steps: Iterable[StepInput] = (),
        *,
        tools: Iterable[Tool | Mapping[str, Any]] = (),
        prompts: Iterable[Any] = (),
        resources: Iterable[Any] = (),
        resource_templates: Iterable[Any] = (),
        name: str = "scripted-mcp",
        cache_tools_list: bool = False,
        tool_filter: Any = None,
        use_structured_content: bool = False,
        require_approval: Any = None,
        failure_error_function: Any = _UNSET,
        tool_meta_resolver: Any = None,
        custom_data_extractor: Any = None,
        tool_input_guardrails: Any = None,
        tool_output_guardrails: Any = None,
        max_retry_attempts: int = 0,
        retry_backoff_seconds_base: float = 0.0,
        connect_error: BaseException | type[BaseException] | None = None,
        extra_checks: bool = False,
        client_session_timeout_seconds: float | None = None,
    ) -> None:
        if not isinstance(name, str) or not name:
            raise _argument("name", "a non-empty str", name)
        for flag, value in (
            ("cache_tools_list", cache_tools_list),
            ("use_structured_content", use_structured_content),
            ("extra_checks", extra_checks),
        ):
            if not isinstance(value, bool):
                raise _argument(flag, "a bool", value)
        if isinstance(max_retry_attempts, bool) or not isinstance(max_retry_attempts, int):
            raise _argument(
                "max_retry_attempts", "an int (-1 retries without end)", max_retry_attempts
            )
        if isinstance(retry_backoff_seconds_base, bool) or not isinstance(
            retry_backoff_seconds_base, (int, float)
        ):
            raise _argument(
                "retry_backoff_seconds_base", "a number of seconds", retry_backoff_seconds_base
            )
        # As on the SDK's servers: None or 0 mean no timeout, else seconds to wait.
        timeout = client_session_timeout_seconds
        if timeout is not None and seconds_problem(timeout) is not None:
            raise _argument(
                "client_session_timeout_seconds",
                "zero or None (no timeout) or a positive, finite number of seconds",
                client_session_timeout_seconds,
            )
        if connect_error is not None and exception_problem(connect_error) is not None:
            raise _argument("connect_error", "an exception instance or class", connect_error)
        check_tool_filter(tool_filter)
        options: dict[str, Any] = {
            "use_structured_content": use_structured_content,
            "require_approval": require_approval,
            "tool_meta_resolver": tool_meta_resolver,
        }
        if failure_error_function is not _UNSET:
            options["failure_error_function"] = failure_error_function
        accepted = compat.mcp_server_options()
        for option, value in (
            ("custom_data_extractor", custom_data_extractor),
            ("tool_input_guardrails", tool_input_guardrails),
            ("tool_output_guardrails", tool_output_guardrails),
        ):
            if value is None:
                continue
            if option not in accepted:
                raise InvalidMCPArgument(
                    f"{option} needs an openai-agents release whose MCP servers take it; "
                    f"the installed {'.'.join(map(str, compat.sdk_version()))} does not.",
                    argument=option,
                    expected="None on this openai-agents release",
                    got=type(value).__name__,
                )
            options[option] = value
        # The SDK normalizes require_approval here and raises its own UserError for a bad one.
        super().__init__(**options)

        self.extra_checks = extra_checks
        self.cache_tools_list = cache_tools_list
        self.tool_filter = tool_filter
        self.max_retry_attempts = max_retry_attempts
        self.retry_backoff_seconds_base = float(retry_backoff_seconds_base)
        self.client_session_timeout_seconds = client_session_timeout_seconds
        self._name = name
        self._tools: tuple[Tool, ...] = read_tools(tools)
        self._by_name = {tool.name: tool for tool in self._tools}
        self._prompts: tuple[ScriptedPrompt, ...] = read_prompts(prompts)
        self._resources: tuple[ScriptedResource, ...] = read_resources(resources)
        self._templates = read_resource_templates(resource_templates)
        known = frozenset(self._by_name) if extra_checks else None
        self._start_script(
            build_steps(steps, tools=known, extra_checks=extra_checks),
            remembers=extra_checks,
            checks_calls=True,
        )
        self._connect_error = connect_error
        self._connected = False
        # Set when a scripted crash killed the server: its session is dead until the
        # next connect(), as a client's session is once its server process is gone.
        self._crashed = False
        self._connects = 0
        self._listed: list[Tool] | None = None
        self._cache_dirty = True
        self._calls: list[MCPCall] = []
        self._requests: list[MCPRequest] = []
        # Set by a cassette replay, whose steps are outcomes after the retries.
        self._retries_recorded = False

    # --- inspection -----------------------------------------------------------------

    name = ReadOnly[str]("_name")
    connected = ReadOnly[bool](
        "_connected", "Whether ``connect()`` succeeded and ``cleanup()`` has not run since."
    )
    crashed = ReadOnly[bool](
        "_crashed", "Whether a scripted crash killed the server and it was not connected since."
    )
    connect_calls = ReadOnly[int](
        "_connects", "How many times ``connect()`` was called, failed attempts included."
    )

    @property
    def calls(self) -> tuple[MCPCall, ...]:
        """Every ``call_tool`` call that reached the server, detached, in call order."""
        return tuple(copy_call(call) for call in self._calls)

    @property
    def requests(self) -> tuple[MCPRequest, ...]:
        """Every request that reached the server (tool listings, calls, prompts,
        resources), detached, in order."""
        return tuple(
            MCPRequest(request.index, request.method, readonly(detach(dict(request.params))))
            for request in self._requests
        )

    @property
    def cached_tools(self) -> list[Tool] | None:
        """Copies of the last tool listing the server fetched, or None before the first."""
        return None if self._listed is None else [_copy(tool) for tool in self._listed]

    def invalidate_tools_cache(self) -> None:
        """Make the next ``list_tools()`` fetch the listing again (with ``cache_tools_list``)."""
        self._cache_dirty = True

    # --- lifecycle ----------------------------------------------------------------------

    async def connect(self) -> None:
        """Connect; a second call while connected is accepted, as real servers accept it."""
        self._connects += 1
        error = self._connect_error
        if error is not None:
            raise error() if isinstance(error, type) else error
        self._connected = True
        self._crashed = False

    async def cleanup(self) -> None:
        """Disconnect; later requests fail until ``connect()`` is called again."""
        self._connected = False

    async def __aenter__(self) -> ScriptedMCPServer:
        await self.connect()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.cleanup()

    def _require_connected(self) -> None:
        if not self._connected:
            from agents.exceptions import UserError

            raise UserError(_NOT_CONNECTED)

    async def _require_alive(self) -> None:
        """A request to a server that died fails as the client's dead session fails it,
        after the SDK's retries (``max_retry_attempts``)."""
        if self._crashed:
            await self._retrying(self._dead)

    async def _dead(self) -> Any:
        raise closed_session_error()

    def _request(self, method: str, params: dict[str, Any]) -> None:
        self._requests.append(
            MCPRequest(len(self._requests), method, readonly(self._detach(params, method)))
        )

    def _detach(self, value: Any, name: str) -> Any:
        # A bare server re-raises a value's own copy error, as the SDK's doubles do.
        return detach(value, name=name, wrap_errors=self.extra_checks)

    # --- tools ----------------------------------------------------------------------------

    async def list_tools(
        self,
        run_context: RunContextWrapper[Any] | None = None,
        agent: AgentBase | None = None,
    ) -> list[Tool]:
        self._require_connected()
        if self.cache_tools_list and not self._cache_dirty and self._listed is not None:
            tools = self._listed  # served from the cache: no request reaches a dead server
        else:
            await self._require_alive()
            self._request("list_tools", {})
            tools = [_copy(tool) for tool in self._tools]
            self._listed = tools
            self._cache_dirty = False
        kept = await apply_tool_filter(
            self.tool_filter, tools, run_context, agent, self.name, _copy
        )
        return [_copy(tool) for tool in kept]

    async def call_tool(
        self,
        tool_name: str,
        arguments: dict[str, Any] | None,
        meta: dict[str, Any] | None = None,
    ) -> CallToolResult:
        self._require_connected()
        if not isinstance(tool_name, str):
            raise _argument("call_tool(tool_name)", "a str", tool_name)
        if arguments is not None and not isinstance(arguments, Mapping):
            raise _argument("call_tool(arguments)", "a dict or None", arguments)
        if meta is not None and not isinstance(meta, Mapping):
            raise _argument("call_tool(meta)", "a dict or None", meta)
        self._check_required(tool_name, arguments)
        if self._retries_recorded:
            return await self._attempt(tool_name, arguments, meta)
        result: CallToolResult = await self._retrying(
            lambda: self._attempt(tool_name, arguments, meta)
        )
        return result

    async def _retrying(self, attempt: Callable[[], Any]) -> Any:
        """Run ``attempt`` as the SDK's servers run a request: retried on failure up to
        ``max_retry_attempts`` times, waiting the exponential back-off in between."""
        attempts = 0
        while True:
            try:
                return await attempt()
            except MCPScriptError:
                raise  # a script problem, not a server failure: retrying cannot help
            except Exception:
                attempts += 1
                if self.max_retry_attempts != -1 and attempts > self.max_retry_attempts:
                    raise
                if self.retry_backoff_seconds_base > 0:
                    await asyncio.sleep(self.retry_backoff_seconds_base * 2 ** (attempts - 1))

    async def _attempt(
        self, tool_name: str, arguments: Mapping[str, Any] | None, meta: Mapping[str, Any] | None
    ) -> CallToolResult:
        """One request to the server, within the client session's read timeout."""
        if self._crashed:
            raise closed_session_error()  # the request never reaches a server
        timeout = self.client_session_timeout_seconds
        if not timeout:
            return await self._answer(tool_name, arguments, meta)
        loop = asyncio.get_running_loop()
        started = loop.time()
        try:
            return await asyncio.wait_for(self._answer(tool_name, arguments, meta), timeout)
        except asyncio.TimeoutError:
            if loop.time() - started < timeout:
                raise  # the answer's own TimeoutError (a scripted error), not the client's
            raise request_timeout(timeout) from None

    def _check_required(self, tool_name: str, arguments: Mapping[str, Any] | None) -> None:
        """The SDK's servers refuse a call that lacks a required argument of the fetched
        listing before sending it; so does this one, with the same ``UserError``."""
        if self._cache_dirty or self._listed is None:
            return
        tool = next((item for item in self._listed if item.name == tool_name), None)
        schema = attribute(tool, "inputSchema") if tool is not None else None
        required = schema.get("required") if isinstance(schema, Mapping) else None
        if not isinstance(required, list):
            return
        given = arguments or {}
        missing = sorted(name for name in required if isinstance(name, str) and name not in given)
        if missing:
            from agents.exceptions import UserError

            raise UserError(
                f"Failed to call tool '{tool_name}' on MCP server '{self.name}': "
                f"missing required parameters: {', '.join(missing)}"
            )

    async def _answer(
        self, tool_name: str, arguments: Mapping[str, Any] | None, meta: Mapping[str, Any] | None
    ) -> CallToolResult:
        index = len(self._calls)
        # Copied before anything is recorded: a value that cannot be copied fails the call
        # with nothing recorded or consumed.
        kept_arguments = None if arguments is None else self._detach(dict(arguments), "arguments")
        kept_meta = None if meta is None else self._detach(dict(meta), "meta")
        call = MCPCall(index, tool_name, readonly(kept_arguments), readonly(kept_meta))
        self._calls.append(call)
        self._request("call_tool", {"tool": tool_name, "arguments": kept_arguments})
        tool = self._by_name.get(tool_name)
        if self.extra_checks and tool is not None:
            found = argument_violation(tool, kept_arguments)
            if found is not None:
                self._fail(schema_error(call, tool_name, "inputSchema", found, None))
        step = self._take(call, tool_name)
        # Consumed synchronously above, before any await: concurrent tool calls consume
        # steps in the order the runner starts them.
        if step.delay:
            await scripted_wait(step.delay)
        if step.kind == "crash":
            self._crashed = True
            raise connection_closed()
        if step.kind == "error":
            raise fresh_error(step.value)
        if step.kind == "result":
            result = fresh_result(step.value)
        else:
            result = await self._respond_result(step, call)
        if self.extra_checks and tool is not None:
            found = result_violation(tool, result)
            if found is not None:
                self._fail(schema_error(call, tool_name, "outputSchema", found, step.input_index))
        return result

    async def _respond_result(self, step: Step, call: MCPCall) -> CallToolResult:
        value = await self._call_responder(step, call, step.value)
        result, problem = coerce_result(value)
        if problem is None and self.extra_checks:
            problem = result_cycle(result)
        if problem is not None or result is None:
            self._fail(
                invalid_step(
                    "invalid_outcome",
                    step.input_index,
                    step.target,
                    f"the responder's value is not a result: {problem}",
                )
            )
        return result

    # --- the step script --------------------------------------------------------------

    def _spec(self, step: Step) -> MCPStepSpec:
        return step.spec()  # type: ignore[no-any-return]

    def _unconsumed(self, pending: tuple[Step, ...]) -> BaseException:
        return unconsumed_steps(pending)

    def _unexpected(
        self, call: MCPCall, candidates: tuple[Step, ...], grouped: bool
    ) -> BaseException:
        expected = candidates[0].target if candidates else None
        tools = tuple(step.target for step in candidates) if grouped else ()
        return unexpected_call(call, expected, self.pending_steps, tools)

    def _rejected(self, call: MCPCall, same: tuple[Step, ...], grouped: bool) -> BaseException:
        return rejected_call(call, same[0].input_index, len(same) if grouped else 0)

    def _malformed(
        self, step: Step, role: Literal["match", "responder"], detail: str
    ) -> BaseException:
        reason: InvalidMCPStepReason = "invalid_matcher" if role == "match" else "invalid_outcome"
        return invalid_step(reason, step.input_index, step.target, detail)

    def _handed(self, call: MCPCall) -> MCPCall:
        return copy_call(call)

    def _matches_value(self, match: Any, call: MCPCall) -> bool:
        # A mapping matcher: the call's arguments must equal it.
        return bool(dict(call.arguments or {}) == match)

    # --- prompts and resources --------------------------------------------------------------

    async def list_prompts(self) -> ListPromptsResult:
        self._require_connected()
        await self._require_alive()
        self._request("list_prompts", {})
        return serve.list_prompts(self._prompts)

    async def get_prompt(
        self, name: str, arguments: dict[str, Any] | None = None
    ) -> GetPromptResult:
        self._require_connected()
        await self._require_alive()
        if arguments is not None and not isinstance(arguments, Mapping):
            raise _argument("get_prompt(arguments)", "a dict or None", arguments)
        given = {} if arguments is None else self._detach(dict(arguments), "arguments")
        self._request("get_prompt", {"name": name, "arguments": given})
        return serve.prompt(self._prompts, name, given)

    async def list_resources(self, cursor: str | None = None) -> ListResourcesResult:
        self._require_connected()
        await self._require_alive()
        self._request("list_resources", {"cursor": cursor})
        serve.check_cursor(cursor)
        return serve.list_resources(self._resources)

    async def list_resource_templates(
        self, cursor: str | None = None
    ) -> ListResourceTemplatesResult:
        self._require_connected()
        await self._require_alive()
        self._request("list_resource_templates", {"cursor": cursor})
        serve.check_cursor(cursor)
        return serve.list_templates(self._templates)

    async def read_resource(self, uri: str) -> ReadResourceResult:
        self._require_connected()
        await self._require_alive()
        self._request("read_resource", {"uri": str(uri)})
        return serve.read(self._resources, str(uri))


# --- helpers ----------------------------------------------------------------------------


def _argument(argument: str, expected: str, value: object) -> InvalidMCPArgument:
    got = type(value).__name__
    where = argument if "(" in argument else f"ScriptedMCPServer() argument {argument!r}"
    return InvalidMCPArgument(
        f"{where} must be {expected}, got {got}.", argument=argument, expected=expected, got=got
    )


def _copy(tool: Tool) -> Tool:
    return tool.model_copy(deep=True)


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
