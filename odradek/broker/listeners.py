"""A broker's client listeners as served: each with its name, its security protocol, its TLS context
(SSL, SASL_SSL: listener.name.<l>.ssl.* first) and how a client certificate becomes a principal
(SSL: ssl.principal.mapping.rules), its PLAIN users (SASL: listener.name.<l>.plain.sasl.jaas.config)."""

from __future__ import annotations

import os
import re
import secrets
import ssl
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from odradek.config import ConfigError, Listener, listener_protocol
from odradek.security.sasl import OAUTHBEARER, SaslSession, plain_users

# What only some listeners need loads with the first such listener, at start-up: TLS (broker/tls.py, the
# cipher suites), the SSL principal mapping rules, OAUTHBEARER (~8 ms of CPU a start a plaintext broker
# does without)
if TYPE_CHECKING:  # (jwks: where a listener validates signed tokens: joserfc and cryptography, ~0.12 s of CPU)
    from odradek.broker.jwks import JwksKeys
    from odradek.security.oauthbearer import TokenValidator
    from odradek.security.ssl_principal import SslPrincipalMapper

ANONYMOUS = "User:ANONYMOUS"


@dataclass
class ServedListener:
    """A listener as the server serves it: protocol, TLS context, principal mapping, OAUTHBEARER validator."""
    listener: Listener
    protocol: str  # PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL
    tls: ssl.SSLContext | None = None
    mapper: SslPrincipalMapper | None = None  # SSL: a client certificate's DN -> principal name
    advertised: bool = True  # a client listener (its clients are answered with its endpoints), not CONTROLLER
    oauth: TokenValidator | None = None  # OAUTHBEARER's token validator (unsecured JWS, or signed against a JWKS)
    jwks: JwksKeys | None = None  # the signed validator's keys (fetched by the broker)
    _plain_users: dict | None = field(default=None, repr=False)

    @property
    def name(self) -> str:
        return self.listener.name

    @property
    def sasl(self) -> bool:
        return self.protocol in ("SASL_PLAINTEXT", "SASL_SSL")

    def plain_users(self, cfg) -> dict[str, str]:
        if self._plain_users is None:
            self._plain_users = plain_users(cfg.sasl_jaas(self.name, "PLAIN"))
        return self._plain_users

    def sasl_session(self, cfg, scram_credentials) -> SaslSession | None:
        """A new connection's SASL exchange on a SASL_PLAINTEXT/SASL_SSL listener; None otherwise.
        ``scram_credentials``: the metadata image's, (user, mechanism) -> credential."""
        if not self.sasl:
            return None
        return SaslSession(cfg.sasl_mechanisms(self.name), self.plain_users(cfg),
                           lambda user, mech: scram_credentials.get((user, mech)), lambda: secrets.token_urlsafe(24),
                           self.oauth)

    def tls_principal(self, ssl_object) -> str | None:
        """The principal of an SSL (not SASL_SSL) connection, as Kafka's DefaultKafkaPrincipalBuilder:
        User:<the mapped subject DN of the client certificate>, User:ANONYMOUS without one; None when
        no mapping rule applies (Kafka fails the authentication: the connection is closed)."""
        if self.mapper is None or ssl_object is None:
            return ANONYMOUS
        cert = ssl_object.getpeercert(binary_form=True)
        if not cert:
            return ANONYMOUS
        from odradek.security.ssl_principal import NoMatchingRule, subject_dn  # (loaded with self.mapper)

        try:
            return "User:" + self.mapper.name(subject_dn(cert))
        except (NoMatchingRule, ValueError, IndexError):
            return None


def _mapper(cfg, listener: str) -> SslPrincipalMapper:
    from odradek.security.ssl_principal import SslPrincipalMapper

    rules = cfg.ssl(listener, "ssl.principal.mapping.rules", "DEFAULT")
    try:
        return SslPrincipalMapper(rules)
    except (ValueError, re.error) as e:  # Kafka refuses the configuration at start-up
        raise ConfigError(f"Invalid value {rules} for configuration ssl.principal.mapping.rules: {e}") from None


def _oauth(cfg, listener: str) -> tuple[TokenValidator | None, JwksKeys | None]:
    """A listener's OAUTHBEARER validator, as Kafka picks it: none configured, the unsecured JWS one
    with the options of its JAAS config; OAuthBearerValidatorCallbackHandler, signed tokens against the
    JWKS at sasl.oauthbearer.jwks.endpoint.url (which must be among the allowed URLs)."""
    if OAUTHBEARER not in cfg.sasl_mechanisms(listener):
        return None, None
    from odradek.security.oauthbearer import ConfigRefused, UnsecuredValidator, check_unsecured_login, jaas_options

    try:
        options = jaas_options(cfg.sasl_jaas(listener, OAUTHBEARER))
        check_unsecured_login(options)  # the broker's own login, as Kafka's (it refuses to start without a token)
        if (listener, OAUTHBEARER) not in cfg.listener_callback_handlers:
            return UnsecuredValidator.from_jaas_options(options), None
        from odradek.broker.jwks import JwksKeys, system_properties
        from odradek.security.oauthbearer_jwt import (BROKER_JWT_VALIDATOR, DEFAULT_JWT_VALIDATOR, JwtSettings,
                                                      JwtValidator, allowed_urls, check_jwks_url)

        settings = cfg.oauth(listener)
        validator_class = settings.get("sasl.oauthbearer.jwt.validator.class", DEFAULT_JWT_VALIDATOR).strip()
        if validator_class not in (DEFAULT_JWT_VALIDATOR, BROKER_JWT_VALIDATOR):
            raise ConfigRefused(f"The class {validator_class} defined in the sasl.oauthbearer.jwt.validator.class "
                                f"configuration could not be instantiated (odradek has {BROKER_JWT_VALIDATOR})")
        jwt = JwtSettings.from_settings(settings)
        if not jwt.jwks_url:  # Kafka's DefaultJwtValidator would check no signature (ClientJwtValidator)
            raise ConfigRefused(f"listener {listener}: OAuthBearerValidatorCallbackHandler without "
                                "sasl.oauthbearer.jwks.endpoint.url would check no signature; odradek requires the "
                                "JWKS URL")
        scheme = check_jwks_url(jwt.jwks_url, allowed_urls(system_properties(os.environ)))
        keys = JwksKeys(jwt, scheme, {k: v for k, v in options.items() if k.startswith("ssl.")})
        if keys.is_file:
            keys.load_file()
        return JwtValidator(jwt, keys), keys
    except ValueError as e:  # ConfigRefused, an unreadable JWKS file
        raise ConfigError(str(e)) from None


def served_listener(cfg, lst: Listener, advertised: bool = True) -> ServedListener:
    protocol = listener_protocol(cfg, lst.name)
    mapper = _mapper(cfg, lst.name) if protocol == "SSL" else None
    tls = None
    if protocol in ("SSL", "SASL_SSL"):
        from odradek.broker.tls import server_context

        tls = server_context(cfg, lst.name)
    oauth, jwks = _oauth(cfg, lst.name) if protocol in ("SASL_PLAINTEXT", "SASL_SSL") else (None, None)
    return ServedListener(lst, protocol, tls, mapper, advertised, oauth, jwks)


def served_listeners(cfg) -> list[ServedListener]:
    """Every client listener of ``cfg`` (the controller listener is served by broker/controller_server.py)."""
    return [served_listener(cfg, lst) for lst in cfg.listeners]
