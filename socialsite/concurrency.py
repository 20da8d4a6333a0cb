"""Admission control for the ASGI application."""

import asyncio


def at_most(limit: int, app):
    """`app`, with at most `limit` requests inside it at once; the rest wait their turn.
    Django runs each request's sync code in a thread of its own: with 100 requests in
    flight, 100 threads fight over the GIL and asgiref's locks, and a page cost 1.5-3x
    its CPU time (the bench's home page, 100 connections: 35 req/s unlimited, 45 at
    most 4; with status cards in Jinja2, 94 unlimited, 105 at most 2, 116 at most 1)."""
    gate = asyncio.Semaphore(limit)

    async def limited(scope, receive, send):
        async with gate:
            await app(scope, receive, send)

    return limited
