/*
 * env.h: everything the interop library reads from the environment, in one
 * place (env.c). The layer's settings are the layer's (layer/common/env.c): the
 * interop library learns them through zeil.h only.
 */
#ifndef ZEIL_INTEROP_ENV_H
#define ZEIL_INTEROP_ENV_H

/* Which backend the environment asks for: ZEIL_INTEROP_BACKEND=host|forward
 * (anything else, or unset: chosen per device). */
typedef enum backend_request {
    BACKEND_AUTO,
    BACKEND_HOST_ONLY,
    BACKEND_FORWARD_ONLY
} backend_request_t;
backend_request_t env_backend_request(void);

/* ZEIL_INTEROP_EVENT_RING: the executes a stream's event ring serves before
 * it reuses a slot (tests under sanitizers shorten it); default fallback
 * when unset or not a number in [16, 16384]. */
unsigned env_event_ring_size(unsigned fallback);

#endif
