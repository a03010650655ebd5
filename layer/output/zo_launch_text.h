/*
 * zo_launch_text.h: the texts the trace writer keeps: one per launch
 * description and call, and one per call's name.
 *
 * A traced launch points at its description (zo_launch_shared_t: interned,
 * immutable, kept for the life of the process) and at its call's name (a
 * literal). What its spans say of both is the same for every launch of that
 * description, so the writer escapes and formats it once
 * (zo_format_launch_text) and copies the bytes into each span. The table and
 * its text live in static storage, used only by whoever holds the writer's
 * drain lock (no malloc: a fatal-signal handler may drain too). When it is
 * full, a launch's text is made in its spans as any submission's.
 *
 * An API span's call name is kept the same way: a pointer to a literal of
 * the layer (zeil_output.h), escaped once, in the same table.
 */
#ifndef ZO_LAUNCH_TEXT_H
#define ZO_LAUNCH_TEXT_H

#include "zo_trace_format.h"

/* The text of submission e (a launch's, with e->shared set), made on first
 * use; null when e has no description or the table is full. */
const zo_launch_text_t *zo_launch_text_of(const zo_entry_t *e);
/* The name as a JSON string; null when call is null or the table is full. */
const zo_text_piece_t *zo_call_text_of(const char *call);

#endif
