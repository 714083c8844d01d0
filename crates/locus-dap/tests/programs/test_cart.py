def total(items):
    acc = 0
    for item in items:
        acc += item
    return acc


def test_total():
    result = total([3, 4, 5])
    assert result == 12


class TestCart:
    def test_empty(self):
        assert total([]) == 0

    def test_wrong(self):
        result = total([1])
        assert result == 2
