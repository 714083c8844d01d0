import enum
from dataclasses import dataclass, field
from typing import (
    Callable,
    Generic,
    NamedTuple,
    Protocol,
    TypeAlias,
    TypedDict,
    TypeVar,
    overload,
)

T = TypeVar("T")
UserId = int
Handler: TypeAlias = Callable[[str], None]
type Pair[K, V] = tuple[K, V]


class Color(enum.Enum):
    RED = 1
    GREEN = enum.auto()
    blue = 3


class Point(NamedTuple):
    x: float
    y: float = 0.0


class Movie(TypedDict, total=False):
    title: str
    year: int


class SupportsClose(Protocol):
    def close(self) -> None: ...


@dataclass(frozen=True)
class Config:
    host: str = "localhost"
    port: int = 8080
    tags: list[str] = field(default_factory=list)


class Box(Generic[T]):
    def __init__(self, item: T) -> None:
        self.item = item

    def get(self) -> T:
        return self.item


class Stack[E]:
    def push[S](self, item: E, extra: S) -> S:
        return extra


@overload
def parse(value: str) -> int: ...
@overload
def parse(value: bytes) -> str: ...
def parse(value):
    return value


def handle(command: object) -> str:
    match command:
        case Point(x=0, y=py):
            return f"y={py}"
        case {"action": action, **others}:
            return action
        case [first, *remaining]:
            return str(first)
        case str() as text:
            return text
        case _:
            return "unknown"


async def gather_all(*tasks):
    results = []
    try:
        import asyncio
    except ImportError as missing:
        raise missing
    for coro in asyncio.as_completed(tasks):
        results.append(await coro)
    return results


try:
    import ujson as json
except ImportError:
    import json

if json:
    CONDITIONAL = True
else:
    CONDITIONAL = False
