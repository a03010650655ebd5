/*
 * zo_flusher.h: the background thread that writes buffered output.
 *
 * Every ZO_FLUSH_INTERVAL_MS (or sooner when a thread's ring is half full) it
 * drains the trace rings to the file; every ZO_SNAPSHOT_INTERVAL_MS it calls
 * the snapshot hook (the end-of-run report and summary are preformatted there
 * so a fatal-signal handler can write them without allocating).
 */
#ifndef ZO_FLUSHER_H
#define ZO_FLUSHER_H

#define ZO_FLUSH_INTERVAL_MS 100
#define ZO_SNAPSHOT_INTERVAL_MS 1000

typedef void (*zo_flusher_hook)(void);

/* Starts the thread (all signals blocked in it). Returns 0, or -1. */
int zo_flusher_start(zo_flusher_hook drain, zo_flusher_hook snapshot);
/* Wakes it early; async-signal-safe and cheap (sem_post). */
void zo_flusher_wake(void);
/* Stops and joins it; returns when its last cycle has ended. */
void zo_flusher_stop(void);
/* After fork in the child: the thread does not exist there. */
void zo_flusher_forget(void);

#endif
