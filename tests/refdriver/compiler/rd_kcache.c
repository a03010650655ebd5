/* The disk cache of compiled modules (rd_kcache.h). */
#include "rd_kcache.h"
#include "rd_sha256.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ENTRY_MAGIC "ZEILKC01"

typedef struct entry_header {
    char magic[8];
    uint64_t size;
    unsigned char sha[32];
} entry_header_t;

int rd_kcache_dir(char *dir, size_t size)
{
    const char *env = getenv("ZEIL_CPU_KERNEL_CACHE");
    if (env && (strcmp(env, "0") == 0 || strcmp(env, "off") == 0))
        return 0;
    int n;
    if (env && *env)
        n = snprintf(dir, size, "%s", env);
    else if (getenv("XDG_CACHE_HOME") && *getenv("XDG_CACHE_HOME"))
        n = snprintf(dir, size, "%s/zeil", getenv("XDG_CACHE_HOME"));
    else if (getenv("HOME") && *getenv("HOME"))
        n = snprintf(dir, size, "%s/.cache/zeil", getenv("HOME"));
    else
        return 0;
    return n > 0 && (size_t)n < size;
}

/* mkdir -p */
static int make_dirs(const char *dir)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path)
        return 0;
    for (char *p = path + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(path, 0700) != 0 && errno != EEXIST)
                return 0;
            *p = '/';
        }
    return mkdir(path, 0700) == 0 || errno == EEXIST;
}

static void checksum(const unsigned char *bytes, size_t size, unsigned char sha[32])
{
    rd_sha256_t s;
    rd_sha256_init(&s);
    rd_sha256_add(&s, bytes, size);
    rd_sha256_end(&s, sha);
}

unsigned char *rd_kcache_get(const char *dir, const char *key, size_t *size)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s.so", dir, key);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    entry_header_t h;
    struct stat st;
    unsigned char *bytes = NULL;
    if (fstat(fd, &st) != 0 || read(fd, &h, sizeof h) != (ssize_t)sizeof h ||
        memcmp(h.magic, ENTRY_MAGIC, 8) != 0 || h.size != (uint64_t)st.st_size - sizeof h ||
        h.size == 0)
        goto out;
    bytes = malloc(h.size);
    if (!bytes || read(fd, bytes, h.size) != (ssize_t)h.size)
        goto bad;
    unsigned char sha[32];
    checksum(bytes, h.size, sha);
    if (memcmp(sha, h.sha, 32) != 0)
        goto bad;
    *size = h.size;
    goto out;
bad:
    free(bytes);
    bytes = NULL;
out:
    close(fd);
    return bytes;
}

void rd_kcache_put(const char *dir, const char *key, const unsigned char *bytes, size_t size)
{
    if (!make_dirs(dir))
        return;
    char tmp[4200], path[4200];
    snprintf(path, sizeof path, "%s/%s.so", dir, key);
    snprintf(tmp, sizeof tmp, "%s/.%s.%ld.%lx.tmp", dir, key, (long)getpid(),
             (unsigned long)(uintptr_t)&tmp);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        return;
    entry_header_t h;
    memcpy(h.magic, ENTRY_MAGIC, 8);
    h.size = size;
    checksum(bytes, size, h.sha);
    int ok = write(fd, &h, sizeof h) == (ssize_t)sizeof h;
    for (size_t done = 0; ok && done < size;) {
        ssize_t n = write(fd, bytes + done, size - done);
        ok = n > 0;
        done += ok ? (size_t)n : 0;
    }
    ok = close(fd) == 0 && ok;
    if (!ok || rename(tmp, path) != 0)
        unlink(tmp);
}
