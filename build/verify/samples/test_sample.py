def test_add():
    assert 1 + 2 == 3

def test_upper():
    assert "a".upper() == "A"
