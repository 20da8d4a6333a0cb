from django.dispatch import receiver

from accounts.services import account_closed

from . import services


@receiver(account_closed)
def revoke_stream_keys_of_closed_account(sender, uid: int, **kwargs) -> None:
    """A closed account's stream keys go at once: its open streams end at their next
    heartbeat (as they would for the suspension alone), and nothing of it stays behind."""
    for key in services.list_stream_keys(uid):
        services.revoke_stream_key(uid, key["id"])
