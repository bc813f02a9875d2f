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
 * mods ship PNG, TGA, JPEG or BMP instead of PCX; UFO:AI names a skin
 * ".body" for "body.* beside the model", and some models name no skin at
 * all (their skin has the model's own name). md2_skin_find() lists the
 * paths where such a skin may be, in a documented order, and asks a
 * callback of the caller's whether each exists: the library itself never
 * touches the file system here.
 *
 * md2_pcx_encode() is the inverse of md2_pcx_decode() for 8-bit images: it
 * writes an image of at most 256 colours, given as RGBA or as palette
 * indices with a palette, as an 8-bit run-length PCX (version 5) with its
 * 256-colour palette at the end, into a buffer of the caller's, and
 * md2_pcx_decode() reads the file back to the same pixels.
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

/** Widest image md2_pcx_encode() writes: a PCX scanline holds an even
 *  number of bytes (bytes_per_line, a 16-bit field), at most 65534. */
#define MD2_PCX_MAX_WIDTH 65534u
/** Tallest image md2_pcx_encode() writes (ymax = height - 1 is 16 bits). */
#define MD2_PCX_MAX_HEIGHT 65536u

/** An image for md2_pcx_encode(), in one of three forms (pixels row by row
 *  from the top, no padding, width * height of them):
 *   - indices and palette (rgba NULL): indices[i] is pixel i's entry of
 *     the palette (768 bytes: R, G, B of entries 0 to 255), written as
 *     they are: a tool keeps a game's palette and indices;
 *   - rgba and palette (indices NULL): pixel i's colour (rgba[4i] to
 *     rgba[4i + 2]) must be an entry of the palette, and is written as the
 *     first entry with that colour; the palette is written as it is;
 *   - rgba alone: the palette is made of the image's colours, in the order
 *     in which they first appear (pixel 0's colour is entry 0), the
 *     entries past the last colour black; at most 256 colours.
 *  rgba pixels must be opaque (rgba[4i + 3] == 255, as md2_pcx_decode()
 *  gives them): a PCX has no alpha. Zero-initialise the struct; the
 *  library reads it, and the arrays it points to, only during the call. */
typedef struct md2_pcx_input {
    uint32_t width;              /**< 1 to MD2_PCX_MAX_WIDTH */
    uint32_t height;             /**< 1 to MD2_PCX_MAX_HEIGHT */
    const uint8_t *rgba;         /**< width * height * 4 bytes, or NULL */
    const uint8_t *indices;      /**< width * height bytes, or NULL */
    const uint8_t *palette;      /**< 768 bytes, or NULL (only with rgba) */
    uintptr_t reserved_[4];      /**< must be zero (checked: "md2_pcx_input.reserved_[i]") */
} md2_pcx_input;

/** The size in bytes of the file md2_pcx_encode() would write for in, or 0
 *  if md2_pcx_encode() would refuse it (for a reason other than the
 *  buffer). Reads every pixel. Never allocates; thread-safe. */
MD2_API size_t md2_pcx_encode_size(const md2_pcx_input *in);

/** Writes in as an 8-bit PCX file into buffer (capacity bytes) and stores
 *  its size, md2_pcx_encode_size(in) bytes, in *written (written may be
 *  NULL; 0 on error). The file: a 128-byte header (manufacturer 0x0A,
 *  version 5, encoding 1, 8 bits per pixel, window (0, 0) to (width - 1,
 *  height - 1), 72 x 72 dpi, the palette's first 16 entries as the
 *  16-colour palette, 1 plane, bytes_per_line = width rounded up to even,
 *  palette_info 1, the rest zero); the scanlines, each of bytes_per_line
 *  bytes (an odd width's pad byte is index 0; md2_pcx_decode() drops it)
 *  and run-length encoded on its own (no run crosses a scanline): the
 *  longest runs of equal bytes, up to 63, each of 2 or more, and each byte
 *  of 0xC0 or more, as the pair 0xC0 | count, byte; any other byte as
 *  itself; then 0x0C and the 768-byte palette. So the size is at most
 *  897 + 2 * height * bytes_per_line, and md2_pcx_decode() of the file
 *  gives width x height pixels of the palette entries written, alpha 255:
 *  the rgba given, bit for bit.
 *  Errors, checked in this order (the pixels from the first), each
 *  described in *error when error is not NULL (section MD2_SECTION_NONE,
 *  the field, and for a pixel its number in index and the offset of its
 *  bytes in rgba); nothing is written to buffer on error:
 *  MD2_ERR_INVALID_ARGUMENT: "in" or "buffer" NULL; a reserved_ element
 *  not zero; "width" or "height" 0;
 *  MD2_ERR_LIMIT_EXCEEDED: "width" above MD2_PCX_MAX_WIDTH, "height" above
 *  MD2_PCX_MAX_HEIGHT, or (32-bit hosts) "height" where the largest file
 *  of that size, or rgba, would pass SIZE_MAX bytes;
 *  MD2_ERR_INVALID_ARGUMENT: "rgba" (both or neither of rgba and indices),
 *  "palette" (indices without it);
 *  for rgba, pixel by pixel: MD2_ERR_INVALID_ARGUMENT "rgba" (alpha not
 *  255; with a palette, a colour not in it); MD2_ERR_LIMIT_EXCEEDED "rgba"
 *  (without a palette, the first pixel of a 257th colour);
 *  MD2_ERR_BUFFER_TOO_SMALL: capacity below the file's size ("capacity").
 *  Never allocates; in and its arrays are only read; thread-safe. */
MD2_API md2_result md2_pcx_encode(const md2_pcx_input *in, void *buffer, size_t capacity,
                                  size_t *written, md2_diagnostic *error);

/** Called by md2_skin_find() with each candidate path (NUL-terminated, valid
 *  during the call). Returns nonzero to accept it (the file exists and is
 *  the one to use), 0 to go on. */
typedef int (*md2_path_fn)(void *user, const char *path);

/** Looks for the file of skin skin_name (as the model gives it, e.g.
 *  "models/monsters/tank/skin.pcx", "skin" or UFO:AI's ".body"; NULL for
 *  a model that names no skin) for the model at model_path: calls
 *  accept(user, path) with each candidate path below, in this order,
 *  until it returns nonzero. '/' and '\\' both separate directories in
 *  model_path, skin_name and game_root. "The five extensions" are .pcx,
 *  .png, .tga, .jpg and .bmp, in that order, each in place of the name's
 *  own extension (its last '.' and what follows, unless that '.' starts
 *  the file name) or added when it has none.
 *    1. In the game root, if there is one: root "/" skin_name, then root
 *       "/" skin_name with each of the five extensions. The root is
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
 *       the five extensions.
 *  Two kinds of name are looked for beside the model only, as the games
 *  that write them do:
 *   - a skin_name that starts with '.' followed by a character other than
 *     '.' or a separator (UFO:AI's ".body", ".assault": "this name, beside
 *     the model"): no game-root candidates, and the file name beside the
 *     model is the name without its leading '.': for model
 *     "soldiers/body.md2" and skin ".body", "soldiers/body", then
 *     "soldiers/body.pcx", ".png", ".tga", ".jpg", ".bmp";
 *   - skin_name NULL (the model names no skin, as Irrlicht's sydney.md2):
 *     the model's own file name with each of the five extensions in place
 *     of its own ("media/sydney.pcx" ... "media/sydney.bmp" for model
 *     "media/sydney.md2"), never the model's own path.
 *  A candidate equal to an earlier one ('/' and '\\' counting as equal) is
 *  not offered again, so at most 12 calls are made. Example: model
 *  "/q2/baseq2/models/x/tris.md2", skin "models/x/skin.pcx", game_root
 *  NULL: "/q2/baseq2/models/x/skin.pcx", then ".png", ".tga", ".jpg",
 *  ".bmp" in place of ".pcx" (the other candidates repeat these).
 *  On success the accepted path is copied to found (found_size bytes;
 *  found may be NULL) and MD2_OK returned; on error found (if not NULL and
 *  found_size > 0) holds "". Errors: MD2_ERR_INVALID_ARGUMENT (NULL
 *  model_path or accept; a skin_name with no file name: "", ending with a
 *  separator, "." or ".."; skin_name NULL and a model_path that ends with
 *  a separator or is ""); MD2_ERR_BUFFER_TOO_SMALL (a candidate does not
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
