#include <stdio.h>

static int total(const int *items, int n) {
    int acc = 0;
    for (int i = 0; i < n; i++) {
        acc += items[i];
        printf("iter %d acc=%d\n", i, acc);
    }
    return acc;
}

int main(void) {
    int values[] = {3, 4, 5};
    int result = total(values, 3);
    fprintf(stderr, "done\n");
    return result % 7;
}
