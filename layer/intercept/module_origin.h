/* module_origin.h: the library on the call stack that created a module. */
#ifndef ZEIL_MODULE_ORIGIN_H
#define ZEIL_MODULE_ORIGIN_H

/* An interned path, e.g. "/usr/lib/x86_64-linux-gnu/libdnnl.so.2", or
 * "unknown". */
const char *module_origin_of_caller(void);

#endif
