from django.core.cache import caches

from socialsite.redis import get_redis


def test_the_cache_and_the_data_client_keep_their_own_options_on_one_server():
    data = get_redis()  # connects first, with decode_responses
    caches["default"].set("pickled", {"a": 1})
    data.set("plain", "text")
    assert caches["default"].get("pickled") == {"a": 1}
    assert data.get("plain") == "text"
