"""What pyright reports for TYPE_CHECKING branches, __slots__ and self outside methods."""
import sys
from typing import TYPE_CHECKING

if sys.version_info >= (3, 11) and TYPE_CHECKING:
    def helper(x: int) -> int:
        return x
#              ^ Function:helper
else:
    def helper(x):
        return x
#              ^ <file>

if FLAG and TYPE_CHECKING:
    Alias = int
#   ^ Variable:Alias
else:
    Alias = str
#   ^ <file>


class Point:
    __slots__ = ("x", "y", "_cache")
#                 ^ Class:Point
#                      ^ Class:Point > Variable:y
#                           ^ Class:Point > Variable:_cache

    def __init__(self, x: int) -> None:
        self.x: int = x
#            ^ Class:Point > Method:__init__ > Variable:x
        self.y = 0
#            ^ Class:Point > Method:__init__
        self._cache = None
#            ^ Class:Point > Method:__init__


class Calendar:
    def __init__(self, firstweekday=0):
        self.firstweekday = firstweekday
#            ^ Class:Calendar > Method:__init__

    firstweekday = property(lambda self: 0)
#   ^ Class:Calendar > Variable:firstweekday


class Stamp:
    __slots__ = {"_mu": "the mean"}
#                  ^ Class:Stamp > Variable:_mu

    def __new__(cls, mu):
        self = object.__new__(cls)
        self._mu = mu
#            ^ Class:Stamp > Method:__new__
        if mu:
            self._sigma = mu
#                ^ Class:Stamp > Method:__new__
        return self


# A try's else is bound before its except clauses.
try:
    import ssl
except ImportError:
    _have_ssl = False
#   ^ <file>
    def wrap(sock):
        return sock
#              ^ Function:wrap
else:
    _have_ssl = True
#   ^ Variable:_have_ssl
    def wrap(sock):
        return ssl.wrap(sock)
#              ^ <file>


# An import is the first declaration of its names, whatever the `if` that holds it: the `else`
# fallback is not a symbol (pyright; six.py, redis-py).
if PY34:
    from importlib.util import spec_from_loader
else:
    spec_from_loader = None
#   ^ <file>

# Names pyright predefines in a module are hidden there when assigned, not in a class.
__path__ = []
# ^ <file>
__package__ = __name__
# ^ <file>


class Package:
    __path__ = []
#     ^ Class:Package > Variable:__path__
