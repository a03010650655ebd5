/* export.h: marks the few symbols libzeil_interop shows (everything else is
 * hidden by zeil_private_symbols). */
#ifndef ZEIL_INTEROP_EXPORT_H
#define ZEIL_INTEROP_EXPORT_H

#define INTEROP_EXPORT __attribute__((visibility("default")))

#endif
