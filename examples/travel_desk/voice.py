"""The voice front desk: speech in, an agent, speech out."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

from agents import Agent
from agents.voice import (
    SingleAgentVoiceWorkflow,
    STTModel,
    TTSModel,
    TTSModelSettings,
    VoicePipeline,
    VoicePipelineConfig,
    VoiceWorkflowBase,
)

from .domain import FlightCatalog
from .team import MODEL_SETTINGS, ModelChoice
from .tools import departure_board

GREETING = "Welcome to the travel desk. Which flight can I help with?"

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
# The pipeline drops a chunk shorter than this instead of speaking it, so shorter
# text stays in the buffer until it grows or the turn ends.
_MIN_CHUNK = 20


def speak_finished_sentences(buffer: str) -> tuple[str, str]:
    """Split off every finished sentence for speech, keeping only an unfinished tail.

    The SDK's default splitter always holds the last sentence back for more text. Some
    releases never end the greeting's turn, so its last sentence waited for the caller's
    first question and was spoken glued to the answer.
    """
    text = buffer.strip()
    sentences = _SENTENCE_END.split(text)
    if text.endswith((".", "!", "?")):
        finished, tail = sentences, ""
    else:
        finished, tail = sentences[:-1], sentences[-1]
    chunk = " ".join(finished)
    if len(chunk) < _MIN_CHUNK:
        return "", buffer
    return chunk, tail


def front_desk_agent(catalog: FlightCatalog, model: ModelChoice = None) -> Agent[None]:
    """Answers spoken questions about seat availability."""
    return Agent(
        name="Voice front desk",
        instructions=(
            "You are speaking, not writing: answer in one or two short sentences without "
            "lists or markdown. Use the departure board for any flight you are asked about."
        ),
        model=model,
        model_settings=MODEL_SETTINGS,
        tools=[departure_board(catalog)],
    )


class FrontDeskWorkflow(SingleAgentVoiceWorkflow):
    """The single-agent workflow, greeting the caller when a live audio stream opens."""

    async def on_start(self) -> AsyncIterator[str]:
        yield GREETING


def front_desk_config(*, tracing_disabled: bool = False) -> VoicePipelineConfig:
    """How the front desk speaks: its own workflow name for traces and a calm voice."""
    return VoicePipelineConfig(
        workflow_name="Voice front desk",
        tracing_disabled=tracing_disabled,
        tts_settings=TTSModelSettings(voice="nova", text_splitter=speak_finished_sentences),
    )


def front_desk_pipeline(
    *,
    catalog: FlightCatalog | None = None,
    model: ModelChoice = None,
    workflow: VoiceWorkflowBase | None = None,
    stt_model: STTModel | str | None = None,
    tts_model: TTSModel | str | None = None,
    config: VoicePipelineConfig | None = None,
) -> VoicePipeline:
    """The front desk pipeline; models left as None come from the default voice provider.

    ``workflow`` replaces the agent workflow, for instance to bridge to a human operator.
    """
    if workflow is None:
        agent = front_desk_agent(catalog or FlightCatalog.sample(), model)
        workflow = FrontDeskWorkflow(agent)
    return VoicePipeline(
        workflow=workflow,
        stt_model=stt_model,
        tts_model=tts_model,
        config=config if config is not None else front_desk_config(),
    )
