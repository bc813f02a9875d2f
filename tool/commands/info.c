/*
 * md2 info MODEL [--json]: what a model holds (header, counts, skins,
 * frames, animations, side files, tags, bounds, memory, warnings), as
 * text for people or as JSON (docs/tool.md describes both).
 *
 * SPDX-License-Identifier: MIT
 */
#include "commands.h"
#include "info_report.h"
#include "platform.h"
#include "info_util.h"

#include <errno.h>
#include <string.h>

static void usage(FILE *f)
{
    fputs("usage: md2 info MODEL [--json] [--profile P]\n"
          "\n"
          "Prints what MODEL holds: its header, counts, skins, frame names, animations\n"
          "(from the frame names, or from the .anm or .framegroups file beside it), its\n"
          ".tag file's tags, its bounding box, the memory it takes when loaded, and every\n"
          "warning raised while loading it and its side files, and which engines' loaders\n"
          "would refuse it and why (each limit with its source in the engine's code).\n"
          "\n"
          "options:\n"
          "  --json      print one JSON object instead (key \"md2_info_version\": 1;\n"
          "              docs/tool.md describes every key)\n"
          "  --profile P only engine P's verdict (quake2, yquake2, ufoai, q2pro)\n"
          "  -h, --help  print this help\n"
          "\n"
          "Exit status: 0 done, 1 the model could not be loaded (the reason on stderr,\n"
          "nothing on stdout), 2 bad command line.\n",
          f);
}

static int usage_error(void)
{
    fputs("usage: md2 info MODEL [--json] [--profile P]  (md2 info --help for more)\n", stderr);
    return TOOL_USAGE;
}

static int run(const char *path, int json, int profile)
{
    tool_model m;
    md2_diagnostic d;
    info_report r;
    int status = TOOL_OK;

    memset(&d, 0, sizeof d);
    if (tool_load(path, 0, &m, &d) != MD2_OK) {
        tool_load_error("info", path, &d);
        return TOOL_FAILED;
    }
    if (!info_report_make(&r, path, &m) || !info_report_engines(&r, profile)) {
        status = TOOL_FAILED;
    } else {
        if (json)
            info_write_json(stdout, &r);
        else
            info_write_text(stdout, &r);
        if (fflush(stdout) != 0 || ferror(stdout)) {
            tool_error("info", "cannot write the output: %s", tool_sys_strerror(errno));
            status = TOOL_FAILED;
        }
    }
    info_report_free(&r);
    tool_model_free(&m);
    return status;
}

int tool_info(int argc, char **argv)
{
    const char *path = NULL;
    int i, json = 0, options = 1, profile = 0; /* MD2_PROFILE_FORMAT: every engine */
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (options && strcmp(a, "--") == 0) {
            options = 0;
        } else if (options && tool_is_help(a)) {
            usage(stdout);
            return TOOL_OK;
        } else if (options && strcmp(a, "--json") == 0) {
            json = 1;
        } else if (options && strcmp(a, "--profile") == 0) {
            if (i + 1 >= argc) {
                tool_error("info", "--profile needs a value: " TOOL_PROFILE_NAMES);
                return usage_error();
            }
            if (!tool_parse_profile(argv[++i], &profile)) {
                tool_error("info", "bad --profile '%s': " TOOL_PROFILE_NAMES, argv[i]);
                return usage_error();
            }
        } else if (options && a[0] == '-' && a[1] != '\0') {
            tool_error("info", "unknown option '%s'", a);
            return usage_error();
        } else if (path) {
            tool_error("info", "one MODEL at a time ('%s' and '%s' given)", path, a);
            return usage_error();
        } else {
            path = a;
        }
    }
    if (!path) {
        tool_error("info", "no MODEL given");
        return usage_error();
    }
    return run(path, json, profile);
}
