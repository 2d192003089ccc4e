/* An LD_PRELOAD shim for the tests (tests/test_faults.cpp): makes the
 * process's writes to regular files, its fsync()s, rename()s and close()s fail
 * as a full or failing disk would, at a point the environment chooses.
 *
 *   ROOFLINE_FAULT_ERRNO        ENOSPC (default) or EIO
 *   ROOFLINE_FAULT_AFTER_BYTES  N: once N bytes have been written to regular
 *                               files (write, writev, pwrite, fwrite), every
 *                               further write fails (a full disk stays full)
 *   ROOFLINE_FAULT_CALL         name:N: the Nth call of name (write, writev,
 *                               fwrite, fputs, fsync, fdatasync, rename,
 *                               close, fclose) on a regular file fails, once
 *   ROOFLINE_FAULT_PROGRAM      acts only in the process of that name
 *                               (default "roofline"): a child it starts
 *                               (gnuplot) inherits LD_PRELOAD, not the faults
 *
 * Standard input, output and error are never failed, even when redirected
 * to files. A failing close()/fclose() still closes, as Linux's close does. Not built
 * into anything but the tests. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

static int active = -1;            /* -1: not decided yet */
static int fault_errno = ENOSPC;
static long long byte_budget = -1; /* -1: no byte limit */
static long long bytes_written = 0;
static char call_name[32];
static long call_target = 0;
static long call_count = 0;

static void init(void) {
    if (active != -1) return;
    char const* program = getenv("ROOFLINE_FAULT_PROGRAM");
    if (!program) program = "roofline";
    active = strcmp(program_invocation_short_name, program) == 0;
    char const* e = getenv("ROOFLINE_FAULT_ERRNO");
    if (e && strcmp(e, "EIO") == 0) fault_errno = EIO;
    char const* b = getenv("ROOFLINE_FAULT_AFTER_BYTES");
    if (b) byte_budget = atoll(b);
    char const* c = getenv("ROOFLINE_FAULT_CALL");
    if (c) {
        char const* colon = strchr(c, ':');
        if (colon && (size_t)(colon - c) < sizeof call_name) {
            memcpy(call_name, c, (size_t)(colon - c));
            call_name[colon - c] = 0;
            call_target = atol(colon + 1);
        }
    }
}

static int regular(int fd) {
    struct stat st;
    /* Not stdin/stdout/stderr, even when they are redirected to files: the
     * error message must get out. */
    return fd > 2 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
}

/* Whether this call (of `name`, on a regular file when it is about one,
 * writing `bytes`) fails. */
static int fails(char const* name, long long bytes) {
    init();
    if (!active) return 0;
    if (call_target > 0 && strcmp(name, call_name) == 0 && ++call_count == call_target) return 1;
    if (byte_budget >= 0 && bytes >= 0) {
        if (bytes_written + bytes > byte_budget) return 1;
        bytes_written += bytes;
    }
    return 0;
}

#define REAL(type, name, args) \
    static type(*real) args = 0; \
    if (!real) real = (type(*) args)dlsym(RTLD_NEXT, #name)

ssize_t write(int fd, void const* buf, size_t count) {
    REAL(ssize_t, write, (int, void const*, size_t));
    if (regular(fd) && fails("write", (long long)count)) {
        errno = fault_errno;
        return -1;
    }
    return real(fd, buf, count);
}

ssize_t pwrite(int fd, void const* buf, size_t count, off_t offset) {
    REAL(ssize_t, pwrite, (int, void const*, size_t, off_t));
    if (regular(fd) && fails("pwrite", (long long)count)) {
        errno = fault_errno;
        return -1;
    }
    return real(fd, buf, count, offset);
}

ssize_t writev(int fd, struct iovec const* iov, int iovcnt) {
    REAL(ssize_t, writev, (int, struct iovec const*, int));
    long long total = 0;
    for (int i = 0; i < iovcnt; ++i) total += (long long)iov[i].iov_len;
    if (regular(fd) && fails("writev", total)) {
        errno = fault_errno;
        return -1;
    }
    return real(fd, iov, iovcnt);
}

size_t fwrite(void const* ptr, size_t size, size_t n, FILE* stream) {
    REAL(size_t, fwrite, (void const*, size_t, size_t, FILE*));
    if (regular(fileno(stream)) && fails("fwrite", (long long)(size * n))) {
        errno = fault_errno;
        return 0;
    }
    return real(ptr, size, n, stream);
}

int fputs(char const* s, FILE* stream) {
    REAL(int, fputs, (char const*, FILE*));
    if (regular(fileno(stream)) && fails("fputs", (long long)strlen(s))) {
        errno = fault_errno;
        return EOF;
    }
    return real(s, stream);
}

int fsync(int fd) {
    REAL(int, fsync, (int));
    if (fails("fsync", -1)) {
        errno = fault_errno;
        return -1;
    }
    return real(fd);
}

int fdatasync(int fd) {
    REAL(int, fdatasync, (int));
    if (fails("fdatasync", -1)) {
        errno = fault_errno;
        return -1;
    }
    return real(fd);
}

int rename(char const* from, char const* to) {
    REAL(int, rename, (char const*, char const*));
    if (fails("rename", -1)) {
        errno = fault_errno;
        return -1;
    }
    return real(from, to);
}

int close(int fd) {
    REAL(int, close, (int));
    int failing = regular(fd) && fails("close", -1);
    int result = real(fd);
    if (failing) {
        errno = fault_errno;
        return -1;
    }
    return result;
}

int fclose(FILE* stream) {
    REAL(int, fclose, (FILE*));
    int failing = stream && regular(fileno(stream)) && fails("fclose", -1);
    int result = real(stream);
    if (failing) {
        errno = fault_errno;
        return EOF;
    }
    return result;
}
