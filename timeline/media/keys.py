"""Redis keys of media attachments. Every key of an attachment is in its uploader's slot
(`{uid}`): an upload stores its record, its place in the uploader's index and the bytes
it adds to their quota in one MULTI, and attaching a post's media is one script."""

MEDIA_ID_COUNTER = "media:next_id"


def attachment_key(uid: int | str, media_id: int | str) -> str:
    """The hash of attachment `media_id`, uploaded by `uid` (fields: media.layout)."""
    return f"media:{{{uid}}}:{media_id}"


def user_media_key(uid: int | str) -> str:
    """Sorted set: every attachment `uid` uploaded and still has, id -> upload time (Unix
    seconds): what their account's closing deletes and the repair walks."""
    return f"media_of:{{{uid}}}"


def media_bytes_key(uid: int | str) -> str:
    """The bytes of files `uid`'s attachments keep in storage (their quota's use)."""
    return f"media_bytes:{{{uid}}}"


USER_MEDIA_PATTERN = user_media_key("*")


def uid_in_user_media_key(key: str) -> int:
    """The uid in a key made by `user_media_key`."""
    return int(key.removeprefix("media_of:{").removesuffix("}"))
