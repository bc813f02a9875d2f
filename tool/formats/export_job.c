/*
 * md2 export: what every format's writer checks of its job (export_internal.h):
 * the output budget, and that no output is a skin the export reads.
 *
 * SPDX-License-Identifier: MIT
 */
#include "attach_opt.h"
#include "export_internal.h"

#include <stdio.h>
#include <string.h>

/* bytes as a person reads them: "268 MiB", "1.7 GiB". */
static void size_text(double bytes, char *out, size_t size)
{
    if (bytes >= 1073741824.0)
        snprintf(out, size, "%.3g GiB", bytes / 1073741824.0);
    else if (bytes >= 1048576.0)
        snprintf(out, size, "%.4g MiB", bytes / 1048576.0);
    else
        snprintf(out, size, "%.0f bytes", bytes);
}

int export_within_budget(const export_job *job, double bytes, int exact)
{
    char would[32], limit[32];
    if (bytes <= job->max_output)
        return 1;
    size_text(bytes, would, sizeof would);
    size_text(job->max_output, limit, sizeof limit);
    tool_error(EXPORT_CMD, "the export would be %s%s, over the %s limit; --max-output raises it",
               exact ? "" : "at least ", would, limit);
    return 0;
}

int export_not_skin(const export_job *job, const char *path)
{
    size_t i;
    for (i = 0; i < job->num_attached; i++) {
        const tool_attached *a = &job->attached[i];
        if (a->skin_path && tool_same_file(path, a->skin_path)) {
            tool_error(EXPORT_CMD, "-o %s would write %s, which is the skin %s of the attached "
                       "%s: choose another -o", job->out_path, path, a->skin_path, a->path);
            return 0;
        }
    }
    if (!job->skin_path || !tool_same_file(path, job->skin_path))
        return 1;
    if (strcmp(path, job->out_path) == 0)
        tool_error(EXPORT_CMD, "-o %s is the skin %s: choose another -o", path, job->skin_path);
    else
        tool_error(EXPORT_CMD, "-o %s would write %s, which is the skin %s: choose another -o",
                   job->out_path, path, job->skin_path);
    return 0;
}
