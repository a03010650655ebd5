/* Every object kind, created and destroyed from many threads at once. */
#include "transparency.h"

void tp_all_kinds_workload(tp_thread_t *t)
{
    (void)t;
}
