"""Feature levels (KIP-584) as Kafka 4.3 reports them: ApiVersions v3+ supported/finalized
features and UpdateFeatures (57). Runs against odradek and against Kafka 4.3 (--bootstrap)."""

import time

import pytest

from odradek.broker.wire_client import WireClient
from odradek.wire.messages.api_versions_request import ApiVersionsRequest
from odradek.wire.messages.update_features_request import FeatureUpdateKey, UpdateFeaturesRequest

PREFIX = "The update failed for all features since the following feature had an error: "


@pytest.fixture
def client(bootstrap):
    c = WireClient.from_bootstrap(bootstrap)
    yield c
    c.close()


def features(c, version=4):
    r = c.request(ApiVersionsRequest(client_software_name="t", client_software_version="1"), version)
    assert r.error_code == 0
    sup = {f.name: (f.min_version, f.max_version) for f in r.supported_features}
    fin = {f.name: f.max_version_level for f in r.finalized_features}
    for f in r.finalized_features:
        assert f.min_version_level == f.max_version_level
    return sup, fin, r.finalized_features_epoch


def update(c, name, level, kind, validate_only=True, version=2):
    r = c.send(UpdateFeaturesRequest(timeout_ms=30000, validate_only=validate_only, feature_updates=[
        FeatureUpdateKey(feature=name, max_version_level=level, upgrade_type=kind)]), version)
    return r.error_code, r.error_message


def test_finalized_levels_of_a_fresh_node(client, broker):
    sup, fin, epoch = features(client)
    assert sup["metadata.version"] == (7, 30) and fin["metadata.version"] == 30  # 3.3-IV3 .. 4.3-IV0
    assert fin["group.version"] == 1  # KIP-848
    assert fin["transaction.version"] == sup["transaction.version"][1]
    assert epoch >= 0
    for name, level in fin.items():
        lo, hi = sup[name]
        assert lo <= level <= hi and level > 0
    if broker.controllable:  # odradek: exactly the levels it implements
        from odradek.controller import features as F

        assert sup == F.SUPPORTED
        assert fin == F.BOOTSTRAP


def test_api_versions_v3_lists_no_supported_feature_from_level_0(client):
    # KIP-1022: a v3 client rejects SupportedFeatureKey.min_version 0; finalized ones are all listed
    sup3, fin3, _ = features(client, 3)
    sup4, fin4, _ = features(client, 4)
    assert sup3 == {k: v for k, v in sup4.items() if v[0] > 0} and "metadata.version" in sup3
    assert fin3 == fin4


def test_update_features_validation(client):
    sup, _, _ = features(client)
    lo, hi = sup["group.version"]
    node = "Local controller 1"  # the single node of both test brokers
    assert update(client, "group.version", hi + 1, 2) == (
        95, PREFIX + f"Invalid update version {hi + 1} for feature group.version. {node} only supports versions "
                     f"{lo}-{hi}")
    assert update(client, "group.version", 0, 1) == (
        95, PREFIX + "Invalid update version 0 for feature group.version. Can't downgrade the version of this "
                     "feature without setting the upgrade type to either safe or unsafe downgrade.")
    assert update(client, "group.version", 0, 4) == (
        95, PREFIX + "Invalid update version 0 for feature group.version. The controller does not support the "
                     "given upgrade type.")
    assert update(client, "no.such.feature", 1, 1) == (
        95, PREFIX + f"Invalid update version 1 for feature no.such.feature. {node} does not support this feature.")
    assert update(client, "metadata.version", 29, 2) == (
        95, PREFIX + "Unsupported metadata.version downgrade from 30 to 29. Refusing to perform the requested "
                     "downgrade because it might delete metadata information.")
    assert update(client, "group.version", 0, 2) == (0, None)  # validate_only
    assert update(client, "group.version", 1, 1, version=0) == (0, None)


def test_downgrade_and_upgrade_are_visible_in_api_versions(client):
    _, fin, epoch = features(client)
    assert fin["group.version"] == 1
    try:
        assert update(client, "group.version", 0, 2, validate_only=False) == (0, None)
        deadline = time.time() + 60
        while "group.version" in features(client)[1] and time.time() < deadline:
            time.sleep(0.1)
        _, fin2, epoch2 = features(client)
        assert "group.version" not in fin2 and epoch2 > epoch
    finally:
        assert update(client, "group.version", 1, 1, validate_only=False) == (0, None)
    deadline = time.time() + 60
    while features(client)[1].get("group.version") != 1 and time.time() < deadline:
        time.sleep(0.1)
    assert features(client)[1]["group.version"] == 1


def test_transaction_version_downgrade_to_1_and_back_to_2(client):
    """KIP-890 part 2 can be switched off and on again, as with kafka-features downgrade/upgrade;
    clients pick the transaction protocol from the finalized level they see in ApiVersions."""
    sup, fin, _ = features(client)
    assert sup["transaction.version"] == (0, 2) and fin["transaction.version"] == 2
    node = "Local controller 1"
    assert update(client, "transaction.version", 3, 1) == (
        95, PREFIX + f"Invalid update version 3 for feature transaction.version. {node} only supports versions 0-2")
    assert update(client, "transaction.version", 1, 1) == (
        95, PREFIX + "Invalid update version 1 for feature transaction.version. Can't downgrade the version of "
                     "this feature without setting the upgrade type to either safe or unsafe downgrade.")
    assert update(client, "transaction.version", 0, 2) == (0, None)  # validate_only
    try:
        assert update(client, "transaction.version", 1, 2, validate_only=False) == (0, None)
        deadline = time.time() + 60
        while features(client)[1].get("transaction.version") != 1 and time.time() < deadline:
            time.sleep(0.1)
        assert features(client)[1]["transaction.version"] == 1
    finally:
        assert update(client, "transaction.version", 2, 1, validate_only=False) == (0, None)
    deadline = time.time() + 60
    while features(client)[1].get("transaction.version") != 2 and time.time() < deadline:
        time.sleep(0.1)
    assert features(client)[1]["transaction.version"] == 2
