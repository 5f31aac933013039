def add(a: int, b: int) -> int:
    return a + b


total: int = add(1, 2)
print(total)
