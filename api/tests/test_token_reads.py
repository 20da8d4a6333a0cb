"""A token this process has seen with its user is read with that user in one round trip,
and a wrong or stale guess never lets a token act as someone else or outlive its
revocation."""

from oauth2_provider.models import AccessToken

from api import http
from api.oauth import OOB, issue_token, register_app, token_cache_key


def token_of(member, scope: str = "read") -> str:
    app, _ = register_app("tests", OOB, scope)
    return issue_token(app, member.user, scope)


def test_a_token_seen_before_is_read_with_its_user_in_one_round_trip(alice, round_trips):
    token = token_of(alice)
    http.caller_for_token(token)  # checked in the ORM, cached; its user cached
    http.KNOWN_TOKENS.clear()
    assert round_trips(lambda: http.caller_for_token(token)) == 2  # the token, then the user
    assert round_trips(lambda: http.caller_for_token(token)) == 1
    assert http.caller_for_token(token).uid == alice.uid


def test_a_token_guessed_to_be_anothers_is_read_as_its_own(alice, bob):
    token = token_of(alice)
    http.caller_for_token(token)
    key = token_cache_key(token)
    http.KNOWN_TOKENS[key] = (str(bob.user.pk), bob.uid)
    found = http.caller_for_token(token)
    assert (found.user.pk, found.uid) == (alice.user.pk, alice.uid)
    assert http.KNOWN_TOKENS[key] == (str(alice.user.pk), alice.uid)


def test_a_known_token_revoked_is_refused_and_forgotten(alice):
    token = token_of(alice)
    assert http.caller_for_token(token).uid == alice.uid
    assert token_cache_key(token) in http.KNOWN_TOKENS
    AccessToken.objects.filter(user=alice.user).delete()  # as revoking does
    assert http.caller_for_token(token) is None
    assert token_cache_key(token) not in http.KNOWN_TOKENS
