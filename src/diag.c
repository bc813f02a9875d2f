/*
 * Diagnostics and allocation: the default allocator, error and quirk
 * reports, and the strings that name versions, results, warnings and
 * sections.
 *
 * SPDX-License-Identifier: MIT
 */
#include "diag.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MD2_STR2(x) #x
#define MD2_STR(x) MD2_STR2(x)

const char *md2_version_string(void)
{
    return MD2_STR(MD2_VERSION_MAJOR) "." MD2_STR(MD2_VERSION_MINOR) "." MD2_STR(
        MD2_VERSION_PATCH);
}

const char *md2_result_string(md2_result r)
{
    switch (r) {
    case MD2_OK: return "success";
    case MD2_ERR_INVALID_ARGUMENT: return "invalid argument";
    case MD2_ERR_OUT_OF_MEMORY: return "out of memory";
    case MD2_ERR_IO: return "input/output error";
    case MD2_ERR_TRUNCATED_HEADER: return "data shorter than its header (68 bytes for MD2, 128 for PCX)";
    case MD2_ERR_BAD_MAGIC: return "not an MD2 file (ident is not IDP2), or not a PCX image";
    case MD2_ERR_BAD_VERSION: return "unsupported version (MD2: not 8) or PCX encoding";
    case MD2_ERR_BAD_COUNT: return "negative count in the header";
    case MD2_ERR_BAD_SKIN_SIZE: return "invalid skin width or height";
    case MD2_ERR_BAD_FRAMESIZE: return "invalid frame size";
    case MD2_ERR_NO_VERTICES: return "model has no vertices";
    case MD2_ERR_NO_FRAMES: return "model has no frames";
    case MD2_ERR_LIMIT_EXCEEDED: return "count exceeds a limit";
    case MD2_ERR_SECTION_OUT_OF_BOUNDS: return "section lies outside the data";
    case MD2_ERR_SECTION_OVERLAP: return "sections overlap";
    case MD2_ERR_BAD_OFS_END: return "ofs_end does not match the data size";
    case MD2_ERR_UNTERMINATED_NAME: return "name without terminating NUL";
    case MD2_ERR_BAD_VERTEX_INDEX: return "triangle vertex index out of range";
    case MD2_ERR_BAD_TEXCOORD_INDEX: return "triangle texcoord index out of range";
    case MD2_ERR_BAD_NORMAL_INDEX: return "normal index out of range";
    case MD2_ERR_BAD_GLCMDS: return "malformed GL command list";
    case MD2_ERR_GLCMDS_UNTERMINATED: return "GL command list lacks its terminating 0";
    case MD2_ERR_FRAME_RANGE: return "frame number out of range";
    case MD2_ERR_BUFFER_TOO_SMALL: return "output buffer too small";
    case MD2_ERR_INVALID_MODEL: return "model breaks a rule of the MD2 format";
    case MD2_ERR_PARSE_SIDEFILE: return "malformed line in an animation side file";
    case MD2_ERR_NOT_FOUND: return "not found (no animation has that name, or no skin file)";
    case MD2_ERR_BAD_FRAME_TRANSFORM: return "frame scale or translate (or tag axis or origin) not finite or too large";
    case MD2_ERR_BAD_OFFSET: return "tag file offset disagrees with the layout its counts give";
    case MD2_RESULT_COUNT_: break;
    }
    return "unknown md2_result";
}

const char *md2_warning_string(uint32_t warning)
{
    switch (warning) {
    case MD2_WARN_OFS_END: return "ofs_end does not match the data size";
    case MD2_WARN_FRAMESIZE_PADDED: return "frames padded beyond 40 + 4 * num_xyz bytes";
    case MD2_WARN_SKIN_SIZE_ZERO: return "skin width or height is zero";
    case MD2_WARN_UNTERMINATED_NAME: return "name without terminating NUL";
    case MD2_WARN_VERTEX_INDEX: return "triangle with a vertex index out of range dropped";
    case MD2_WARN_TEXCOORD_INDEX: return "triangle with a texcoord index out of range dropped";
    case MD2_WARN_NORMAL_INDEX: return "normal index out of range (decodes as the fallback)";
    case MD2_WARN_GLCMDS_INVALID: return "GL command list cut before a malformed command";
    case MD2_WARN_GLCMDS_UNTERMINATED: return "GL command list lacked its terminating 0";
    case MD2_WARN_GLCMDS_TRAILING: return "words after the GL command list's terminating 0 ignored";
    case MD2_WARN_FRAME_TRANSFORM: return "frame scale or translate not finite or too large (axis zeroed)";
    case MD2_WARN_ANIM_RATE_ZERO: return "animation rate of 0 (the animation holds its first frame)";
    case MD2_WARN_FRAME_COUNT: return "tag file or linked model with another frame count than its model (frames past its last are clamped)";
    case MD2_WARN_PROFILE_LIMIT: return "model exceeds a limit of another engine than the chosen profile";
    case MD2_WARN_NAME_CUT: return "animation name cut so that its frame names fit 16 bytes";
    case MD2_WARN_ANIM_NAMES: return "frame names do not give an animation back as it was given (merged, split or renamed)";
    case MD2_WARN_SAME_NORMALS: return "every vertex has the same normal index (flat lighting; games recompute the normals)";
    default: break;
    }
    return "unknown or combined md2_warning";
}

md2_result md2__warning_error(uint32_t warning)
{
    switch (warning) {
    case MD2_WARN_OFS_END: return MD2_ERR_BAD_OFS_END;
    case MD2_WARN_FRAMESIZE_PADDED: return MD2_ERR_BAD_FRAMESIZE;
    case MD2_WARN_SKIN_SIZE_ZERO: return MD2_ERR_BAD_SKIN_SIZE;
    case MD2_WARN_UNTERMINATED_NAME: return MD2_ERR_UNTERMINATED_NAME;
    case MD2_WARN_VERTEX_INDEX: return MD2_ERR_BAD_VERTEX_INDEX;
    case MD2_WARN_TEXCOORD_INDEX: return MD2_ERR_BAD_TEXCOORD_INDEX;
    case MD2_WARN_NORMAL_INDEX: return MD2_ERR_BAD_NORMAL_INDEX;
    case MD2_WARN_GLCMDS_INVALID: return MD2_ERR_BAD_GLCMDS;
    case MD2_WARN_GLCMDS_UNTERMINATED: return MD2_ERR_GLCMDS_UNTERMINATED;
    case MD2_WARN_GLCMDS_TRAILING: return MD2_ERR_BAD_GLCMDS;
    case MD2_WARN_FRAME_TRANSFORM: return MD2_ERR_BAD_FRAME_TRANSFORM;
    case MD2_WARN_ANIM_RATE_ZERO: return MD2_ERR_PARSE_SIDEFILE;
    case MD2_WARN_FRAME_COUNT: return MD2_ERR_FRAME_RANGE;
    case MD2_WARN_PROFILE_LIMIT: return MD2_ERR_LIMIT_EXCEEDED;
    default: break;
    }
    return MD2_ERR_INVALID_ARGUMENT;
}

const char *md2_section_string(md2_section s)
{
    switch (s) {
    case MD2_SECTION_NONE: return "none";
    case MD2_SECTION_HEADER: return "header";
    case MD2_SECTION_SKINS: return "skins";
    case MD2_SECTION_TEXCOORDS: return "texcoords";
    case MD2_SECTION_TRIANGLES: return "triangles";
    case MD2_SECTION_FRAMES: return "frames";
    case MD2_SECTION_GLCMDS: return "glcmds";
    case MD2_SECTION_SIDEFILE: return "side file";
    case MD2_SECTION_TAGS: return "tag file";
    }
    return "unknown section";
}

static void *md2_default_alloc(void *user, size_t size)
{
    (void)user;
    return malloc(size);
}

static void md2_default_free(void *user, void *ptr)
{
    (void)user;
    free(ptr);
}

md2_allocator md2__allocator(const md2_options *opts)
{
    md2_allocator a;
    if (opts && opts->allocator.alloc && opts->allocator.free)
        return opts->allocator;
    a.alloc = md2_default_alloc;
    a.free = md2_default_free;
    a.user = NULL;
    return a;
}

void md2__diag_clear(md2_diagnostic *d)
{
    if (!d)
        return;
    memset(d, 0, sizeof *d);
    d->result = MD2_OK;
    d->section = MD2_SECTION_NONE;
    d->field = "";
}

void md2__vformat(md2_diagnostic *d, const char *fmt, va_list ap)
{
    int n = vsnprintf(d->message, sizeof d->message, fmt, ap);
    if (n < 0)
        d->message[0] = '\0';
}

int md2__quirk_heard(const md2_options *opts, uint32_t flag)
{
    if (!opts)
        return 0;
    return opts->on_warning || ((opts->strict & flag) && opts->error);
}

md2_result md2__quirk_report(const md2_options *opts, uint32_t flag, md2_diagnostic *d)
{
    int is_error = opts && (opts->strict & flag) != 0;

    d->result = is_error ? md2__warning_error(flag) : MD2_OK;
    d->warning = is_error ? 0u : flag;
    if (is_error) {
        if (opts->error)
            *opts->error = *d;
        return d->result;
    }
    if (opts && opts->on_warning)
        opts->on_warning(opts->warning_user, d);
    return MD2_OK;
}

md2_result md2__vquirk(const md2_options *opts, uint32_t flag, int mute,
                       md2_section section, const char *field, size_t offset,
                       size_t index, const char *fmt, va_list ap)
{
    md2_diagnostic d;
    int is_error = opts && (opts->strict & flag) != 0;

    if (mute && !is_error)
        return MD2_OK;
    if (!md2__quirk_heard(opts, flag))
        return is_error ? md2__warning_error(flag) : MD2_OK;
    md2__diag_clear(&d);
    d.section = section;
    d.field = field;
    d.offset = offset;
    d.index = index;
    md2__vformat(&d, fmt, ap);
    return md2__quirk_report(opts, flag, &d);
}

md2_result md2__vfail(md2_diagnostic *d, md2_result r, md2_section section,
                      const char *field, size_t offset, size_t index, const char *fmt,
                      va_list ap)
{
    if (!d)
        return r;
    md2__diag_clear(d);
    d->result = r;
    d->section = section;
    d->field = field;
    d->offset = offset;
    d->index = index;
    md2__vformat(d, fmt, ap);
    return r;
}

md2_result md2__fail(md2_diagnostic *d, md2_result r, md2_section section,
                     const char *field, size_t offset, size_t index,
                     const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    r = md2__vfail(d, r, section, field, offset, index, fmt, ap);
    va_end(ap);
    return r;
}
