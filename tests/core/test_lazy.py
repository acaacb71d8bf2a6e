"""Public names report their public module: tracebacks, repr() and pickles show
``agents_testing.model.UnexpectedModelCall``, never a private module path."""

from __future__ import annotations

import importlib
import inspect
import pickle
import traceback

import pytest
from agents import Agent, RunConfig, Runner

import agents_testing.core
from agents_testing.core import ModelRequestBlocked
from agents_testing.core.lazy import lazy_exports, publish
from agents_testing.model import ScriptedModel, UnexpectedModelCall, assistant_message

PACKAGES = (
    "agents_testing.core",
    "agents_testing.model",
    "agents_testing.sandbox",
    "agents_testing.realtime",
    "agents_testing.voice",
)


@pytest.mark.parametrize("package", PACKAGES)
def test_every_public_class_and_function_reports_the_package_as_its_module(
    package: str,
) -> None:
    module = importlib.import_module(package)
    values = {name: getattr(module, name) for name in module.__all__}

    private = {
        name: value.__module__
        for name, value in values.items()
        if (inspect.isclass(value) or inspect.isfunction(value))
        and value.__module__.startswith(f"{package}._")
    }

    assert private == {}
    assert values  # the package exports something


@pytest.mark.asyncio
async def test_an_error_raised_inside_a_run_shows_its_public_name_in_the_traceback() -> None:
    model = ScriptedModel([[assistant_message("Only one answer.")]])
    agent = Agent(name="Assistant", model=model)
    config = RunConfig(tracing_disabled=True)
    await Runner.run(agent, "first", run_config=config)

    with pytest.raises(UnexpectedModelCall) as caught:
        await Runner.run(agent, "second", run_config=config)

    last_line = traceback.format_exception_only(caught.value)[-1]
    assert last_line.startswith("agents_testing.model.UnexpectedModelCall: ")
    assert repr(type(caught.value)) == "<class 'agents_testing.model.UnexpectedModelCall'>"


def test_published_errors_still_pickle_as_the_same_class() -> None:
    blocked = ModelRequestBlocked(test="t.py::t", model="OpenAIResponsesModel", operation="run")

    copy = pickle.loads(pickle.dumps(blocked))

    assert type(copy) is ModelRequestBlocked
    assert ModelRequestBlocked.__module__ == "agents_testing.core"
    assert b"agents_testing.core" in pickle.dumps(ModelRequestBlocked)
    assert agents_testing.core.ModelRequestBlocked is ModelRequestBlocked
    assert str(copy) == str(blocked)


def test_publish_leaves_objects_of_other_modules_alone() -> None:
    class Local:
        pass

    publish("agents_testing.core", [Local, len, pickle.dumps])

    assert Local.__module__ == __name__
    assert pickle.dumps.__module__ in ("_pickle", "pickle")


def test_lazy_exports_import_on_first_use_and_list_every_name() -> None:
    namespace: dict[str, object] = {}
    getattr_, dir_ = lazy_exports("json", namespace, {"dumps": "json", "JSONDecoder": ".decoder"})

    assert dir_() == ["JSONDecoder", "dumps"]
    assert getattr_("JSONDecoder").__name__ == "JSONDecoder"
    assert "JSONDecoder" in namespace
    with pytest.raises(AttributeError, match="module 'json' has no attribute 'loads'"):
        getattr_("loads")
