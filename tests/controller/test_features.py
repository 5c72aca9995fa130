"""Feature levels (KIP-584) and UpdateFeatures validation, checked against Kafka 4.3's answers."""

import pytest

from odradek.controller import features as F
from odradek.controller.controller import Controller
from odradek.controller.image import BrokerImage
from odradek.wire.errors import ErrorCode as E

PREFIX = "The update failed for all features since the following feature had an error: "


@pytest.fixture
def ctl(tmp_path):
    c = Controller(str(tmp_path), 1, {}, now_ms=0)
    c.start(BrokerImage(1, "127.0.0.1", 9092), now_ms=0)
    yield c
    c.close()


def test_fresh_node_finalizes_the_implemented_levels(ctl):
    assert ctl.finalized_features() == {"metadata.version": 30, "eligible.leader.replicas.version": 1,
                                        "group.version": 1, "share.version": 1, "streams.version": 1,
                                        "transaction.version": F.TRANSACTION_VERSION_MAX}
    assert F.SUPPORTED["streams.version"] == (0, 1)  # KIP-1071 streams groups
    assert F.SUPPORTED["eligible.leader.replicas.version"] == (0, 1)  # KIP-966, on by default as in Kafka 4.3
    assert F.SUPPORTED["kraft.version"] == (0, 0)


def _err(ctl, name, level, kind, validate_only=True):
    return ctl.update_features([(name, level, kind)], validate_only, 0)


@pytest.mark.parametrize("name,level,kind,why", [
    ("group.version", 2, F.SAFE_DOWNGRADE, "Invalid update version 2 for feature group.version. "
                                           "Local controller 1 only supports versions 0-1"),
    ("group.version", 0, F.UPGRADE, "Invalid update version 0 for feature group.version. Can't downgrade the "
                                    "version of this feature without setting the upgrade type to either safe or "
                                    "unsafe downgrade."),
    ("group.version", 0, 0, "Invalid update version 0 for feature group.version. "
                            "The controller does not support the given upgrade type."),
    ("foo", 1, F.UPGRADE, "Invalid update version 1 for feature foo. Local controller 1 does not support this "
                          "feature."),
    ("foo", 0, F.SAFE_DOWNGRADE, "Invalid update version 0 for feature foo. Feature foo not found."),
    ("metadata.version", 6, F.UPGRADE, "Invalid update version 6 for feature metadata.version. "
                                       "Local controller 1 only supports versions 7-30"),
    ("metadata.version", 29, F.SAFE_DOWNGRADE, "Unsupported metadata.version downgrade from 30 to 29. Refusing to "
                                               "perform the requested downgrade because it might delete metadata "
                                               "information."),
    ("metadata.version", 29, F.UNSAFE_DOWNGRADE, "Unsupported metadata.version downgrade from 30 to 29. Unsafe "
                                                 "metadata downgrade is not supported in this version."),
])
def test_invalid_updates_as_kafka(ctl, name, level, kind, why):
    assert _err(ctl, name, level, kind) == (E.INVALID_UPDATE_VERSION, PREFIX + why)


def test_all_or_nothing(ctl):
    before = ctl.image.offset
    code, msg = ctl.update_features([("group.version", 0, F.SAFE_DOWNGRADE), ("transaction.version", 3, 1)],
                                    False, 0)
    assert code == E.INVALID_UPDATE_VERSION and "transaction.version" in msg
    assert ctl.image.offset == before and ctl.finalized_features()["group.version"] == 1


def test_validate_only_changes_nothing(ctl):
    assert _err(ctl, "group.version", 0, F.SAFE_DOWNGRADE) is None
    assert ctl.finalized_features()["group.version"] == 1


def test_downgrade_to_zero_removes_and_upgrade_restores(ctl, tmp_path):
    epoch = ctl.finalized_features_epoch()
    assert _err(ctl, "group.version", 0, F.SAFE_DOWNGRADE, validate_only=False) is None
    assert "group.version" not in ctl.finalized_features()
    assert ctl.finalized_features_epoch() > epoch
    assert _err(ctl, "group.version", 1, F.UPGRADE, validate_only=False) is None
    assert ctl.finalized_features()["group.version"] == 1
    # same level again is not an error (Kafka: "group.version was upgraded to 1.")
    assert _err(ctl, "group.version", 1, F.UPGRADE) is None


def test_levels_survive_restart(tmp_path):
    c = Controller(str(tmp_path), 1, {}, now_ms=0)
    c.start(BrokerImage(1, "127.0.0.1", 9092), now_ms=0)
    assert c.update_features([("group.version", 0, F.UNSAFE_DOWNGRADE)], False, 0) is None
    c.close()
    c = Controller(str(tmp_path), 1, {}, now_ms=0)
    c.start(BrokerImage(1, "127.0.0.1", 9092), now_ms=0)
    assert "group.version" not in c.finalized_features()
    c.close()
