"""One model call's arguments as one value, and the ``Model`` that takes them so.

The runner calls ``get_response`` and ``stream_response`` with the same ten arguments.
Every model of ours (the scripted model, the recording and replaying models of a
cassette, the provider's routing model) takes them once, in :class:`RequestModel`, as
a :class:`ModelRequest`, and passes them on with :meth:`ModelRequest.get_response` and
:meth:`ModelRequest.stream_response`.
"""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Coroutine
from typing import TYPE_CHECKING, Any, NamedTuple

from agents.models.interface import Model

if TYPE_CHECKING:
    from agents.agent_output import AgentOutputSchemaBase
    from agents.handoffs import Handoff
    from agents.items import ModelResponse, TResponseInputItem, TResponseStreamEvent
    from agents.model_settings import ModelSettings
    from agents.models.interface import ModelTracing
    from agents.tool import Tool
    from openai.types.responses.response_prompt_param import ResponsePromptParam

__all__ = ["FrontModel", "ModelRequest", "RequestModel"]


class ModelRequest(NamedTuple):
    """The arguments of one ``get_response`` / ``stream_response`` call, as passed."""

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

    def get_response(self, model: Model) -> Coroutine[Any, Any, ModelResponse]:
        """``model.get_response`` called with these arguments."""
        return model.get_response(
            *self[:7],
            previous_response_id=self.previous_response_id,
            conversation_id=self.conversation_id,
            prompt=self.prompt,
        )

    def stream_response(self, model: Model) -> AsyncIterator[TResponseStreamEvent]:
        """``model.stream_response`` called with these arguments."""
        return model.stream_response(
            *self[:7],
            previous_response_id=self.previous_response_id,
            conversation_id=self.conversation_id,
            prompt=self.prompt,
        )


class RequestModel(Model):
    """A ``Model`` whose two calls hand their arguments on as one :class:`ModelRequest`:
    to :meth:`_respond` (a non-streamed call) and :meth:`_stream` (a streamed one).

    Both take the arguments of the ``Model`` interface, as its signatures say.
    """

    def get_response(self, *args: Any, **kwargs: Any) -> Coroutine[Any, Any, ModelResponse]:
        # The coroutine of _respond itself, so that a call costs no extra frame.
        return self._respond(ModelRequest(*args, **kwargs))

    def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[TResponseStreamEvent]:
        # The generator of _stream itself: nothing runs before the runner iterates it.
        return self._stream(ModelRequest(*args, **kwargs))

    async def _respond(self, request: ModelRequest) -> ModelResponse:
        """The response to a non-streamed call."""
        raise NotImplementedError

    def _stream(self, request: ModelRequest) -> AsyncIterator[TResponseStreamEvent]:
        """The events of a streamed call (an async generator)."""
        raise NotImplementedError


class FrontModel(RequestModel):
    """A model in front of another: closing it closes that one, and attributes it does
    not have itself (a name, a client an application reads) are that one's."""

    def __init__(self, behind: Model) -> None:
        self._behind = behind

    async def close(self) -> None:
        await self._behind.close()

    def __getattr__(self, name: str) -> Any:
        if "_behind" not in self.__dict__:
            raise AttributeError(name)
        return getattr(self.__dict__["_behind"], name)


# help() and inspect.signature() show the interface's own arguments.
RequestModel.get_response.__signature__ = inspect.signature(Model.get_response)  # type: ignore[attr-defined]
RequestModel.stream_response.__signature__ = inspect.signature(Model.stream_response)  # type: ignore[attr-defined]


# Public names show the package, however this module was first imported.
from agents_testing.core.lazy import publish_module as _publish_module  # noqa: E402

_publish_module(globals())
