/*
 * zeil's shim getters at every API version from 1.0 to past the newest zeil
 * knows, called directly (no loader: Debian's asks for 1.4 only), in front
 * of the driver from the future (future_driver.c, ZEIL_DRIVERS). Each table
 * is allocated exactly as large as a loader of that version makes it, so
 * that under ASan a read or write past it fails the suite.
 *
 * For every entry of every table: an entry zeil does not intercept arrives
 * exactly as the driver wrote it (canaries included, and entries newer than
 * zeil knows); an entry zeil intercepts is replaced; a call through a canary
 * reaches that canary. Then the calls that matter through the tables:
 * zeInitDrivers registers the drivers, the DDI-handles claim is hidden, and
 * the driver handles work in every later call.
 */
#include "ddi_layout.h"
#include "future_canary.h"
#include "shim_abi.h"
#include "zl.h"

#include <zeil/zeil.h>

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#define NEWEST_MINOR_TESTED 19 /* past the newest zeil knows (1.18) */

typedef ze_result_t(ZE_APICALL *getter_fn)(ze_api_version_t, void *);
typedef void (*entry_fn)(void);

static void *open_library(const char *variable)
{
    const char *path = getenv(variable);
    ck_assert_msg(path && *path, "%s is not set", variable);
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    ck_assert_msg(lib, "dlopen %s: %s", path, dlerror());
    return lib;
}

/* Entries zeil intercepts, by layout row: -1 untyped, else the offset of
 * its zeil_intercepts_t member. */
#define ROW_T(api) offsetof(zeil_intercepts_t, api)
#define ROW_U(api) -1
#define ROW(table, member, api, version, index, kind) ROW_##kind(api),
static const ptrdiff_t intercept_offsets[ZEIL_DDI_LAYOUT_COUNT] = {ZEIL_DDI_LAYOUT(ROW)};
#undef ROW
#undef ROW_U
#undef ROW_T

static int zeil_intercepts(size_t row)
{
    if (intercept_offsets[row] < 0)
        return 0;
    entry_fn fn;
    memcpy(&fn, (const char *)zeil_shim_intercepts() + intercept_offsets[row], sizeof fn);
    return fn != NULL;
}

/* A table as large as a loader of that version makes it: the entries zeil
 * knows at that version, and, past the newest zeil knows, the entries the
 * future driver adds that zeil cannot know. */
static size_t loader_table_size(size_t table, ze_api_version_t version)
{
    size_t n = ddi_entries_at(table, version);
    if (version > ZEIL_DDI_NEWEST_VERSION)
        n += FUTURE_UNKNOWN_ENTRIES;
    return n;
}

typedef struct tally {
    size_t replaced, unchanged, canaries_called, unknown_called;
} tally_t;

static void check_table(void *shim, void *driver, future_canary_of_fn canary_of, size_t t,
                        ze_api_version_t version, tally_t *tally)
{
    const ddi_table_info_t *info = &ddi_tables[t];
    size_t n = loader_table_size(t, version);
    size_t known = ddi_entries_at(t, version);
    /* calloc(n) exactly: ASan reports any access past the version's table. */
    entry_fn *expected = calloc(n ? n : 1, n ? sizeof(entry_fn) : 1);
    entry_fn *actual = calloc(n ? n : 1, n ? sizeof(entry_fn) : 1);
    ck_assert(expected && actual);
    getter_fn driver_getter = (getter_fn)dlsym(driver, info->getter);
    getter_fn shim_getter = (getter_fn)dlsym(shim, info->getter);
    ck_assert_msg(shim_getter, "the shim does not export %s", info->getter);
    ck_assert_msg(driver_getter, "the future driver does not export %s", info->getter);
    ze_result_t want = driver_getter(version, expected);
    ze_result_t got = shim_getter(version, actual);
    ck_assert_msg(got == want, "%s(1.%u): shim 0x%x, driver 0x%x", info->getter,
                  ZE_MINOR_VERSION(version), (unsigned)got, (unsigned)want);
    for (size_t i = 0; got == ZE_RESULT_SUCCESS && i < n; i++) {
        const char *member = i < known ? ddi_entries[info->first + i].member : "(unknown)";
        if (i < known && zeil_intercepts(info->first + i) && expected[i]) {
            ck_assert_msg(actual[i] && actual[i] != expected[i],
                          "%s.%s at 1.%u is intercepted but was not replaced", info->table, member,
                          ZE_MINOR_VERSION(version));
            tally->replaced++;
            continue;
        }
        ck_assert_msg(actual[i] == expected[i], "%s.%s at 1.%u did not arrive unchanged",
                      info->table, member, ZE_MINOR_VERSION(version));
        tally->unchanged++;
        uint32_t canary = canary_of((const void *)actual[i]);
        if (canary) {
            ze_result_t r = ((ze_result_t(*)(void))actual[i])();
            ck_assert_msg((uint32_t)r == canary, "%s.%s at 1.%u reached 0x%x, not its canary 0x%x",
                          info->table, member, ZE_MINOR_VERSION(version), (unsigned)r, canary);
            if (i < known)
                tally->canaries_called++;
            else
                tally->unknown_called++;
        }
    }
    free(expected);
    free(actual);
}

START_TEST(test_every_table_at_every_version)
{
    void *shim = open_library("ZEIL_TEST_SHIM");
    void *driver = open_library("ZEIL_TEST_FUTURE_DRIVER");
    future_canary_of_fn canary_of = (future_canary_of_fn)dlsym(driver, FUTURE_CANARY_OF);
    ck_assert_ptr_nonnull(canary_of);
    for (unsigned minor = 0; minor <= NEWEST_MINOR_TESTED; minor++) {
        ze_api_version_t version = ZE_MAKE_VERSION(1, minor);
        tally_t tally = {0};
        for (size_t t = 0; t < ZEIL_DDI_ALL_TABLE_COUNT; t++)
            check_table(shim, driver, canary_of, t, version, &tally);
        /* Every version has entries zeil intercepts (zeInit, launches, ...). */
        ck_assert_msg(tally.replaced >= 40, "1.%u: only %zu entries replaced", minor,
                      tally.replaced);
        if (version > ZEIL_INSTALLED_API_VERSION)
            ck_assert_msg(tally.canaries_called > 0, "1.%u: no canary reached", minor);
        else
            ck_assert_uint_eq(tally.canaries_called, 0);
        if (version > ZEIL_DDI_NEWEST_VERSION)
            ck_assert_uint_eq(tally.unknown_called,
                              (size_t)ZEIL_DDI_ALL_TABLE_COUNT * FUTURE_UNKNOWN_ENTRIES);
    }
}
END_TEST

/* The newer entries zeil intercepts are in a table exactly from their version. */
START_TEST(test_newer_intercepts_from_their_version)
{
    static const struct {
        const char *api;
        size_t table;
        size_t index;
        unsigned minor;
    } cases[] = {
        {"zeCommandListHostSynchronize", DDI_TABLE_ze_command_list_dditable_t,
         ZEIL_DDI_INDEX_zeCommandListHostSynchronize, 6},
        {"zeCommandListIsImmediate", DDI_TABLE_ze_command_list_dditable_t,
         ZEIL_DDI_INDEX_zeCommandListIsImmediate, 9},
        {"zeInitDrivers", DDI_TABLE_ze_global_dditable_t, ZEIL_DDI_INDEX_zeInitDrivers, 10},
        {"zeDeviceSynchronize", DDI_TABLE_ze_device_dditable_t, ZEIL_DDI_INDEX_zeDeviceSynchronize,
         14},
    };
    void *shim = open_library("ZEIL_TEST_SHIM");
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        unsigned before = cases[c].minor - 1;
        ck_assert_uint_le(ddi_entries_at(cases[c].table, ZE_MAKE_VERSION(1, before)),
                          cases[c].index);
        size_t n = ddi_entries_at(cases[c].table, ZE_MAKE_VERSION(1, cases[c].minor));
        ck_assert_uint_gt(n, cases[c].index);
        entry_fn *table = calloc(n, sizeof *table);
        getter_fn getter = (getter_fn)dlsym(shim, ddi_tables[cases[c].table].getter);
        ZT_OK(getter(ZE_MAKE_VERSION(1, cases[c].minor), table));
        Dl_info where;
        ck_assert_msg(dladdr((void *)table[cases[c].index], &where) && where.dli_fname &&
                          strstr(where.dli_fname, "libzeil_layer"),
                      "%s at 1.%u is not zeil's", cases[c].api, cases[c].minor);
        free(table);
    }
}
END_TEST

/* What a current loader does first, through the shim's tables at 1.10+:
 * zeInitDrivers, the driver's properties with the DDI-handles extension
 * chained, then the driver handle in later calls. */
START_TEST(test_init_drivers_and_ddi_handles)
{
    void *shim = open_library("ZEIL_TEST_SHIM");
    void *driver_lib = open_library("ZEIL_TEST_FUTURE_DRIVER");
    for (unsigned minor = 10; minor <= 17; minor++) {
        ze_api_version_t version = ZE_MAKE_VERSION(1, minor);
        size_t ng = ddi_entries_at(DDI_TABLE_ze_global_dditable_t, version);
        size_t nd = ddi_entries_at(DDI_TABLE_ze_driver_dditable_t, version);
        size_t nv = ddi_entries_at(DDI_TABLE_ze_device_dditable_t, version);
        zeil_full_ze_global_dditable_t *global = calloc(1, ng * sizeof(entry_fn));
        zeil_full_ze_driver_dditable_t *drv = calloc(1, nd * sizeof(entry_fn));
        zeil_full_ze_driver_dditable_t *own = calloc(1, nd * sizeof(entry_fn));
        zeil_full_ze_device_dditable_t *dev = calloc(1, nv * sizeof(entry_fn));
        ZT_OK(((getter_fn)dlsym(shim, "zeGetGlobalProcAddrTable"))(version, global));
        ZT_OK(((getter_fn)dlsym(shim, "zeGetDriverProcAddrTable"))(version, drv));
        ZT_OK(((getter_fn)dlsym(shim, "zeGetDeviceProcAddrTable"))(version, dev));
        ZT_OK(((getter_fn)dlsym(driver_lib, "zeGetDriverProcAddrTable"))(version, own));

        size_t mark = zl_log_mark();
        ze_init_driver_type_desc_t desc = {ZE_STRUCTURE_TYPE_INIT_DRIVER_TYPE_DESC, NULL,
                                           ZE_INIT_DRIVER_TYPE_FLAG_GPU};
        uint32_t count = 0;
        ZT_OK(global->pfnInitDrivers(&count, NULL, &desc));
        ck_assert_uint_eq(count, 1);
        ze_driver_handle_t driver = NULL;
        ZT_OK(global->pfnInitDrivers(&count, &driver, &desc));
        zeil_handle_info_t info;
        ck_assert_msg(zeil_lookup_handle(driver, &info) && info.kind == ZEIL_KIND_DRIVER,
                      "zeInitDrivers did not register driver %p", (void *)driver);

        /* The driver claims DDI handles; through zeil the claim is gone. */
        zeil_compat_driver_ddi_handles_ext_properties_t ddi = {
            ZEIL_COMPAT_STYPE_DRIVER_DDI_HANDLES_EXT_PROPERTIES, NULL, 0};
        ze_driver_properties_t props = {.stype = ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES,
                                        .pNext = &ddi};
        ZT_OK(own->pfnGetProperties(driver, &props));
        ck_assert_uint_eq(ddi.flags & ZEIL_COMPAT_DRIVER_DDI_HANDLE_EXT_FLAG_SUPPORTED, 1);
        ddi.flags = 0;
        ZT_OK(drv->pfnGetProperties(driver, &props));
        ck_assert_uint_eq(ddi.flags, 0);
        ze_api_version_t reported = 0;
        ZT_OK(drv->pfnGetApiVersion(driver, &reported));
        ck_assert_uint_eq(reported, version);

        /* Later calls with that driver handle meet no zeil error. */
        uint32_t devices = 0;
        ZT_OK(dev->pfnGet(driver, &devices, NULL));
        ck_assert_uint_ge(devices, 1);
        char *log = zl_log_since(mark);
        ck_assert_msg(!strstr(log, "ZEIL-E"), "zeil refused a valid call: %s", log);
        if (minor == 10)
            ck_assert_msg(strstr(log, "[ZEIL-W081] zeDriverGetProperties"),
                          "the hidden claim was not said: %s", log);
        free(log);
        zeil_coverage_t coverage;
        zeil_get_coverage(&coverage);
        ck_assert_uint_eq(coverage.requested_version, version);
        ck_assert_uint_eq(coverage.driver_version, version);
        ck_assert_uint_gt(coverage.unchecked, 0);
        free(global);
        free(drv);
        free(own);
        free(dev);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("newer_getters");
    TCase *tc = tcase_create("getters");
    tcase_add_test(tc, test_every_table_at_every_version);
    tcase_add_test(tc, test_newer_intercepts_from_their_version);
    tcase_add_test(tc, test_init_drivers_and_ddi_handles);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
