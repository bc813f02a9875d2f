/*
 * md2: inspect, validate, export, render and import Quake II MD2 models.
 *
 *   md2 info MODEL [--json]
 *   md2 validate [--strict] PATH...
 *   md2 export MODEL -o OUT.{obj,gltf,glb} [options]
 *   md2 render MODEL -o OUT.png [options]
 *   md2 import SOURCE... -o OUT.md2 [options]
 *   md2 simplify MODEL -o OUT.md2 (--ratio R | --triangles N | --error E) [--levels R,...]
 *
 * docs/tool.md is the manual; `md2 COMMAND --help` the short form.
 *
 * SPDX-License-Identifier: MIT
 */
#include "commands.h"
#include "tool.h"
#include "platform.h"

#include <string.h>

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} command;

static const command commands[] = {
    {"info", tool_info, "header, counts, skins, frames, animations, bounds, warnings"},
    {"validate", tool_validate, "check files and directory trees; exit 1 if any is refused"},
    {"export", tool_export, "write OBJ or glTF 2.0 (.gltf, .glb) with animations"},
    {"render", tool_render, "draw a pose or a contact sheet of an animation to PNG"},
    {"import", tool_import, "make an MD2 from glTF or OBJ, or repair an MD2"},
    {"simplify", tool_simplify, "fewer triangles, the same collapses in every frame (levels of detail)"},
};

static void usage(FILE *f)
{
    size_t i;
    fprintf(f, "usage: md2 COMMAND [ARGS...]\n\n"
               "Inspect, validate, export, render and import Quake II MD2 models (libmd2 %s).\n\n"
               "commands:\n",
            md2_version_string());
    for (i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\n`md2 COMMAND --help` describes a command; docs/tool.md is the manual.\n");
}

int main(int argc, char **argv)
{
    size_t i;
    /* on Windows, the command line in UTF-8 and binary output */
    if (!tool_sys_init(&argc, &argv))
        return TOOL_FAILED;
    if (argc < 2) {
        fprintf(stderr, "md2: no command given\n\n");
        usage(stderr);
        return TOOL_USAGE;
    }
    if (strcmp(argv[1], "help") == 0 && argc > 2) {
        for (i = 0; i < sizeof commands / sizeof commands[0]; i++) {
            if (strcmp(argv[2], commands[i].name) == 0) {
                char help[] = "--help";
                char *args[3];
                args[0] = argv[2];
                args[1] = help;
                args[2] = NULL;
                return commands[i].run(2, args);
            }
        }
        tool_term_printf(stderr, "md2: unknown command '%s'", argv[2]);
        fputs("\n\n", stderr);
        usage(stderr);
        return TOOL_USAGE;
    }
    if (tool_is_help(argv[1]) || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return TOOL_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("md2 (libmd2) %s\n", md2_version_string());
        return TOOL_OK;
    }
    for (i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    }
    tool_term_printf(stderr, "md2: unknown command '%s'", argv[1]);
    fputs("\n\n", stderr);
    usage(stderr);
    return TOOL_USAGE;
}
