import sys


class Cart:
    def __init__(self, items):
        self.items = items

    def total(self):
        acc = 0
        for i, item in enumerate(self.items):
            acc += item
            print(f"iter {i} acc={acc}")
        return acc


def main():
    cart = Cart([3, 4, 5])
    result = cart.total()
    sys.stderr.write("done\n")
    sys.exit(result % 7)


main()
