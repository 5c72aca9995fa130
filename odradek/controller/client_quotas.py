"""Client quotas in the metadata log (Kafka's ClientQuotaControlManager + ClientQuotasImage.describe).

An entity is a small map entity type -> name (None = the default entity); in the image it
is a tuple of (type, name) pairs in ENTITY_ORDER. Decisions are pure: image + request ->
(ClientQuotaRecords, per-entity results). The broker enforces producer_byte_rate,
consumer_byte_rate and request_percentage, the node deciding admin writes controller_mutation_rate
(odradek/security/quotas.py). connection_creation_rate (an ip entity) is stored and described:
the broker's connection limits (broker/connection_limits.py) are what apply it, if they do.
"""

from __future__ import annotations

import ipaddress
from typing import Callable, Mapping

from odradek.wire.errors import ErrorCode
from odradek.wire.messages.client_quota_record import ClientQuotaRecord, EntityData

from .result import MAX_RECORDS_PER_USER_OP, TOO_LARGE

USER, CLIENT_ID, IP = "user", "client-id", "ip"
# Java HashMap iteration order of these keys: how Kafka lists an entity's parts
ENTITY_ORDER = {CLIENT_ID: 0, USER: 1, IP: 2}

LONG, DOUBLE, INT = "LONG", "DOUBLE", "INT"
USER_CLIENT_KEYS = {"producer_byte_rate": LONG, "consumer_byte_rate": LONG,
                    "request_percentage": DOUBLE, "controller_mutation_rate": DOUBLE}
IP_KEYS = {"connection_creation_rate": INT}
_MAX = {INT: 2**31 - 1, LONG: 2**63 - 1}

MATCH_EXACT, MATCH_DEFAULT, MATCH_SPECIFIED = 0, 1, 2

Entity = tuple  # ((type, name | None), ...)


def entity_key(pairs) -> Entity:
    """(type, name) pairs -> the image key; a repeated type keeps its last name (a Java map)."""
    d: dict = {}
    for t, n in pairs:
        d[t] = n
    return tuple(sorted(d.items(), key=lambda kv: (ENTITY_ORDER.get(kv[0], 99), kv[0])))


def entity_str(entity: Entity) -> str:
    """Kafka's ClientQuotaEntity.toString()."""
    inner = ", ".join(f"{t}={'null' if n is None else n}" for t, n in entity)
    return f"ClientQuotaEntity(entries={{{inner}}})"


def record_entity(entity: Entity) -> list:
    return [EntityData(entity_type=t, entity_name=n) for t, n in entity]


def replay(quotas: dict, record: ClientQuotaRecord) -> None:
    """Apply one ClientQuotaRecord to a mutable {entity: {key: value}}."""
    entity = entity_key((e.entity_type, e.entity_name) for e in record.entity)
    cur = dict(quotas.get(entity, {}))
    if record.remove:
        cur.pop(record.key, None)
    else:
        cur[record.key] = record.value
    if cur:
        quotas[entity] = cur
    else:
        quotas.pop(entity, None)


def image_records(quotas: Mapping) -> list:
    return [ClientQuotaRecord(entity=record_entity(e), key=k, value=v, remove=False)
            for e, values in quotas.items() for k, v in sorted(values.items())]


# ---------------------------------------------------------------- alter

def is_ip_literal(host: str) -> bool:
    """An IPv4 or IPv6 address as text. Kafka's controller takes any name InetAddress.getByName
    resolves (a literal, or a hostname through the resolver); the resolver is the broker's
    (injected as ``resolvable``), this module does no I/O."""
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        return False


def alter(quotas: Mapping, alterations, resolvable: Callable[[str], bool] = is_ip_literal):
    """alterations: [(entity pairs, [(key, value | None to remove)])].

    -> (records, [(entity, error_code, error_message)]) with one result per distinct
    entity, in the order entities first appear; ([], TOO_LARGE) when the records would pass
    MAX_RECORDS_PER_USER_OP (Kafka's alterClientQuotas: its BoundedList's overflow fails the
    operation, every entry answered POLICY_VIOLATION).
    """
    records: list = []
    results: dict[Entity, tuple[int, str | None]] = {}
    for pairs, ops in alterations:
        entity = entity_key(pairs)
        updates: dict[str, float | None] = {}
        for key, value in ops:
            if key in updates:
                results[entity] = (ErrorCode.INVALID_REQUEST,
                                   f"Duplicate quota key {key} not updating quota for this entity {entity_str(entity)}")
            else:
                updates[key] = value
        if entity in results:
            results[entity] = (ErrorCode.INVALID_REQUEST, f"Ignoring duplicate entity {entity_str(entity)}")
            continue
        err = _validate_entity(entity)
        keys = None
        if err is None:
            keys, err = _keys_for(dict(entity), resolvable)
        if err is not None:
            results[entity] = (ErrorCode.INVALID_REQUEST, err)
            continue
        current = quotas.get(entity, {})
        new: list = []
        failed = None
        for key, value in updates.items():
            if value is None:
                if key in current:
                    new.append(ClientQuotaRecord(entity=record_entity(entity), key=key, value=0.0, remove=True))
                continue
            failed = _validate_value(keys, key, value)
            if failed is not None:
                break
            if current.get(key) != value:
                new.append(ClientQuotaRecord(entity=record_entity(entity), key=key, value=float(value), remove=False))
        if failed is not None:
            results[entity] = failed
            continue
        if len(records) + len(new) > MAX_RECORDS_PER_USER_OP:
            return [], TOO_LARGE
        records += new
        results[entity] = (0, None)
    return records, [(e, int(c), m) for e, (c, m) in results.items()]


def _validate_entity(entity: Entity) -> str | None:
    if not entity:
        return "Invalid empty client quota entity"
    for t, n in entity:
        if t not in ENTITY_ORDER:
            return f"Unhandled client quota entity type: {t}"
        if n is not None and n == "":
            return f"Empty {t} not supported"
    return None


def _keys_for(entity: dict, resolvable) -> tuple[dict | None, str | None]:
    has_user, has_client, has_ip = USER in entity, CLIENT_ID in entity, IP in entity
    if has_ip:
        if has_user or has_client:
            return None, ("Invalid quota entity combination, IP entity should"
                          "not be combined with User or ClientId")
        ip = entity[IP]
        if ip is not None and not resolvable(ip):
            return None, f"{ip} is not a valid IP or resolvable host."
        return IP_KEYS, None
    if has_user or has_client:
        return USER_CLIENT_KEYS, None
    return None, "Invalid empty client quota entity"


def _validate_value(keys: dict, key: str, value: float):
    kind = keys.get(key)
    if kind is None:
        return ErrorCode.INVALID_REQUEST, f"Invalid configuration key {key}"
    if value <= 0.0:
        return ErrorCode.INVALID_REQUEST, f"Quota {key} must be greater than 0"
    if kind == DOUBLE:
        return None
    if value > _MAX[kind]:
        article = "an" if kind == INT else "a"
        return ErrorCode.INVALID_REQUEST, f"Proposed value for {key} is too large for {article} {kind}."
    if abs(value % 1.0) > 1e-6:
        return ErrorCode.INVALID_REQUEST, f"{key} cannot be a fractional value."
    return None


# ---------------------------------------------------------------- describe

class DescribeError(Exception):
    def __init__(self, code: int, message: str):
        super().__init__(message)
        self.code = int(code)
        self.message = message


def describe(quotas: Mapping, components, strict: bool) -> list[tuple[Entity, dict]]:
    """components: [(entity_type, match_type, match)]. Raises DescribeError for a bad filter."""
    exact: dict[str, str | None] = {}
    typed: set[str] = set()
    for etype, mtype, match in components:
        if etype == "":
            raise DescribeError(ErrorCode.INVALID_REQUEST, "Invalid empty entity type.")
        if etype in exact or etype in typed:
            raise DescribeError(ErrorCode.INVALID_REQUEST,
                                f"Entity type {etype} cannot appear more than once in the filter.")
        if etype not in ENTITY_ORDER:
            raise DescribeError(ErrorCode.UNSUPPORTED_VERSION, f"Unsupported entity type {etype}")
        if mtype == MATCH_EXACT:
            if match is None:
                raise DescribeError(ErrorCode.INVALID_REQUEST,
                                    "Request specified MATCH_TYPE_EXACT, but set match string to null.")
            exact[etype] = match
        elif mtype == MATCH_DEFAULT:
            if match is not None:
                raise DescribeError(ErrorCode.INVALID_REQUEST,
                                    "Request specified MATCH_TYPE_DEFAULT, but also specified a match string.")
            exact[etype] = None
        elif mtype == MATCH_SPECIFIED:
            if match is not None:
                raise DescribeError(ErrorCode.INVALID_REQUEST,
                                    "Request specified MATCH_TYPE_SPECIFIED, but also specified a match string.")
            typed.add(etype)
        else:
            raise DescribeError(ErrorCode.INVALID_REQUEST, f"Unknown match type {mtype}")
    if (IP in exact or IP in typed) and ({USER, CLIENT_ID} & (set(exact) | typed)):
        raise DescribeError(ErrorCode.INVALID_REQUEST,
                            "Invalid entity filter component combination. IP filter component should not be "
                            "used with user or clientId filter component.")
    out = []
    for entity, values in quotas.items():
        parts = dict(entity)
        if strict and len(parts) != len(exact) + len(typed):
            continue
        if any(t not in parts or parts[t] != n for t, n in exact.items()):
            continue
        if any(t not in parts for t in typed):
            continue
        out.append((entity, dict(sorted(values.items()))))
    return out
