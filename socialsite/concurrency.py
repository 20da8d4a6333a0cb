"""Admission control for the ASGI application."""

import asyncio


def at_most(limit: int, app):
    """`app`, with at most `limit` requests inside it at once; the rest wait their turn.
    Django runs each request's sync code in a thread of its own: with 100 requests in
    flight, 100 threads fight over the GIL and asgiref's locks, and a page cost 1.5-3x
    its CPU time (the bench's home page, 100 connections: 35 req/s unlimited, 45 at
    most 4; with status cards in Jinja2, 94 unlimited, 105 at most 2, 116 at most 1).
    The default, 2, rather than 1: one slow request (a Redis timeout is 5 s) then
    doesn't hold up every other page. A request cancelled while it waits, or one
    that raises, gives its place back (`async with`)."""
    gate = asyncio.Semaphore(limit)

    async def limited(scope, receive, send):
        async with gate:
            await app(scope, receive, send)

    return limited
