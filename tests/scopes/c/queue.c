#include <stdlib.h>
#include <string.h>

#define QUEUE_CAPACITY 64
#define MIN(a, b) ((a) < (b) ? (a) : (b))
//                 ^ Function:MIN

typedef enum {
    QUEUE_OK,
    QUEUE_FULL,
//  ^ Enum:queue_status > EnumMember:QUEUE_FULL
} queue_status;

struct node {
    int value;
    struct node *next;
//               ^ Struct:node > Field:next
};

typedef struct {
    struct node *head, *tail;
//                      ^ Struct:queue > Field:tail
    size_t length;
    void (*on_push)(int value);
//         ^ Struct:queue > Field:on_push
} queue;

union number {
    int as_int;
    float as_float;
//        ^ Class:number > Field:as_float
};

typedef unsigned long queue_size_t;

static int push_count = 0;
const char *queue_name = "default";
//                        ^ Variable:queue_name

int queue_push(queue *q, int value);

int queue_push(queue *q, int value)
{
    struct node *n = malloc(sizeof *n);
//                   ^ Function:queue_push
    if (n == NULL)
        return QUEUE_FULL;
    n->value = value;
//             ^ Function:queue_push
    n->next = NULL;
    push_count++;
    return QUEUE_OK;
}

static char *queue_describe(const queue *q)
{
    static char buffer[QUEUE_CAPACITY];
    size_t shown = MIN(q->length, 10);
//                 ^ Function:queue_describe
    memset(buffer, 0, sizeof buffer);
    return buffer + shown;
}
