/*
 * md2 command: what platform_posix.c and platform_win32.c share, the list
 * of names tool_sys_list_dir() gives (see platform.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include "platform.h"

#include <errno.h>
#include <stdlib.h>

void tool_sys_free_names(char **names, size_t count)
{
    size_t i;
    for (i = 0; i < count; i++)
        free(names[i]);
    free(names);
}

int tool_sys_names_add(char ***names, size_t *count, size_t *cap, char *name)
{
    if (!name)
        return 0;
    if (*count == *cap) {
        size_t grown = *cap ? *cap * 2 : 32;
        char **p = (char **)realloc(*names, grown * sizeof *p);
        if (!p) {
            free(name);
            errno = ENOMEM;
            return 0;
        }
        *names = p;
        *cap = grown;
    }
    (*names)[(*count)++] = name;
    return 1;
}

int tool_sys_names_fail(char ***names, size_t *count, int err)
{
    tool_sys_free_names(*names, *count);
    *names = NULL;
    *count = 0;
    errno = err;
    return 0;
}
