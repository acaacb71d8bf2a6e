"""A tiny local server speaking the OpenAI Responses and Chat Completions APIs.

It answers each POST with the next scripted turn, as JSON or as SSE when the request
asks to stream: an assistant message, a function call (also how a handoff looks on the
wire), an HTTP error (with headers and a body of its own), or an answer whose connection
drops part-way (a streamed answer after some events). The SDK's real
``OpenAIResponsesModel`` and ``OpenAIChatCompletionsModel`` are pointed at it, so
recordings cross the real adapters.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Iterator, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

CREATED = 1_700_000_000
USAGE = {"input_tokens": 11, "output_tokens": 7, "total_tokens": 18}

Turn = Mapping[str, Any]


def message(text: str) -> dict[str, Any]:
    return {"text": text}


def tool_call(name: str, arguments: str, call_id: str) -> dict[str, Any]:
    return {"tool": name, "arguments": arguments, "call_id": call_id}


def failure(
    status: int,
    text: str,
    *,
    headers: Mapping[str, str] | None = None,
    error: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """An HTTP error: ``error`` is the whole ``{"error": ...}`` object when given."""
    return {"status": status, "message": text, "headers": dict(headers or {}), "error": error}


def cut(turn: Turn, after: int) -> dict[str, Any]:
    """``turn``, but the connection drops after ``after`` events (a streamed request) or
    part-way through the JSON body."""
    return {**turn, "cut_after": after}


class OpenAIServer:
    """Serves ``turns`` in order on 127.0.0.1; ``requests`` keeps each (path, body, headers)."""

    def __init__(self, turns: list[Turn]) -> None:
        self.turns: deque[Turn] = deque(turns)
        self.requests: list[tuple[str, dict[str, Any], dict[str, str]]] = []
        self._counter = 0
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                return None

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", "0"))
                body = json.loads(self.rfile.read(length) or b"{}")
                server.requests.append((self.path, body, dict(self.headers.items())))
                server._answer(self, body)

        self._http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(
            target=self._http.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
        )

    @property
    def base_url(self) -> str:
        host, port = self._http.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def __enter__(self) -> OpenAIServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._http.shutdown()
        self._http.server_close()

    # -- answers ------------------------------------------------------------------------

    def _answer(self, handler: BaseHTTPRequestHandler, body: dict[str, Any]) -> None:
        if not self.turns:
            self._send_json(handler, 500, {"error": {"message": "no scripted turn left"}})
            return
        turn = self.turns.popleft()
        self._counter += 1
        number = self._counter
        if "status" in turn:
            error = turn.get("error") or {
                "error": {"message": turn["message"], "type": "server_error", "code": None}
            }
            self._send_json(handler, int(turn["status"]), error, turn.get("headers") or {})
            return
        chat = handler.path.endswith("/chat/completions")
        streamed = bool(body.get("stream"))
        if "cut_after" in turn:
            self._send_cut(handler, turn, number, streamed=streamed)
            return
        if chat and streamed:
            self._send_sse(handler, _chat_chunks(turn, number), done=True)
        elif chat:
            self._send_json(handler, 200, _chat_completion(turn, number))
        elif streamed:
            self._send_sse(handler, _response_events(turn, number), done=False)
        else:
            self._send_json(handler, 200, _response(turn, number, "completed"))

    @staticmethod
    def _send_json(
        handler: BaseHTTPRequestHandler,
        status: int,
        data: object,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        payload = json.dumps(data).encode()
        handler.send_response(status)
        handler.send_header("content-type", "application/json")
        handler.send_header("content-length", str(len(payload)))
        if "x-request-id" not in (headers or {}):
            handler.send_header("x-request-id", f"req_{status}")
        for name, value in (headers or {}).items():
            handler.send_header(name, value)
        handler.end_headers()
        handler.wfile.write(payload)

    @staticmethod
    def _send_cut(
        handler: BaseHTTPRequestHandler, turn: Turn, number: int, *, streamed: bool
    ) -> None:
        """Send part of the answer in one chunk, then close without the final chunk."""
        if streamed:
            events = list(_response_events(turn, number))[: int(turn["cut_after"])]
            sent = "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events)
            kind = "text/event-stream"
        else:
            sent = json.dumps(_response(turn, number, "completed"))[:20]
            kind = "application/json"
        payload = sent.encode()
        handler.send_response(200)
        handler.send_header("content-type", kind)
        handler.send_header("transfer-encoding", "chunked")
        handler.end_headers()
        if payload:
            handler.wfile.write(f"{len(payload):x}\r\n".encode() + payload + b"\r\n")
        handler.wfile.flush()
        handler.close_connection = True

    @staticmethod
    def _send_sse(
        handler: BaseHTTPRequestHandler, events: Iterator[dict[str, Any]], *, done: bool
    ) -> None:
        chunks = []
        for event in events:
            name = event.get("type")
            prefix = f"event: {name}\n" if name and not done else ""
            chunks.append(f"{prefix}data: {json.dumps(event)}\n\n")
        if done:
            chunks.append("data: [DONE]\n\n")
        payload = "".join(chunks).encode()
        handler.send_response(200)
        handler.send_header("content-type", "text/event-stream")
        handler.send_header("content-length", str(len(payload)))
        handler.end_headers()
        handler.wfile.write(payload)


# -- Responses API ----------------------------------------------------------------------


def _item(turn: Turn, number: int, status: str) -> dict[str, Any]:
    if "tool" in turn:
        return {
            "type": "function_call",
            "id": f"fc_{number}",
            "call_id": turn["call_id"],
            "name": turn["tool"],
            "arguments": turn["arguments"] if status == "completed" else "",
            "status": status,
        }
    content = [{"type": "output_text", "text": turn["text"], "annotations": [], "logprobs": []}]
    return {
        "type": "message",
        "id": f"msg_{number}",
        "role": "assistant",
        "status": status,
        "content": content if status == "completed" else [],
    }


def _response(turn: Turn, number: int, status: str) -> dict[str, Any]:
    done = status == "completed"
    return {
        "id": f"resp_{number}",
        "object": "response",
        "created_at": CREATED,
        "model": "gpt-test",
        "status": status,
        "output": [_item(turn, number, "completed")] if done else [],
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
        "usage": {
            **USAGE,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens_details": {"reasoning_tokens": 0},
        }
        if done
        else None,
    }


def _response_events(turn: Turn, number: int) -> Iterator[dict[str, Any]]:
    sequence = iter(range(100))
    item_id = f"fc_{number}" if "tool" in turn else f"msg_{number}"
    yield {
        "type": "response.created",
        "response": _response(turn, number, "in_progress"),
        "sequence_number": next(sequence),
    }
    yield {
        "type": "response.output_item.added",
        "output_index": 0,
        "item": _item(turn, number, "in_progress"),
        "sequence_number": next(sequence),
    }
    if "tool" in turn:
        yield {
            "type": "response.function_call_arguments.delta",
            "item_id": item_id,
            "output_index": 0,
            "delta": turn["arguments"],
            "sequence_number": next(sequence),
        }
        yield {
            "type": "response.function_call_arguments.done",
            "item_id": item_id,
            "output_index": 0,
            "name": turn["tool"],
            "arguments": turn["arguments"],
            "sequence_number": next(sequence),
        }
    else:
        text = turn["text"]
        part = {"type": "output_text", "text": "", "annotations": [], "logprobs": []}
        common = {"item_id": item_id, "output_index": 0, "content_index": 0}
        yield {
            "type": "response.content_part.added",
            **common,
            "part": part,
            "sequence_number": next(sequence),
        }
        half = len(text) // 2
        for delta in (text[:half], text[half:]):
            yield {
                "type": "response.output_text.delta",
                **common,
                "delta": delta,
                "logprobs": [],
                "sequence_number": next(sequence),
            }
        yield {
            "type": "response.output_text.done",
            **common,
            "text": text,
            "logprobs": [],
            "sequence_number": next(sequence),
        }
        yield {
            "type": "response.content_part.done",
            **common,
            "part": {**part, "text": text},
            "sequence_number": next(sequence),
        }
    yield {
        "type": "response.output_item.done",
        "output_index": 0,
        "item": _item(turn, number, "completed"),
        "sequence_number": next(sequence),
    }
    yield {
        "type": "response.completed",
        "response": _response(turn, number, "completed"),
        "sequence_number": next(sequence),
    }


# -- Chat Completions API ---------------------------------------------------------------

_CHAT_USAGE = {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}


def _chat_completion(turn: Turn, number: int) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": None}
    if "tool" in turn:
        message["tool_calls"] = [
            {
                "id": turn["call_id"],
                "type": "function",
                "function": {"name": turn["tool"], "arguments": turn["arguments"]},
            }
        ]
    else:
        message["content"] = turn["text"]
    return {
        "id": f"chatcmpl-{number}",
        "object": "chat.completion",
        "created": CREATED,
        "model": "gpt-test",
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": "tool_calls" if "tool" in turn else "stop",
            }
        ],
        "usage": _CHAT_USAGE,
    }


def _chat_chunks(turn: Turn, number: int) -> Iterator[dict[str, Any]]:
    base = {
        "id": f"chatcmpl-{number}",
        "object": "chat.completion.chunk",
        "created": CREATED,
        "model": "gpt-test",
    }
    if "tool" in turn:
        deltas: list[dict[str, Any]] = [
            {
                "role": "assistant",
                "tool_calls": [
                    {
                        "index": 0,
                        "id": turn["call_id"],
                        "type": "function",
                        "function": {"name": turn["tool"], "arguments": ""},
                    }
                ],
            },
            {"tool_calls": [{"index": 0, "function": {"arguments": turn["arguments"]}}]},
        ]
    else:
        text = turn["text"]
        half = len(text) // 2
        deltas = [{"role": "assistant", "content": text[:half]}, {"content": text[half:]}]
    for delta in deltas:
        yield {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}
    reason = "tool_calls" if "tool" in turn else "stop"
    yield {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": reason}]}
    yield {**base, "choices": [], "usage": _CHAT_USAGE}
