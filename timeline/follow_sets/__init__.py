"""The follow graph's stored layout, below every room: each user's followers (kept in
pieces by follow time, followers.py) and whom they follow (kept in buckets by followee
past a size, following.py), their Lua scripts (lua/, each run by one function of those
two modules, its keys and arguments named) and the libraries the scripts share
(lua/lib/, which other rooms' scripts include to read or count follow sets). Nothing
outside this package knows either layout; each module has one face:

- score: `queue_score` (when a follow was made, or None), and many at once
  (following.queue_scores, followers.followers_among);
- add / remove: a follow's step in each slot (`queue_follow`, `queue_unfollow`), a
  repair's or a seed's single write (`queue_add`, `queue_remove`), a purge's
  (followers.forget);
- range: pages and cursors (`page_ids`, followers.queue_range and walk,
  following.queue_newest and queue_from);
- keys: every key a user's set is kept in (`all_keys`);
- split: a set kept in one key past its size cut into pieces or buckets (`split`,
  `split_every_big_set`), and how a set is cut (followers.piece_starts,
  following.kept_in);
- ends.py: both as one end of a pair a check walks and mends (ops.pairings).

A queued read gives back its handle (socialsite.redis.Reply) or a small typed read
(followers.RangeRead, WalkRead, WhoFollowRead; following.FollowsOfRead, NewestRead)
that its decoder takes once the batch has run: nothing is read by its place."""
