from timeline.graph.selectors import relationships
from timeline.graph.services import follow_user


def test_relationships_say_who_follows_whom_both_ways(alice, bob, make_user):
    carol = make_user("carol")
    follow_user(alice.uid, bob.uid)
    follow_user(carol.uid, alice.uid)
    assert relationships(alice.uid, [bob.uid, carol.uid, 999]) == [
        (True, False),
        (False, True),
        (False, False),
    ]
    assert relationships(alice.uid, []) == []
