"""broker/jwks.py: the allowed-URLs system property read from KAFKA_OPTS, a file: JWKS read again when
it changes (and kept when the new content is not a key set)."""

from __future__ import annotations

import json
import os

from joserfc.jwk import RSAKey

from odradek.broker.jwks import JwksKeys, system_properties
from odradek.security.oauthbearer_jwt import JwtSettings


def test_system_properties_from_kafka_opts():
    opts = "-Xmx1G -Dorg.apache.kafka.sasl.oauthbearer.allowed.urls=file:///a,https://b -Dx.y='two words'"
    assert system_properties({"KAFKA_OPTS": opts}) == {
        "org.apache.kafka.sasl.oauthbearer.allowed.urls": "file:///a,https://b", "x.y": "two words"}
    assert system_properties({}) == {}
    assert system_properties({"KAFKA_OPTS": "-Da='unclosed"}) == {}


def test_file_jwks_read_again_when_it_changes(tmp_path):
    one = RSAKey.generate_key(2048, parameters={"kid": "one"}, private=True)
    two = RSAKey.generate_key(2048, parameters={"kid": "two"}, private=True)
    path = tmp_path / "jwks.json"
    path.write_text(json.dumps({"keys": [one.as_dict(private=False)]}))
    keys = JwksKeys(JwtSettings(path.as_uri()), "file")
    keys.load_file()
    assert [k.kid for k in keys.keys().keys] == ["one"]
    path.write_text(json.dumps({"keys": [one.as_dict(private=False), two.as_dict(private=False)]}))
    os.utime(path, ns=(1, 10**18))  # a new modification time, whatever the clock's resolution
    assert [k.kid for k in keys.keys().keys] == ["one", "two"]
    path.write_text("not json")
    os.utime(path, ns=(1, 2 * 10**18))
    assert [k.kid for k in keys.keys().keys] == ["one", "two"]  # kept
