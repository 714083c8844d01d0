"""Classes: methods, parameters, members set through self, constants, decorators."""
from dataclasses import dataclass
# ^ <file>
from typing import ClassVar, Final

MAX_RETRIES = 3
# ^ Constant:MAX_RETRIES
DEFAULT_TIMEOUT: Final = 2.5
# ^ Constant:DEFAULT_TIMEOUT
registry: dict[str, "Account"] = {}
# ^ Variable:registry


class Account:
    """A bank account."""
#      ^ Class:Account

    kind: ClassVar[str] = "checking"
#   ^ Class:Account > Variable:kind
    LIMIT = 1000
#   ^ Class:Account > Constant:LIMIT

    def __init__(self, owner: str, balance: float = 0.0, *tags: str, **extra):
#       ^ Class:Account > Method:__init__
#                ^ Class:Account > Method:__init__
#                      ^ Class:Account > Method:__init__ > Variable:owner
#                                     ^ Class:Account > Method:__init__ > Variable:balance
#                                                  ^ Class:Account > Method:__init__ > Variable:balance
#                                                        ^ Class:Account > Method:__init__ > Variable:tags
#                                                                     ^ Class:Account > Method:__init__ > Variable:extra
        self.owner = owner
#            ^ Class:Account > Method:__init__ > Variable:owner
#                    ^ Class:Account > Method:__init__
        self._balance = balance
#             ^ Class:Account > Method:__init__ > Variable:_balance
        self.history: list[float] = []
#            ^ Class:Account > Method:__init__ > Variable:history
        self.ID_PREFIX = "acct"
#            ^ Class:Account > Method:__init__ > Constant:ID_PREFIX
        count = len(tags)
#       ^ Class:Account > Method:__init__ > Variable:count
        self.owner = owner.strip()
#       ^ Class:Account > Method:__init__

    @property
    def balance(self) -> float:
        # pyright keeps the last definition (the setter), so the getter is not a symbol.
        return self._balance
#              ^ Class:Account

    @balance.setter
    #^ Class:Account > Method:balance
    def balance(self, value: float) -> None:
#                     ^ Class:Account > Method:balance > Variable:value
        self._balance = value
#                       ^ Class:Account > Method:balance

    @classmethod
    def open(cls, owner: str) -> "Account":
#                ^ Class:Account > Method:open
        account = cls(owner)
#       ^ Class:Account > Method:open > Variable:account
        return account

    async def deposit(self, amount: float) -> None:
#   ^ Class:Account > Method:deposit
        def record(entry):
            #   ^ Class:Account > Method:deposit > Function:record
            #          ^ Class:Account > Method:deposit > Function:record > Variable:entry
            self.history.append(entry)
#                   ^ Class:Account > Method:deposit > Function:record
        record(amount)
#       ^ Class:Account > Method:deposit

    class Meta:
        ordering = ("owner",)
#       ^ Class:Account > Class:Meta > Variable:ordering


@dataclass(frozen=True)
# ^ Class:Point
class Point:
    x: int
#   ^ Class:Point > Variable:x
    y: int = 0
#   ^ Class:Point > Variable:y

    def norm(self) -> float:
        return (self.x ** 2 + self.y ** 2) ** 0.5
#       ^ Class:Point > Method:norm
