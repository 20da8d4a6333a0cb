"""Explore: trending statuses, links and #tags, as a viewer may see them."""
