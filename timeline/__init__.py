"""Statuses, timelines, the follow graph and fan-out, and the site's pages: one room (a
subpackage) per domain. The rooms' order, bottom first; a room imports only rooms of the
layers below its own (socialsite/tests/test_layout.py, ROOMS, holds it):

    follow_sets
    statuses
    audience, discovery
    feeds
    conversations, direct, lists, notifications, ranking
    keeps
    graph, groups
    safety, search
    posting
    reactions, reports
    explore
    moderation, ops
    export, data_migrations
    management, templatetags

timeline's own modules (keys, web, forms, ...) are shared by the rooms."""
