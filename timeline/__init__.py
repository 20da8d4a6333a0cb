"""Statuses, timelines, the follow graph and fan-out, and the site's pages: one room (a
subpackage) per domain. The rooms' order, bottom first; a room imports only rooms of the
layers below its own (socialsite/tests/test_layout.py, ROOMS, holds it):

    push
    follow_sets, media
    statuses
    audience, discovery, linkcards
    quotes
    feeds
    conversations, direct, lists, notifications, ranking
    keeps
    graph, groups, polls
    safety, search
    posting
    reactions, reports, edits
    explore
    moderation, ops
    export, data_migrations
    management, templatetags

timeline's own modules (keys, web, forms, ...) are shared by the rooms."""
