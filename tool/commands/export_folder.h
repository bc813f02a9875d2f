/*
 * md2 export of folders (export_folder.c), for export.c, which gives it
 * the export of one model to run for each.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_EXPORT_FOLDER_H
#define MD2_EXPORT_FOLDER_H

/* md2 export DIR... -o OUTDIR/: every model below the DIRs (and every
 * MODEL named) exported as OUTDIR/ + its path below its DIR (a MODEL: its
 * name), with the extension ext (".glb", ".gltf", ".obj"), by a pool of
 * jobs threads (0: one per online CPU), each model by export_one (the
 * export of one model, called from several threads at once) with the
 * command line's options: export_one(n, words), words being argv[0], those
 * options, "-o", the model's output, "--" and the model. roles (argc
 * bytes) says what each word of argv is: */
enum {
    EXPORT_WORD_OPTION = 0, /* an option every model is exported with (or its value) */
    EXPORT_WORD_INPUT = 1,  /* a MODEL or DIR */
    EXPORT_WORD_FOLDER = 2  /* read by the folder export alone: -o, --format, --jobs, -- */
};
/* The most threads --jobs gives. */
#define EXPORT_MAX_JOBS 256
#define EXPORT_MAX_JOBS_TEXT "256"
/* TOOL_OK when every model was exported; TOOL_FAILED when one was not (all
 * the others are), after listing them. */
int export_folder(int argc, char **argv, const unsigned char *roles, const char *out_dir,
                  const char *ext, long jobs, int (*export_one)(int argc, char **argv));
/* 1 if path is a folder (or a link to one). */
int export_is_folder(const char *path);
/* 1 if path is there and is not a folder. */
int export_exists_not_folder(const char *path);

#endif /* MD2_EXPORT_FOLDER_H */
