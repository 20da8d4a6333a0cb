from django.contrib.auth.models import User
from django.contrib.auth.signals import user_logged_in
from django.db.models.signals import post_save
from django.dispatch import receiver

from . import auth, services


@receiver(post_save, sender=User)
def give_every_user_a_profile(sender, instance: User, created: bool, **kwargs) -> None:
    """createsuperuser and the admin make users too; each needs its Redis profile.

    Raising here rolls back the user's insert, so no half-made user remains."""
    if created:
        services.ensure_profile(instance)


@receiver(user_logged_in)
def keep_uid_in_session(sender, request, user: User, **kwargs) -> None:
    if request is not None:
        auth.remember_uid(request, user)
