"""What every output-item builder shares: argument checks, JSON encoding, the auto call id.

A builder checks its arguments itself (naming the argument in
:class:`InvalidModelArgument`), then lets the installed openai model validate the
assembled fields; a field the model refuses is reported against the builder argument
that filled it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from .._errors import invalid_argument
from .._script.validation import describe

__all__ = [
    "AUTO_CALL_ID",
    "build_item",
    "call_id_or_auto",
    "check_text",
    "json_arguments",
    "optional_text",
]

AUTO_CALL_ID = "call_<auto>"
"""The call id a builder leaves when none was given; ``ScriptedModel`` replaces it with
``call_1``, ``call_2``, ... when it serves the item. Reserved: do not use it yourself."""

_Item = TypeVar("_Item", bound=BaseModel)


def check_text(builder: str, argument: str, value: object, *, empty: bool = True) -> str:
    """``value`` if it is a str (non-empty unless ``empty``), else InvalidModelArgument."""
    if not isinstance(value, str) or (not empty and not value):
        expected = "a str" if empty else "a non-empty str"
        raise invalid_argument(f"{builder}({argument})", expected, describe(value))
    return value


def optional_text(builder: str, argument: str, value: object) -> str | None:
    """``value`` if it is None or a str, else InvalidModelArgument."""
    if value is not None and not isinstance(value, str):
        raise invalid_argument(f"{builder}({argument})", "a str or None", describe(value))
    return value


def call_id_or_auto(builder: str, value: object) -> str:
    """An explicit non-empty call id, or the placeholder the model fills in when served."""
    if value is None:
        return AUTO_CALL_ID
    # The runner matches each tool output to its call by this id.
    return check_text(builder, "call_id", value, empty=False)


def json_arguments(
    builder: str, argument: str, value: object, *, default: str = "{}", compact: bool = False
) -> str:
    """A JSON text from a mapping (encoded) or a str (kept as given); None gives ``default``.

    ``compact`` encodes as a provider sends arguments: no spaces after separators and
    non-ASCII characters as they are.
    """
    if value is None:
        return default
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping):
        try:
            if compact:
                return json.dumps(dict(value), separators=(",", ":"), ensure_ascii=False)
            return json.dumps(dict(value))
        except Exception as error:
            raise invalid_argument(
                f"{builder}({argument})",
                "JSON-compatible values (or an already encoded str)",
                f"values that cannot be encoded ({type(error).__name__})",
            ) from None
    raise invalid_argument(f"{builder}({argument})", "a str or a mapping", describe(value))


def build_item(
    builder: str, cls: type[_Item], fields: dict[str, Any], arguments: Mapping[str, str]
) -> _Item:
    """Validate ``fields`` into ``cls``; a refused field is blamed on its builder argument.

    ``arguments`` maps a top-level field name to the builder argument that filled it.
    """
    try:
        return cls.model_validate(fields)
    except ValidationError as error:
        first = error.errors()[0]
        location = [str(part) for part in first.get("loc", ())]
        field = location[0] if location else ""
        argument = arguments.get(field, field or "?")
        where = ".".join(location[1:])
        problem = first.get("msg", "invalid value")
        raise invalid_argument(
            f"{builder}({argument})",
            f"a value the installed openai accepts for {cls.__name__}.{field}"
            + (f" ({where}: {problem})" if where else f" ({problem})"),
            describe(first.get("input")),
        ) from None
