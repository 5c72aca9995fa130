"""Rewriting a response before it is sent (a fault's ``rewrite``): a Python callable that takes the
decoded response object and returns it changed (a broker in the test's own process), or, from any
language over the control API, a patch of fields as JSON:

    {"responses": {"partition_responses": {"error_code": 6, "error_message": "moved"}}}

A patch is an object of the response's field names (as the generated classes spell them, e.g.
``error_code``, ``throttle_time_ms``); a nested object applies to a sub-struct, or to every element
of an array of structs; any other value sets the field. Only integer, boolean and string fields
can be set from JSON (bytes, records, uuids: use a callable). The patch is checked against the
API's response schema when the fault is injected; a field the response's version does not carry
is not written on the wire.
"""

from __future__ import annotations

import sys
from typing import Callable

from odradek.wire import messages
from odradek.wire.base import Message

Rewriter = Callable[[Message], Message]

_INTS = {"int8": 1 << 7, "int16": 1 << 15, "int32": 1 << 31, "int64": 1 << 63}
_UNSIGNED = {"uint16": 1 << 16}


class PatchError(ValueError):
    """A patch that names no field of the response, or sets one to a value it cannot hold."""


def response_class(api_key: int) -> type[Message]:
    return messages.load(messages.RESPONSE_BY_KEY[api_key])


def _struct(cls: type[Message], name: str) -> type[Message]:
    return getattr(sys.modules[cls.__module__], name)


def check_patch(cls: type[Message], patch: object, where: str = "") -> None:
    """Raise PatchError unless ``patch`` fits ``cls`` (a response class or one of its structs)."""
    if not isinstance(patch, dict) or not patch:
        raise PatchError(f"a rewrite{where and ' of ' + where} is a non-empty JSON object of field names")
    fields = {f[0]: f for f in cls._FIELDS}
    for name, value in patch.items():
        path = f"{where}.{name}" if where else name
        f = fields.get(name)
        if f is None:
            raise PatchError(f"{cls.__name__} has no field {path!r}; it has {', '.join(fields)}")
        ftype, nullable, struct = f[1], f[4] >= 0, f[8]
        if struct is not None:
            check_patch(_struct(cls, struct), value, path)
        elif isinstance(value, dict):
            raise PatchError(f"{path} is a {ftype}, not a struct")
        elif value is None:
            if not nullable:
                raise PatchError(f"{path} cannot be null")
        elif ftype in _INTS or ftype in _UNSIGNED:
            lo, hi = (-_INTS[ftype], _INTS[ftype]) if ftype in _INTS else (0, _UNSIGNED[ftype])
            if isinstance(value, bool) or not isinstance(value, int) or not lo <= value < hi:
                raise PatchError(f"{path} is an {ftype}, not {value!r}")
        elif ftype == "bool":
            if not isinstance(value, bool):
                raise PatchError(f"{path} is a bool, not {value!r}")
        elif ftype == "string":
            if not isinstance(value, str):
                raise PatchError(f"{path} is a string, not {value!r}")
        else:
            raise PatchError(f"{path} is a {ftype}: it cannot be set from JSON (rewrite with a Python callable)")


def apply_patch(msg: Message, patch: dict) -> Message:
    """``msg`` with the patch's fields set (in place)."""
    for name, value in patch.items():
        current = getattr(msg, name)  # (a name check_patch knows)
        if isinstance(value, dict):
            for sub in (current if isinstance(current, list) else [current]):
                if isinstance(sub, Message):
                    apply_patch(sub, value)
        else:
            setattr(msg, name, value)
    return msg


def rewriter(rewrite: Callable | dict) -> Rewriter:
    """What the connection calls on the response: a callable's answer (the object itself when it
    returns None: changed in place), or the patch applied."""
    if isinstance(rewrite, dict):
        return lambda msg: apply_patch(msg, rewrite)

    def call(msg: Message) -> Message:
        out = rewrite(msg)
        if out is None:
            return msg
        if not isinstance(out, Message):
            raise TypeError(f"a rewrite returns the response object (or None), not {type(out).__name__}")
        return out
    return call
