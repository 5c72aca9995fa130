"""A node's own SASL credentials from a listener's JAAS config (username/password, not user_<name>)."""

from odradek.security.sasl import jaas_credentials, plain_users

JAAS = ('org.apache.kafka.common.security.plain.PlainLoginModule required username="node" password="se\\"cret" '
        'user_node="se\\"cret" user_username="x";')


def test_the_node_credentials_beside_the_users():
    assert jaas_credentials(JAAS) == ("node", 'se"cret')
    assert plain_users(JAAS) == {"node": 'se"cret', "username": "x"}


def test_no_credentials_without_both():
    assert jaas_credentials('x required user_admin="pw";') is None
    assert jaas_credentials('x required username="a";') is None
