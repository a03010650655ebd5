/*
 * rd_kcache.h: the disk cache of compiled modules. An entry is the module's
 * shared object, named by the SHA-256 of everything the build read (input,
 * format, flags, constants, the tools and libraries), with a header holding
 * its size and checksum: a damaged entry reads as a miss and is rebuilt.
 *
 * Where: ZEIL_CPU_KERNEL_CACHE (a directory; "0" or "off" disables the
 * cache), else $XDG_CACHE_HOME/zeil, else ~/.cache/zeil. Entries are written
 * to a temporary file and renamed, so concurrent processes filling the
 * cache see whole entries or none.
 */
#ifndef ZEIL_RD_KCACHE_H
#define ZEIL_RD_KCACHE_H

#include <stddef.h>

/* The cache directory into dir; 0 when the cache is disabled. */
int rd_kcache_dir(char *dir, size_t size);
/* The entry of that key (64 hex digits): malloc'ed bytes, or null. */
unsigned char *rd_kcache_get(const char *dir, const char *key, size_t *size);
/* Stores an entry (best effort: a failure only costs a rebuild later). */
void rd_kcache_put(const char *dir, const char *key, const unsigned char *bytes, size_t size);

#endif
