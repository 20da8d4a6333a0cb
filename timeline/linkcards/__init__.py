"""Link preview cards: the first link of a status unfolded into a card (title,
description, image, site name) from the page's OpenGraph, Twitter-card and oEmbed tags,
fetched by the worker through socialsite.fetch, kept per URL for a while, and stored on
the status's own hash so every page and the client API read it for nothing."""
