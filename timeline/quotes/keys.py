"""Key and field names of quotes (timeline.quotes).

A status's quotes live in its own slot, beside its replies and reposts, so the set and
its count (the `quotes` field of the status hash) change together in one script."""

# On a profile hash: the account's default quote policy for new statuses ("followers",
# "nobody"; absent: anyone). On a status hash: the policy it was posted with (absent:
# anyone). Named in timeline.keys, as the status store stamps it on a new status.
from ..keys import QUOTE_POLICY_FIELD  # noqa: F401

# On a quoting status: the status it quotes, its author and their login.
QUOTE_OF_FIELD = "quote_of"
QUOTE_OF_UID_FIELD = "quote_of_uid"
QUOTE_OF_LOGIN_FIELD = "quote_of_login"
# On a quoting status: "revoked" once the quoted author detached their status (absent:
# accepted).
QUOTE_STATE_FIELD = "quote_state"


# Every status's quotes (the repair's SCAN).
QUOTES_PATTERN = "quotes:{*}"


def quotes_key(status_id: int | str) -> str:
    """Quoting status id -> when it was posted: the quotes of a status, in its slot."""
    return f"quotes:{{{status_id}}}"
