/*
 * The report's and the summary's word on what zeil covers of the API version
 * the loader asked for (zeil_get_coverage): written with zo_buf alone, so
 * the out-of-memory forms of both can carry it too.
 */
#include "zo_report_coverage.h"

static void version(zo_buf_t *b, uint32_t v)
{
    zo_buf_u64(b, ZE_MAJOR_VERSION(v));
    zo_buf_char(b, '.');
    zo_buf_u64(b, ZE_MINOR_VERSION(v));
}

void zo_coverage_line(zo_buf_t *b, const zeil_coverage_t *c)
{
    if (!c->requested_version)
        return; /* no driver wrapped: nothing was asked */
    zo_buf_str(b, "\ncoverage: the loader asked for API ");
    version(b, c->requested_version);
    if (c->driver_version) {
        zo_buf_str(b, ", the driver reports ");
        version(b, c->driver_version);
    }
    zo_buf_str(b, "; zeil intercepts ");
    zo_buf_u64(b, c->intercepted);
    zo_buf_str(b, " of that version's entries and ");
    if (c->unchecked) {
        zo_buf_str(b, "passes ");
        zo_buf_u64(b, c->unchecked);
        zo_buf_str(b, c->unchecked == 1 ? " entry" : " entries");
        zo_buf_str(b, " newer than API ");
        version(b, c->headers_version);
        zo_buf_str(b, " through unchecked (ZEIL_LOG=info lists them)");
    } else {
        zo_buf_str(b, "checks everything it intercepts of that version");
    }
    if (c->requested_version > c->known_version) {
        zo_buf_str(b, "; entries after API ");
        version(b, c->known_version);
        zo_buf_str(b, " are unknown to zeil and pass through unchecked");
    }
    zo_buf_str(b, "\n");
}

void zo_coverage_json(zo_buf_t *b, const zeil_coverage_t *c)
{
    zo_buf_str(b, "  \"coverage\": {\"requested_version\": \"");
    version(b, c->requested_version);
    zo_buf_str(b, "\", \"driver_version\": \"");
    version(b, c->driver_version);
    zo_buf_str(b, "\", \"headers_version\": \"");
    version(b, c->headers_version);
    zo_buf_str(b, "\", \"known_version\": \"");
    version(b, c->known_version);
    zo_buf_str(b, "\", \"intercepted\": ");
    zo_buf_u64(b, c->intercepted);
    zo_buf_str(b, ", \"unchecked\": ");
    zo_buf_u64(b, c->unchecked);
    zo_buf_str(b, "},\n");
}
