"""Who may see a status or act on a user: the one rule every page, stream, notification
and message path asks (selectors.py), below the rooms that show statuses and people."""
