"""Does a host name resolve: the check Kafka's controller makes for an ip client-quota
entity (InetAddress.getByName). The pure controller code takes it injected
(controller/client_quotas.alter's ``resolvable``); the lookup itself lives here, at the edge.
"""

from __future__ import annotations

import socket

from odradek.controller.client_quotas import is_ip_literal


def host_resolves(host: str) -> bool:
    if is_ip_literal(host):
        return True
    try:
        socket.getaddrinfo(host, None)
        return True
    except (OSError, UnicodeError):
        return False
