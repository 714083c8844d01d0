"""Functions: nesting, parameters, local bindings of every kind, globals."""
import functools
import os.path as osp
# ^ <file>

counter = 0
# ^ Variable:counter


def retry(times=3):
#   ^ Function:retry
#         ^ Function:retry > Variable:times
    def decorator(func):
        #   ^ Function:retry > Function:decorator
        @functools.wraps(func)
        #^ Function:retry > Function:decorator > Function:wrapper
        def wrapper(*args, **kwargs):
            for attempt in range(times):
#               ^ Function:retry > Function:decorator > Function:wrapper > Variable:attempt
                try:
                    return func(*args, **kwargs)
                except OSError as error:
#                                 ^ Function:retry > Function:decorator > Function:wrapper > Variable:error
                    last = error
#                   ^ Function:retry > Function:decorator > Function:wrapper > Variable:last
            raise RuntimeError(times)
        return wrapper
    return decorator


@retry(times=5)
def load(path: str, /, *, encoding: str = "utf-8") -> list[str]:
# ^ Function:load
#   ^ Function:load
#        ^ Function:load > Variable:path
#                         ^ Function:load > Variable:encoding
    global counter
    counter += 1
#   ^ Function:load
    with open(osp.join(path), encoding=encoding) as handle, open(os.devnull) as (sink):
#                                                   ^ Function:load > Variable:handle
        lines = [line.rstrip() for line in handle]
#       ^ Function:load > Variable:lines
#                ^ Function:load
    first, *rest = lines or [""]
#   ^ Function:load > Variable:first
#           ^ Function:load > Variable:rest
    if (size := len(rest)) > 10:
#       ^ Function:load > Variable:size
        pass
    key = lambda item: item.lower()
#   ^ Function:load > Variable:key
#                      ^ Function:load
    return sorted(lines, key=key)


def classify(event):
    match event:
        case {"type": "click", "pos": (x, y)}:
#                                      ^ Function:classify > Variable:x
            return x, y
        case Point(x=px) as point:
#                    ^ Function:classify > Variable:px
#                               ^ Function:classify > Variable:point
            return point
        case [first, *others]:
#                      ^ Function:classify > Variable:others
            return others
        case _:
            return None
    return None
#   ^ Function:classify


type Pair[T] = tuple[T, T]
# ^ <file>
#    ^ Variable:Pair

if __name__ == "__main__":
    result = load("data.txt")
#   ^ Variable:result
    print(result)
#   ^ <file>
