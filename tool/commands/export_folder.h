/*
 * md2 export of folders (export_folder.c), and the one-model export it runs
 * for each model (export.c).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_EXPORT_FOLDER_H
#define MD2_EXPORT_FOLDER_H

/* md2 export DIR... -o OUTDIR/: every model below the DIRs (and every
 * MODEL named) exported as OUTDIR/ + its path below its DIR (a MODEL: its
 * name), with the extension ext (".glb", ".gltf", ".obj"), by a pool of
 * jobs threads (0: one per online CPU), each model as export_model() of
 * the command line's options. roles (argc bytes) says what each word of
 * argv is: */
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
                  const char *ext, long jobs);
/* md2 export of one model (a folder export's worker: never of a folder). */
int export_model(int argc, char **argv);
/* 1 if path is a folder (or a link to one). */
int export_is_folder(const char *path);
/* 1 if path is there and is not a folder. */
int export_exists_not_folder(const char *path);

#endif /* MD2_EXPORT_FOLDER_H */
