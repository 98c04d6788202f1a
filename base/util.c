/* Internal helpers: arrays, arena, capped buffers, diagnostics, file reading, UTF-8. */
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

int sg_array_grow(void **items, size_t *cap, size_t len, size_t elem, size_t max)
{
    size_t limit = SIZE_MAX / elem / 2;
    if (max && max < limit)
        limit = max;
    if (len >= limit)
        return -1;
    size_t ncap = *cap ? *cap * 2 : 8;
    if (ncap > limit)
        ncap = limit;
    void *p = realloc(*items, ncap * elem);
    if (!p)
        return -1;
    *items = p;
    *cap = ncap;
    return 0;
}

struct arena__chunk {
    struct arena__chunk *next;
    size_t used, size;
    max_align_t data[];
};

struct sg_arena {
    struct arena__chunk *head;
    bool failed; /* an allocation failed (sticky) */
};

sg_arena *sg_arena_new(void)
{
    return calloc(1, sizeof(sg_arena));
}

void sg_arena_free(sg_arena *arena)
{
    if (!arena)
        return;
    for (struct arena__chunk *c = arena->head, *n; c; c = n) {
        n = c->next;
        free(c);
    }
    free(arena);
}

void *sg_arena_alloc(sg_arena *arena, size_t size)
{
    size = (size + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
    if (size == 0)
        size = sizeof(max_align_t);
    struct arena__chunk *c = arena->head;
    if (!c || c->size - c->used < size) {
        size_t csize = size > 16384 ? size : 16384;
        c = malloc(sizeof *c + csize);
        if (!c) {
            arena->failed = true;
            return NULL;
        }
        c->used = 0;
        c->size = csize;
        c->next = arena->head;
        arena->head = c;
    }
    void *p = (char *)c->data + c->used;
    c->used += size;
    return p;
}

bool sg_arena_failed(const sg_arena *arena)
{
    return !arena || arena->failed;
}

char *sg_arena_strndup(sg_arena *arena, const char *s, size_t n)
{
    char *p = sg_arena_alloc(arena, n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = 0;
    }
    return p;
}

char *sg_strndup_buf(const char *s, size_t n)
{
    const char *nul = memchr(s, 0, n);
    size_t k = nul ? (size_t)(nul - s) : n;
    char *p = malloc(k + 1);
    if (p) {
        memcpy(p, s, k);
        p[k] = 0;
    }
    return p;
}

char *sg_arena_strdup(sg_arena *arena, const char *s)
{
    return sg_arena_strndup(arena, s, strlen(s));
}

char *sg_arena_printf(sg_arena *arena, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        arena->failed = true;
        return NULL;
    }
    char *p = sg_arena_alloc(arena, (size_t)n + 1);
    if (!p)
        return NULL;
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

void sg_buf_init(sg_buf *buf, size_t max)
{
    memset(buf, 0, sizeof *buf);
    buf->max = max ? max : SIZE_MAX / 2;
}

void sg_buf_free(sg_buf *buf)
{
    free(buf->data);
    memset(buf, 0, sizeof *buf);
}

void sg_buf_append(sg_buf *buf, const char *s, size_t n)
{
    if (buf->failed)
        return;
    if (n > buf->max - buf->len) {
        n = buf->max - buf->len;
        buf->truncated = true;
    }
    if (buf->len + n + 1 > buf->cap) {
        size_t ncap = buf->cap ? buf->cap : 256;
        while (ncap < buf->len + n + 1)
            ncap *= 2;
        char *p = realloc(buf->data, ncap);
        if (!p) {
            buf->failed = true;
            return;
        }
        buf->data = p;
        buf->cap = ncap;
    }
    memcpy(buf->data + buf->len, s, n);
    buf->len += n;
    buf->data[buf->len] = 0;
}

void sg_buf_puts(sg_buf *buf, const char *s)
{
    sg_buf_append(buf, s, strlen(s));
}

void sg_buf_printf(sg_buf *buf, const char *fmt, ...)
{
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof small) {
        sg_buf_append(buf, small, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (!big) {
        buf->failed = true;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sg_buf_append(buf, big, (size_t)n);
    free(big);
}

sg_status sg_diag_set(sg_diag *diag, sg_status status, const char *path, long line, long column,
                      long long offset, int sys_errno, const char *fmt, ...)
{
    if (!diag)
        return status;
    diag->status = status;
    snprintf(diag->path, sizeof diag->path, "%s", path ? path : "");
    diag->line = line;
    diag->column = column;
    diag->offset = offset;
    diag->sys_errno = sys_errno;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(diag->message, sizeof diag->message, fmt, ap);
    va_end(ap);
    return status;
}

static sg_status util__read_fd(int fd, const char *label, size_t max, char **ret_buf, size_t *ret_len,
                               sg_diag *diag)
{
    size_t cap = 65536, len = 0;
    char *buf = malloc(cap + 1);
    if (!buf)
        return sg_diag_set(diag, SG_ERR_NOMEM, label, 0, 0, -1, 0, "out of memory");
    for (;;) {
        if (len == cap) {
            if (cap > max) {
                free(buf);
                return sg_diag_set(diag, SG_ERR_TOO_LARGE, label, 0, 0, -1, 0,
                                   "input is larger than the limit of %zu bytes (see --max-bytes)", max);
            }
            size_t ncap = cap * 2;
            char *p = realloc(buf, ncap + 1);
            if (!p) {
                free(buf);
                return sg_diag_set(diag, SG_ERR_NOMEM, label, 0, 0, -1, 0, "out of memory");
            }
            buf = p;
            cap = ncap;
        }
        ssize_t n = read(fd, buf + len, cap - len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            int e = errno;
            free(buf);
            return sg_diag_set(diag, SG_ERR_IO, label, 0, 0, -1, e, "cannot read: %s", strerror(e));
        }
        if (n == 0)
            break;
        len += (size_t)n;
        if (len > max) {
            free(buf);
            return sg_diag_set(diag, SG_ERR_TOO_LARGE, label, 0, 0, -1, 0,
                               "input is larger than the limit of %zu bytes (see --max-bytes)", max);
        }
    }
    buf[len] = 0;
    *ret_buf = buf;
    *ret_len = len;
    return SG_OK;
}

sg_status sg_read_file(const char *path, size_t max, char **ret_buf, size_t *ret_len, sg_diag *diag)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        int e = errno;
        return sg_diag_set(diag, SG_ERR_IO, path, 0, 0, -1, e, "cannot open: %s", strerror(e));
    }
    struct stat st;
    if (fstat(fd, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            close(fd);
            return sg_diag_set(diag, SG_ERR_IO, path, 0, 0, -1, EISDIR, "is a directory");
        }
        if (S_ISREG(st.st_mode) && (unsigned long long)st.st_size > max) {
            close(fd);
            return sg_diag_set(diag, SG_ERR_TOO_LARGE, path, 0, 0, -1, 0,
                               "file is %lld bytes, larger than the limit of %zu bytes (see --max-bytes)",
                               (long long)st.st_size, max);
        }
    }
    sg_status st2 = util__read_fd(fd, path, max, ret_buf, ret_len, diag);
    close(fd);
    return st2;
}

sg_status sg_read_stream(FILE *f, const char *label, size_t max, char **ret_buf, size_t *ret_len,
                         sg_diag *diag)
{
    return util__read_fd(fileno(f), label, max, ret_buf, ret_len, diag);
}

long long sg_utf8_invalid_offset(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < n) {
        /* ASCII, most of any source: eight bytes at a time */
        while (n - i >= 8) {
            uint64_t w;
            memcpy(&w, p + i, 8);
            if (w & 0x8080808080808080ULL)
                break;
            i += 8;
        }
        if (i >= n)
            break;
        unsigned c = p[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t need;
        unsigned min;
        if (c >= 0xc2 && c <= 0xdf) {
            need = 1;
            min = 0x80;
        } else if (c >= 0xe0 && c <= 0xef) {
            need = 2;
            min = 0x800;
        } else if (c >= 0xf0 && c <= 0xf4) {
            need = 3;
            min = 0x10000;
        } else {
            return (long long)i;
        }
        if (n - i <= need)
            return (long long)i;
        unsigned cp = c & (0x3f >> need);
        for (size_t k = 1; k <= need; k++) {
            if ((p[i + k] & 0xc0) != 0x80)
                return (long long)i;
            cp = (cp << 6) | (p[i + k] & 0x3f);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return (long long)i;
        i += need + 1;
    }
    return -1;
}

size_t sg_fmt_ull(unsigned long long v, char *buf)
{
    char tmp[20], *p = tmp + sizeof tmp;
    do
        *--p = (char)('0' + v % 10);
    while (v /= 10);
    size_t n = (size_t)(tmp + sizeof tmp - p);
    memcpy(buf, p, n);
    return n;
}

size_t sg_utf8_count(const char *s, size_t n)
{
    size_t count = 0;
    for (size_t i = 0; i < n; i++)
        if (((unsigned char)s[i] & 0xc0) != 0x80)
            count++;
    return count;
}

/* How common each byte is in Python source, in parts per thousand (the standard library, measured;
 * bytes not listed: under 1 per thousand). Only the order matters. */
static unsigned util__py_byte_freq(unsigned char c)
{
    switch (c) {
    case ' ': return 298;
    case 'e': return 64;
    case 't': return 41;
    case 's': return 35;
    case 'r': case 'n': case 'a': return 33;
    case 'i': case 'o': return 31;
    case '\n': return 26;
    case 'l': return 24;
    case 'd': case 'c': case 'f': return 17;
    case '_': return 14;
    case 'u': case 'p': case '\'': return 13;
    case 'm': case '.': case 'h': return 11;
    case ',': return 9;
    case ')': case '(': case '0': return 8;
    case 'T': case 'g': case '"': case 'E': case ':': return 7;
    case 'x': case '=': case 'b': return 6;
    case 'A': case 'L': case 'I': case '-': case 'y': case '#': return 5;
    case 'N': case 'R': case 'w': return 4;
    case 'S': case 'v': case 'C': case 'k': return 3;
    case 'O': case '\\': case '>': case 'D': case '1': case 'P': return 2;
    default: return 1;
    }
}

const char *sg_memmem(const char *hay, size_t hn, const char *needle, size_t nn)
{
    if (!nn)
        return hay;
    if (nn > hn)
        return NULL;
    size_t k = 0;
    for (size_t i = 1; i < nn; i++)
        if (util__py_byte_freq((unsigned char)needle[i]) < util__py_byte_freq((unsigned char)needle[k]))
            k = i;
    /* needle[k] sits at p; the needle starts k bytes before */
    const char *p = hay + k, *end = hay + hn - (nn - k - 1);
    while (p < end && (p = memchr(p, needle[k], (size_t)(end - p)))) {
        if (!memcmp(p - k, needle, nn))
            return p - k;
        p++;
    }
    return NULL;
}

bool sg_glob_match(const char *pat, const char *s)
{
    const char *star = NULL, *resume = NULL;
    while (*s) {
        if (*pat == '*') {
            star = pat++;
            resume = s;
        } else if (*pat == '\\' && (pat[1] ? pat[1] : '\\') == *s) { /* an escaped character: itself */
            pat += pat[1] ? 2 : 1;
            s++;
        } else if (*pat != '\\' && (*pat == '?' || *pat == *s)) {
            pat++;
            s++;
        } else if (star) {
            pat = star + 1;
            s = ++resume;
        } else {
            return false;
        }
    }
    while (*pat == '*')
        pat++;
    return *pat == 0;
}

sg_status sg_read_input(const char *path, size_t max_bytes, char **ret_buf, size_t *ret_len, sg_diag *diag)
{
    if (!ret_buf || !ret_len)
        return SG_ERR_INVALID_ARG;
    if (path)
        return sg_read_file(path, max_bytes, ret_buf, ret_len, diag);
    return sg_read_stream(stdin, "<stdin>", max_bytes, ret_buf, ret_len, diag);
}
