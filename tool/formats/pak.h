/*
 * md2 import --game: Quake II's PAK archives and game folders, read
 * bounded (pak.c). docs/tool.md, "The game's own data", is the manual;
 * docs/security.md has the threat model.
 *
 * A PAK is a 12-byte header ("PACK", int32 dirofs, int32 dirlen, little
 * endian) and a directory of dirlen / 64 entries at dirofs: a 56-byte
 * NUL-terminated name, int32 filepos, int32 filelen. Only the header and
 * the directory are read (in 4 KiB pieces), then the one entry wanted:
 * memory is bounded by TOOL_PAK_MAX_ENTRIES whatever the sizes declared.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_TOOL_PAK_H
#define MD2_TOOL_PAK_H

#include <stddef.h>
#include <stdint.h>

/* The most entries a directory may hold: Q2PRO's MAX_FILES_IN_PACK
 * (inc/format/pak.h; id's Quake II 3.21 stops at 4096, qcommon/qfiles.h). */
#define TOOL_PAK_MAX_ENTRIES (1u << 20)
/* The length of a message (why) a function below fills in. */
#define TOOL_PAK_WHY 512

/* Reads n bytes at offset of the archive into dst: 1, or 0 (then why
 * holds the reason). */
typedef int (*tool_pak_read_fn)(void *user, uint64_t offset, void *dst, size_t n,
                                char *why, size_t why_size);

/* An archive: its name (in messages), size in bytes and how to read it. */
typedef struct tool_pak {
    const char *name;
    uint64_t size;
    tool_pak_read_fn read;
    void *user;
} tool_pak;

/* One entry: its index in the directory, where its bytes are. */
typedef struct tool_pak_entry {
    uint32_t index;
    uint32_t pos, len;
} tool_pak_entry;

/* Checks the whole archive's header and directory and looks path up in
 * it (ASCII case ignored, the first entry of that name in directory
 * order, as Quake II's FS_FOpenFile): 1 and *e when found, 0 when the
 * archive holds no such entry, -1 when the archive is refused (why says
 * why, naming the archive, the entry's index and the byte offset): not
 * "PACK", a negative or lying dirofs or dirlen, dirlen not a multiple of
 * 64 or 0, more than TOOL_PAK_MAX_ENTRIES entries, a directory or an
 * entry past the end of the archive or over the header or the directory,
 * a name without a NUL in its 56 bytes, two entries whose bytes overlap,
 * or no memory for the overlap check (12 bytes an entry). path may be
 * NULL: the archive is checked only (0 when it passes). */
int tool_pak_find(const tool_pak *p, const char *path, tool_pak_entry *e, char *why, size_t why_size);

/* A file found in a game folder: a loose file or a PAK's entry, open. */
typedef struct tool_game_file {
    int fd;          /* open for reading */
    uint64_t base;   /* where its bytes start in fd's file */
    uint64_t size;   /* its size */
    char *where;     /* "DIR/pak0.pak, entry 3" or "DIR/pics/colormap.pcx" (malloc'd), for messages */
} tool_game_file;

/* Finds path (a game path, "pics/colormap.pcx") in the game folder dir as
 * Quake II engines do: the PAKs first, then the loose file dir/path. The
 * PAKs are every "pak<N>.pak" (any case) of dir, higher N first, with
 * the folder's other "*.pak" files before them (the ones later in byte
 * order first), as Q2PRO's add_game_dir() and yquake2's
 * FS_AddDirToSearchPath() put them. 1 and *f open when found; 0 when
 * nowhere; -1 when a PAK on the way is refused or a file cannot be read
 * (why says which and why). Only regular files are read: a FIFO or a
 * device named pak0.pak is refused. */
int tool_game_find(const char *dir, const char *path, tool_game_file *f, char *why, size_t why_size);
/* Reads n bytes at offset of f (within f->size): 1, or 0 with why. */
int tool_game_read(const tool_game_file *f, uint64_t offset, void *dst, size_t n, char *why,
                   size_t why_size);
/* Closes f and frees what it holds; safe on a zeroed or closed one. */
void tool_game_close(tool_game_file *f);

/* dir + '/' + name, allocated (the caller frees it); NULL when out of memory. */
char *tool_game_join(const char *dir, const char *name);

/* The 768-byte palette of the game folder dir: pics/colormap.pcx's
 * (header 0x0A, 8 bits, 1 plane; 0x0C and 768 bytes at its end). 1, or 0
 * with why (naming where it looked). *source gets f->where (malloc'd) or
 * NULL. */
int tool_game_palette(const char *dir, uint8_t palette[768], char **source, char *why,
                      size_t why_size);

#endif /* MD2_TOOL_PAK_H */
