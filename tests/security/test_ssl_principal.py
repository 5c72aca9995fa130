"""security/ssl_principal.py: the subject DN as Java's X500Principal.getName() writes it and Kafka's
SslPrincipalMapper. Every expected string below was printed by Java 17 (the DNs, from the same
certificates) and by kafka-clients 4.3.0's SslPrincipalMapper (the rules)."""

import datetime

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.name import _ASN1Type
from cryptography.x509.oid import NameOID

from odradek.security.ssl_principal import NoMatchingRule, SslPrincipalMapper, subject_dn

A = x509.NameAttribute
RDN = x509.RelativeDistinguishedName


def _der(name: x509.Name) -> bytes:
    key = ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(1).not_valid_before(now).not_valid_after(now + datetime.timedelta(days=1))
            .sign(key, hashes.SHA256()))
    return cert.public_bytes(serialization.Encoding.DER)


@pytest.mark.parametrize("name,java", [
    (x509.Name([A(NameOID.COUNTRY_NAME, "US"), A(NameOID.STATE_OR_PROVINCE_NAME, "CA"), A(NameOID.LOCALITY_NAME, "SF"),
                A(NameOID.ORGANIZATION_NAME, "Acme, Inc."), A(NameOID.ORGANIZATIONAL_UNIT_NAME, "Eng"),
                A(NameOID.COMMON_NAME, "alice")]),
     "CN=alice,OU=Eng,O=Acme\\, Inc.,L=SF,ST=CA,C=US"),
    (x509.Name([A(NameOID.COMMON_NAME, '#a=b+c;d<e>"f\\g '), A(NameOID.EMAIL_ADDRESS, "a@b.c")]),
     '1.2.840.113549.1.9.1=#16056140622e63,CN=\\#a\\=b\\+c\\;d\\<e\\>\\"f\\\\g\\ '),
    (x509.Name([A(NameOID.COMMON_NAME, " lead"), A(NameOID.SERIAL_NUMBER, "42"), A(NameOID.DOMAIN_COMPONENT, "example"),
                A(NameOID.USER_ID, "u1"), A(NameOID.STREET_ADDRESS, "Main St"), A(NameOID.TITLE, "boss")]),
     "2.5.4.12=#0c04626f7373,STREET=Main St,UID=u1,DC=example,2.5.4.5=#13023432,CN=\\ lead"),
    (x509.Name([RDN([A(NameOID.COMMON_NAME, "x"), A(NameOID.ORGANIZATIONAL_UNIT_NAME, "y")]),
                RDN([A(NameOID.COMMON_NAME, "élan\x01ü")])]),
     "CN=élan\x01ü,CN=x+OU=y"),
    (x509.Name([A(NameOID.COMMON_NAME, "bmp", _type=_ASN1Type.BMPString),
                A(NameOID.ORGANIZATION_NAME, "pr", _type=_ASN1Type.PrintableString), A(NameOID.GIVEN_NAME, "g")]),
     "2.5.4.42=#0c0167,O=pr,CN=\\00b\\00m\\00p"),
])
def test_subject_dn_as_java_writes_it(name, java):
    assert subject_dn(_der(name)) == java


DNS = ["CN=alice,OU=Eng,O=Acme\\, Inc.,L=SF,ST=CA,C=US", "CN=Bob,O=odradek tests", "UID=u1,DC=example"]
FAILS = "fails"


@pytest.mark.parametrize("rules,expected", [
    ("DEFAULT", DNS),
    ("RULE:^CN=(.*?),OU=(.*?),.*$/$1@$2/L,DEFAULT", ["alice@eng", DNS[1], DNS[2]]),
    ("RULE:^CN=(.*?),O=(.*)$/$1/U", ["ALICE,OU=ENG", "BOB", FAILS]),
    ("RULE:^CN=([a-zA-Z]+),.*$/$1\\$2 $3/", [FAILS, FAILS, FAILS]),  # Kafka: IndexOutOfBoundsException
    ("RULE:^CN=(.*?),O=(.*)$/x$12/, RULE:.*UID=(.*?),.*/$1/", ["xalice,OU=Eng2", "xBob2", "u1"]),
])
def test_mapping_rules_as_kafka(rules, expected):
    mapper = SslPrincipalMapper(rules)
    for dn, want in zip(DNS, expected):
        if want == FAILS:
            with pytest.raises(NoMatchingRule):
                mapper.name(dn)
        else:
            assert mapper.name(dn) == want


def test_a_rule_kafka_cannot_parse_is_refused():
    with pytest.raises(ValueError, match="Invalid rule"):
        SslPrincipalMapper("RULE:^CN=(.*)$/$1/X")


def test_a_bad_rule_stops_start_up_with_kafkas_message():
    from odradek.broker.listeners import served_listeners
    from odradek.config import BrokerConfig, ConfigError

    cfg = BrokerConfig.from_properties({"listeners": "SSL://127.0.0.1:0", "ssl.keystore.location": "/k.pem",
                                        "ssl.principal.mapping.rules": "RULE:^CN=(.*)$/$1/X"})
    with pytest.raises(ConfigError, match=r"Invalid value RULE:\^CN=\(\.\*\)\$/\$1/X for configuration "
                                          r"ssl.principal.mapping.rules"):
        served_listeners(cfg)
