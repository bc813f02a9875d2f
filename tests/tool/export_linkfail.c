/*
 * export_linkfail: a preloaded library (LD_PRELOAD) whose link() fails the
 * way another process or a file system can make it fail, for the md2
 * export cases of keeping old files aside (export.cases, the
 * linkfail_* cases). Built with the tests on Linux only; not part of the md2
 * command.
 *
 *   MD2_LINK_FAIL=eexist  the first call finds its new name taken just
 *                         before it links: it creates NEW holding
 *                         "planted\n", then links (EEXIST); later calls
 *                         link as usual;
 *   MD2_LINK_FAIL=exdev   every call fails with EXDEV (no hard links
 *                         across file systems: md2 renames instead);
 *   MD2_LINK_FAIL=eio     every call fails with EIO (an error, which md2
 *                         must report rather than rename).
 * Without the variable link() links.
 *
 * SPDX-License-Identifier: MIT
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int calls;

int link(const char *from, const char *to)
{
    const char *mode = getenv("MD2_LINK_FAIL");
    calls++;
    if (mode && strcmp(mode, "eexist") == 0 && calls == 1) {
        int fd = open(to, O_WRONLY | O_CREAT | O_EXCL, 0666);
        if (fd >= 0) {
            if (write(fd, "planted\n", 8) != 8) {
                close(fd);
                errno = EIO;
                return -1;
            }
            close(fd);
        }
    } else if (mode && strcmp(mode, "exdev") == 0) {
        errno = EXDEV;
        return -1;
    } else if (mode && strcmp(mode, "eio") == 0) {
        errno = EIO;
        return -1;
    }
    return linkat(AT_FDCWD, from, AT_FDCWD, to, 0);
}
