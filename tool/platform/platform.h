/*
 * md2 command: what it asks of the operating system, in one small
 * interface with one file per system: platform_posix.c (POSIX: open(),
 * fstat(), opendir(), link(), rename(), mkdir(), open_memstream()) and
 * platform_win32.c (Windows: the wide-character API, so that every path,
 * given and taken in UTF-8, can hold any character). The rest of the command calls only these for
 * files, folders and terminals.
 *
 * Errors: the functions that fail return -1 (or NULL) with errno set to
 * the POSIX value that says why (ENOENT, EEXIST, EACCES, EISDIR, ENOTDIR,
 * ENOMEM...), which the Windows port maps from GetLastError().
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_TOOL_PLATFORM_H
#define MD2_TOOL_PLATFORM_H

#include <stddef.h>
#include <stdio.h>

/* What a path names. */
enum {
    TOOL_SYS_REGULAR = 1,
    TOOL_SYS_DIRECTORY,
    TOOL_SYS_LINK,   /* a symbolic link (a reparse point on Windows), unfollowed */
    TOOL_SYS_FIFO,   /* a FIFO or a pipe */
    TOOL_SYS_CHAR,   /* a character device (a console on Windows) */
    TOOL_SYS_BLOCK,
    TOOL_SYS_SOCKET,
    TOOL_SYS_OTHER
};

typedef struct tool_sys_stat {
    int kind;                /* TOOL_SYS_... */
    unsigned long long size; /* bytes, for a regular file */
    /* which file it is: the device and inode (POSIX), the volume's serial
     * number and the file index (Windows); two paths to one file give the
     * same pair */
    unsigned long long dev, ino;
} tool_sys_stat;

/* Sets up the process: on Windows, *argc and *argv become the command line
 * in UTF-8 (from GetCommandLineW(), malloc'd for the life of the process)
 * and stdout and stderr write bytes as they are (binary: no "\r\n" for
 * "\n"); elsewhere nothing changes. 0 when out of memory (said). */
int tool_sys_init(int *argc, char ***argv);

/* stat() (follow 1) or lstat() (follow 0) of path into *st: 0, or -1 with
 * errno. */
int tool_sys_stat_path(const char *path, int follow, tool_sys_stat *st);
/* fstat() of an open descriptor: 0, or -1 with errno. */
int tool_sys_stat_fd(int fd, tool_sys_stat *st);

/* Opens path for reading, as bytes, without waiting on the way (a FIFO
 * without a writer), and then with reads that wait for data as usual: the
 * descriptor, or -1 with errno (EISDIR for a folder). */
int tool_sys_open_read(const char *path);
/* read() of up to size bytes: the count (0 at the end), or -1 with errno
 * (EINTR: try again). */
long tool_sys_read(int fd, void *dst, size_t size);
/* Moves a regular file's read position to offset bytes from its start
 * (lseek(); _lseeki64()): 0, or -1 with errno. */
int tool_sys_seek(int fd, unsigned long long offset);
void tool_sys_close(int fd);

/* Creates path as a new file (never one that is there, never through a
 * link: O_CREAT | O_EXCL | O_NOFOLLOW, CREATE_NEW) and opens it for
 * writing bytes: the stream, or NULL with errno (EEXIST when path is
 * taken). */
FILE *tool_sys_create_new(const char *path);
/* Renames from to to, replacing to when it is a file, in one step that
 * leaves to either the old file or the new one (rename(); MoveFileExW()
 * with MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH): 0, or -1 with
 * errno, to then unchanged. */
int tool_sys_replace(const char *from, const char *to);
/* A hard link to the file from under the new name to (link();
 * CreateHardLinkW()): 0, or -1 with errno (EEXIST when to is taken; EPERM,
 * EXDEV, EMLINK, ENOTSUP where the file system has none). */
int tool_sys_link(const char *from, const char *to);
/* Removes the file at path: 0, or -1 with errno. */
int tool_sys_remove(const char *path);
/* Makes the folder path (mkdir(path, 0777); CreateDirectoryW()): 0, or -1
 * with errno (EEXIST when path is taken, by a folder or anything else). */
int tool_sys_make_dir(const char *path);

/* A stream that keeps what is written to it until tool_sys_capture_end()
 * (open_memstream(); on Windows, which has none, a temporary file of the
 * user's temporary folder, GetTempFileNameW(), deleted when closed, never
 * tmpfile(), which writes in the drive's root). *text and *size are the
 * caller's, for tool_sys_capture_end(), and must stay where they are until
 * then. The stream, or NULL with errno (*text NULL then). Any thread may
 * have streams of its own. */
FILE *tool_sys_capture_start(char **text, size_t *size);
/* Closes f, from tool_sys_capture_start(text, size), and gives what was
 * written to it: *text (malloc'd: the caller frees it), *size bytes and a
 * NUL after them, or *text NULL and *size 0 when there is no memory left
 * to hold it (the text is then lost; the stream was fine). 1, or 0 when
 * the stream failed (a write error; *text NULL); f is closed either way. */
int tool_sys_capture_end(FILE *f, char **text, size_t *size);

/* The number of processors online (sysconf(_SC_NPROCESSORS_ONLN);
 * GetSystemInfo()), at least 1. */
long tool_sys_cpu_count(void);

/* The names in the folder dir but "." and "..", in UTF-8, each malloc'd,
 * in *names (malloc'd, *count of them), in the folder's order. 1, or 0
 * with errno set (ENOMEM when out of memory), nothing then to free. */
int tool_sys_list_dir(const char *dir, char ***names, size_t *count);
/* Frees the names of tool_sys_list_dir() (platform.c). */
void tool_sys_free_names(char **names, size_t count);
/* For the platform files' tool_sys_list_dir() (platform.c): appends name
 * (malloc'd; NULL: its allocation failed, errno set) to *names, growing it
 * (*cap entries); 1, or 0 with errno set and name freed. */
int tool_sys_names_add(char ***names, size_t *count, size_t *cap, char *name);
/* Frees *names, makes it NULL and *count 0, sets errno to err: 0. */
int tool_sys_names_fail(char ***names, size_t *count, int err);

/* The canonical absolute path of an existing file or folder, symbolic
 * links resolved (realpath(); on Windows, GetFinalPathNameByHandleW() with
 * folders separated by '\\'), malloc'd; NULL with errno (ENOENT when
 * there is no such file, ENOMEM). */
char *tool_sys_real_path(const char *path);

/* 1 if f is a terminal (a console on Windows). */
int tool_sys_is_terminal(FILE *f);

/* 1 if c separates folders in a path: '/', and on Windows '\\' too. */
int tool_sys_is_separator(char c);

/* strerror(e), in the GNU C library's words on Windows too (where
 * Microsoft's C library words some differently), so that the command's
 * messages are the same everywhere. */
const char *tool_sys_strerror(int e);

#endif /* MD2_TOOL_PLATFORM_H */
