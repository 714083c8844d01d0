#include <unistd.h>

/* Runs for a minute, ticking ten times a second: a program to attach to. */
int main(void) {
    volatile int ticks = 0;
    for (int i = 0; i < 600; i++) {
        ticks += 1;
        usleep(100000);
    }
    return 0;
}
