/*
 * md2 command: the operating system, Windows (see platform.h). Every path
 * is UTF-8 in the command and UTF-16 here, through the wide API
 * (CreateFileW, FindFirstFileW, MoveFileExW, CreateHardLinkW,
 * CreateDirectoryW), so that a file named soldat_é.md2 in a folder named
 * 模型 is opened whatever the system's code page. The descriptors are the C runtime's (_open_osfhandle)
 * and every stream is binary.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
#include <shellapi.h>

#include "platform.h"

#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <stdlib.h>
#include <string.h>

/* errno for a GetLastError() value. */
static int errno_of(DWORD e)
{
    switch (e) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
    case ERROR_INVALID_DRIVE:
    case ERROR_BAD_NETPATH:
    case ERROR_BAD_PATHNAME:
    case ERROR_INVALID_NAME:
        return ENOENT;
    case ERROR_FILE_EXISTS:
    case ERROR_ALREADY_EXISTS:
        return EEXIST;
    case ERROR_ACCESS_DENIED:
    case ERROR_SHARING_VIOLATION:
    case ERROR_LOCK_VIOLATION:
    case ERROR_WRITE_PROTECT:
        return EACCES;
    case ERROR_DIRECTORY:
        return ENOTDIR;
    case ERROR_NOT_ENOUGH_MEMORY:
    case ERROR_OUTOFMEMORY:
        return ENOMEM;
    case ERROR_NOT_SAME_DEVICE:
        return EXDEV;
    case ERROR_TOO_MANY_LINKS:
        return EMLINK;
    case ERROR_NOT_SUPPORTED:
    case ERROR_INVALID_FUNCTION:
        return ENOTSUP;
    case ERROR_FILENAME_EXCED_RANGE:
        return ENAMETOOLONG;
    case ERROR_DISK_FULL:
    case ERROR_HANDLE_DISK_FULL:
        return ENOSPC;
    default:
        return EIO;
    }
}

static int fail(void)
{
    errno = errno_of(GetLastError());
    return -1;
}

static int is_wide_separator(wchar_t c)
{
    return c == L'/' || c == L'\\';
}

/* -1 with errno for the failed call on the path w (malloc'd, changed and
 * put back here): what POSIX would say where Windows says less, a name
 * longer than 255 characters (ENAMETOOLONG) and a folder on the path that
 * is a file (ENOTDIR), else errno_of(). */
static int fail_path(wchar_t *w)
{
    DWORD e = GetLastError();
    size_t i, start = 0;
    if (e != ERROR_PATH_NOT_FOUND && e != ERROR_FILE_NOT_FOUND && e != ERROR_INVALID_NAME &&
        e != ERROR_FILENAME_EXCED_RANGE && e != ERROR_DIRECTORY) {
        errno = errno_of(e);
        return -1;
    }
    for (i = 0;; i++) {
        if (w[i] == 0 || is_wide_separator(w[i])) {
            if (i - start > 255) {
                errno = ENAMETOOLONG;
                return -1;
            }
            start = i + 1;
        }
        if (w[i] == 0)
            break;
    }
    errno = errno_of(e);
    if (e == ERROR_FILE_NOT_FOUND)
        return -1;
    for (i = 1; w[i]; i++) {
        wchar_t c = w[i];
        DWORD attributes;
        if (!is_wide_separator(c) || is_wide_separator(w[i - 1]) || w[i - 1] == L':')
            continue;
        w[i] = 0;
        attributes = GetFileAttributesW(w);
        w[i] = c;
        if (attributes == INVALID_FILE_ATTRIBUTES)
            break; /* missing: ENOENT */
        if (!(attributes & FILE_ATTRIBUTE_DIRECTORY)) {
            errno = ENOTDIR;
            break;
        }
    }
    return -1;
}

/* path (UTF-8) in UTF-16, malloc'd; NULL with errno (ENOMEM, or ENOENT
 * when it is not UTF-8: no such name can be on a Windows disk). */
static wchar_t *wide(const char *path)
{
    int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, NULL, 0);
    wchar_t *w;
    if (n <= 0) {
        errno = ENOENT;
        return NULL;
    }
    w = (wchar_t *)malloc((size_t)n * sizeof *w);
    if (!w) {
        errno = ENOMEM;
        return NULL;
    }
    MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, w, n);
    return w;
}

/* s (UTF-16) in UTF-8, malloc'd; NULL with errno ENOMEM. */
static char *narrow(const wchar_t *s)
{
    int n = WideCharToMultiByte(CP_UTF8, 0, s, -1, NULL, 0, NULL, NULL);
    char *p;
    if (n <= 0) {
        errno = EIO;
        return NULL;
    }
    p = (char *)malloc((size_t)n);
    if (!p) {
        errno = ENOMEM;
        return NULL;
    }
    WideCharToMultiByte(CP_UTF8, 0, s, -1, p, n, NULL, NULL);
    return p;
}

int tool_sys_init(int *argc, char ***argv)
{
    int n = 0, i;
    wchar_t **w = CommandLineToArgvW(GetCommandLineW(), &n);
    char **a;
    _setmode(_fileno(stdout), _O_BINARY);
    _setmode(_fileno(stderr), _O_BINARY);
    _setmode(_fileno(stdin), _O_BINARY);
    if (GetConsoleOutputCP() != CP_UTF8)
        SetConsoleOutputCP(CP_UTF8); /* what the command prints is UTF-8 */
    if (!w) {
        fputs("md2: cannot read the command line\n", stderr);
        return 0;
    }
    a = (char **)calloc((size_t)n + 1, sizeof *a);
    for (i = 0; a && i < n; i++) {
        if ((a[i] = narrow(w[i])) == NULL) {
            while (i-- > 0)
                free(a[i]);
            free(a);
            a = NULL;
        }
    }
    LocalFree(w);
    if (!a) {
        fputs("md2: out of memory\n", stderr);
        return 0;
    }
    *argc = n;
    *argv = a; /* for the life of the process */
    return 1;
}

/* *st of the open handle h. */
static int stat_handle(HANDLE h, tool_sys_stat *st)
{
    BY_HANDLE_FILE_INFORMATION info;
    DWORD type = GetFileType(h);
    memset(st, 0, sizeof *st);
    if (type == FILE_TYPE_PIPE) {
        st->kind = TOOL_SYS_FIFO;
        return 0;
    }
    if (type == FILE_TYPE_CHAR) {
        st->kind = TOOL_SYS_CHAR;
        return 0;
    }
    if (type != FILE_TYPE_DISK) {
        st->kind = TOOL_SYS_OTHER;
        return 0;
    }
    if (!GetFileInformationByHandle(h, &info))
        return fail();
    if (info.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT)
        st->kind = TOOL_SYS_LINK;
    else if (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY)
        st->kind = TOOL_SYS_DIRECTORY;
    else
        st->kind = TOOL_SYS_REGULAR;
    st->size = ((unsigned long long)info.nFileSizeHigh << 32) | info.nFileSizeLow;
    st->dev = info.dwVolumeSerialNumber;
    st->ino = ((unsigned long long)info.nFileIndexHigh << 32) | info.nFileIndexLow;
    return 0;
}

int tool_sys_stat_path(const char *path, int follow, tool_sys_stat *st)
{
    wchar_t *w = wide(path);
    HANDLE h;
    int r;
    if (!w)
        return -1;
    /* no access asked: only what the file is; FILE_FLAG_BACKUP_SEMANTICS
     * opens folders too */
    h = CreateFileW(w, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                    OPEN_EXISTING,
                    FILE_FLAG_BACKUP_SEMANTICS | (follow ? 0 : FILE_FLAG_OPEN_REPARSE_POINT),
                    NULL);
    if (h == INVALID_HANDLE_VALUE) {
        fail_path(w);
        free(w);
        return -1;
    }
    free(w);
    r = stat_handle(h, st);
    CloseHandle(h);
    if (r == 0 && follow && st->kind == TOOL_SYS_LINK)
        st->kind = TOOL_SYS_OTHER; /* a reparse point that is no link */
    return r;
}

int tool_sys_stat_fd(int fd, tool_sys_stat *st)
{
    intptr_t h = _get_osfhandle(fd);
    if (h == -1) {
        errno = EBADF;
        return -1;
    }
    return stat_handle((HANDLE)h, st);
}

int tool_sys_open_read(const char *path)
{
    wchar_t *w = wide(path);
    HANDLE h;
    int fd;
    if (!w)
        return -1;
    /* FILE_FLAG_BACKUP_SEMANTICS: a folder opens too, as open() opens one
     * on POSIX, and the caller then says that it is one */
    h = CreateFileW(w, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                    NULL, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, NULL);
    if (h == INVALID_HANDLE_VALUE) {
        fail_path(w);
        free(w);
        return -1;
    }
    free(w);
    fd = _open_osfhandle((intptr_t)h, _O_RDONLY | _O_BINARY);
    if (fd < 0) {
        CloseHandle(h);
        errno = EMFILE;
        return -1;
    }
    return fd;
}

long tool_sys_read(int fd, void *dst, size_t size)
{
    if (size > 1u << 30)
        size = 1u << 30;
    return (long)_read(fd, dst, (unsigned)size);
}

int tool_sys_seek(int fd, unsigned long long offset)
{
    if (offset > 0x7fffffffffffffffull) {
        errno = EINVAL;
        return -1;
    }
    return _lseeki64(fd, (__int64)offset, SEEK_SET) == (__int64)offset ? 0 : -1;
}

void tool_sys_close(int fd)
{
    _close(fd);
}

FILE *tool_sys_create_new(const char *path)
{
    wchar_t *w = wide(path);
    HANDLE h;
    FILE *f;
    int fd;
    if (!w)
        return NULL;
    /* CREATE_NEW: fails on any name that is there, a link included */
    h = CreateFileW(w, GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_DELETE, NULL, CREATE_NEW,
                    FILE_ATTRIBUTE_NORMAL, NULL);
    if (h == INVALID_HANDLE_VALUE) {
        fail_path(w);
        free(w);
        return NULL;
    }
    fd = _open_osfhandle((intptr_t)h, _O_WRONLY | _O_BINARY);
    if (fd < 0) {
        CloseHandle(h);
        DeleteFileW(w);
        free(w);
        errno = EMFILE;
        return NULL;
    }
    f = _fdopen(fd, "wb");
    if (!f) {
        int e = errno;
        _close(fd);
        DeleteFileW(w);
        errno = e;
    }
    free(w);
    return f;
}

int tool_sys_replace(const char *from, const char *to)
{
    wchar_t *wf = wide(from), *wt = wf ? wide(to) : NULL;
    int r = 0;
    if (!wt) {
        free(wf);
        return -1;
    }
    /* one step: to is the old file or the new one, never neither */
    if (!MoveFileExW(wf, wt, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH))
        r = fail_path(wt);
    free(wf);
    free(wt);
    return r;
}

int tool_sys_link(const char *from, const char *to)
{
    wchar_t *wf = wide(from), *wt = wf ? wide(to) : NULL;
    int r = 0;
    if (!wt) {
        free(wf);
        return -1;
    }
    if (!CreateHardLinkW(wt, wf, NULL))
        r = fail_path(wt);
    free(wf);
    free(wt);
    return r;
}

int tool_sys_remove(const char *path)
{
    wchar_t *w = wide(path);
    int r = 0;
    if (!w)
        return -1;
    if (!DeleteFileW(w))
        r = fail_path(w);
    free(w);
    return r;
}

int tool_sys_make_dir(const char *path)
{
    wchar_t *w = wide(path);
    int r = 0;
    if (!w)
        return -1;
    if (!CreateDirectoryW(w, NULL))
        r = fail_path(w); /* ERROR_ALREADY_EXISTS: EEXIST */
    free(w);
    return r;
}

FILE *tool_sys_capture_start(char **text, size_t *size)
{
    /* GetTempFileNameW(): at most MAX_PATH characters, in a folder of at
     * most MAX_PATH - 14 */
    wchar_t dir[MAX_PATH + 1], name[MAX_PATH + 1];
    DWORD n = GetTempPathW(MAX_PATH + 1, dir);
    HANDLE h;
    FILE *f;
    int fd;
    *text = NULL;
    *size = 0;
    if (n == 0 || n > MAX_PATH - 14) {
        errno = n == 0 ? errno_of(GetLastError()) : ENAMETOOLONG;
        return NULL;
    }
    /* a new file of a name no other file has (made here, empty), then
     * opened for this stream alone, to go when it is closed */
    if (!GetTempFileNameW(dir, L"md2", 0, name)) {
        fail();
        return NULL;
    }
    h = CreateFileW(name, GENERIC_READ | GENERIC_WRITE, 0, NULL, TRUNCATE_EXISTING,
                    FILE_ATTRIBUTE_TEMPORARY | FILE_FLAG_DELETE_ON_CLOSE, NULL);
    if (h == INVALID_HANDLE_VALUE) {
        fail();
        DeleteFileW(name);
        return NULL;
    }
    fd = _open_osfhandle((intptr_t)h, _O_RDWR | _O_BINARY);
    if (fd < 0) {
        CloseHandle(h);
        errno = EMFILE;
        return NULL;
    }
    f = _fdopen(fd, "w+b");
    if (!f) {
        int e = errno;
        _close(fd);
        errno = e;
    }
    return f;
}

int tool_sys_capture_end(FILE *f, char **text, size_t *size)
{
    long n = fflush(f) == 0 && !ferror(f) ? ftell(f) : -1;
    int ok = n >= 0 && fseek(f, 0, SEEK_SET) == 0;
    if (ok && (*text = (char *)malloc((size_t)n + 1)) != NULL) {
        ok = fread(*text, 1, (size_t)n, f) == (size_t)n;
        if (ok) {
            (*text)[n] = '\0';
            *size = (size_t)n;
        }
    }
    fclose(f); /* and the file is deleted */
    if (!ok || !*text) {
        free(*text);
        *text = NULL;
        *size = 0;
    }
    return ok;
}

long tool_sys_cpu_count(void)
{
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    return si.dwNumberOfProcessors < 1 ? 1 : (long)si.dwNumberOfProcessors;
}

int tool_sys_list_dir(const char *dir, char ***names, size_t *count)
{
    size_t n = strlen(dir), cap = 0;
    char *pattern = (char *)malloc(n + 3);
    wchar_t *w;
    WIN32_FIND_DATAW found;
    HANDLE h;
    DWORD e;
    int err = 0;
    *names = NULL;
    *count = 0;
    if (!pattern) {
        errno = ENOMEM;
        return 0;
    }
    memcpy(pattern, dir, n);
    if (n > 0 && !tool_sys_is_separator(dir[n - 1]))
        pattern[n++] = '\\';
    pattern[n++] = '*';
    pattern[n] = '\0';
    w = wide(pattern);
    free(pattern);
    if (!w)
        return 0;
    h = FindFirstFileW(w, &found);
    free(w);
    if (h == INVALID_HANDLE_VALUE) {
        e = GetLastError();
        if (e == ERROR_FILE_NOT_FOUND || e == ERROR_NO_MORE_FILES)
            return 1; /* nothing there (a drive's root has no "." either) */
        errno = e == ERROR_DIRECTORY || e == ERROR_INVALID_NAME ? ENOTDIR : errno_of(e);
        return 0;
    }
    do {
        const wchar_t *name = found.cFileName;
        if ((name[0] == L'.' && name[1] == 0) ||
            (name[0] == L'.' && name[1] == L'.' && name[2] == 0))
            continue;
        if (!tool_sys_names_add(names, count, &cap, narrow(name))) {
            err = errno;
            break;
        }
    } while (FindNextFileW(h, &found));
    if (!err && (e = GetLastError()) != ERROR_NO_MORE_FILES)
        err = errno_of(e);
    FindClose(h);
    return err ? tool_sys_names_fail(names, count, err) : 1;
}

char *tool_sys_real_path(const char *path)
{
    wchar_t *w = wide(path), *full = NULL;
    char *r = NULL;
    HANDLE h;
    DWORD n;
    if (!w)
        return NULL;
    h = CreateFileW(w, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL, OPEN_EXISTING,
                    FILE_FLAG_BACKUP_SEMANTICS, NULL);
    if (h == INVALID_HANDLE_VALUE) {
        fail_path(w);
        free(w);
        return NULL;
    }
    free(w);
    n = GetFinalPathNameByHandleW(h, NULL, 0, FILE_NAME_NORMALIZED);
    if (n > 0 && (full = (wchar_t *)malloc(((size_t)n + 1) * sizeof *full)) != NULL &&
        GetFinalPathNameByHandleW(h, full, n + 1, FILE_NAME_NORMALIZED) > 0)
        r = narrow(full);
    else if (n == 0)
        fail();
    else if (!full)
        errno = ENOMEM;
    free(full);
    CloseHandle(h);
    return r;
}

int tool_sys_is_terminal(FILE *f)
{
    DWORD mode;
    intptr_t h = _get_osfhandle(_fileno(f));
    /* a console; _isatty() would also say so of NUL */
    return h != -1 && GetConsoleMode((HANDLE)h, &mode) != 0;
}

int tool_sys_is_separator(char c)
{
    return c == '/' || c == '\\';
}

const char *tool_sys_strerror(int e)
{
    /* the C library's words, but where Microsoft's differ from the GNU
     * C library's, whose the command's messages are everywhere else */
    switch (e) {
    case ENAMETOOLONG: return "File name too long";
    case EIO: return "Input/output error";
    case ENOTSUP: return "Operation not supported";
    case EXDEV: return "Invalid cross-device link";
    case EBADF: return "Bad file descriptor";
    case EMFILE: return "Too many open files";
    case ENOMEM: return "Cannot allocate memory";
    default: return strerror(e);
    }
}
