/* Reads the host's processor count, memory, clock, cache and identity. */
#include "rd_host.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

uint64_t rd_hash(uint64_t seed, const void *bytes, uint64_t size)
{
    const unsigned char *p = bytes;
    for (uint64_t i = 0; i < size; i++) {
        seed ^= p[i];
        seed *= 0x100000001b3ull;
    }
    return seed;
}

static int read_first_line(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    int ok = fgets(buf, (int)size, f) != NULL;
    fclose(f);
    if (ok)
        buf[strcspn(buf, "\n")] = '\0';
    return ok && buf[0] != '\0';
}

/* The value of the first "key : value" line of /proc/cpuinfo with that key. */
static int read_cpuinfo(const char *key, char *value, size_t size)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return 0;
    char line[512];
    int found = 0;
    size_t key_len = strlen(key);
    while (!found && fgets(line, sizeof line, f)) {
        if (strncmp(line, key, key_len) != 0)
            continue;
        char *colon = strchr(line, ':');
        if (!colon)
            continue;
        colon++;
        while (*colon == ' ' || *colon == '\t')
            colon++;
        colon[strcspn(colon, "\n")] = '\0';
        snprintf(value, size, "%s", colon);
        found = value[0] != '\0';
    }
    fclose(f);
    return found;
}

static uint32_t read_clock_mhz(void)
{
    char buf[64];
    if (read_first_line("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", buf, sizeof buf))
        return (uint32_t)(strtoull(buf, NULL, 10) / 1000u); /* kHz */
    if (read_cpuinfo("cpu MHz", buf, sizeof buf))
        return (uint32_t)strtod(buf, NULL);
    return 0;
}

static uint64_t read_cache_bytes(void)
{
    long sizes[] = {sysconf(_SC_LEVEL3_CACHE_SIZE), sysconf(_SC_LEVEL2_CACHE_SIZE),
                    sysconf(_SC_LEVEL1_DCACHE_SIZE)};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (sizes[i] > 0)
            return (uint64_t)sizes[i];
    return 0;
}

static uint64_t read_identity(void)
{
    char id[256];
    if (read_first_line("/etc/machine-id", id, sizeof id) ||
        read_first_line("/var/lib/dbus/machine-id", id, sizeof id))
        return rd_hash(RD_HASH_SEED, id, strlen(id));
    if (gethostname(id, sizeof id) != 0)
        snprintf(id, sizeof id, "unknown host");
    id[sizeof id - 1] = '\0';
    return rd_hash(RD_HASH_SEED, id, strlen(id));
}

void rd_host_read(rd_host_t *host)
{
    memset(host, 0, sizeof *host);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    host->cores = cores > 0 ? (uint32_t)cores : 1u;
    long pages = sysconf(_SC_PHYS_PAGES);
    long page = sysconf(_SC_PAGESIZE);
    host->page_size = page > 0 ? (uint64_t)page : 4096u;
    host->memory_bytes = pages > 0 ? (uint64_t)pages * host->page_size : 0;
    host->clock_mhz = read_clock_mhz();
    host->cache_bytes = read_cache_bytes();
    host->identity = read_identity();
    if (!read_cpuinfo("model name", host->cpu_name, sizeof host->cpu_name)) {
        struct utsname u;
        snprintf(host->cpu_name, sizeof host->cpu_name, "%s",
                 uname(&u) == 0 ? u.machine : "unknown processor");
    }
}
