/*
 * wrapped.h: how many next drivers zeil wraps. The bootstrap counts each
 * driver a shim attached (entry/bootstrap.c); zeil is active when it is
 * enabled and wraps at least one (zeil_is_active, and every stage that must
 * know nothing while inactive).
 */
#ifndef ZEIL_WRAPPED_H
#define ZEIL_WRAPPED_H

/* A shim attached its next driver while zeil was enabled. */
void wrapped_driver_added(void);
unsigned wrapped_driver_count(void);
/* Enabled (ZE_ENABLE_LAYERS names zeil) and wrapping a driver. */
int wrapped_active(void);

#endif
