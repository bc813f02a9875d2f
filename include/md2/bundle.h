/*
 * libmd2 - a model and its side files in one call: the bundle loader.
 *
 * SPDX-License-Identifier: MIT
 *
 * Overview
 * --------
 * md2_bundle_load() loads a model and the side files found beside it, all
 * through one read callback (a folder, an archive, memory):
 * the animations of its UFO:AI .anm or DarkPlaces .framegroups file (else
 * from its frame names) and the tags of its UFO:AI .tag file.
 * md2_bundle_load_file() does it from the file system, and
 * md2_bundle_load_stream() reads the model as a stream. One
 * md2_bundle_free() releases it all (docs/animation.md, "A model and its
 * side files in one call").
 *
 * The bundle's tags are an md2_tags, which this header only names (so that
 * it needs no more than <md2/animation.h>): include <md2/tags.h>, which
 * includes this header, to read them or to pass them to md2_tag_lerp() and
 * md2_player_tag(). (libmd2 1.0 declared all of this in <md2/tags.h>.)
 *
 * Memory: md2_bundle_load() makes one allocation per file it reads (freed
 * before it returns) plus the model, the tags and the bundle.
 *
 * Thread safety: no global state. A bundle is immutable; any number of
 * threads may read it at the same time.
 */
#ifndef MD2_BUNDLE_H
#define MD2_BUNDLE_H

#include "animation.h"
#include "md2.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Parsed tags: a UFO:AI .tag file, declared in <md2/tags.h>, which
 *  includes this header. The struct is complete only there; here it is a
 *  name, which is all a bundle needs. */
typedef struct md2_tags md2_tags;

/** Returned by an md2_file_fn: there is no file at that path. */
#define MD2_FILE_MISSING ((size_t)-1)
/** Returned by an md2_file_fn: the file exists but cannot be read. */
#define MD2_FILE_ERROR ((size_t)-2)

/** Reads whole files for md2_bundle_load(), from a folder, an archive or
 *  memory. Called twice per file: first with dst NULL and capacity the
 *  largest size the library accepts (it may stop counting there and return
 *  any larger value), to learn the file's size in bytes; then, with that
 *  many bytes at dst, to copy the file into dst and return its size again.
 *  Returns MD2_FILE_MISSING if there is no file at path and MD2_FILE_ERROR
 *  if it cannot be read. path is NUL-terminated and valid during the call. */
typedef size_t (*md2_file_fn)(void *user, const char *path, void *dst,
                              size_t capacity);

/** Where a bundle's animations come from. */
typedef enum md2_anim_source {
    MD2_ANIMS_FROM_NAMES = 0,    /**< md2_anims_from_names(): no side file */
    MD2_ANIMS_FROM_ANM,          /**< the UFO:AI .anm file */
    MD2_ANIMS_FROM_FRAMEGROUPS   /**< the DarkPlaces .framegroups file */
} md2_anim_source;

/** md2_bundle.files: which side files were found and loaded. */
#define MD2_BUNDLE_ANM 1u
#define MD2_BUNDLE_FRAMEGROUPS 2u
#define MD2_BUNDLE_TAG 4u

/** A model loaded with its side files: one md2_bundle_free() releases it
 *  all. Immutable. Output only: no function reads a bundle back but
 *  md2_bundle_free() (its model, anims and tags are checked like any
 *  other, and have their reserved_ zero). */
typedef struct md2_bundle {
    const md2_model *model;      /**< the model (never NULL) */
    const md2_anim *anims;       /**< num_anims animations (NULL if none) */
    size_t num_anims;
    md2_anim_source anim_source; /**< where anims come from */
    const md2_tags *tags;        /**< the .tag file (<md2/tags.h>), or NULL without one */
    uint32_t files;              /**< MD2_BUNDLE_* flags of the side files read */
    uint32_t warnings;           /**< md2_warning flags raised by any of the files */
    md2_allocator allocator_;    /**< private: how the bundle is freed */
    uintptr_t reserved_[4];      /**< written as zero: room for new fields (output only: not checked) */
} md2_bundle;

/** Loads the model at model_path and the side files beside it, all read
 *  through read(user, ...), and stores in *out a bundle the caller owns
 *  (md2_bundle_free()). The side files have the model's path with its
 *  extension (the last '.' and what follows, unless that '.' starts the
 *  file name; none: added) replaced by ".anm", ".framegroups" and ".tag",
 *  in upper case (".ANM", ...) when the model's extension has letters and
 *  all of them are upper case ("BODY.MD2"). '/' and '\\' both separate
 *  directories.
 *  What is loaded: the model (md2_parse()); the animations from the .anm
 *  file if there is one, else from the .framegroups file if there is one
 *  (the other is then not read), else from the frame names, with ranges
 *  checked against the model; the tags from the .tag file if there is one
 *  (md2_tags_parse()), checked against the model's frame count
 *  (md2_tags_check()). A side file that is missing is fine; one that is
 *  there but cannot be read or parsed is an error, in lenient and strict
 *  mode alike (its quirks follow opts as usual).
 *  opts (may be NULL) applies to every file: allocator, limits (each
 *  file's size, asked before it is read, against max_file_size, or
 *  MD2_MAX_DATA_SIZE without one), strict,
 *  error and on_warning; messages of errors and warnings start with the
 *  file's path ("soldier.anm: line 3, column 9: ..."), and the other
 *  fields are the parser's.
 *  Errors: MD2_ERR_INVALID_ARGUMENT (model_path, read or out NULL);
 *  MD2_ERR_IO (the model is missing, a file cannot be read, or a file's
 *  size changed between the two calls; field "path"); any error of the
 *  parsers; MD2_ERR_LIMIT_EXCEEDED; MD2_ERR_OUT_OF_MEMORY. On error *out is
 *  NULL and nothing leaks. Thread-safe if read is. */
MD2_API md2_result md2_bundle_load(const char *model_path, md2_file_fn read,
                                   void *user, const md2_options *opts,
                                   md2_bundle **out);

/** md2_bundle_load() from the file system, through the C library's fopen
 *  and fread, with the model read as md2_load_file() reads it (the header
 *  first, bounded, one pass: md2_bundle_load_stream()): a file that fopen
 *  cannot open because it does not exist
 *  (ENOENT) is missing; any other failure to open or read is MD2_ERR_IO,
 *  and its message ends with the operating system's reason, in
 *  md2_load_file()'s words ("x.tag: the file exists but cannot be read:
 *  is a directory"). */
MD2_API md2_result md2_bundle_load_file(const char *model_path,
                                        const md2_options *opts,
                                        md2_bundle **out);

/** The reason a read callback failed, for messages ("is a directory");
 *  called with the callback's user pointer right after it failed. */
typedef const char *(*md2_why_fn)(void *user);

/** md2_bundle_load() with the model read as a stream, through
 *  read_model(model_user, ...), the way md2_load_stream() reads it: the
 *  68-byte header first (a stream that is not an MD2 file is refused after
 *  it), then only as far as the header describes (plus one byte, to learn
 *  whether more follows), in one pass: pipes work, and a huge file costs
 *  what its model needs. The side files beside model_path are read through
 *  read(user, ...) as md2_bundle_load() reads them. why (may be NULL) says
 *  why a call failed: why(user) after read returned MD2_FILE_ERROR,
 *  why(model_user) after read_model returned MD2_READ_ERROR; its text ends
 *  the message ("body.tag: the file exists but cannot be read: is a
 *  directory"). Messages start with model_path as md2_bundle_load()'s do.
 *  Errors: those of md2_bundle_load() (MD2_ERR_INVALID_ARGUMENT also for
 *  read_model NULL) and of md2_load_stream(). Thread-safe if the callbacks
 *  are. */
MD2_API md2_result md2_bundle_load_stream(const char *model_path,
                                          md2_read_fn read_model,
                                          void *model_user, md2_file_fn read,
                                          void *user, md2_why_fn why,
                                          const md2_options *opts,
                                          md2_bundle **out);

/** Releases a bundle and everything in it. NULL is a no-op. */
MD2_API void md2_bundle_free(md2_bundle *bundle);

#ifdef __cplusplus
}
#endif

#endif /* MD2_BUNDLE_H */
