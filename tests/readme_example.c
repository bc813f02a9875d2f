#include <md2/md2.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    md2_options opts = {0};            /* zero means defaults: malloc, lenient */
    md2_diagnostic diag;               /* says what is wrong, and where */
    md2_model *model;
    opts.error = &diag;
    if (argc < 2 || md2_load_file(argv[1], &opts, &model) != MD2_OK) {
        fprintf(stderr, "%s\n", argc < 2 ? "usage: example MODEL.md2" : diag.message);
        return 1;
    }
    printf("%zu vertices, %zu triangles, %zu frames; frame 0 is \"%s\"\n",
           model->num_vertices, model->num_triangles, model->num_frames,
           model->frames[0].name);

    /* the pose halfway between keyframes 0 and 1, into our own buffer */
    float *xyz = malloc(model->num_vertices * 3 * sizeof *xyz);
    if (xyz && md2_lerp(model, 0, 1, 0.5f, xyz, 0, NULL, 0) == MD2_OK)
        printf("vertex 0 at (%g, %g, %g)\n", xyz[0], xyz[1], xyz[2]);
    free(xyz);
    md2_free(model);
    return 0;
}
