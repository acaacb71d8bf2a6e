"""The sandbox boundary's public names, as tests import them."""

from __future__ import annotations

import agents_testing.sandbox as sandbox_boundary


def test_every_public_name_is_served_by_agents_testing() -> None:
    import agents.testing
    import agents.testing.sandbox

    assert agents.testing.sandbox is sandbox_boundary
    for name in sandbox_boundary.__all__:
        assert getattr(agents.testing, name) is getattr(sandbox_boundary, name)


def test_the_session_is_a_real_sdk_sandbox_session() -> None:
    from agents.sandbox.session.base_sandbox_session import BaseSandboxSession

    session = sandbox_boundary.scripted_sandbox_session()
    assert isinstance(session, BaseSandboxSession)
    assert isinstance(session, sandbox_boundary.ScriptedSandboxSession)
    assert not hasattr(session, "session")
