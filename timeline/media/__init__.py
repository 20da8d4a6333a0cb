"""Media attachments: pictures, animated GIFs and short videos uploaded first and
attached to a status (or a reply, or a direct message) when it is posted, as Mastodon's
clients expect. The record (`records.py`), its keys (`keys.py`) and hash layout
(`layout.py`), the checks and redrawing of an upload (`pipeline.py`, `video.py`), the
upload, attach, edit and deletion (`services.py`), the reads a page or the client API
makes (`selectors.py`) and the worker's jobs (`jobs.py`)."""
