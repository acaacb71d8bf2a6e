"""A sandboxed editor that reads a traveller's itinerary file and patches it."""

from __future__ import annotations

import dataclasses

from agents import RunConfig, Runner
from agents.sandbox import Manifest, SandboxAgent, SandboxRunConfig
from agents.sandbox.capabilities import Filesystem, Shell
from agents.sandbox.entries import File

from .team import MODEL_SETTINGS, ModelChoice

ITINERARY_FILE = "itinerary.md"


def itinerary_editor(model: ModelChoice = None) -> SandboxAgent[None]:
    """Inspects the itinerary with the shell and edits it with apply_patch."""
    return SandboxAgent(
        name="Itinerary editor",
        instructions=(
            f"The traveller's itinerary is {ITINERARY_FILE} in the workspace. Read it with "
            "the shell before changing anything, change it only with apply_patch, and answer "
            "with one sentence saying what you changed."
        ),
        model=model,
        model_settings=MODEL_SETTINGS,
        capabilities=[Shell(), Filesystem()],
    )


def itinerary_workspace(itinerary: str) -> Manifest:
    """A fresh workspace holding ``itinerary`` as the itinerary file."""
    return Manifest(entries={ITINERARY_FILE: File(content=itinerary.encode())})


async def revise_itinerary(
    request: str,
    *,
    sandbox: SandboxRunConfig,
    model: ModelChoice = None,
    run_config: RunConfig | None = None,
) -> str:
    """Apply the traveller's ``request`` to the itinerary in ``sandbox``; return the summary.

    For a local run: ``SandboxRunConfig(client=UnixLocalSandboxClient(),
    manifest=itinerary_workspace(text))``; for a live session: ``SandboxRunConfig(session=...)``.
    """
    config = dataclasses.replace(run_config or RunConfig(), sandbox=sandbox)
    result = await Runner.run(itinerary_editor(model), request, run_config=config)
    return str(result.final_output)
