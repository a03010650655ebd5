/* call_counter.c: the process-wide call counter and, in its top bit, the
 * USM index's lock (call_counter.h). */
#include "call_counter.h"

call_counter_t calls_counter;
