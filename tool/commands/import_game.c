/*
 * md2 import: where the skin goes and what it is called (import_cmd.h),
 * with --game DIR the game's palette and game paths. docs/tool.md, "The
 * game's own data", is the manual.
 *
 * The rule: the name in the model and the file written always agree, the
 * way md2_skin_find() (and a Quake II engine, from the game folder) looks
 * a name up.
 *  - --game DIR and -o under DIR: the name is a game path (relative to
 *    DIR, forward slashes, lower case, at most 63 bytes): --skin-name's,
 *    or -o's own with .pcx; the file is DIR/NAME, an 8-bit PCX in the
 *    palette of DIR's pics/colormap.pcx.
 *  - otherwise: the file is beside -o, named as --skin-name's file name
 *    (what md2_skin_find() looks for beside the model), or OUT.png/.pcx;
 *    the name is --skin-name, or that file's name.
 *
 * SPDX-License-Identifier: MIT
 */
#include "import_cmd.h"
#include "outfiles.h" /* core/ */
#include "pak.h"      /* formats/ */
#include "platform.h" /* platform/ */

#include <stdlib.h>
#include <string.h>

static char *dup_n(const char *s, size_t n)
{
    char *d = (char *)malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

static int ends_with_ci(const char *s, const char *ext)
{
    size_t a = strlen(s), b = strlen(ext), i;
    if (a < b)
        return 0;
    for (i = 0; i < b; i++) {
        char c = s[a - b + i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != ext[i])
            return 0;
    }
    return 1;
}

int imp_skin_name_kind(const char *name)
{
    if (ends_with_ci(name, ".pcx"))
        return 1;
    if (ends_with_ci(name, ".png"))
        return 0;
    return -1;
}

/* The part of out after the folder that is dir (the same folder, by
 * device and inode: "baseq2/" and "./baseq2" alike), its deepest folder
 * first; NULL when out does not lie under dir. */
static const char *under(const char *out, const char *dir)
{
    size_t i, n = strlen(out);
    const char *best = NULL;
    for (i = n; i-- > 0;) {
        char *prefix;
        int same;
        if (!tool_sys_is_separator(out[i]) || i == 0)
            continue;
        prefix = dup_n(out, i);
        if (!prefix)
            return NULL;
        same = tool_same_file(prefix, dir);
        free(prefix);
        if (same) {
            best = out + i + 1;
            break;
        }
    }
    return best;
}

/* 0 after saying why name is no game path Quake II can open. */
static int check_game_path(const char *name, const char *what)
{
    size_t i, n = strlen(name);
    const char *why = NULL;
    if (n == 0 || name[0] == '/' || name[0] == '\\' || (n > 1 && name[1] == ':'))
        why = "not a relative path";
    for (i = 0; !why && i < n; i++) {
        if (name[i] == '\\')
            why = "a backslash: game paths use '/'";
        else if (name[i] >= 'A' && name[i] <= 'Z')
            why = "upper case: Quake II's game paths are lower case (rename the folder or file)";
        else if (name[i] == '.' && name[i + 1] == '.' && (i == 0 || name[i - 1] == '/'))
            why = "a '..' component";
        else if ((name[i] == '/' && name[i + 1] == '/') ||
                 (name[i] == '.' && name[i + 1] == '/' && (i == 0 || name[i - 1] == '/')))
            why = "an empty or '.' component: the engines look the name up as it is written";
    }
    if (!why && n >= MD2_SKIN_NAME_SIZE)
        why = "longer than 63 bytes (a model's skin name holds 64 with its NUL)";
    if (why) {
        imp_error("%s '%s' is no game path: %s", what, name, why);
        return 0;
    }
    return 1;
}

/* out's folder (with its separator) + file. */
static char *beside(const char *out, const char *file)
{
    size_t dir = (size_t)(tool_base_name(out) - out), m = strlen(file);
    char *s = (char *)malloc(dir + m + 1);
    if (!s)
        return NULL;
    memcpy(s, out, dir);
    memcpy(s + dir, file, m + 1);
    return s;
}

int imp_skin_plan_make(const char *out, const char *skin_name, const char *game, int pcx,
                       int skin_png, imp_skin_plan *p)
{
    const char *rel = NULL;
    memset(p, 0, sizeof *p);
    p->pcx = game ? 1 : skin_name ? imp_skin_name_kind(skin_name) == 1 : pcx;
    if (game) {
        char why[TOOL_PAK_WHY];
        if (!tool_game_palette(game, p->palette, &p->palette_source, why, sizeof why)) {
            imp_error("--game: %s", why);
            return 0;
        }
        p->have_palette = 1;
        rel = under(out, game);
    }
    if (rel) {
        char *own = NULL;
        if (!skin_name) {
            own = tool_with_extension(rel, ".pcx");
            if (!own)
                goto oom;
        }
        if (!check_game_path(skin_name ? skin_name : own, skin_name ? "--skin-name" : "-o's game path")) {
            free(own);
            return 0;
        }
        p->name = own ? own : dup_n(skin_name, strlen(skin_name));
        if (!p->name)
            goto oom;
        p->file = tool_game_join(game, p->name);
        p->game_path = 1;
    } else {
        if (skin_name) {
            p->file = beside(out, tool_base_name(skin_name));
            p->name = dup_n(skin_name, strlen(skin_name));
        } else {
            p->file = tool_with_extension(out, p->pcx ? ".pcx" : ".png");
            p->name = p->file ? dup_n(tool_base_name(p->file), strlen(tool_base_name(p->file))) : NULL;
        }
        if (!p->name)
            goto oom;
    }
    if (!p->file)
        goto oom;
    if (skin_png) {
        p->png_file = tool_with_extension(p->file, ".png");
        if (!p->png_file)
            goto oom;
    }
    return 1;
oom:
    imp_error("out of memory");
    imp_skin_plan_free(p);
    return 0;
}

void imp_skin_plan_free(imp_skin_plan *p)
{
    free(p->file);
    free(p->name);
    free(p->png_file);
    free(p->palette_source);
    memset(p, 0, sizeof *p);
}
