"""ExpireDelegationToken (key 40) v1-2: not allowed on a PLAINTEXT connection (as Kafka)."""

from __future__ import annotations

from odradek.wire.messages.expire_delegation_token_response import ExpireDelegationTokenResponse

from .delegation_tokens import refused
from .error_responses import top_level_error

API_KEY = 40
MIN_VERSION = 1
MAX_VERSION = 2


handle = refused(ExpireDelegationTokenResponse)
error_response = top_level_error(ExpireDelegationTokenResponse)  # Kafka's ExpireDelegationTokenRequest.getErrorResponse
