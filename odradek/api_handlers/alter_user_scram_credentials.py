"""AlterUserScramCredentials (key 51) v0: SCRAM credentials as UserScramCredentialRecord /
RemoveUserScramCredentialRecord through the controller (Kafka's ScramControlManager rules)."""

from __future__ import annotations

from odradek.controller import scram
from odradek.wire.messages.alter_user_scram_credentials_response import (AlterUserScramCredentialsResponse,
                                                                         AlterUserScramCredentialsResult)

API_KEY = 51
MIN_VERSION = 0
MAX_VERSION = 0


def handle(ctx, request) -> AlterUserScramCredentialsResponse:
    ups = [(u.name, u.mechanism, u.iterations, u.salt, u.salted_password) for u in request.upsertions]
    dels = [(d.name, d.mechanism) for d in request.deletions]
    results = ctx.services.metadata.decide_and_commit(
        lambda image: scram.alter(image.scram_credentials, ups, dels), False, ctx.now_ms)
    return AlterUserScramCredentialsResponse(throttle_time_ms=0, results=[
        AlterUserScramCredentialsResult(user=u, error_code=c, error_message=m) for u, c, m in results])


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's AlterUserScramCredentialsRequest.getErrorResponse."""
    users = sorted({d.name for d in req.deletions or ()} | {u.name for u in req.upsertions or ()})
    return AlterUserScramCredentialsResponse(results=[
        AlterUserScramCredentialsResult(user=u, error_code=code, error_message=msg) for u in users])
