import contextvars

from django.core.cache import caches

from socialsite.redis import get_redis, shared_cache


def test_the_cache_and_the_data_client_keep_their_own_options_on_one_server():
    data = get_redis()  # connects first, with decode_responses
    caches["default"].set("pickled", {"a": 1})
    data.set("plain", "text")
    assert caches["default"].get("pickled") == {"a": 1}
    assert data.get("plain") == "text"


def test_a_cache_made_again_for_a_new_request_shares_the_process_client():
    # Django makes cache objects per context: under ASGI, per request.
    first, again = caches.create_connection("data"), caches.create_connection("data")
    assert first is not again
    assert first.client is again.client
    assert first.client.get_client() is again.client.get_client()
    assert caches.create_connection("default").client is not first.client


def test_a_cache_of_other_settings_gets_a_client_of_its_own(settings):
    data = caches.create_connection("data")
    settings.CACHES = {**settings.CACHES, "data": {**settings.CACHES["data"], "KEY_PREFIX": "x"}}
    other = caches.create_connection("data")
    assert other.client is not data.client
    assert other.make_key("k") == "x:1:k"
    assert data.make_key("k") != other.make_key("k")


def test_the_shared_cache_is_one_object_in_every_context_until_the_settings_change(settings):
    first = shared_cache("data")
    # A request's context of its own (as ASGI gives each): Django's caches[] differs there.
    assert contextvars.Context().run(shared_cache, "data") is first
    assert contextvars.Context().run(lambda: caches["data"]) is not caches["data"]
    assert get_redis() is first.client.get_client()
    settings.CACHES = {**settings.CACHES, "data": {**settings.CACHES["data"], "KEY_PREFIX": "x"}}
    assert shared_cache("data") is not first
    assert shared_cache("data").make_key("k") == "x:1:k"
