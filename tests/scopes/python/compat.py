"""What pyright leaves out: unreachable code, static conditions, imports, hidden names."""
import sys
from typing import TYPE_CHECKING

try:
    import ujson as json
except ImportError:
    json = None
#   ^ <file>

if TYPE_CHECKING:
    Number = int | float
#   ^ Variable:Number
else:
    Number = object
#   ^ <file>

if sys.version_info >= (3, 11):
    import tomllib
    reader = tomllib.loads
#   ^ Variable:reader
else:
    reader = None
#   ^ <file>

__all__ = ["Slotted", "parse"]
# ^ Variable:__all__
__doc__ = "compatibility helpers"
# ^ <file>
_ = sys.argv
# ^ <file>


class Slotted:
    __slots__ = ("name", "value")
#                 ^ Class:Slotted > Variable:name
#                         ^ Class:Slotted > Variable:value

    def __init__(self, name, value):
        self.name = name
#            ^ Class:Slotted > Method:__init__
        self.value = value


def parse(text):
    if not text:
        return None
        unreachable = 1
#       ^ Function:parse
    cls = type(text)
#   ^ Function:parse > Variable:cls
    return cls(text)


def clone(cls, data):
    cls = cls.copy()
#   ^ Function:clone
    return cls(data)
