"""What a status message mentions: @logins, #tags and links. One definition, used by
the services that index them and the templates that link them."""

import re
from urllib.parse import urlsplit, urlunsplit

# A mention or tag starts at the beginning or after a character that can't be
# part of a word, so "mail@example.com" mentions no one.
MENTION = re.compile(r"(?<![\w@])@([A-Za-z0-9_]{1,30})\b")
TAG = re.compile(r"(?<![\w#&])#(\w{1,100})")
LINK = re.compile(r"\bhttps?://[^\s<>\"']+[^\s<>\"'.,;:!?)\]]")


def mentions(message: str) -> list[str]:
    """Logins @mentioned in `message`, lower-cased, first occurrence order, no repeats."""
    return list(dict.fromkeys(login.lower() for login in MENTION.findall(message)))


def tags(message: str) -> list[str]:
    """#tags in `message`, lower-cased (tags are case-insensitive), no repeats."""
    return list(dict.fromkeys(tag.lower() for tag in TAG.findall(message)))


def links(message: str) -> list[str]:
    """http(s) links in `message`, first occurrence order, no repeats: scheme and host
    lower-cased and the #fragment dropped (one page, however it is written)."""
    found = []
    for link in LINK.findall(message):
        try:
            parts = urlsplit(link)
        except ValueError:
            continue
        if parts.hostname:
            found.append(
                urlunsplit(
                    (parts.scheme.lower(), parts.netloc.lower(), parts.path or "/", parts.query, "")
                )
            )
    return list(dict.fromkeys(found))
