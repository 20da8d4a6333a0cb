from socialsite.kept import keep


def test_a_full_dict_is_emptied_before_the_next_entry():
    kept = {}
    keep(kept, "a", 1, 2)
    keep(kept, "b", 2, 2)
    assert kept == {"a": 1, "b": 2}
    keep(kept, "c", 3, 2)
    assert kept == {"c": 3}


def test_nothing_is_kept_when_the_most_is_zero():
    kept = {"old": 0}
    keep(kept, "a", 1, 0)
    assert kept == {}
