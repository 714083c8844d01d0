# Crashes on its third item with an uncaught ValueError raised in parse (line 5).


def parse(text):
    value = int(text)
    return value * 2


def main():
    items = ["1", "2", "x"]
    total = 0
    for item in items:
        total += parse(item)
    print(total)


main()
