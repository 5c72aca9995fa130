"""The error response Kafka sends when handling a request raised.

Kafka answers an unexpected exception with ``request.getErrorResponse(throttleMs, e)``
(RequestHandlerHelper.handleError) and keeps the connection open: each request class
builds a response that mirrors the request's topics / partitions / groups / resources
with the error code (UNKNOWN_SERVER_ERROR for a generic exception, the mapped code for
an exception that names one). Only a request with no error response (Produce with
acks=0) makes Kafka close the connection instead.

``error_response(api_key, version, request, exc)`` returns the response object, or None
where Kafka has none. One builder per API odradek advertises; each follows the shape of
the matching ``*Request.getErrorResponse`` in Apache Kafka (field by field, including
which fields carry a message and which stay at their defaults).
"""

from __future__ import annotations

import importlib
from typing import Callable

from odradek.wire import messages
from odradek.wire.errors import ErrorCode
from odradek.wire.exceptions import (
    CompressionError,
    CorruptRecordError,
    InvalidRecordError,
    UnsupportedVersionError,
)

USE = int(ErrorCode.UNKNOWN_SERVER_ERROR)
INT32_MIN = -(2**31)  # DescribeGroupsResponse.AUTHORIZED_OPERATIONS_OMITTED

_WIRE_ERRORS = (
    (UnsupportedVersionError, ErrorCode.UNSUPPORTED_VERSION),
    (CompressionError, ErrorCode.CORRUPT_MESSAGE),
    (CorruptRecordError, ErrorCode.CORRUPT_MESSAGE),
    (InvalidRecordError, ErrorCode.INVALID_RECORD),
)


def error_code_for(exc: BaseException) -> ErrorCode:
    """Kafka's Errors.forException: the code an exception names, else UNKNOWN_SERVER_ERROR.

    odradek exceptions name their code as ``code`` (an ErrorCode, e.g. CoordinatorError),
    ``error_code`` (int) or ``error_name`` (e.g. odradek.log errors).
    """
    code = getattr(exc, "code", None)
    if isinstance(code, ErrorCode):
        return code
    if isinstance(code, int) and type(exc).__module__.startswith("odradek."):
        return ErrorCode.from_code(code)  # e.g. the controller's _Fail(code, message)
    code = getattr(exc, "error_code", None)
    if isinstance(code, int) and not isinstance(code, bool):
        return ErrorCode.from_code(code)
    name = getattr(exc, "error_name", None)
    if isinstance(name, str):
        if name == "RECORD_TOO_LARGE":
            name = "MESSAGE_TOO_LARGE"
        try:
            return ErrorCode[name]
        except KeyError:
            return ErrorCode.UNKNOWN_SERVER_ERROR
    for cls, err in _WIRE_ERRORS:
        if isinstance(exc, cls):
            return err
    return ErrorCode.UNKNOWN_SERVER_ERROR


def api_error(exc: BaseException) -> tuple[int, str | None]:
    """Kafka's ApiError.fromThrowable: (code, message). No message for UNKNOWN_SERVER_ERROR
    (so nothing internal leaks) nor when it would only repeat the code's default text."""
    err = error_code_for(exc)
    if err == ErrorCode.UNKNOWN_SERVER_ERROR:
        return int(err), None
    msg = getattr(exc, "message", None)
    if not isinstance(msg, str):
        msg = str(exc)
    if not msg or msg == err.message or msg == err.name:
        msg = None
    return int(err), msg


_mod_cache: dict[int, object] = {}


def _resp(api_key: int):
    """The generated module of api_key's response (its nested structs live there)."""
    mod = _mod_cache.get(api_key)
    if mod is None:
        name = messages.RESPONSE_BY_KEY[api_key]
        cls = messages.load(name)
        mod = _mod_cache[api_key] = importlib.import_module(cls.__module__)
    return mod


# ---------------------------------------------------------------- builders
# Each: (version, request, code, message, exc) -> response or None.


def _produce(v, req, code, msg, exc):
    if req.acks == 0:
        return None  # Kafka has no response for acks=0: it closes the connection
    m = _resp(0)
    topics = []
    for t in req.topic_data or ():
        topics.append(m.TopicProduceResponse(name=t.name, topic_id=t.topic_id, partition_responses=[
            m.PartitionProduceResponse(index=p.index, error_code=code, base_offset=-1,
                                       log_append_time_ms=-1, log_start_offset=-1,
                                       record_errors=[], error_message=msg)
            for p in t.partition_data or ()]))
    return m.ProduceResponse(responses=topics)


def _fetch(v, req, code, msg, exc):
    # v13+: only the top-level error code; before that every partition carries it too.
    m = _resp(1)
    topics = []
    if v < 13:
        for t in req.topics or ():
            topics.append(m.FetchableTopicResponse(topic=t.topic, topic_id=t.topic_id, partitions=[
                m.PartitionData(partition_index=p.partition, error_code=code, high_watermark=-1)
                for p in t.partitions or ()]))
    return m.FetchResponse(error_code=code, session_id=req.session_id, responses=topics)


def _list_offsets(v, req, code, msg, exc):
    m = _resp(2)
    return m.ListOffsetsResponse(topics=[
        m.ListOffsetsTopicResponse(name=t.name, partitions=[
            m.ListOffsetsPartitionResponse(partition_index=p.partition_index, error_code=code,
                                           offset=-1, timestamp=-1)
            for p in t.partitions or ()])
        for t in req.topics or ()])


def _metadata(v, req, code, msg, exc):
    m = _resp(3)
    return m.MetadataResponse(topics=[
        m.MetadataResponseTopic(name=t.name if t.name is not None else "", topic_id=t.topic_id,
                                error_code=code, is_internal=False, partitions=[])
        for t in req.topics or ()])


def _offset_commit(v, req, code, msg, exc):
    m = _resp(8)
    return m.OffsetCommitResponse(topics=[
        m.OffsetCommitResponseTopic(name=t.name, topic_id=t.topic_id, partitions=[
            m.OffsetCommitResponsePartition(partition_index=p.partition_index, error_code=code)
            for p in t.partitions or ()])
        for t in req.topics or ()])


def _offset_fetch(v, req, code, msg, exc):
    m = _resp(9)
    if v < 2:  # no top-level error code yet: every requested partition carries it
        return m.OffsetFetchResponse(topics=[
            m.OffsetFetchResponseTopic(name=t.name, partitions=[
                m.OffsetFetchResponsePartition(partition_index=i, committed_offset=-1,
                                               committed_leader_epoch=-1, metadata="", error_code=code)
                for i in t.partition_indexes or ()])
            for t in req.topics or ()])
    if v < 8:
        return m.OffsetFetchResponse(error_code=code, topics=[])
    return m.OffsetFetchResponse(groups=[
        m.OffsetFetchResponseGroup(group_id=g.group_id, topics=[], error_code=code)
        for g in req.groups or ()])


def _find_coordinator(v, req, code, msg, exc):
    m = _resp(10)
    default_msg = ErrorCode.from_code(code).message  # Kafka sets Errors.message() here
    if v < 4:
        return m.FindCoordinatorResponse(error_code=code, error_message=default_msg,
                                         node_id=-1, host="", port=-1)
    return m.FindCoordinatorResponse(coordinators=[
        m.Coordinator(key=k, node_id=-1, host="", port=-1, error_code=code, error_message=default_msg)
        for k in req.coordinator_keys or ()])


def _join_group(v, req, code, msg, exc):
    m = _resp(11)
    return m.JoinGroupResponse(error_code=code, generation_id=-1,
                               protocol_name=None if v >= 7 else "",
                               leader="", member_id="", members=[])


def _top_level(api_key: int, cls_name: str, **extra) -> Callable:
    def build(v, req, code, msg, exc):
        return getattr(_resp(api_key), cls_name)(error_code=code, **extra)
    return build


def _top_level_with_message(api_key: int, cls_name: str) -> Callable:
    def build(v, req, code, msg, exc):
        return getattr(_resp(api_key), cls_name)(error_code=code, error_message=msg)
    return build


def _top_level_with_default_message(api_key: int, cls_name: str) -> Callable:
    """Kafka's getErrorResponse(throttle, Errors.forException(e)): the code and its default
    message (Errors.message()), nothing else (Alter/DeleteShareGroupOffsets)."""
    def build(v, req, code, msg, exc):
        return getattr(_resp(api_key), cls_name)(error_code=code, error_message=ErrorCode(code).message)
    return build


def _sync_group(v, req, code, msg, exc):
    return _resp(14).SyncGroupResponse(error_code=code, assignment=b"")


def _describe_groups(v, req, code, msg, exc):
    m = _resp(15)
    return m.DescribeGroupsResponse(groups=[
        m.DescribedGroup(group_id=g, error_code=code, group_state="", protocol_type="",
                         protocol_data="", members=[], authorized_operations=INT32_MIN)
        for g in req.groups or ()])


def _list_groups(v, req, code, msg, exc):
    return _resp(16).ListGroupsResponse(error_code=code, groups=[])


def _sasl_handshake(v, req, code, msg, exc):
    return _resp(17).SaslHandshakeResponse(error_code=code, mechanisms=[])


def _api_versions(v, req, code, msg, exc):
    m = _resp(18)
    keys = []
    if code == ErrorCode.UNSUPPORTED_VERSION:  # KIP-511: say which ApiVersions versions we speak
        from odradek.api_handlers import REGISTRY
        mod = REGISTRY[18]
        keys = [m.ApiVersion(api_key=18, min_version=mod.MIN_VERSION, max_version=mod.MAX_VERSION)]
    return m.ApiVersionsResponse(error_code=code, api_keys=keys)


def _create_topics(v, req, code, msg, exc):
    m = _resp(19)
    return m.CreateTopicsResponse(topics=[
        m.CreatableTopicResult(name=t.name, error_code=code, error_message=msg)
        for t in req.topics or ()])


def _delete_topics(v, req, code, msg, exc):
    m = _resp(20)
    if v >= 6:
        states = [(t.name, t.topic_id) for t in req.topics or ()]
    else:
        from odradek.wire.primitives import ZERO_UUID
        states = [(n, ZERO_UUID) for n in req.topic_names or ()]
    return m.DeleteTopicsResponse(responses=[
        m.DeletableTopicResult(name=n, topic_id=tid, error_code=code) for n, tid in states])


def _delete_records(v, req, code, msg, exc):
    m = _resp(21)
    return m.DeleteRecordsResponse(topics=[
        m.DeleteRecordsTopicResult(name=t.name, partitions=[
            m.DeleteRecordsPartitionResult(partition_index=p.partition_index, low_watermark=-1,
                                           error_code=code)
            for p in t.partitions or ()])
        for t in req.topics or ()])


def _init_producer_id(v, req, code, msg, exc):
    return _resp(22).InitProducerIdResponse(error_code=code, producer_id=-1, producer_epoch=-1)


def _offset_for_leader_epoch(v, req, code, msg, exc):
    m = _resp(23)
    return m.OffsetForLeaderEpochResponse(topics=[
        m.OffsetForLeaderTopicResult(topic=t.topic, partitions=[
            m.EpochEndOffset(partition=p.partition, error_code=code, leader_epoch=-1, end_offset=-1)
            for p in t.partitions or ()])
        for t in req.topics or ()])


def _add_partitions_to_txn(v, req, code, msg, exc):
    m = _resp(24)
    if v >= 4:  # broker-to-broker batched form: top-level error only
        return m.AddPartitionsToTxnResponse(error_code=code)
    return m.AddPartitionsToTxnResponse(results_by_topic_v3_and_below=[
        m.AddPartitionsToTxnTopicResult(name=t.name, results_by_partition=[
            m.AddPartitionsToTxnPartitionResult(partition_index=p, partition_error_code=code)
            for p in t.partitions or ()])
        for t in req.v3_and_below_topics or ()])


def _txn_offset_commit(v, req, code, msg, exc):
    m = _resp(28)
    return m.TxnOffsetCommitResponse(topics=[
        m.TxnOffsetCommitResponseTopic(name=t.name, partitions=[
            m.TxnOffsetCommitResponsePartition(partition_index=p.partition_index, error_code=code)
            for p in t.partitions or ()])
        for t in req.topics or ()])


def _describe_acls(v, req, code, msg, exc):
    return _resp(29).DescribeAclsResponse(error_code=code, error_message=msg, resources=[])


def _create_acls(v, req, code, msg, exc):
    m = _resp(30)
    return m.CreateAclsResponse(results=[
        m.AclCreationResult(error_code=code, error_message=msg) for _ in req.creations or ()])


def _delete_acls(v, req, code, msg, exc):
    m = _resp(31)
    return m.DeleteAclsResponse(filter_results=[
        m.DeleteAclsFilterResult(error_code=code, error_message=msg, matching_acls=[])
        for _ in req.filters or ()])


def _describe_configs(v, req, code, msg, exc):
    m = _resp(32)
    default_msg = ErrorCode.from_code(code).message  # Kafka sets Errors.message() here
    return m.DescribeConfigsResponse(results=[
        m.DescribeConfigsResult(error_code=code, error_message=default_msg,
                                resource_type=r.resource_type, resource_name=r.resource_name, configs=[])
        for r in req.resources or ()])


def _alter_configs(api_key: int) -> Callable:
    def build(v, req, code, msg, exc):
        m = _resp(api_key)
        cls = "AlterConfigsResponse" if api_key == 33 else "IncrementalAlterConfigsResponse"
        return getattr(m, cls)(responses=[
            m.AlterConfigsResourceResponse(error_code=code, error_message=msg,
                                           resource_type=r.resource_type, resource_name=r.resource_name)
            for r in req.resources or ()])
    return build


def _alter_replica_log_dirs(v, req, code, msg, exc):
    m = _resp(34)
    return m.AlterReplicaLogDirsResponse(results=[
        m.AlterReplicaLogDirTopicResult(topic_name=t.name, partitions=[
            m.AlterReplicaLogDirPartitionResult(partition_index=p, error_code=code)
            for p in t.partitions or ()])
        for d in req.dirs or () for t in d.topics or ()])


def _describe_log_dirs(v, req, code, msg, exc):
    return _resp(35).DescribeLogDirsResponse(error_code=code, results=[])


def _sasl_authenticate(v, req, code, msg, exc):
    return _resp(36).SaslAuthenticateResponse(error_code=code, error_message=msg, auth_bytes=b"")


def _create_partitions(v, req, code, msg, exc):
    m = _resp(37)
    return m.CreatePartitionsResponse(results=[
        m.CreatePartitionsTopicResult(name=t.name, error_code=code, error_message=msg)
        for t in req.topics or ()])


def _create_delegation_token(v, req, code, msg, exc):
    # KafkaPrincipal.ANONYMOUS as owner and requester; no token.
    return _resp(38).CreateDelegationTokenResponse(
        error_code=code, principal_type="User", principal_name="ANONYMOUS",
        token_requester_principal_type="User", token_requester_principal_name="ANONYMOUS",
        issue_timestamp_ms=-1, expiry_timestamp_ms=-1, max_timestamp_ms=-1, token_id="", hmac=b"")


def _describe_delegation_token(v, req, code, msg, exc):
    return _resp(41).DescribeDelegationTokenResponse(error_code=code, tokens=[])


def _delete_groups(v, req, code, msg, exc):
    m = _resp(42)
    return m.DeleteGroupsResponse(results=[
        m.DeletableGroupResult(group_id=g, error_code=code) for g in req.groups_names or ()])


def _elect_leaders(v, req, code, msg, exc):
    m = _resp(43)
    return m.ElectLeadersResponse(error_code=code if v >= 1 else 0, replica_election_results=[
        m.ReplicaElectionResult(topic=t.topic, partition_result=[
            m.PartitionResult(partition_id=p, error_code=code, error_message=msg)
            for p in t.partitions or ()])
        for t in req.topic_partitions or ()])


def _alter_partition_reassignments(v, req, code, msg, exc):
    m = _resp(45)
    return m.AlterPartitionReassignmentsResponse(error_code=code, error_message=msg, responses=[
        m.ReassignableTopicResponse(name=t.name, partitions=[
            m.ReassignablePartitionResponse(partition_index=p.partition_index, error_code=code,
                                            error_message=msg)
            for p in t.partitions or ()])
        for t in req.topics or ()])


def _list_partition_reassignments(v, req, code, msg, exc):
    m = _resp(46)
    return m.ListPartitionReassignmentsResponse(error_code=code, error_message=msg, topics=[
        m.OngoingTopicReassignment(name=t.name, partitions=[
            m.OngoingPartitionReassignment(partition_index=i) for i in t.partition_indexes or ()])
        for t in req.topics or ()])


def _offset_delete(v, req, code, msg, exc):
    return _resp(47).OffsetDeleteResponse(error_code=code, topics=[])


def _describe_client_quotas(v, req, code, msg, exc):
    return _resp(48).DescribeClientQuotasResponse(error_code=code, error_message=msg, entries=None)


def _alter_client_quotas(v, req, code, msg, exc):
    m = _resp(49)
    default_msg = ErrorCode.from_code(code).message  # Kafka sets Errors.message() here
    return m.AlterClientQuotasResponse(entries=[
        m.EntryData(error_code=code, error_message=default_msg, entity=[
            m.EntityData(entity_type=e.entity_type, entity_name=e.entity_name) for e in en.entity or ()])
        for en in req.entries or ()])


def _describe_user_scram_credentials(v, req, code, msg, exc):
    m = _resp(50)
    # Kafka leaves each result's user name unset ("").
    return m.DescribeUserScramCredentialsResponse(error_code=code, error_message=msg, results=[
        m.DescribeUserScramCredentialsResult(error_code=code, error_message=msg)
        for _ in req.users or ()])


def _alter_user_scram_credentials(v, req, code, msg, exc):
    m = _resp(51)
    users = sorted({d.name for d in req.deletions or ()} | {u.name for u in req.upsertions or ()})
    return m.AlterUserScramCredentialsResponse(results=[
        m.AlterUserScramCredentialsResult(user=u, error_code=code, error_message=msg) for u in users])


def _describe_quorum(v, req, code, msg, exc):
    return _resp(55).DescribeQuorumResponse(error_code=code,
                                            error_message=ErrorCode.from_code(code).message)


def _describe_producers(v, req, code, msg, exc):
    m = _resp(61)
    return m.DescribeProducersResponse(topics=[
        m.TopicResponse(name=t.name, partitions=[
            m.PartitionResponse(partition_index=i, error_code=code) for i in t.partition_indexes or ()])
        for t in req.topics or ()])


def _describe_transactions(v, req, code, msg, exc):
    m = _resp(65)
    return m.DescribeTransactionsResponse(transaction_states=[
        m.TransactionState(transactional_id=t, error_code=code) for t in req.transactional_ids or ()])


def _consumer_group_describe(v, req, code, msg, exc):
    m = _resp(69)
    return m.ConsumerGroupDescribeResponse(groups=[
        m.DescribedGroup(group_id=g, error_code=code) for g in req.group_ids or ()])


def _describe_topic_partitions(v, req, code, msg, exc):
    m = _resp(75)
    return m.DescribeTopicPartitionsResponse(topics=[
        m.DescribeTopicPartitionsResponseTopic(name=t.name, error_code=code, is_internal=False, partitions=[])
        for t in req.topics or ()])


def _share_group_describe(v, req, code, msg, exc):
    m = _resp(77)
    return m.ShareGroupDescribeResponse(groups=[
        m.DescribedGroup(group_id=g, error_code=code, error_message=msg) for g in req.group_ids or ()])


def _streams_group_describe(v, req, code, msg, exc):
    m = _resp(89)
    return m.StreamsGroupDescribeResponse(groups=[
        m.DescribedGroup(group_id=g, error_code=code, error_message=msg) for g in req.group_ids or ()])


def _describe_share_group_offsets(v, req, code, msg, exc):
    m = _resp(90)
    return m.DescribeShareGroupOffsetsResponse(groups=[
        m.DescribeShareGroupOffsetsResponseGroup(group_id=g.group_id, topics=[], error_code=code,
                                                 error_message=msg or ErrorCode.from_code(code).message)
        for g in req.groups or ()])


BUILDERS: dict[int, Callable] = {
    0: _produce,
    1: _fetch,
    2: _list_offsets,
    3: _metadata,
    8: _offset_commit,
    9: _offset_fetch,
    10: _find_coordinator,
    11: _join_group,
    12: _top_level(12, "HeartbeatResponse"),
    13: _top_level(13, "LeaveGroupResponse"),
    14: _sync_group,
    15: _describe_groups,
    16: _list_groups,
    17: _sasl_handshake,
    18: _api_versions,
    19: _create_topics,
    20: _delete_topics,
    21: _delete_records,
    22: _init_producer_id,
    23: _offset_for_leader_epoch,
    24: _add_partitions_to_txn,
    25: _top_level(25, "AddOffsetsToTxnResponse"),
    26: _top_level(26, "EndTxnResponse"),
    28: _txn_offset_commit,
    29: _describe_acls,
    30: _create_acls,
    31: _delete_acls,
    32: _describe_configs,
    33: _alter_configs(33),
    34: _alter_replica_log_dirs,
    35: _describe_log_dirs,
    36: _sasl_authenticate,
    37: _create_partitions,
    38: _create_delegation_token,
    39: _top_level(39, "RenewDelegationTokenResponse"),
    40: _top_level(40, "ExpireDelegationTokenResponse"),
    41: _describe_delegation_token,
    42: _delete_groups,
    43: _elect_leaders,
    44: _alter_configs(44),
    45: _alter_partition_reassignments,
    46: _list_partition_reassignments,
    47: _offset_delete,
    48: _describe_client_quotas,
    49: _alter_client_quotas,
    50: _describe_user_scram_credentials,
    51: _alter_user_scram_credentials,
    55: _describe_quorum,
    57: _top_level_with_message(57, "UpdateFeaturesResponse"),  # results stay empty, as in Kafka
    60: _top_level_with_message(60, "DescribeClusterResponse"),
    61: _describe_producers,
    65: _describe_transactions,
    66: _top_level(66, "ListTransactionsResponse"),
    68: _top_level(68, "ConsumerGroupHeartbeatResponse"),
    69: _consumer_group_describe,
    74: _top_level(74, "ListConfigResourcesResponse"),
    75: _describe_topic_partitions,
    76: _top_level(76, "ShareGroupHeartbeatResponse"),
    77: _share_group_describe,
    78: _top_level(78, "ShareFetchResponse"),
    79: _top_level(79, "ShareAcknowledgeResponse"),
    88: _top_level(88, "StreamsGroupHeartbeatResponse"),
    89: _streams_group_describe,
    90: _describe_share_group_offsets,
    91: _top_level_with_default_message(91, "AlterShareGroupOffsetsResponse"),
    92: _top_level_with_default_message(92, "DeleteShareGroupOffsetsResponse"),
}


def error_response(api_key: int, version: int, request, exc: BaseException):
    """Kafka's getErrorResponse(0, exc) for this request; None where Kafka has no response
    (acks=0 Produce: the caller closes the connection). KeyError for an API without a builder."""
    code, msg = api_error(exc)
    return BUILDERS[api_key](version, request, code, msg, exc)
