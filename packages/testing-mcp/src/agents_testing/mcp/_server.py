"""``ScriptedMCPServer``: an SDK ``MCPServer`` whose tool calls are answered by a script.

It subclasses the SDK's ``agents.mcp.MCPServer``, so ``Agent(mcp_servers=[server])``
lists its tools, converts them, asks for approval and calls them exactly as it does a
stdio or HTTP server. The listing is static (``tools=``); each ``call_tool`` records a
detached :class:`MCPCall` and consumes the next step of one global FIFO. There is no
process, connection or protocol behind it.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable, Iterable, Mapping
from types import TracebackType
from typing import TYPE_CHECKING, Any, NoReturn

from agents.mcp import MCPServer

from agents_testing.core import (
    AnyOrder,
    StepScript,
    compat,
    detach,
    exception_problem,
    scripted_wait,
)

from ._call import MCPCall, MCPRequest, copy_call, readonly
from ._errors import (
    InvalidMCPArgument,
    MCPScriptError,
)
from ._faults import closed_session_error, connection_closed, request_timeout, timeout_problem
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


class ScriptedMCPServer(MCPServer):
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
        problem = timeout_problem(client_session_timeout_seconds)
        if problem is not None:
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
        self._script: StepScript[Step] = StepScript(
            build_steps(steps, tools=known, extra_checks=extra_checks)
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
        self._violation: MCPScriptError | None = None
        # Set by a cassette replay, whose steps are outcomes after the retries.
        self._retries_recorded = False

    # --- inspection -----------------------------------------------------------------

    @property
    def name(self) -> str:
        return self._name

    @property
    def connected(self) -> bool:
        """Whether ``connect()`` succeeded and ``cleanup()`` has not run since."""
        return self._connected

    @property
    def crashed(self) -> bool:
        """Whether a scripted crash killed the server and it was not connected since."""
        return self._crashed

    @property
    def connect_calls(self) -> int:
        """How many times ``connect()`` was called, failed attempts included."""
        return self._connects

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

    def __agents_testing_snapshot__(self) -> object:
        """What ``to_snapshot`` records of the server: its tool calls."""
        return self.calls

    @property
    def remaining_steps(self) -> int:
        """How many scripted steps are not yet consumed."""
        return len(self._script)

    @property
    def pending_steps(self) -> tuple[MCPStepSpec, ...]:
        """The steps not yet consumed, in script order, as step dicts built on each access."""
        return tuple(step.spec() for step in self._script)

    @property
    def cached_tools(self) -> list[Tool] | None:
        """Copies of the last tool listing the server fetched, or None before the first."""
        return None if self._listed is None else [_copy(tool) for tool in self._listed]

    def invalidate_tools_cache(self) -> None:
        """Make the next ``list_tools()`` fetch the listing again (with ``cache_tools_list``)."""
        self._cache_dirty = True

    def assert_complete(self) -> None:
        """Raise ``UnconsumedMCPSteps`` when steps are left.

        With ``extra_checks=True``, first raise the first script violation of the run: the
        SDK turns an error from ``call_tool`` into a message for the model, so a violation
        may not have stopped the run.
        """
        if self.extra_checks and self._violation is not None:
            raise self._violation
        self._script.assert_complete(unconsumed_steps)

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
        step = self._take(call)
        # Consumed synchronously above, before any await: concurrent tool calls consume
        # steps in the order the runner starts them.
        if step.delay:
            await scripted_wait(step.delay)
        if step.kind == "crash":
            self._crashed = True
            raise connection_closed()
        if step.kind == "error":
            error = step.value
            raise error() if isinstance(error, type) else error
        if step.kind == "result":
            result = fresh_result(step.value)
        else:
            result = await self._respond(step, call)
        if self.extra_checks and tool is not None:
            found = result_violation(tool, result)
            if found is not None:
                self._fail(schema_error(call, tool_name, "outputSchema", found, step.input_index))
        return result

    async def _respond(self, step: Step, call: MCPCall) -> CallToolResult:
        responder: Callable[[MCPCall], Any] = step.value
        try:
            value = responder(copy_call(call))
        except TypeError as error:
            if "responder" not in step.unchecked:
                raise
            detail = "'responder' could not be called with the MCPCall"
            self._fail(invalid_step("invalid_outcome", step.input_index, step.tool, detail), error)
        if inspect.isawaitable(value):
            value = await value
        result, problem = coerce_result(value)
        if problem is None and self.extra_checks:
            problem = result_cycle(result)
        if problem is not None or result is None:
            self._fail(
                invalid_step(
                    "invalid_outcome",
                    step.input_index,
                    step.tool,
                    f"the responder's value is not a result: {problem}",
                )
            )
        return result

    def _take(self, call: MCPCall) -> Step:
        candidates = self._script.candidates()
        grouped = self._script.in_group()
        same_tool = [step for step in candidates if step.tool == call.tool]
        if not same_tool:
            expected = candidates[0].tool if candidates else None
            self._fail(
                unexpected_call(
                    call,
                    expected,
                    self.pending_steps,
                    tuple(step.tool for step in candidates) if grouped else (),
                )
            )
        # In a group, the first pending member for the tool whose matcher accepts the call
        # answers it; outside one, there is only the head.
        for step in same_tool:
            if self._accepts(step, call):
                self._script.take_candidate(step)
                return step
        self._fail(rejected_call(call, same_tool[0].input_index, len(same_tool) if grouped else 0))

    def _accepts(self, step: Step, call: MCPCall) -> bool:
        match = step.match
        if match is None:
            return True
        if isinstance(match, Mapping):
            return dict(call.arguments or {}) == match
        # A matcher's own exception propagates as it is and leaves the step pending.
        try:
            verdict = match(copy_call(call))
        except MCPScriptError as error:
            # One of ours (a cassette's request diff): remembered like any violation.
            if self._violation is None:
                self._violation = error
            raise
        except TypeError as error:
            if "match" not in step.unchecked:
                raise
            detail = "'match' could not be called with the MCPCall"
            self._fail(invalid_step("invalid_matcher", step.input_index, step.tool, detail), error)
        if inspect.isawaitable(verdict):
            close = getattr(verdict, "close", None)
            if callable(close):
                close()  # never awaited: closing it avoids a "never awaited" warning
            self._fail(
                invalid_step(
                    "invalid_matcher",
                    step.input_index,
                    step.tool,
                    "'match' returned an awaitable; a matcher must answer at once",
                )
            )
        # Only False rejects: any other value (None, 0, an array) accepts the call.
        return verdict is not False

    def _fail(self, error: MCPScriptError, cause: BaseException | None = None) -> NoReturn:
        if self._violation is None:
            self._violation = error
        if cause is not None:
            raise error from cause
        raise error

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
