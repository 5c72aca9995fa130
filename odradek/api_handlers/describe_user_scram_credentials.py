"""DescribeUserScramCredentials (key 50) v0: mechanisms and iterations per user, from the image."""

from __future__ import annotations

from odradek.controller import scram
from odradek.wire.messages.describe_user_scram_credentials_response import (
    CredentialInfo, DescribeUserScramCredentialsResponse, DescribeUserScramCredentialsResult)

API_KEY = 50
MIN_VERSION = 0
MAX_VERSION = 0


def handle(ctx, request) -> DescribeUserScramCredentialsResponse:
    users = None if request.users is None else [u.name for u in request.users]
    found = scram.describe(ctx.services.metadata.image.scram_credentials, users)
    return DescribeUserScramCredentialsResponse(throttle_time_ms=0, error_code=0, error_message="", results=[
        DescribeUserScramCredentialsResult(
            user=user, error_code=code, error_message=msg,
            credential_infos=[CredentialInfo(mechanism=m, iterations=i) for m, i in infos])
        for user, code, msg, infos in found])


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's DescribeUserScramCredentialsRequest.getErrorResponse."""
    # Kafka leaves each result's user name unset ("").
    return DescribeUserScramCredentialsResponse(error_code=code, error_message=msg, results=[
        DescribeUserScramCredentialsResult(error_code=code, error_message=msg)
        for _ in req.users or ()])
