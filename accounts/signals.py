import logging

from django.contrib.auth.models import User
from django.contrib.auth.signals import user_logged_in
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from . import auth, profiles, services

log = logging.getLogger(__name__)


@receiver(post_save, sender=User)
def give_every_user_a_profile(sender, instance: User, created: bool, **kwargs) -> None:
    """createsuperuser and the admin make users too; each needs its Redis profile.

    Raising here rolls back the user's insert, so no half-made user remains."""
    if created:
        services.ensure_profile(instance)


@receiver(post_delete, sender=User)
def delete_their_social_data(sender, instance: User, using: str, **kwargs) -> None:
    """Deleting a Django user any way at all (Django's Users admin page or its bulk
    action, a shell) deletes their profile and everything they did, by the same purge
    as the Redis admin's "Delete user" (services.close_account).

    A signal rather than an override of the Users admin: it also catches the bulk
    action and code that deletes users, and keeps one deletion path to maintain.

    The purge starts only once the deletion commits, so a rolled-back delete leaves the
    user whole (rather than a Django user whose login and profile are gone). The Redis
    admin's own delete frees the login before it deletes the Django user, so the login
    maps to no uid here and nothing is purged twice (each purge step is idempotent, so
    a second run would only repeat work, never count anything twice)."""
    uid = services.uid_for_login(instance.username)
    if uid is None:
        return
    login = instance.username
    transaction.on_commit(lambda: _purge_deleted_user(uid, login), using=using)


def _purge_deleted_user(uid: int, login: str) -> None:
    # Re-read: a Redis admin delete may have freed the login since the signal.
    if services.uid_for_login(login) != uid:
        return
    try:
        services.close_account(uid)
    except ValueError:
        log.warning("deleted Django user %r had no Redis profile left to purge", login)


@receiver(user_logged_in)
def keep_uid_in_session(sender, request, user: User, **kwargs) -> None:
    """Django's login() keeps Django's session hash; this session belongs to the user's
    current session generation (accounts.models) instead."""
    if request is not None:
        uid = auth.remember_uid(request, user)
        auth.keep_session(request, user, services.session_generation(uid))


@receiver(services.account_closed)
def delete_their_avatar(sender, uid: int, **kwargs) -> None:
    """A closed account's avatar files go at once (the profile hash stays for the purge)."""
    profiles.remove_avatar(uid)
