/*
 * Tests of loading: files, streams, allocation failure injected at every
 * allocation, truncation at every byte offset, and the allocation ceiling.
 *
 * SPDX-License-Identifier: MIT
 */
#if defined(__unix__) || defined(__APPLE__)
#define _POSIX_C_SOURCE 200809L /* fork, setuid, chmod for the I/O tests */
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#define HAVE_POSIX 1
#endif
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

static uint8_t file[TU_MAX_FILE];

static const char *tmp_path = "test_load_tiny.md2";

/* This program's path (argv[0]), to run a copy of it as another user. */
static const char *self_path = "test_load";

static void write_tmp(const uint8_t *data, size_t size)
{
    FILE *f = fopen(tmp_path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, size, f), size);
    assert_int_equal(fclose(f), 0);
}

static void test_load_file(void **state)
{
    size_t size = tu_tiny(file);
    md2_model *m = NULL, *ref = NULL;
    (void)state;
    write_tmp(file, size);
    assert_int_equal(md2_load_file(tmp_path, NULL, &m), MD2_OK);
    assert_int_equal(md2_parse(file, size, NULL, &ref), MD2_OK);
    assert_int_equal(m->num_frames, 3);
    assert_int_equal(m->warnings, 0);
    assert_int_equal(md2_model_memory(m), md2_model_memory(ref));
    assert_memory_equal(m->frames[2].vertices, ref->frames[2].vertices, 4 * sizeof(md2_vertex));
    md2_free(m);
    md2_free(ref);
    remove(tmp_path);
}

static void test_err_io(void **state)
{
    md2_options o;
    md2_diagnostic d;
    md2_model *m = (md2_model *)&o;
    tu_memstream s;
    size_t size = tu_tiny(file);
    (void)state;
    memset(&o, 0, sizeof o);
    o.error = &d;
    assert_int_equal(md2_load_file("no/such/dir/model.md2", &o, &m), MD2_ERR_IO);
    assert_null(m);
    assert_non_null(strstr(d.message, "no/such/dir/model.md2"));
    /* a path that opens but cannot be read (a folder): the path is named;
     * Windows' C runtime refuses to open a folder, with EACCES */
    assert_int_equal(md2_load_file(".", &o, &m), MD2_ERR_IO);
#ifdef _WIN32
    assert_string_equal(d.message, "cannot open '.': permission denied");
#else
    assert_true(strncmp(d.message, ".: ", 3) == 0);
    assert_non_null(strstr(d.message, "byte 0"));
#endif
    assert_int_equal(md2_load_file(NULL, &o, &m), MD2_ERR_INVALID_ARGUMENT);
    assert_int_equal(md2_load_file(tmp_path, &o, NULL), MD2_ERR_INVALID_ARGUMENT);
    /* a read error in the header and in the data */
    tu_memstream_init(&s, file, size, 0);
    s.fail_at = 1;
    s.chunk = 10;
    assert_int_equal(md2_load_stream(tu_mem_read, &s, &o, &m), MD2_ERR_IO);
    tu_memstream_init(&s, file, size, 100);
    s.fail_at = 168; /* after the header and one chunk */
    assert_int_equal(md2_load_stream(tu_mem_read, &s, &o, &m), MD2_ERR_IO);
    assert_non_null(strstr(d.message, "byte 168"));
    assert_null(m);
    assert_int_equal(md2_load_stream(NULL, &s, &o, &m), MD2_ERR_INVALID_ARGUMENT);
}

/* I/O errors say why, in the operating system's words. */
static void test_io_errors_say_why(void **state)
{
    md2_options o;
    md2_diagnostic d;
    md2_model *m = NULL;
    size_t size = tu_tiny(file);
    (void)state;
    memset(&o, 0, sizeof o);
    o.error = &d;
    assert_int_equal(md2_load_file("no-such-model.md2", &o, &m), MD2_ERR_IO);
    assert_string_equal(d.message, "cannot open 'no-such-model.md2': no such file or directory");
    assert_string_equal(d.field, "path");
    /* a directory: refused at open or at the first read, either way named */
    assert_int_equal(md2_load_file(".", &o, &m), MD2_ERR_IO);
#ifdef _WIN32
    assert_non_null(strstr(d.message, "permission denied")); /* Windows' reason */
#else
    assert_non_null(strstr(d.message, "is a directory"));
#endif
    assert_non_null(strstr(d.message, "."));
#ifdef HAVE_POSIX
    write_tmp(file, size);
    /* a file used as a folder */
    assert_int_equal(md2_load_file("test_load_tiny.md2/model.md2", &o, &m), MD2_ERR_IO);
    assert_non_null(strstr(d.message, "not a directory"));
    /* permission: a 0200 file cannot be read by its owner; root reads
     * anything, so a root run checks it in a child that drops to nobody */
    assert_int_equal(chmod(tmp_path, 0200), 0);
    if (geteuid() != 0) {
        assert_int_equal(md2_load_file(tmp_path, &o, &m), MD2_ERR_IO);
        assert_non_null(strstr(d.message, "permission denied"));
    } else {
#ifdef HAVE_POSIX
        /* a fresh copy of this program (exec, so that a valgrind run does
         * not report this process's heap from the child) drops to nobody */
        int status = 0;
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            execl(self_path, self_path, "--load-as-nobody", tmp_path, (char *)NULL);
            _exit(3);
        }
        assert_int_equal(waitpid(pid, &status, 0), pid);
        assert_true(WIFEXITED(status));
        if (WEXITSTATUS(status) == 3) /* exec failed: under qemu-user, say */
            print_message("cannot run a copy of %s here: the permission check is left to native runs\n",
                          self_path);
        else
            assert_int_equal(WEXITSTATUS(status), 0);
#endif
    }
    assert_int_equal(chmod(tmp_path, 0644), 0);
    remove(tmp_path);
#endif
#ifdef __linux__
    /* a read that the kernel fails: /proc/self/mem at address 0 (EIO) */
    assert_int_equal(md2_load_file("/proc/self/mem", &o, &m), MD2_ERR_IO);
    assert_non_null(strstr(d.message, "/proc/self/mem: reading failed at byte 0: input/output error"));
#endif
    (void)size;
    assert_null(m);
}

/* A reader that never ends, filling every buffer with a byte pattern. */
typedef struct endless {
    const uint8_t *prefix; /* given first (may be NULL) */
    size_t prefix_size;
    int random;            /* 1: pseudo-random bytes after the prefix, 0: 'A' */
    uint32_t seed;
    size_t pos;            /* bytes handed out */
} endless;

static size_t endless_read(void *user, void *dst, size_t size)
{
    endless *e = (endless *)user;
    uint8_t *out = (uint8_t *)dst;
    size_t i;
    for (i = 0; i < size; i++, e->pos++) {
        if (e->pos < e->prefix_size) {
            out[i] = e->prefix[e->pos];
        } else if (e->random) {
            e->seed = e->seed * 1103515245u + 12345u;
            out[i] = (uint8_t)(e->seed >> 16);
        } else {
            out[i] = 'A';
        }
    }
    return size;
}

/* An endless stream ends with the right error after a bounded read: the
 * header alone for what is not an MD2 file, the limit for what is. */
static void test_endless_streams(void **state)
{
    md2_options o;
    md2_diagnostic d;
    md2_model *m = NULL;
    endless e;
    size_t size = tu_tiny(file);
    (void)state;
    memset(&o, 0, sizeof o);
    o.error = &d;
    memset(&e, 0, sizeof e);
    assert_int_equal(md2_load_stream(endless_read, &e, &o, &m), MD2_ERR_BAD_MAGIC);
    assert_int_equal(e.pos, 68);
    assert_non_null(strstr(d.message, "not an MD2 file"));
    memset(&e, 0, sizeof e);
    e.random = 1;
    e.seed = 7;
    assert_int_equal(md2_load_stream(endless_read, &e, &o, &m), MD2_ERR_BAD_MAGIC);
    assert_int_equal(e.pos, 68);
    /* with a limit too: the header is looked at first */
    o.limits.max_file_size = 1000;
    memset(&e, 0, sizeof e);
    assert_int_equal(md2_load_stream(endless_read, &e, &o, &m), MD2_ERR_BAD_MAGIC);
    assert_int_equal(e.pos, 68);
    /* a real model followed by endless bytes: loads with the ofs_end quirk
     * after the model and one byte, or is refused in strict mode */
    o.limits.max_file_size = 0;
    memset(&e, 0, sizeof e);
    e.prefix = file;
    e.prefix_size = size;
    assert_int_equal(md2_load_stream(endless_read, &e, &o, &m), MD2_OK);
    assert_int_equal(e.pos, size + 1);
    assert_int_equal(m->warnings, MD2_WARN_OFS_END);
    md2_free(m);
    o.strict = MD2_STRICT_ALL;
    e.pos = 0;
    assert_int_equal(md2_load_stream(endless_read, &e, &o, &m), MD2_ERR_BAD_OFS_END);
    /* with a limit, as md2_parse() would see data longer than it */
    o.strict = 0;
    o.limits.max_file_size = 4096;
    e.pos = 0;
    assert_int_equal(md2_load_stream(endless_read, &e, &o, &m), MD2_ERR_LIMIT_EXCEEDED);
    assert_int_equal(e.pos, 4097);
    assert_string_equal(d.field, "max_file_size");
    /* a header that claims 2 GB of frames, then endless bytes: the limit
     * bounds the read */
    tu_set_hdr(file, TU_NUM_FRAMES, 10000);
    tu_set_hdr(file, TU_FRAMESIZE, 200000);
    e.pos = 0;
    assert_int_equal(md2_load_stream(endless_read, &e, &o, &m), MD2_ERR_LIMIT_EXCEEDED);
    assert_int_equal(e.pos, 4097);
    assert_null(m);
}

/* Read callbacks that misbehave are I/O errors that say so. */
static size_t too_generous(void *user, void *dst, size_t size)
{
    (void)user;
    (void)dst;
    return size + 1;
}

static void test_stream_callback_errors(void **state)
{
    md2_options o;
    md2_diagnostic d;
    md2_model *m = NULL;
    tu_memstream s;
    size_t size = tu_tiny(file);
    (void)state;
    memset(&o, 0, sizeof o);
    o.error = &d;
    assert_int_equal(md2_load_stream(too_generous, NULL, &o, &m), MD2_ERR_IO);
    assert_non_null(strstr(d.message, "more bytes than asked"));
    tu_memstream_init(&s, file, size, 0);
    s.fail_at = 118; /* the reads hand out 50, 18 (the header's end), 50 */
    s.chunk = 50;
    assert_int_equal(md2_load_stream(tu_mem_read, &s, &o, &m), MD2_ERR_IO);
    assert_string_equal(d.message,
                        "stream: reading failed at byte 118: the read callback reported an error");
    assert_int_equal(d.offset, 118);
}

static void test_stream_in_small_chunks(void **state)
{
    size_t size = tu_tiny(file);
    size_t chunk;
    (void)state;
    for (chunk = 1; chunk <= 7; chunk++) {
        tu_memstream s;
        md2_model *m = NULL;
        tu_memstream_init(&s, file, size, chunk);
        assert_int_equal(md2_load_stream(tu_mem_read, &s, NULL, &m), MD2_OK);
        assert_int_equal(m->warnings, 0);
        assert_int_equal(m->num_glcmds, 21);
        md2_free(m);
    }
}

static void test_stream_trailing_data_and_truncation(void **state)
{
    tu_spec sp;
    size_t size;
    tu_memstream s;
    md2_model *m = NULL;
    md2_options o;
    md2_diagnostic d;
    (void)state;
    tu_spec_default(&sp);
    sp.trailing = 100;
    size = tu_build(&sp, file);
    tu_memstream_init(&s, file, size, 0);
    assert_int_equal(md2_load_stream(tu_mem_read, &s, NULL, &m), MD2_OK);
    assert_int_equal(m->warnings, MD2_WARN_OFS_END); /* as md2_parse says */
    md2_free(m);
    /* the stream is read only one byte past the data */
    assert_int_equal(s.pos, size - 100 + 1);
    /* a stream that ends early: the section error of md2_parse */
    memset(&o, 0, sizeof o);
    o.error = &d;
    tu_memstream_init(&s, file, size - 100 - 5, 0);
    assert_int_equal(md2_load_stream(tu_mem_read, &s, &o, &m), MD2_ERR_SECTION_OUT_OF_BOUNDS);
    assert_int_equal(d.section, MD2_SECTION_GLCMDS);
    tu_memstream_init(&s, file, 30, 0);
    assert_int_equal(md2_load_stream(tu_mem_read, &s, &o, &m), MD2_ERR_TRUNCATED_HEADER);
}

static void test_stream_lying_header_costs_little(void **state)
{
    /* the header claims 2 GB of frames; the stream has 200 bytes */
    size_t size = tu_tiny(file);
    tu_memstream s;
    md2_model *m = NULL;
    md2_options o;
    tu_alloc a;
    (void)state;
    (void)size;
    tu_set_hdr(file, TU_NUM_FRAMES, 10000);
    tu_set_hdr(file, TU_FRAMESIZE, 200000);
    tu_set_hdr(file, TU_NUM_XYZ, 4);
    memset(&o, 0, sizeof o);
    tu_alloc_init(&a, &o.allocator);
    tu_memstream_init(&s, file, 200, 0);
    assert_int_equal(md2_load_stream(tu_mem_read, &s, &o, &m), MD2_ERR_SECTION_OUT_OF_BOUNDS);
    assert_true(a.largest <= 65536);
    assert_int_equal(a.live, 0);
    /* sections past 2^31 - 1 (here past 4 GiB): refused from the header
     * alone, on every host (32-bit size_t included), with or without a
     * limit, as md2_parse() refuses them */
    tu_set_hdr(file, TU_NUM_FRAMES, 1 << 30);
    tu_set_hdr(file, TU_FRAMESIZE, 1 << 20);
    memset(&o, 0, sizeof o);
    tu_memstream_init(&s, file, 200, 0);
    assert_int_equal(md2_load_stream(tu_mem_read, &s, &o, &m), MD2_ERR_SECTION_OUT_OF_BOUNDS);
    assert_int_equal(s.pos, 68);
    assert_int_equal(md2_parse(file, 200, &o, &m), MD2_ERR_SECTION_OUT_OF_BOUNDS);
    tu_alloc_init(&a, &o.allocator);
    o.limits.max_file_size = 1 << 20;
    tu_memstream_init(&s, file, 200, 0);
    assert_int_equal(md2_load_stream(tu_mem_read, &s, &o, &m), MD2_ERR_SECTION_OUT_OF_BOUNDS);
    assert_int_equal(s.pos, 68);
    assert_int_equal(a.calls, 0); /* nothing allocated */
}

/* max_file_size bounds the data for md2_parse() and the loaders alike;
 * the loaders read at most max_file_size + 1 bytes to learn it. */
static void test_stream_max_file_size(void **state)
{
    tu_spec sp;
    size_t size, data;
    tu_memstream s;
    md2_model *m = NULL;
    md2_options o;
    (void)state;
    tu_spec_default(&sp);
    sp.trailing = 1000;
    size = tu_build(&sp, file);
    data = size - 1000;
    memset(&o, 0, sizeof o);
    /* exactly the data, and the limit is its size: loads */
    o.limits.max_file_size = data;
    tu_memstream_init(&s, file, data, 0);
    assert_int_equal(md2_load_stream(tu_mem_read, &s, &o, &m), MD2_OK);
    assert_int_equal(s.pos, data);
    md2_free(m);
    assert_int_equal(md2_parse(file, data, &o, &m), MD2_OK);
    md2_free(m);
    /* 1000 bytes more than the limit: refused after reading limit + 1 */
    tu_memstream_init(&s, file, size, 0);
    assert_int_equal(md2_load_stream(tu_mem_read, &s, &o, &m), MD2_ERR_LIMIT_EXCEEDED);
    assert_int_equal(s.pos, data + 1);
    assert_int_equal(md2_parse(file, size, &o, &m), MD2_ERR_LIMIT_EXCEEDED);
    /* a limit below what the sections need */
    o.limits.max_file_size = data - 1;
    tu_memstream_init(&s, file, size, 0);
    assert_int_equal(md2_load_stream(tu_mem_read, &s, &o, &m), MD2_ERR_LIMIT_EXCEEDED);
    assert_int_equal(s.pos, data);
    /* ... even when the stream is exactly the data: it is still too large */
    tu_memstream_init(&s, file, data, 0);
    assert_int_equal(md2_load_stream(tu_mem_read, &s, &o, &m), MD2_ERR_LIMIT_EXCEEDED);
    assert_int_equal(md2_parse(file, data, &o, &m), MD2_ERR_LIMIT_EXCEEDED);
    /* a limit smaller than the header: the header is read (and checked)
     * all the same, then the data is too large, as md2_parse() says */
    o.limits.max_file_size = 10;
    tu_memstream_init(&s, file, data, 0);
    assert_int_equal(md2_load_stream(tu_mem_read, &s, &o, &m), MD2_ERR_LIMIT_EXCEEDED);
    assert_int_equal(s.pos, 68);
    assert_int_equal(md2_parse(file, data, &o, &m), MD2_ERR_LIMIT_EXCEEDED);
    o.limits.max_file_size = 67;
    tu_memstream_init(&s, file, 67, 0);
    assert_int_equal(md2_load_stream(tu_mem_read, &s, &o, &m), MD2_ERR_TRUNCATED_HEADER);
    /* the largest limit there is */
    o.limits.max_file_size = SIZE_MAX;
    tu_memstream_init(&s, file, data, 0);
    assert_int_equal(md2_load_stream(tu_mem_read, &s, &o, &m), MD2_OK);
    md2_free(m);
    /* a lying ofs_end is the lenient quirk it is in md2_parse, not a limit */
    tu_set_hdr(file, TU_OFS_END, 0x7FFFFFFF);
    o.limits.max_file_size = 1 << 20;
    tu_memstream_init(&s, file, data, 0);
    assert_int_equal(md2_load_stream(tu_mem_read, &s, &o, &m), MD2_OK);
    assert_int_equal(m->warnings, MD2_WARN_OFS_END);
    md2_free(m);
}

/* Loads data[0..n) as a stream with a counting allocator; returns the
 * peak of what the load held. */
static size_t stream_peak(const uint8_t *data, size_t n, md2_result *r)
{
    md2_options o;
    tu_alloc a;
    tu_memstream s;
    md2_model *m = NULL;
    memset(&o, 0, sizeof o);
    tu_alloc_init(&a, &o.allocator);
    tu_memstream_init(&s, data, n, 0);
    *r = md2_load_stream(tu_mem_read, &s, &o, &m);
    md2_free(m);
    assert_int_equal(a.live, 0);
    return a.peak_bytes;
}

/* The documented ceiling of a stream load: 3.5 x the bytes received +
 * 64 KiB, with honest headers, lying ones and streams cut short. */
static void test_stream_memory_ceiling(void **state)
{
    uint8_t *data;
    size_t size, cut;
    md2_result r;
    (void)state;
    data = tu_read_corpus("sydney.md2", &size);
    if (!data) {
        skip();
        return;
    }
    /* honest: about twice the file */
    assert_true(stream_peak(data, size, &r) <= 2 * size + 65536 + 4096);
    assert_int_equal(r, MD2_OK);
    /* ofs_end lies (a lenient quirk): the buffer may overshoot the data */
    tu_set_hdr(data, TU_OFS_END, 0x7FFFFFFF);
    assert_true((double)stream_peak(data, size, &r) <= 3.5 * (double)size + 65536);
    assert_int_equal(r, MD2_OK);
    /* cut short at every power of two and in between */
    for (cut = 4096; cut < size; cut = cut * 3 / 2) {
        size_t peak = stream_peak(data, cut, &r);
        assert_true((double)peak <= 3.5 * (double)cut + 65536);
        assert_int_not_equal(r, MD2_OK);
    }
    free(data);
}

/* Injects an allocation failure at every allocation of one load; each
 * must give MD2_ERR_OUT_OF_MEMORY and leave nothing allocated. */
static void fail_every_allocation(const uint8_t *data, size_t size, int how)
{
    size_t n, total;
    md2_options o;
    md2_diagnostic d;
    tu_alloc a;
    md2_model *m = NULL;
    tu_memstream s;

    /* count the allocations of a successful load */
    memset(&o, 0, sizeof o);
    o.error = &d;
    tu_alloc_init(&a, &o.allocator);
    tu_memstream_init(&s, data, size, 4096);
    if (how == 0)
        assert_int_equal(md2_parse(data, size, &o, &m), MD2_OK);
    else if (how == 1)
        assert_int_equal(md2_load_stream(tu_mem_read, &s, &o, &m), MD2_OK);
    else
        assert_int_equal(md2_load_file(tmp_path, &o, &m), MD2_OK);
    total = a.calls;
    assert_true(total >= 1);
    md2_free(m);
    assert_int_equal(a.live, 0);

    for (n = 1; n <= total; n++) {
        md2_result r;
        tu_alloc_init(&a, &o.allocator);
        a.fail_at = n;
        tu_memstream_init(&s, data, size, 4096);
        m = (md2_model *)&o;
        if (how == 0)
            r = md2_parse(data, size, &o, &m);
        else if (how == 1)
            r = md2_load_stream(tu_mem_read, &s, &o, &m);
        else
            r = md2_load_file(tmp_path, &o, &m);
        assert_int_equal(r, MD2_ERR_OUT_OF_MEMORY);
        assert_int_equal(d.result, MD2_ERR_OUT_OF_MEMORY);
        assert_null(m);
        assert_int_equal(a.live, 0);
    }
}

static void test_err_out_of_memory_tiny(void **state)
{
    size_t size = tu_tiny(file);
    (void)state;
    write_tmp(file, size);
    fail_every_allocation(file, size, 0);
    fail_every_allocation(file, size, 1);
    fail_every_allocation(file, size, 2);
    remove(tmp_path);
}

static void test_err_out_of_memory_corpus(void **state)
{
    uint8_t *data;
    size_t size;
    (void)state;
    data = tu_read_corpus("faerie.md2", &size);
    if (!data) {
        skip();
        return;
    }
    write_tmp(data, size);
    fail_every_allocation(data, size, 0);
    fail_every_allocation(data, size, 1); /* the buffer grows: several allocations */
    fail_every_allocation(data, size, 2);
    remove(tmp_path);
    free(data);
}

/* Every prefix of a valid file must fail cleanly (never crash), and a
 * prefix parse must not allocate. */
static void truncate_everywhere(const uint8_t *data, size_t size)
{
    size_t n;
    md2_options o;
    tu_alloc a;
    memset(&o, 0, sizeof o);
    tu_alloc_init(&a, &o.allocator);
    for (n = 0; n < size; n++) {
        md2_model *m = NULL;
        md2_result r = md2_parse(data, n, &o, &m);
        if (r == MD2_OK) {
            /* only possible when the cut falls after every section */
            fprintf(stderr, "prefix of %lu bytes loaded\n", (unsigned long)n);
            md2_free(m);
        }
        assert_int_not_equal(r, MD2_OK);
        assert_true(r == MD2_ERR_TRUNCATED_HEADER || r == MD2_ERR_SECTION_OUT_OF_BOUNDS);
        assert_null(m);
    }
    assert_int_equal(a.calls, 0);
}

static void test_truncated_at_every_offset(void **state)
{
    size_t size = tu_tiny(file);
    uint8_t *data;
    (void)state;
    truncate_everywhere(file, size);
    data = tu_read_corpus("faerie.md2", &size);
    if (!data) {
        skip();
        return;
    }
    truncate_everywhere(data, size);
    free(data);
    data = tu_read_corpus("sydney.md2", &size);
    if (!data)
        return;
    truncate_everywhere(data, size);
    free(data);
}

static void test_allocation_ceiling_tiny(void **state)
{
    size_t size = tu_tiny(file);
    md2_options o;
    tu_alloc a;
    md2_model *m = NULL;
    (void)state;
    memset(&o, 0, sizeof o);
    tu_alloc_init(&a, &o.allocator);
    assert_int_equal(md2_parse(file, size, &o, &m), MD2_OK);
    assert_int_equal(a.calls, 1); /* one allocation a model */
    assert_int_equal(a.largest, md2_model_memory(m));
    /* a tiny model pays for the fixed part (md2_model and frame
     * structs); the bound is a small multiple plus a constant */
    assert_true(a.largest <= 2 * size + 1024);
    md2_free(m);
    assert_int_equal(a.live, 0);
}

#ifdef HAVE_POSIX
/* test_load --load-as-nobody PATH: as user nobody, loading PATH must fail
 * with the operating system's "permission denied". Exit 0 if it does. */
static int load_as_nobody(const char *path)
{
    md2_options o;
    md2_diagnostic d;
    md2_model *m = NULL;
    memset(&o, 0, sizeof o);
    o.error = &d;
    if (setgid(65534) != 0 || setuid(65534) != 0)
        return 2;
    if (md2_load_file(path, &o, &m) != MD2_ERR_IO || !strstr(d.message, "permission denied")) {
        fprintf(stderr, "as nobody: %s\n", d.message);
        md2_free(m);
        return 1;
    }
    return 0;
}
#endif

int main(int argc, char **argv)
{
#ifdef HAVE_POSIX
    if (argc == 3 && strcmp(argv[1], "--load-as-nobody") == 0)
        return load_as_nobody(argv[2]);
#endif
    if (argc > 0 && argv[0] && strchr(argv[0], '/'))
        self_path = argv[0];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_load_file),
        cmocka_unit_test(test_err_io),
        cmocka_unit_test(test_io_errors_say_why),
        cmocka_unit_test(test_endless_streams),
        cmocka_unit_test(test_stream_callback_errors),
        cmocka_unit_test(test_stream_in_small_chunks),
        cmocka_unit_test(test_stream_trailing_data_and_truncation),
        cmocka_unit_test(test_stream_lying_header_costs_little),
        cmocka_unit_test(test_stream_max_file_size),
        cmocka_unit_test(test_stream_memory_ceiling),
        cmocka_unit_test(test_err_out_of_memory_tiny),
        cmocka_unit_test(test_err_out_of_memory_corpus),
        cmocka_unit_test(test_truncated_at_every_offset),
        cmocka_unit_test(test_allocation_ceiling_tiny),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
