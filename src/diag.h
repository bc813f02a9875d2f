/*
 * Tier 1 of the private headers: diagnostics, allocation and the few
 * portability facts every source file may need (not installed).
 *
 * The private headers come in tiers, each including only those below it
 * (tests/abi/tiers.cmake checks it):
 *   1 diag.h, round.h,           diagnostics and allocation; float rounding;
 *     reserved.h                 the checks of reserved_ members
 *   2 format.h, reader.h,        the file format and reading it; GL
 *     normal_scan.h, strips.h,   command strips and the builder's frames
 *     build_frames.h
 *   3 pose.h, pose_rows.h        pose jobs and their kernels
 *   4 player.h                   players (<md2/animation.h>)
 *   5 (<md2/mesh.h>)             meshes: no private header of their own
 *   6 attach.h                   tags and attachments (<md2/tags.h>,
 *                                <md2/bundle.h>)
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_DIAG_H
#define MD2_DIAG_H

#include "md2/md2.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Returns from the calling function with expr's result unless it is MD2_OK. */
#define MD2_TRY(expr)                                                         \
    do {                                                                      \
        md2_result md2_try_r_ = (expr);                                       \
        if (md2_try_r_ != MD2_OK)                                             \
            return md2_try_r_;                                                \
    } while (0)

/* Alignment of a type in C99 (C++, which compiles single_include/md2_single.h's
 * implementation too, defines no type inside offsetof: it has alignof). */
#if defined(__cplusplus) && __cplusplus >= 201103L
#define MD2_ALIGNOF(type) alignof(type)
#else
#define MD2_ALIGNOF(type) offsetof(struct { char c; type member; }, member)
#endif

/* 1 on a little-endian host, where the model's int16/uint16/int32 arrays
 * hold a file's bytes as they are. */
static inline int md2__host_little_endian(void)
{
    const uint16_t one = 1;
    unsigned char first;
    memcpy(&first, &one, 1);
    return first == 1;
}

/* The allocator to use for opts (malloc/free when unset). */
md2_allocator md2__allocator(const md2_options *opts);

/* Resets d (if not NULL) to "no error": result MD2_OK, field "", zeros. */
void md2__diag_clear(md2_diagnostic *d);

/* Fills d (if not NULL) with an error and a formatted message. Returns r. */
md2_result md2__fail(md2_diagnostic *d, md2_result r, md2_section section,
                     const char *field, size_t offset, size_t index,
                     const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 7, 8)))
#endif
    ;

/* md2__fail() with its arguments in ap. */
md2_result md2__vfail(md2_diagnostic *d, md2_result r, md2_section section,
                      const char *field, size_t offset, size_t index, const char *fmt,
                      va_list ap);

/* 1 if anyone reads a report of quirk flag: an on_warning callback, or an
 * error diagnostic when the flag is strict. */
int md2__quirk_heard(const md2_options *opts, uint32_t flag);
/* Delivers the quirk described by d (where and message filled in): sets
 * d's result and warning, then fills opts->error and returns the strict
 * error when the flag is strict, else calls on_warning and returns MD2_OK. */
md2_result md2__quirk_report(const md2_options *opts, uint32_t flag, md2_diagnostic *d);

/* Reports quirk flag (a single md2_warning) found at section/field/offset/
 * index: with the flag in opts->strict, fills opts->error and returns the
 * strict error (md2__warning_error()); otherwise calls opts->on_warning,
 * unless mute, and returns MD2_OK. The message is formatted only when
 * someone will read it. The caller records the flag in its warnings. */
md2_result md2__vquirk(const md2_options *opts, uint32_t flag, int mute,
                       md2_section section, const char *field, size_t offset,
                       size_t index, const char *fmt, va_list ap);

/* Formats into d->message (helper of md2__fail and the warning path). */
void md2__vformat(md2_diagnostic *d, const char *fmt, va_list ap);

/* The error code that strict mode gives for one warning flag. */
md2_result md2__warning_error(uint32_t warning);

/* The operating system's reason for errno value e, in our own words
 * ("no such file or directory"); never NULL. Thread-safe (load.c). */
const char *md2__errno_text(int e);

#endif /* MD2_DIAG_H */
