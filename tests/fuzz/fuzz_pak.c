/*
 * A libFuzzer target for md2 import --game's PAK reader (tool/formats/pak.c,
 * tool_pak_find()): the input is one PAK file, read through a callback
 * from memory that counts what is asked of it.
 *
 * The rules: the reader asks only for bytes inside the file, never more
 * than 12 + 4096 bytes at once and, in all, at most the header and the
 * directory once; a refusal comes with a one-line message that names the
 * archive; an entry found lies inside the file, past the header, outside
 * the directory, and its name matches (ASCII case ignored); the answer and
 * the message are the same when asked again (no state), and a check only
 * (path NULL) passes exactly when the lookup is not refused. Any broken
 * rule aborts; the same function runs without libFuzzer in fuzz_replay.c
 * (fuzz_pak_replay: tests/fuzz/pak_corpus, the hostile shapes
 * tests/tool/pak_make.c writes, `pak_make hostile DIR`).
 *
 * SPDX-License-Identifier: MIT
 */
#include "pak.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

typedef struct mem {
    const uint8_t *data;
    size_t size;
    uint64_t asked; /* bytes read in all */
} mem;

static int read_mem(void *user, uint64_t offset, void *dst, size_t n, char *why, size_t why_size)
{
    mem *m = (mem *)user;
    CHECK(n <= 4096 && n > 0);
    CHECK(offset <= m->size && n <= m->size - offset);
    m->asked += n;
    memcpy(dst, m->data + offset, n);
    (void)why;
    (void)why_size;
    return 1;
}

static int run(const uint8_t *data, size_t size, const char *path, tool_pak_entry *e, char *why)
{
    mem m;
    tool_pak p;
    int r;
    m.data = data;
    m.size = size;
    m.asked = 0;
    p.name = "fuzz.pak";
    p.size = size;
    p.read = read_mem;
    p.user = &m;
    why[0] = '\0';
    r = tool_pak_find(&p, path, e, why, TOOL_PAK_WHY);
    CHECK(r >= -1 && r <= 1);
    CHECK(m.asked <= size); /* the header and the directory, once */
    if (r < 0) {
        CHECK(strncmp(why, "fuzz.pak", 8) == 0);
        CHECK(strchr(why, '\n') == NULL);
    }
    return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const paths[2] = {"pics/colormap.pcx", "PICS/COLORMAP.PCX"};
    char why[TOOL_PAK_WHY], again[TOOL_PAK_WHY];
    tool_pak_entry e, e2;
    int k;

    for (k = 0; k < 2; k++) {
        int r, r2;
        memset(&e, 0, sizeof e);
        r = run(data, size, paths[k], &e, why);
        if (r == 1) {
            uint32_t dirofs = (uint32_t)data[4] | (uint32_t)data[5] << 8 |
                              (uint32_t)data[6] << 16 | (uint32_t)data[7] << 24;
            uint32_t dirlen = (uint32_t)data[8] | (uint32_t)data[9] << 8 |
                              (uint32_t)data[10] << 16 | (uint32_t)data[11] << 24;
            const char *name = (const char *)data + dirofs + 64 * (size_t)e.index;
            size_t i;
            CHECK((uint64_t)e.pos + e.len <= size);
            CHECK(e.len == 0 || e.pos >= 12);
            CHECK(e.len == 0 || e.pos + e.len <= dirofs || e.pos >= dirofs + dirlen);
            CHECK(64 * (uint64_t)e.index < dirlen);
            for (i = 0; paths[0][i]; i++)
                CHECK(name[i] == paths[0][i] || name[i] == paths[1][i]);
            CHECK(name[i] == '\0');
        }
        r2 = run(data, size, paths[k], &e2, again);
        CHECK(r2 == r && strcmp(why, again) == 0);
        if (r == 1)
            CHECK(e2.index == e.index && e2.pos == e.pos && e2.len == e.len);
        r2 = run(data, size, NULL, &e2, again);
        CHECK((r2 < 0) == (r < 0) && (r2 < 0 || r2 == 0));
    }
    return 0;
}
