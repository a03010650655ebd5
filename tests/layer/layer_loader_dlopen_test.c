/*
 * An application that opens the loader itself (dlopen, as SYCL runtimes and
 * frameworks do) and closes it again before exit, with zeil preloaded. The
 * loader's teardown unloads the shims before zeil's exit report runs (as it
 * does at exit when the loader's teardown runs first, which is the order
 * under ThreadSanitizer). The report must still come out, leaks and coverage
 * included, and the process must exit cleanly.
 *
 * The executable links neither the loader nor zeil. Run without arguments it
 * runs itself again as the child, with zeil preloaded (ZEIL_TEST_PRELOAD),
 * and checks the child's exit status and report.
 */
#include <level_zero/ze_api.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int child(void)
{
    void *loader = dlopen("libze_loader.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!loader) {
        fprintf(stderr, "cannot open the loader: %s\n", dlerror());
        return 3;
    }
    typedef ze_result_t (*init_fn)(ze_init_flags_t);
    typedef ze_result_t (*driver_get_fn)(uint32_t *, ze_driver_handle_t *);
    typedef ze_result_t (*device_get_fn)(ze_driver_handle_t, uint32_t *, ze_device_handle_t *);
    typedef ze_result_t (*context_create_fn)(ze_driver_handle_t, const ze_context_desc_t *,
                                             ze_context_handle_t *);
    typedef ze_result_t (*alloc_host_fn)(ze_context_handle_t, const ze_host_mem_alloc_desc_t *,
                                         size_t, size_t, void **);
    typedef ze_result_t (*mem_free_fn)(ze_context_handle_t, void *);
    init_fn init = (init_fn)dlsym(loader, "zeInit");
    driver_get_fn driver_get = (driver_get_fn)dlsym(loader, "zeDriverGet");
    device_get_fn device_get = (device_get_fn)dlsym(loader, "zeDeviceGet");
    context_create_fn context_create = (context_create_fn)dlsym(loader, "zeContextCreate");
    alloc_host_fn alloc_host = (alloc_host_fn)dlsym(loader, "zeMemAllocHost");
    mem_free_fn mem_free = (mem_free_fn)dlsym(loader, "zeMemFree");
    if (!init || !driver_get || !device_get || !context_create || !alloc_host || !mem_free)
        return 3;
    uint32_t n = 1;
    ze_driver_handle_t driver;
    ze_device_handle_t device;
    ze_context_handle_t context;
    ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    if (init(0) || driver_get(&n, &driver) || device_get(driver, &n, &device) ||
        context_create(driver, &desc, &context))
        return 4;
    ze_host_mem_alloc_desc_t host = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, NULL, 0};
    void *p = NULL;
    if (alloc_host(context, &host, 4096, 0, &p) || mem_free(context, p) ||
        alloc_host(context, &host, 512, 0, &p))
        return 5;
    /* Close the loader, as a plugin that is unloaded does: its teardown
     * unloads the shims and the drivers. Then exit with one allocation and
     * the context alive, which the report lists. */
    dlclose(loader);
    return 0;
}

static int file_has(const char *path, const char *needle)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[4096];
    int found = 0;
    while (!found && fgets(line, sizeof line, f))
        found = strstr(line, needle) != NULL;
    fclose(f);
    return found;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "child") == 0)
        return child();
    const char *preload = getenv("ZEIL_TEST_PRELOAD");
    const char *dir = getenv("ZEIL_TEST_OUTPUT_DIR");
    if (!preload || !dir) {
        fprintf(stderr, "ZEIL_TEST_PRELOAD and ZEIL_TEST_OUTPUT_DIR must be set\n");
        return 2;
    }
    char report[4096], log[4096];
    snprintf(report, sizeof report, "%s/loader_dlopen_report.txt", dir);
    snprintf(log, sizeof log, "%s/loader_dlopen.log", dir);
    unlink(report);
    unlink(log);
    pid_t pid = fork();
    if (pid == 0) {
        setenv("LD_PRELOAD", preload, 1);
        setenv("ZE_ENABLE_LAYERS", "zeil", 1);
        setenv("ZEIL_LOG", "info", 1); /* also lists the unchecked entries at exit */
        setenv("ZEIL_LOG_FILE", log, 1);
        setenv("ZEIL_REPORT", report, 1);
        execl("/proc/self/exe", argv[0], "child", (char *)NULL);
        _exit(127);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid) {
        perror("fork");
        return 1;
    }
    int failed = 0;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "FAIL: the application did not exit cleanly (status 0x%x%s)\n", status,
                WIFSIGNALED(status) ? ", killed by a signal" : "");
        failed = 1;
    }
    if (!file_has(report, "coverage: the loader asked for API")) {
        fprintf(stderr, "FAIL: %s has no coverage line\n", report);
        failed = 1;
    }
    if (!file_has(report, "leaks: 1 context; 1 USM allocation (512 bytes)")) {
        fprintf(stderr, "FAIL: %s does not list the leaked allocation\n", report);
        failed = 1;
    }
    if (file_has(log, "[ZEIL-E")) {
        fprintf(stderr, "FAIL: zeil reported a finding on a correct program (%s)\n", log);
        failed = 1;
    }
    if (!failed)
        printf("the application exited cleanly; the report has its leak and coverage\n");
    return failed;
}
