"""Writes of the ranking room: the reader's remembered home order. (Their affinity is
written by the actions' own pipelines: ranking.affinity.)"""

from accounts.keys import user_key
from socialsite.redis import get_redis

from .selectors import ORDER_FIELD, ORDERS


def set_home_order(uid: int, order: str) -> None:
    """Remembers `order` ("latest" or "top") as the order of `uid`'s home page;
    ValueError for another."""
    if order not in ORDERS:
        raise ValueError(f"A home is ordered {' or '.join(ORDERS)}, not {order!r}.")
    get_redis().hset(user_key(uid), ORDER_FIELD, order)
