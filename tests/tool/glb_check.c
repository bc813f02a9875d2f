/*
 * glb_check: the container of a .glb file written by md2 export, for the
 * md2 command's test tables: the header (magic "glTF", version 2, the
 * file's length), a JSON chunk then a BIN chunk, each a multiple of 4
 * bytes, filling the file, and buffer 0 no longer than the BIN chunk. Reads
 * the JSON with cJSON (libcjson-dev). Test-only.
 *
 *   glb_check FILE [--images N] [--model MODEL.md2 --ratio R]
 *
 * --images: FILE must embed N images. --model, --ratio: FILE less its
 * embedded image must be at most R times the size of MODEL.md2 (the ratio
 * is printed). Exit 0 when all holds, 1 otherwise, 2 for a bad command line.
 *
 * SPDX-License-Identifier: MIT
 */
#include <cjson/cJSON.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long u32(const unsigned char *p)
{
    return (unsigned long)p[0] | (unsigned long)p[1] << 8 | (unsigned long)p[2] << 16 |
           (unsigned long)p[3] << 24;
}

static unsigned char *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    unsigned char *data = NULL;
    size_t cap = 0, got;
    *size = 0;
    if (!f)
        return NULL;
    do {
        if (*size == cap) {
            unsigned char *p;
            cap = cap ? cap * 2 : 65536;
            p = (unsigned char *)realloc(data, cap);
            if (!p) {
                free(data);
                fclose(f);
                return NULL;
            }
            data = p;
        }
        got = fread(data + *size, 1, cap - *size, f);
        *size += got;
    } while (got > 0);
    fclose(f);
    return data;
}

static int fail(const char *file, const char *what)
{
    printf("glb_check: %s: %s\n", file, what);
    return 1;
}

static int check(const char *file, const unsigned char *d, size_t size, long images,
                 const char *model, double ratio)
{
    unsigned long json_len, bin_len, bin_at, image_bytes = 0;
    int num_images = 0;
    char msg[512];
    cJSON *json;
    const cJSON *buffer, *imgs;
    if (size < 28 || u32(d) != 0x46546C67ul) /* "glTF" */
        return fail(file, "not a GLB file");
    if (u32(d + 4) != 2)
        return fail(file, "not GLB version 2");
    if (u32(d + 8) != size) {
        snprintf(msg, sizeof msg, "the header says %lu bytes, the file has %lu", u32(d + 8),
                 (unsigned long)size);
        return fail(file, msg);
    }
    json_len = u32(d + 12);
    if (u32(d + 16) != 0x4E4F534Aul) /* "JSON" */
        return fail(file, "the first chunk is not JSON");
    bin_at = 20 + json_len;
    if (json_len > size - 28 || u32(d + bin_at + 4) != 0x004E4942ul) /* "BIN\0" */
        return fail(file, "the second chunk is not BIN");
    bin_len = u32(d + bin_at);
    if (bin_at + 8 + bin_len != size || json_len % 4 || bin_len % 4) {
        snprintf(msg, sizeof msg, "chunks of %lu and %lu bytes do not fill its %lu bytes in "
                 "4-byte steps", json_len, bin_len, (unsigned long)size);
        return fail(file, msg);
    }
    json = cJSON_ParseWithLength((const char *)d + 20, json_len);
    if (!json)
        return fail(file, "the JSON chunk is not JSON");
    buffer = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(json, "buffers"), 0);
    buffer = cJSON_GetObjectItemCaseSensitive(buffer, "byteLength");
    if (!cJSON_IsNumber(buffer) || buffer->valuedouble > (double)bin_len) {
        cJSON_Delete(json);
        return fail(file, "buffer 0 has no byteLength, or more bytes than the BIN chunk");
    }
    imgs = cJSON_GetObjectItemCaseSensitive(json, "images");
    num_images = cJSON_GetArraySize(imgs);
    if (num_images > 0) {
        const cJSON *view = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(imgs, 0),
                                                             "bufferView");
        const cJSON *len = cJSON_GetObjectItemCaseSensitive(
            cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(json, "bufferViews"),
                               cJSON_IsNumber(view) ? view->valueint : -1),
            "byteLength");
        if (!cJSON_IsNumber(len)) {
            cJSON_Delete(json);
            return fail(file, "image 0 has no buffer view with a byteLength");
        }
        image_bytes = (unsigned long)len->valuedouble;
    }
    cJSON_Delete(json);
    printf("glb_check: %s: GLB 2, %lu bytes: JSON %lu, BIN %lu, image %lu\n", file,
           (unsigned long)size, json_len, bin_len, image_bytes);
    if (images >= 0 && num_images != images) {
        snprintf(msg, sizeof msg, "%d embedded images, expected %ld", num_images, images);
        return fail(file, msg);
    }
    if (model) {
        FILE *f = fopen(model, "rb");
        long model_size;
        double geometry = (double)size - (double)image_bytes;
        if (!f || fseek(f, 0, SEEK_END) != 0 || (model_size = ftell(f)) <= 0) {
            if (f)
                fclose(f);
            return fail(model, "cannot tell its size");
        }
        fclose(f);
        printf("glb_check: %s less its image: %.0f bytes = %.2f times %s (%ld bytes); at most "
               "%g times allowed\n", file, geometry, geometry / (double)model_size, model,
               model_size, ratio);
        if (geometry > ratio * (double)model_size) {
            snprintf(msg, sizeof msg, "%.0f bytes without its image, more than %g times the "
                     "model's %ld", geometry, ratio, model_size);
            return fail(file, msg);
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *file = NULL, *model = NULL;
    long images = -1;
    double ratio = 0.0;
    unsigned char *data;
    size_t size;
    int i, status, bad = 0;
    for (i = 1; i < argc && !bad; i++) {
        if (strcmp(argv[i], "--images") == 0 && i + 1 < argc)
            images = strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--model") == 0 && i + 1 < argc)
            model = argv[++i];
        else if (strcmp(argv[i], "--ratio") == 0 && i + 1 < argc)
            ratio = strtod(argv[++i], NULL);
        else if (argv[i][0] != '-' && !file)
            file = argv[i];
        else
            bad = 1;
    }
    if (bad || !file || (model && ratio <= 0.0)) {
        fprintf(stderr, "usage: glb_check FILE [--images N] [--model MODEL.md2 --ratio R]\n");
        return 2;
    }
    data = read_all(file, &size);
    if (!data)
        return fail(file, "cannot read it");
    status = check(file, data, size, images, model, ratio);
    free(data);
    return status;
}
