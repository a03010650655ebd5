/*
 * zo_call_text.h: the names of the calls the trace writer's API spans show,
 * escaped once.
 *
 * A call's name comes as a pointer to a literal of the layer (zeil_output.h:
 * strings handed to the trace live as long as the process and do not
 * change), so the writer escapes each once and copies the JSON into every
 * span of that call. Static storage, used only by whoever holds the
 * writer's drain lock (no malloc: a fatal-signal handler may drain too);
 * when it is full, a name is escaped in its span as before.
 */
#ifndef ZO_CALL_TEXT_H
#define ZO_CALL_TEXT_H

#include "zo_trace_format.h"

/* The name as a JSON string; null when call is null or the table is full. */
const zo_text_piece_t *zo_call_text_of(const char *call);

#endif
