import sys


def total(items):
    acc = 0
    for i, item in enumerate(items):
        acc += item
        print(f"iter {i} acc={acc}")
    return acc


def main():
    values = [3, 4, 5]
    result = total(values)
    sys.stderr.write("done\n")
    sys.exit(result % 7)


main()
