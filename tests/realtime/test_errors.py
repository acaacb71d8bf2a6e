"""The realtime errors: built as ``Error(message, *, fields)``, worded as users match them, and
never carrying what was sent or scripted in their messages."""

from __future__ import annotations

import pickle
import threading
from typing import Any

import pytest
from agents.realtime import (
    RealtimeAgent,
    RealtimeModelSendInterrupt,
    RealtimeModelSendRawMessage,
    RealtimeModelSendToolOutput,
    RealtimeModelSendUserInput,
    RealtimeModelToolCallEvent,
    RealtimeModelTranscriptDeltaEvent,
    RealtimeRunConfig,
    RealtimeRunner,
)

from agents_testing.core import UncopyableValue, UnexpectedCallError
from agents_testing.realtime import (
    InvalidRealtimeStep,
    RealtimeAlreadyConnected,
    RealtimeScriptError,
    RealtimeStep,
    ScriptedRealtimeModel,
    UnconsumedRealtimeSteps,
    UnexpectedRealtimeSend,
    any_order,
)

SECRET_SENT = "actual secret: my card is 4111 1111 1111 1111"
SECRET_EXPECTED = "expected secret: sk-live-0123456789"
SECRETS = ("actual secret", "4111", "expected secret", "sk-live")


def runner_for(model: ScriptedRealtimeModel) -> RealtimeRunner:
    config: RealtimeRunConfig = {"tracing_disabled": True}
    return RealtimeRunner(RealtimeAgent(name="Assistant"), model=model, config=config)


def assert_no_secret(error: BaseException) -> None:
    text = str(error)
    for secret in SECRETS:
        assert secret not in text, f"{secret!r} leaked into: {text}"


# -- construction ------------------------------------------------------------------------


def test_errors_are_built_from_a_message_and_keyword_fields() -> None:
    sent = RealtimeModelSendUserInput(user_input="Hello")
    unexpected = UnexpectedRealtimeSend("no match", actual=sent, expected=None)
    unconsumed = UnconsumedRealtimeSteps("2 left", remaining_steps=2)
    invalid = InvalidRealtimeStep("bad step")
    refused = RealtimeAlreadyConnected("Already connected")

    assert (str(unexpected), unexpected.actual, unexpected.expected) == ("no match", sent, None)
    assert (unexpected.send_index, unexpected.step_index, unexpected.group_expects) == (
        None,
        None,
        (),
    )
    assert (str(unconsumed), unconsumed.remaining_steps, unconsumed.pending_steps) == (
        "2 left",
        2,
        (),
    )
    assert (invalid.reason, invalid.input_index, invalid.field, invalid.event_field) == (
        "invalid_input",
        0,
        "steps",
        None,
    )
    assert isinstance(refused, AssertionError)
    assert isinstance(refused, RealtimeScriptError)
    assert str(RealtimeScriptError("lifecycle")) == "lifecycle"


def test_the_actual_and_expected_fields_are_required_keywords() -> None:
    with pytest.raises(TypeError):
        UnexpectedRealtimeSend("no match")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        UnexpectedRealtimeSend("no match", RealtimeModelSendInterrupt(), None)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        UnconsumedRealtimeSteps("left")  # type: ignore[call-arg]


@pytest.mark.parametrize(
    "error",
    [
        pytest.param(
            UnexpectedRealtimeSend(
                "no match",
                actual=RealtimeModelSendUserInput(user_input="Hello"),
                expected=RealtimeModelSendInterrupt,
                send_index=3,
                step_index=1,
                group_expects=(RealtimeModelSendInterrupt,),
            ),
            id="unexpected-send",
        ),
        pytest.param(
            UnconsumedRealtimeSteps(
                "1 left",
                remaining_steps=1,
                pending_steps=(RealtimeStep(expect=RealtimeModelSendInterrupt),),
            ),
            id="unconsumed",
        ),
        pytest.param(
            InvalidRealtimeStep(
                "bad", reason="invalid_event", input_index=2, field="emit", event_field="delta"
            ),
            id="invalid-step",
        ),
        pytest.param(RealtimeAlreadyConnected("Already connected"), id="already-connected"),
    ],
)
def test_errors_survive_pickling_with_their_message_and_fields(error: Exception) -> None:
    copy = pickle.loads(pickle.dumps(error))

    assert type(copy) is type(error)
    assert str(copy) == str(error)
    assert vars(copy) == vars(error)


# -- wording users match on -------------------------------------------------------------


@pytest.mark.parametrize("extra_checks", [False, True])
@pytest.mark.asyncio
async def test_a_send_after_the_script_ran_out_says_no_scripted_steps_remain(
    extra_checks: bool,
) -> None:
    model = ScriptedRealtimeModel(extra_checks=extra_checks)

    async with await runner_for(model).run() as session:
        with pytest.raises(UnexpectedRealtimeSend, match="no scripted steps") as caught:
            await session.send_message(SECRET_SENT)

    error = caught.value
    assert str(error).startswith(
        "Unexpected Realtime send: no scripted steps remain. Send #1 was a "
        "RealtimeModelSendUserInput; "
    )
    assert error.actual == RealtimeModelSendUserInput(user_input=SECRET_SENT)
    assert (error.expected, error.send_index, error.step_index) == (None, 0, None)
    assert isinstance(error, UnexpectedCallError)
    assert_no_secret(error)


@pytest.mark.parametrize("extra_checks", [False, True])
@pytest.mark.asyncio
async def test_a_mismatch_names_classes_and_never_what_was_sent_or_expected(
    extra_checks: bool,
) -> None:
    """Shows RT-6."""
    expected = RealtimeModelSendUserInput(user_input=SECRET_EXPECTED)
    model = ScriptedRealtimeModel([RealtimeStep(expect=expected)], extra_checks=extra_checks)

    async with await runner_for(model).run() as session:
        with pytest.raises(UnexpectedRealtimeSend, match="expectation") as caught:
            await session.send_message(SECRET_SENT)

    error = caught.value
    assert "expected" in str(error)
    assert "step 1 expects a RealtimeModelSendUserInput equal to the scripted one" in str(error)
    assert error.actual == RealtimeModelSendUserInput(user_input=SECRET_SENT)
    assert error.expected == expected
    assert error.expected is not expected
    assert_no_secret(error)


@pytest.mark.asyncio
async def test_a_group_mismatch_lists_what_the_members_expect_by_class() -> None:
    model = ScriptedRealtimeModel(
        [
            any_order(
                RealtimeStep(expect=RealtimeModelSendUserInput(user_input=SECRET_EXPECTED)),
                RealtimeStep(expect=RealtimeModelSendToolOutput),
            )
        ]
    )

    async with await runner_for(model).run():
        with pytest.raises(UnexpectedRealtimeSend, match="expectation") as caught:
            await model.send_event(RealtimeModelSendRawMessage(message={"type": SECRET_SENT}))

    assert (
        "a RealtimeModelSendUserInput equal to the scripted one; a RealtimeModelSendToolOutput"
        in (str(caught.value))
    )
    assert len(caught.value.group_expects) == 2
    assert_no_secret(caught.value)


@pytest.mark.asyncio
async def test_unconsumed_steps_are_counted_with_a_capital_r_and_described_by_class() -> None:
    """Shows RT-12."""
    model = ScriptedRealtimeModel(
        [
            RealtimeStep(expect=RealtimeModelSendUserInput(user_input=SECRET_EXPECTED)),
            RealtimeStep(expect=RealtimeModelSendInterrupt),
            RealtimeStep(expect=lambda event: True),
        ]
    )

    with pytest.raises(UnconsumedRealtimeSteps, match="3 scripted Realtime step") as caught:
        model.assert_complete()

    assert str(caught.value).startswith("3 scripted Realtime step(s) were not consumed")
    assert "a RealtimeModelSendInterrupt" in str(caught.value)
    assert "<lambda>() accepts" in str(caught.value)
    assert caught.value.remaining_steps == 3
    assert_no_secret(caught.value)


# -- no payload in any message, in either mode ----------------------------------------------


class CopyRefused(RuntimeError):
    pass


class SecretHolder:
    """A value that cannot be copied and says a secret when it fails."""

    def __deepcopy__(self, memo: Any) -> Any:
        raise CopyRefused(SECRET_SENT)


@pytest.mark.parametrize("extra_checks", [False, True])
@pytest.mark.asyncio
async def test_a_value_that_cannot_be_copied_is_reported_without_its_keys_or_text(
    extra_checks: bool,
) -> None:
    model = ScriptedRealtimeModel(strict=False, extra_checks=extra_checks)
    sent = RealtimeModelSendRawMessage(
        message={"type": "custom", "other_data": {SECRET_EXPECTED: SecretHolder()}}
    )

    await model.connect({})
    with pytest.raises(Exception) as caught:  # noqa: PT011 - which one depends on the mode
        await model.send_event(sent)

    error = caught.value
    if extra_checks:
        assert isinstance(error, UncopyableValue)
        assert str(error).startswith("Cannot snapshot RealtimeModelSendRawMessage.message: a ")
        assert "SecretHolder in it cannot be copied (CopyRefused)" in str(error)
        assert_no_secret(error)
    else:
        assert isinstance(error, CopyRefused)
        for note in getattr(error, "__notes__", []):
            assert SECRET_EXPECTED not in note
            assert SECRET_SENT not in note
    assert model.sent_events == ()


@pytest.mark.parametrize("extra_checks", [False, True])
@pytest.mark.asyncio
async def test_lifecycle_errors_name_no_sent_content(extra_checks: bool) -> None:
    model = ScriptedRealtimeModel(extra_checks=extra_checks)
    secret = RealtimeModelSendUserInput(user_input=SECRET_SENT)
    errors: list[BaseException] = []

    for attempt in (model.send_event(secret), model.emit()):
        try:
            await attempt
        except RealtimeScriptError as error:
            errors.append(error)
    await model.connect({"url": f"wss://user:{SECRET_EXPECTED}@host/rt?token={SECRET_SENT}"})
    try:
        await model.connect({})
    except RealtimeScriptError as error:
        errors.append(error)

    assert len(errors) == 3
    for refused in errors:
        assert_no_secret(refused)
    assert_no_secret(Exception(repr(model.connect_calls)))


@pytest.mark.asyncio
async def test_a_predicate_error_with_extra_checks_names_the_predicate_not_the_send() -> None:
    tool_call = RealtimeModelToolCallEvent(name="lookup", call_id="c1", arguments="{}")
    model = ScriptedRealtimeModel(
        [RealtimeStep(expect=lambda event: {"secret": event})],  # type: ignore[arg-type,return-value]
        connect_events=[tool_call],
        extra_checks=True,
    )

    await model.connect({})
    with pytest.raises(InvalidRealtimeStep, match="returned a dict") as caught:
        await model.send_event(RealtimeModelSendUserInput(user_input=SECRET_SENT))
    assert_no_secret(caught.value)


def test_a_delta_event_in_an_error_message_is_named_by_class_only() -> None:
    scripted = RealtimeModelTranscriptDeltaEvent(item_id="i", delta=[SECRET_SENT], response_id="r")  # type: ignore[arg-type]
    with pytest.raises(InvalidRealtimeStep) as caught:
        ScriptedRealtimeModel(connect_events=[scripted], extra_checks=True)
    assert "RealtimeModelTranscriptDeltaEvent" in str(caught.value)
    assert_no_secret(caught.value)


def test_a_lock_in_a_scripted_event_is_refused_by_class_with_extra_checks() -> None:
    scripted = RealtimeModelToolCallEvent(name="t", call_id="c", arguments="{}")
    scripted.arguments = threading.Lock()  # type: ignore[assignment]
    with pytest.raises(InvalidRealtimeStep, match="field 'arguments' must be str, got lock"):
        ScriptedRealtimeModel(connect_events=[scripted], extra_checks=True)
