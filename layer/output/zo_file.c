/* zo_file.c: secure output files (see zo_file.h). */
#include "zo_file.h"
#include "zo_buf.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

void zo_warn(const char *a, const char *b, const char *c)
{
    char line[1024];
    zo_buf_t buf;
    zo_buf_init(&buf, line, sizeof line - 1);
    zo_buf_str(&buf, "zeil: warning: ");
    zo_buf_safe_text(&buf, a);
    if (b)
        zo_buf_safe_text(&buf, b);
    if (c)
        zo_buf_safe_text(&buf, c);
    line[buf.len++] = '\n';
    zo_write_all(STDERR_FILENO, line, buf.len);
}

/* strerror is neither thread- nor signal-safe; these are the failures an
 * output path meets in practice. */
static const char *open_failure(int err)
{
    switch (err) {
    case ELOOP:
        return "it is a symbolic link (refused)";
    case EACCES:
        return "permission denied";
    case EPERM:
        return "operation not permitted";
    case ENOENT:
        return "its directory does not exist";
    case ENOTDIR:
        return "a component of the path is not a directory";
    case EISDIR:
        return "it is a directory";
    case EROFS:
        return "read-only file system";
    case ENOSPC:
        return "no space left on device";
    case ENAMETOOLONG:
        return "the path is too long";
    default:
        return "it cannot be opened";
    }
}

int zo_open_output(const char *path, zo_open_mode_t mode, const char *what)
{
    int flags = O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC;
    flags |= mode == ZO_OPEN_APPEND ? O_APPEND : O_TRUNC;
    int fd;
    do {
        fd = open(path, flags, 0600);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) {
        char why[160];
        zo_buf_t b;
        zo_buf_init(&b, why, sizeof why - 1);
        zo_buf_str(&b, ": ");
        zo_buf_str(&b, open_failure(errno));
        zo_buf_str(&b, "; carrying on without it");
        why[b.len] = 0;
        char head[96];
        zo_buf_init(&b, head, sizeof head - 1);
        zo_buf_safe_text(&b, what);
        zo_buf_str(&b, " file ");
        head[b.len] = 0;
        char line[512];
        zo_buf_init(&b, line, sizeof line - 1);
        zo_buf_safe_text(&b, path);
        line[b.len] = 0;
        zo_warn(head, line, why);
    }
    return fd;
}

int zo_write_all(int fd, const char *data, size_t len)
{
    while (len) {
        ssize_t n = write(fd, data, len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        data += n;
        len -= (size_t)n;
    }
    return 0;
}
