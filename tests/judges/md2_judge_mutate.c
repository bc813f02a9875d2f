/*
 * For the judges' self-test (run_judge.cmake): copies an MD2 file with one
 * vertex coordinate moved by one step of its frame's grid, so that a
 * reader loading the copy must disagree with libmd2 loading the original
 * at exactly that frame, vertex and axis.
 *
 *   md2_judge_mutate IN OUT FRAME VERTEX AXIS
 *
 * AXIS is 0, 1 or 2 (MD2 x, y, z). The byte goes up by one, or down by one
 * when it is 255. The offsets come from the header as the file has them
 * (ofs_frames, framesize, num_frames, num_xyz; little-endian). Exit 0 when
 * OUT is written, 1 otherwise.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>

static long le32(const unsigned char *p)
{
    unsigned long v = (unsigned long)p[0] | (unsigned long)p[1] << 8 |
                      (unsigned long)p[2] << 16 | (unsigned long)p[3] << 24;
    return v >= 0x80000000ul ? -(long)(0xfffffffful - v) - 1 : (long)v;
}

int main(int argc, char **argv)
{
    FILE *f;
    unsigned char *bytes;
    long size, frame, vertex, axis, framesize, ofs_frames, num_frames, num_xyz, at;
    int old;

    if (argc != 6) {
        fprintf(stderr, "usage: md2_judge_mutate IN OUT FRAME VERTEX AXIS\n");
        return 1;
    }
    frame = strtol(argv[3], NULL, 10);
    vertex = strtol(argv[4], NULL, 10);
    axis = strtol(argv[5], NULL, 10);
    f = fopen(argv[1], "rb");
    if (!f || fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 68 || fseek(f, 0, SEEK_SET) != 0) {
        fprintf(stderr, "md2_judge_mutate: cannot read %s\n", argv[1]);
        if (f)
            fclose(f);
        return 1;
    }
    bytes = malloc((size_t)size);
    if (!bytes || fread(bytes, 1, (size_t)size, f) != (size_t)size) {
        fprintf(stderr, "md2_judge_mutate: cannot read %s\n", argv[1]);
        fclose(f);
        free(bytes);
        return 1;
    }
    fclose(f);
    framesize = le32(bytes + 16);
    num_xyz = le32(bytes + 24);
    num_frames = le32(bytes + 40);
    ofs_frames = le32(bytes + 56);
    if (frame < 0 || frame >= num_frames || vertex < 0 || vertex >= num_xyz || axis < 0 ||
        axis > 2) {
        fprintf(stderr, "md2_judge_mutate: no frame %ld vertex %ld axis %ld in %s "
                        "(%ld frames of %ld vertices)\n",
                frame, vertex, axis, argv[1], num_frames, num_xyz);
        free(bytes);
        return 1;
    }
    at = ofs_frames + frame * framesize + 40 + 4 * vertex + axis;
    if (at < 0 || at >= size) {
        fprintf(stderr, "md2_judge_mutate: byte %ld is past the end of %s\n", at, argv[1]);
        free(bytes);
        return 1;
    }
    old = bytes[at];
    bytes[at] = (unsigned char)(old == 255 ? 254 : old + 1);
    f = fopen(argv[2], "wb");
    if (!f || fwrite(bytes, 1, (size_t)size, f) != (size_t)size || fclose(f) != 0) {
        fprintf(stderr, "md2_judge_mutate: cannot write %s\n", argv[2]);
        free(bytes);
        return 1;
    }
    printf("%s: frame %ld vertex %ld axis %c: byte %ld from %d to %d\n", argv[2], frame, vertex,
           "xyz"[axis], at, old, bytes[at]);
    free(bytes);
    return 0;
}
