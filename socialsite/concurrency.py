"""Admission control for the ASGI application."""

import asyncio


def at_most(limit: int, app):
    """`app`, with at most `limit` requests inside it at once; the rest wait their turn.
    Django runs each request's sync code in a thread of its own: with 100 requests in
    flight, 100 threads fight over the GIL and asgiref's locks, and a page cost 1.5-3x
    its CPU time (the bench's home page, 100 connections: 35 req/s unlimited, 45 at
    most 4). Pages are CPU-bound Python; a second thread only overlaps the ~0.1 ms
    Redis waits, and costs more than that in GIL hand-offs (home page with cached
    cards and user: 164 req/s at most 2, 198 at most 1). So the default is 1, as a
    sync worker would; the price is that a slow request holds up the process's other
    pages (streams and static files don't wait: they don't come through here). Raise
    HTTP_CONCURRENCY if that matters more. A request cancelled while it waits, or one
    that raises, gives its place back (`async with`)."""
    gate = asyncio.Semaphore(limit)

    async def limited(scope, receive, send):
        async with gate:
            await app(scope, receive, send)

    return limited
