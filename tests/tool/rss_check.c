/*
 * rss_check MAX_KIB STATUS COMMAND...: runs COMMAND, waits for it and
 * checks that it exited with STATUS and that its peak resident memory
 * (getrusage's ru_maxrss of the child, in KiB) stayed at or below MAX_KIB.
 * It prints the peak and the CPU time the command took (user + system), so
 * that the test log holds the numbers; the time is reported, never judged
 * (no timed assertions). POSIX. Exit status 0 if both hold, 1 if not, 2
 * for a bad call or a command that could not run.
 *
 * SPDX-License-Identifier: MIT
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE

#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    long max_kib, want;
    char *end;
    pid_t pid;
    int status;
    struct rusage ru;
    double cpu;
    if (argc < 4) {
        fprintf(stderr, "usage: rss_check MAX_KIB STATUS COMMAND...\n");
        return 2;
    }
    max_kib = strtol(argv[1], &end, 10);
    if (*end || max_kib <= 0)
        return 2;
    want = strtol(argv[2], &end, 10);
    if (*end)
        return 2;
    fflush(stdout);
    pid = fork();
    if (pid < 0) {
        perror("rss_check: fork");
        return 2;
    }
    if (pid == 0) {
        execvp(argv[3], argv + 3);
        perror("rss_check: exec");
        _exit(127);
    }
    if (waitpid(pid, &status, 0) != pid || getrusage(RUSAGE_CHILDREN, &ru) != 0) {
        perror("rss_check: wait");
        return 2;
    }
    cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
          ru.ru_stime.tv_usec / 1e6;
    printf("rss_check: %s: peak RSS %ld KiB (at most %ld), CPU %.3f s, ", argv[3],
           (long)ru.ru_maxrss, max_kib, cpu);
    if (WIFEXITED(status))
        printf("exit status %d (want %ld)\n", WEXITSTATUS(status), want);
    else
        printf("killed by signal %d\n", WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != want)
        return 1;
    return ru.ru_maxrss <= max_kib ? 0 : 1;
}
