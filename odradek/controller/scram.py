"""SCRAM credentials in the metadata log (Kafka's ScramControlManager + ScramImage.describe).

Clients send the salted password; the controller stores what a SCRAM server needs
(salt, StoredKey = H(HMAC(salted, "Client Key")), ServerKey = HMAC(salted, "Server Key"),
iterations) as UserScramCredentialRecords; SASL listeners authenticate against them
(security/sasl.py). A fresh cluster may start with some (``add_scram_record``, Kafka's
``kafka-storage format --add-scram``).
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from typing import Mapping

from odradek.wire.errors import ErrorCode
from odradek.wire.messages.remove_user_scram_credential_record import RemoveUserScramCredentialRecord
from odradek.wire.messages.user_scram_credential_record import UserScramCredentialRecord

SHA_256, SHA_512 = 1, 2
HASHES = {SHA_256: hashlib.sha256, SHA_512: hashlib.sha512}
MIN_ITERATIONS = 4096
MAX_ITERATIONS = 16384

DUPLICATE = "A user credential cannot be altered twice in the same request"


@dataclass(frozen=True)
class ScramCredential:
    """A user's SCRAM credential for one mechanism, as Kafka stores it."""
    salt: bytes
    stored_key: bytes
    server_key: bytes
    iterations: int


def replay(creds: dict, record) -> None:
    """Apply a (Remove)UserScramCredentialRecord to a mutable {(user, mechanism): ScramCredential}."""
    if isinstance(record, UserScramCredentialRecord):
        creds[(record.name, record.mechanism)] = ScramCredential(
            bytes(record.salt), bytes(record.stored_key), bytes(record.server_key), record.iterations)
    else:
        creds.pop((record.name, record.mechanism), None)


def image_records(creds: Mapping) -> list:
    return [UserScramCredentialRecord(name=u, mechanism=m, salt=c.salt, stored_key=c.stored_key,
                                      server_key=c.server_key, iterations=c.iterations)
            for (u, m), c in creds.items()]


def derive_keys(mechanism: int, salted_password: bytes) -> tuple[bytes, bytes]:
    h = HASHES[mechanism]
    client_key = hmac.new(salted_password, b"Client Key", h).digest()
    return h(client_key).digest(), hmac.new(salted_password, b"Server Key", h).digest()


def _check_name_mechanism(name: str, mechanism: int):
    if name == "":
        return ErrorCode.UNACCEPTABLE_CREDENTIAL, "Username must not be empty"
    if mechanism not in HASHES:
        return ErrorCode.UNSUPPORTED_SASL_MECHANISM, "Unknown SCRAM mechanism"
    return None


def alter(creds: Mapping, upsertions, deletions):
    """upsertions: [(name, mechanism, iterations, salt, salted_password)]; deletions: [(name, mechanism)].

    -> (records, [(user, error_code, error_message)]): deletions, then upsertions, then errors
    (Kafka's order). A user may appear once per request.
    """
    errors: dict[str, tuple] = {}
    to_delete: dict[str, tuple] = {}
    to_upsert: dict[str, tuple] = {}
    for name, mech in deletions:
        if name in errors:
            continue
        if to_delete.pop(name, None) is not None:
            errors[name] = (ErrorCode.DUPLICATE_RESOURCE, DUPLICATE)
            continue
        err = _check_name_mechanism(name, mech)
        if err is None and (name, mech) not in creds:
            err = (ErrorCode.RESOURCE_NOT_FOUND, "Attempt to delete a user credential that does not exist")
        if err is not None:
            errors[name] = err
        else:
            to_delete[name] = (name, mech)
    for up in upsertions:
        name, mech, iterations = up[0], up[1], up[2]
        if name in errors:
            continue
        if to_delete.pop(name, None) is not None or to_upsert.pop(name, None) is not None:
            errors[name] = (ErrorCode.DUPLICATE_RESOURCE, DUPLICATE)
            continue
        err = _check_name_mechanism(name, mech)
        if err is None and iterations < MIN_ITERATIONS:
            err = (ErrorCode.UNACCEPTABLE_CREDENTIAL, "Too few iterations")
        elif err is None and iterations > MAX_ITERATIONS:
            err = (ErrorCode.UNACCEPTABLE_CREDENTIAL, "Too many iterations")
        if err is not None:
            errors[name] = err
        else:
            to_upsert[name] = up
    records: list = []
    results: list = []
    for name, mech in to_delete.values():
        records.append(RemoveUserScramCredentialRecord(name=name, mechanism=mech))
        results.append((name, 0, None))
    for name, mech, iterations, salt, salted in to_upsert.values():
        stored, server = derive_keys(mech, bytes(salted))
        records.append(UserScramCredentialRecord(name=name, mechanism=mech, salt=bytes(salt), stored_key=stored,
                                                 server_key=server, iterations=iterations))
        results.append((name, 0, None))
    results += [(name, int(code), msg) for name, (code, msg) in errors.items()]
    return records, results


def describe(creds: Mapping, users: list[str] | None):
    """-> [(user, error_code, error_message, [(mechanism, iterations)])]; users None/[] = every user."""
    if not users:
        names = {u: False for (u, _) in creds}
    else:
        names: dict[str, bool] = {}
        for u in users:
            names[u] = u in names
    out = []
    for user, dup in names.items():
        if dup:
            out.append((user, int(ErrorCode.DUPLICATE_RESOURCE),
                        f"Cannot describe SCRAM credentials for the same user twice in a single request: {user}", []))
            continue
        infos = [(m, creds[(user, m)].iterations) for m in sorted(HASHES) if (user, m) in creds]
        if infos:
            out.append((user, 0, "", infos))
        else:
            out.append((user, int(ErrorCode.RESOURCE_NOT_FOUND),
                        f"Attempt to describe a user credential that does not exist: {user}", []))
    return out


_MECHANISM_NAMES = {"SCRAM-SHA-256": SHA_256, "SCRAM-SHA-512": SHA_512}


class AddScramError(ValueError):
    """An --add-scram argument Kafka's kafka-storage format refuses (its message)."""


def add_scram_record(argument: str, random_bytes) -> UserScramCredentialRecord:
    """One credential of `kafka-storage format --add-scram`, parsed as Kafka's ScramParser:
    ``SCRAM-SHA-256=[name=alice,password=alice-secret]`` or
    ``SCRAM-SHA-512=[name=alice,iterations=8192,salt="N3E=",saltedpassword="YCE="]``.
    random_bytes(): a salt when none is given."""
    import base64
    import binascii

    text = argument.strip()
    mech_name, eq, config = text.partition("=")
    if not eq:
        raise AddScramError(f"Failed to find equals sign in SCRAM argument '{text}'")
    mechanism = _MECHANISM_NAMES.get(mech_name)
    if mechanism is None:
        raise AddScramError(f"The add-scram mechanism {mech_name} is not supported.")
    if not config.startswith("["):
        raise AddScramError("Expected configuration string to start with [")
    if not config.endswith("]"):
        raise AddScramError("Expected configuration string to end with ]")
    parts: dict[str, str] = {}
    for component in config[1:-1].split(","):
        key, eq, value = component.partition("=")
        if not eq:
            raise AddScramError(f"No equals sign found in SCRAM component: {component}")
        if len(value) >= 2 and value.startswith('"') and value.endswith('"'):
            value = value[1:-1]
        parts[key] = value

    def b64(value: str, what: str) -> bytes:
        try:
            return base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError):
            raise AddScramError(f"Failed to decode given {what}: {value}") from None

    name = parts.pop("name", None)
    if name is None:
        raise AddScramError("You must supply 'name' to add-scram")
    salt = b64(parts.pop("salt"), "salt") if "salt" in parts else None
    iterations_text = parts.pop("iterations", None)
    try:
        iterations = 4096 if iterations_text is None else int(iterations_text)
    except ValueError:
        raise AddScramError(f"Failed to parse iterations count: {iterations_text}") from None
    password, salted_text = parts.pop("password", None), parts.pop("saltedpassword", None)
    if password is None:
        if salted_text is None:
            raise AddScramError("You must supply one of 'password' or 'saltedpassword' to add-scram")
        if salt is None:
            raise AddScramError("You must supply 'salt' with 'saltedpassword' to add-scram")
        salted = b64(salted_text, "saltedPassword")
    if parts:
        raise AddScramError(f"Unknown SCRAM configurations: {', '.join(sorted(parts))}")
    label = mech_name.replace("-", "_")
    if iterations < MIN_ITERATIONS:
        raise AddScramError(f"The 'iterations' value must be >= {MIN_ITERATIONS} for add-scram using {label}")
    if iterations > MAX_ITERATIONS:
        raise AddScramError(f"The 'iterations' value must be <= {MAX_ITERATIONS} for add-scram using {label}")
    salt = salt if salt is not None else random_bytes()
    if password is not None:
        salted = hashlib.pbkdf2_hmac(HASHES[mechanism]().name, password.encode(), salt, iterations)
    stored, server = derive_keys(mechanism, salted)
    return UserScramCredentialRecord(name=name, mechanism=mechanism, salt=salt, stored_key=stored,
                                     server_key=server, iterations=iterations)
