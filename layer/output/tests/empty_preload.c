/* empty_preload.c: a shared library with nothing in it, standing in for
 * libzeil.so in the zeil-run tests (they test the script, not the layer). */
int zo_empty_preload_marker;
