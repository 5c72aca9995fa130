"""RenewDelegationToken (key 39) v1-2: not allowed on a PLAINTEXT connection (as Kafka)."""

from __future__ import annotations

from odradek.wire.messages.renew_delegation_token_response import RenewDelegationTokenResponse

from .delegation_tokens import refused
from .error_responses import top_level_error

API_KEY = 39
MIN_VERSION = 1
MAX_VERSION = 2


handle = refused(RenewDelegationTokenResponse)
error_response = top_level_error(RenewDelegationTokenResponse)  # Kafka's RenewDelegationTokenRequest.getErrorResponse
