from odradek.wire.errors import ErrorCode


def test_core_codes():
    assert ErrorCode.UNKNOWN_SERVER_ERROR == -1
    assert ErrorCode.NONE == 0
    assert ErrorCode.OFFSET_OUT_OF_RANGE == 1
    assert ErrorCode.CORRUPT_MESSAGE == 2
    assert ErrorCode.UNKNOWN_TOPIC_OR_PARTITION == 3
    assert ErrorCode.NOT_LEADER_OR_FOLLOWER == 6
    assert ErrorCode.UNSUPPORTED_VERSION == 35
    assert ErrorCode.INVALID_RECORD == 87
    assert ErrorCode.PRODUCER_FENCED == 90
    assert ErrorCode.UNKNOWN_TOPIC_ID == 100
    assert ErrorCode.TRANSACTION_ABORTABLE == 120
    assert ErrorCode.REBOOTSTRAP_REQUIRED == 129
    assert ErrorCode.SHARE_SESSION_LIMIT_REACHED == 133


def test_dense_and_unique():
    codes = [e.value for e in ErrorCode]
    assert len(codes) == len(set(codes))
    assert sorted(codes) == list(range(-1, 134))


def test_retriable_matches_kafka():
    retriable = {e for e in ErrorCode if e.retriable}
    for e in (ErrorCode.CORRUPT_MESSAGE, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, ErrorCode.LEADER_NOT_AVAILABLE,
              ErrorCode.NOT_LEADER_OR_FOLLOWER, ErrorCode.REQUEST_TIMED_OUT, ErrorCode.NOT_ENOUGH_REPLICAS,
              ErrorCode.COORDINATOR_LOAD_IN_PROGRESS, ErrorCode.NOT_COORDINATOR, ErrorCode.NOT_CONTROLLER,
              ErrorCode.CONCURRENT_TRANSACTIONS, ErrorCode.KAFKA_STORAGE_ERROR, ErrorCode.FENCED_LEADER_EPOCH,
              ErrorCode.UNKNOWN_TOPIC_ID, ErrorCode.SHARE_SESSION_NOT_FOUND):
        assert e in retriable, e
    for e in (ErrorCode.NONE, ErrorCode.UNKNOWN_SERVER_ERROR, ErrorCode.OFFSET_OUT_OF_RANGE,
              ErrorCode.BROKER_NOT_AVAILABLE, ErrorCode.MESSAGE_TOO_LARGE, ErrorCode.PRODUCER_FENCED,
              ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER, ErrorCode.REBALANCE_IN_PROGRESS, ErrorCode.TRANSACTION_ABORTABLE,
              ErrorCode.INVALID_RECORD, ErrorCode.TOPIC_AUTHORIZATION_FAILED):
        assert e not in retriable, e
    assert len(retriable) == 32


def test_messages_and_lookup():
    assert ErrorCode.NONE.message == ""
    assert all(e.message for e in ErrorCode if e is not ErrorCode.NONE)
    assert ErrorCode.REQUEST_TIMED_OUT.message == "The request timed out."
    assert ErrorCode.from_code(3) is ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    assert ErrorCode.from_code(31000) is ErrorCode.UNKNOWN_SERVER_ERROR
    assert ErrorCode.NONE.is_error is False and ErrorCode.CORRUPT_MESSAGE.is_error
