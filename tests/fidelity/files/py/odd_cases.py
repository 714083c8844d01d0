"""Odd cases for document symbols."""
from __future__ import annotations

import os
import sys as system
from collections import defaultdict
from typing import Final

MAX_RETRIES = 3
DEFAULT_TIMEOUT: Final = 30.0
timeout_seconds: Final[int] = 10
_private_cache = {}
debug = False
debug = os.environ.get("DEBUG") == "1"
first, second = 1, 2
(left, right), *rest = (1, 2), 3, 4
counter: int
counter = 0


def retry(times: int):
    def decorator(func):
        def wrapper(*args, **kwargs):
            last_error = None
            for attempt in range(times):
                try:
                    return func(*args, **kwargs)
                except Exception as exc:
                    last_error = exc
            raise RuntimeError(attempt) from last_error

        return wrapper

    return decorator


@retry(times=MAX_RETRIES)
@staticmethod
def fetch(url: str, /, timeout: float = DEFAULT_TIMEOUT, *, verify=True) -> bytes:
    global counter
    counter += 1
    with open(url, "rb") as handle, open(os.devnull) as sink:
        data = handle.read()
    squares = [n * n for n in range(10)]
    lookup = {key: value for key, value in zip("ab", "cd")}
    transform = lambda item: item.upper()
    if (size := len(data)) > 100:
        print(size)
    return data


class Outer:
    """A class with nested definitions."""

    CLASS_CONSTANT = "x"
    shared: list[str] = []

    class Inner:
        inner_attr = 1

        def method(self):
            def helper():
                return self.inner_attr

            return helper()

    def __init__(self, name: str, *parts: str) -> None:
        self.name = name
        self._parts = list(parts)
        self.name = name.strip()
        local_only = len(parts)
        self.count: int = local_only

    @property
    def label(self) -> str:
        return self.name

    @label.setter
    def label(self, value: str) -> None:
        self.name = value

    @classmethod
    def create(cls) -> "Outer":
        return cls("default")

    async def load(self):
        async with self.lock() as guard:
            async for chunk in self.stream():
                yield chunk

    def make_counter(self):
        total = 0

        def increment():
            nonlocal total
            total += 1
            return total

        return increment


def process(items):
    for index, (key, value) in enumerate(items):
        print(index, key, value)
    while True:
        break
    else:
        pass
    result = defaultdict(list)
    del result
    return system.version


if __name__ == "__main__":
    main_result = process([])
    for arg in system.argv:
        print(arg)
