/*
 * libmd2 - skins: PCX images decoded to RGBA, and the search for a skin
 * file from the name a model gives.
 *
 * SPDX-License-Identifier: MIT
 *
 * Overview
 * --------
 * Quake II skins are PCX files: 8-bit run-length pixels with a 256-colour
 * palette at the end (some tools write 24-bit PCX with three colour planes
 * instead). md2_pcx_decode() reads both into an md2_image of RGBA bytes,
 * with the same care as the model parser: every size and offset is checked
 * against the data, limits and the allocator come from md2_options, and a
 * bad file gets a specific error with a diagnostic that names the byte.
 *
 * A model names its skins as paths relative to the game's root
 * ("models/monsters/tank/skin.pcx"), sometimes without an extension, and
 * mods ship PNG, TGA or JPEG instead of PCX. md2_skin_find() lists the
 * paths where such a skin may be, in a documented order, and asks a
 * callback of the caller's whether each exists: the library itself never
 * touches the file system here.
 *
 * Thread safety: no global state; an image is immutable.
 */
#ifndef MD2_SKIN_H
#define MD2_SKIN_H

#include "md2.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Longest candidate path md2_skin_find() builds, with its NUL. */
#define MD2_SKIN_PATH_MAX 1024

/** An RGBA image: width * height pixels of 4 bytes (red, green, blue,
 *  alpha), rows from the top of the image down, no padding. Made by
 *  md2_pcx_decode() (width and height are then at least 1), released by
 *  md2_image_free(). Output only: no function reads an image back but
 *  md2_image_free(), which releases it whatever its reserved_ hold. */
typedef struct md2_image {
    uint32_t width;
    uint32_t height;
    const uint8_t *rgba;          /**< width * height * 4 bytes */
    md2_allocator allocator_;     /**< private: how the image is freed */
    uintptr_t reserved_[4];       /**< written as zero: room for new fields (output only: not checked) */
} md2_image;

/** Decodes a PCX file held in memory into a new RGBA image in *out: one
 *  allocation through opts->allocator (opts may be NULL), made after every
 *  check below has passed. data is not kept. Alpha is 255 everywhere.
 *  Reads the two layouts of Quake II skins, both run-length encoded
 *  (encoding 1) with 8 bits per pixel, any version 0, 2, 3, 4 or 5:
 *   - 1 plane: palette indices, with the 256-colour palette in the last
 *     769 bytes (the marker 0x0C, then 768 R, G, B bytes); the run-length
 *     data lies between the 128-byte header and that marker;
 *   - 3 planes: each scanline holds its R, then G, then B bytes; bytes
 *     after the pixels are ignored.
 *  Size: width = xmax - xmin + 1 (1 to 65535, as bytes_per_line is at
 *  least the width), height = ymax - ymin + 1 (1 to 65536).
 *  The pixels are decoded as one run-length stream of height * nplanes *
 *  bytes_per_line bytes, as common decoders do: runs may cross scanlines
 *  and planes, pad bytes past the width of a line (bytes_per_line may be
 *  larger than the width, even or odd) are dropped, and a last run that
 *  goes past the image is cut. The header's 16-colour palette, DPI and
 *  palette_info are not used. No warnings are reported (on_warning and
 *  strict play no part): those quirks are accepted, everything else below
 *  is an error.
 *  Memory: opts->limits.max_file_size bounds size, and the image needs at
 *  least one byte of data for every 63 bytes it decodes (the longest run),
 *  so the allocation is at most sizeof(md2_image) plus 126 times size (4
 *  bytes a pixel, 63 pixels from 2 bytes).
 *  Errors (*out is set to NULL; opts->error, if set, has section
 *  MD2_SECTION_NONE, the field, the byte offset and a message):
 *  MD2_ERR_INVALID_ARGUMENT (data or out NULL);
 *  MD2_ERR_TRUNCATED_HEADER (under 128 bytes: "header");
 *  MD2_ERR_BAD_MAGIC (byte 0 is not 0x0A: "manufacturer");
 *  MD2_ERR_BAD_VERSION (a layout other than the two above: "version",
 *  "encoding", "bits_per_pixel", "nplanes");
 *  MD2_ERR_BAD_COUNT (xmax < xmin, ymax < ymin, or bytes_per_line below
 *  the width: "xmax", "ymax", "bytes_per_line");
 *  MD2_ERR_LIMIT_EXCEEDED (size above max_file_size: "max_file_size");
 *  MD2_ERR_SECTION_OUT_OF_BOUNDS ("palette": an 8-bit file too short for
 *  its palette, or without the 0x0C marker 769 bytes before its end;
 *  "pixels": the run-length data, up to the palette or the end, holds
 *  fewer bytes than the image needs, offset where it ran out);
 *  MD2_ERR_OUT_OF_MEMORY. Nothing leaks on error. Thread-safe. */
MD2_API md2_result md2_pcx_decode(const void *data, size_t size,
                                  const md2_options *opts, md2_image **out);

/** Releases an image from md2_pcx_decode() with the allocator it was made
 *  with. NULL is a no-op. */
MD2_API void md2_image_free(md2_image *image);

/** Called by md2_skin_find() with each candidate path (NUL-terminated, valid
 *  during the call). Returns nonzero to accept it (the file exists and is
 *  the one to use), 0 to go on. */
typedef int (*md2_path_fn)(void *user, const char *path);

/** Looks for the file of skin skin_name (as the model gives it, e.g.
 *  "models/monsters/tank/skin.pcx" or "skin") for the model at model_path:
 *  calls accept(user, path) with each candidate path below, in this order,
 *  until it returns nonzero. '/' and '\\' both separate directories in
 *  model_path, skin_name and game_root. "The four extensions" are .pcx,
 *  .png, .tga and .jpg, in that order, each in place of the name's own
 *  extension (its last '.' and what follows, unless that '.' starts the
 *  file name) or added when it has none.
 *    1. In the game root, if there is one: root "/" skin_name, then root
 *       "/" skin_name with each of the four extensions. The root is
 *       game_root ("" for the current directory; no "/" is added after a
 *       root that ends with a separator); when game_root is NULL, the part
 *       of model_path before the skin's own directory, if model_path's
 *       directory ends with it (at a separator; case-sensitive): "/q2/baseq2/"
 *       for model "/q2/baseq2/models/x/tris.md2" and skin
 *       "models/x/skin.pcx". No root otherwise (the skin has no
 *       directory, or the model is elsewhere). A skin_name that is not a
 *       plain relative path (it starts with a separator or a drive letter
 *       such as "C:", or has a ".." component) gets no game-root
 *       candidates, so a model cannot point outside the root.
 *    2. Beside the model: model_path's directory (up to and including its
 *       last separator; "" when it has none) followed by skin_name's file
 *       name (what follows its last separator), as it is, then with each of
 *       the four extensions.
 *  A candidate equal to an earlier one ('/' and '\\' counting as equal) is
 *  not offered again, so at most 10 calls are made. Example: model
 *  "/q2/baseq2/models/x/tris.md2", skin "models/x/skin.pcx", game_root
 *  NULL: "/q2/baseq2/models/x/skin.pcx", then ".png", ".tga", ".jpg" in
 *  place of ".pcx" (the other candidates repeat these).
 *  On success the accepted path is copied to found (found_size bytes;
 *  found may be NULL) and MD2_OK returned; on error found (if not NULL and
 *  found_size > 0) holds "". Errors: MD2_ERR_INVALID_ARGUMENT (NULL model_path,
 *  skin_name or accept; a skin_name with no file name: "", ending with a
 *  separator, "." or ".."); MD2_ERR_BUFFER_TOO_SMALL (a candidate does not
 *  fit in MD2_SKIN_PATH_MAX bytes: checked before accept is first called;
 *  or the accepted path does not fit in found_size bytes);
 *  MD2_ERR_NOT_FOUND (no candidate accepted). No diagnostic, no
 *  allocation, no file-system access; thread-safe. */
MD2_API md2_result md2_skin_find(const char *model_path, const char *skin_name,
                                 const char *game_root, md2_path_fn accept,
                                 void *user, char *found, size_t found_size);

#ifdef __cplusplus
}
#endif

#endif /* MD2_SKIN_H */
