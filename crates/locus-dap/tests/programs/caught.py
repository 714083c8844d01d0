# Raises a KeyError at i == 2 and catches it: stops only when raised exceptions do.


def risky(n):
    if n == 2:
        raise KeyError(n)
    return n


done = []
for i in range(4):
    try:
        done.append(risky(i))
    except KeyError:
        pass
print(done)
