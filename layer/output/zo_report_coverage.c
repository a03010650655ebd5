/*
 * The report's and the summary's word on what zeil covers of the API version
 * the loader asked for (zeil_get_coverage): written with zo_buf alone, so
 * the out-of-memory forms of both can carry it too.
 */
#include "zo_report_coverage.h"

/* text, then the API version v as major.minor. */
static void version(zo_buf_t *b, const char *text, uint32_t v)
{
    zo_buf_str_u64(b, text, ZE_MAJOR_VERSION(v));
    zo_buf_str_u64(b, ".", ZE_MINOR_VERSION(v));
}

void zo_coverage_line(zo_buf_t *b, const zeil_coverage_t *c)
{
    if (!c->requested_version)
        return; /* no driver wrapped: nothing was asked */
    version(b, "\ncoverage: the loader asked for API ", c->requested_version);
    if (c->driver_version)
        version(b, ", the driver reports ", c->driver_version);
    zo_buf_str_u64(b, "; zeil intercepts ", c->intercepted);
    zo_buf_str(b, " of that version's entries and ");
    if (c->unchecked) {
        zo_buf_str_u64(b, "passes ", c->unchecked);
        zo_buf_str(b, c->unchecked == 1 ? " entry" : " entries");
        version(b, " newer than API ", c->headers_version);
        zo_buf_str(b, " through unchecked (ZEIL_LOG=info lists them)");
    } else {
        zo_buf_str(b, "checks everything it intercepts of that version");
    }
    if (c->requested_version > c->known_version) {
        version(b, "; entries after API ", c->known_version);
        zo_buf_str(b, " are unknown to zeil and pass through unchecked");
    }
    zo_buf_str(b, "\n");
}

void zo_coverage_json(zo_buf_t *b, const zeil_coverage_t *c)
{
    version(b, "  \"coverage\": {\"requested_version\": \"", c->requested_version);
    version(b, "\", \"driver_version\": \"", c->driver_version);
    version(b, "\", \"headers_version\": \"", c->headers_version);
    version(b, "\", \"known_version\": \"", c->known_version);
    zo_buf_str_u64(b, "\", \"intercepted\": ", c->intercepted);
    zo_buf_str_u64(b, ", \"unchecked\": ", c->unchecked);
    zo_buf_str(b, "},\n");
}
