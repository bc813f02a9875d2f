/*
 * The md2 command's outputs put in place whole: a set of files that appear
 * together or not at all, each written under a temporary name and renamed
 * into place (outfiles.c), and the path helpers they are named with.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_TOOL_OUTFILES_H
#define MD2_TOOL_OUTFILES_H

#include "tool.h"

/* The files of one command that must appear together or not at all (an
 * OBJ set: OUT.png, OUT.mtl, the .obj files; an MD2 with its skin and
 * .anm), put in place one by one. Each is written under a temporary name
 * (tool_out) and renamed into place by tool_outset_place(); a file of the
 * same name that was there before is first kept aside, as NAME.old-md2 (a
 * hard link, else a rename), until tool_outset_finish() removes those
 * copies (success) or removes the new files and puts the old ones back
 * (failure). Zero-initialise it. */
typedef struct tool_outset_file {
    char *path;   /* the file put in place */
    char *backup; /* the old file of that name, kept aside; NULL: there was none */
} tool_outset_file;

typedef struct tool_outset {
    tool_outset_file *files;
    size_t count;
    size_t capacity;
    const char *cmd; /* the command named in messages ("import"); NULL: "export" */
    double bytes;     /* the bytes of the files placed */
} tool_outset;

/* Closes out (opened with tool_out_open()) and renames it into place as a
 * file of set: 1; or 0 after printing why, with its temporary file removed
 * and any old file of that name as it was. out is empty afterwards. */
int tool_outset_place(tool_outset *set, tool_out *out);
/* The size bytes at data as the file path of set, as tool_outset_place(). */
int tool_outset_write(tool_outset *set, const char *path, const void *data, size_t size);
/* ok: removes the copies kept aside. Not ok: removes every file of set and
 * puts back the old files they replaced, last placed first. Empties set. */
void tool_outset_finish(tool_outset *set, int ok);

/* A copy of path with its extension (the last '.' of the last path
 * component) replaced by ext, ext including its '.'. NULL when out of
 * memory; free() it. */
char *tool_with_extension(const char *path, const char *ext);
/* The last path component of path. (Names from files are printed with
 * tool_put_clean().) */
const char *tool_base_name(const char *path);

#endif /* MD2_TOOL_OUTFILES_H */
