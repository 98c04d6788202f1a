/*
 * A small HTTP load client for `snipgate serve` (bench/bench_serve.py drives it).
 *
 *   bench_serve HOST PORT BODY_FILE CONNECTIONS RATE SECONDS
 *
 * POSTs BODY_FILE to /v1/check over CONNECTIONS keep-alive connections. RATE > 0: open loop, request
 * i is due at start + i/RATE and its latency counts from that time (a slow server cannot hide its
 * queueing: no coordinated omission); RATE 0: closed loop, each connection sends its next request
 * as soon as it has an answer. Prints one JSON line: sent, answered, by status, req/s, latency
 * percentiles in ms.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAXC 1024

typedef struct conn {
    int fd;
    bool busy;
    double due;     /* when the request in flight was due */
    size_t sent;    /* bytes of the request written */
    char buf[65536];
    size_t got;
} conn;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int dial(const char *host, int port)
{
    struct sockaddr_in sin = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    if (inet_pton(AF_INET, host, &sin.sin_addr) != 1)
        return -1;
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    if (fd < 0)
        return -1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (connect(fd, (struct sockaddr *)&sin, sizeof sin) != 0) {
        close(fd);
        return -1;
    }
    fcntl(fd, F_SETFL, O_NONBLOCK);
    return fd;
}

/* A whole response in c->buf: its status, and its length (0 if incomplete). */
static size_t response_len(const conn *c, int *status)
{
    const char *end = memmem(c->buf, c->got, "\r\n\r\n", 4);
    if (!end)
        return 0;
    size_t head = (size_t)(end - c->buf) + 4;
    const char *cl = memmem(c->buf, head, "Content-Length:", 15);
    if (!cl)
        cl = memmem(c->buf, head, "content-length:", 15);
    size_t body = cl ? strtoul(cl + 15, NULL, 10) : 0;
    if (c->got < head + body)
        return 0;
    *status = atoi(c->buf + 9);
    return head + body;
}

int main(int argc, char **argv)
{
    if (argc != 7) {
        fprintf(stderr, "usage: %s HOST PORT BODY_FILE CONNECTIONS RATE SECONDS\n", argv[0]);
        return 2;
    }
    const char *host = argv[1];
    int port = atoi(argv[2]), nconn = atoi(argv[4]);
    double rate = atof(argv[5]), secs = atof(argv[6]);
    if (nconn < 1 || nconn > MAXC || secs <= 0) {
        fprintf(stderr, "bad arguments\n");
        return 2;
    }
    FILE *bf = fopen(argv[3], "rb");
    if (!bf) {
        perror(argv[3]);
        return 2;
    }
    char body[1 << 16];
    size_t blen = fread(body, 1, sizeof body, bf);
    fclose(bf);
    char *req = malloc(blen + 256);
    int hl = snprintf(req, 256,
                      "POST /v1/check HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n"
                      "Content-Length: %zu\r\n\r\n",
                      host, blen);
    memcpy(req + hl, body, blen);
    size_t rlen = (size_t)hl + blen;

    conn *cs = calloc((size_t)nconn, sizeof *cs);
    for (int i = 0; i < nconn; i++)
        if ((cs[i].fd = dial(host, port)) < 0) {
            fprintf(stderr, "cannot connect to %s:%d: %s\n", host, port, strerror(errno));
            return 1;
        }
    size_t cap = rate > 0 ? (size_t)(rate * secs) + 16 : 1u << 22;
    double *lat = malloc(cap * sizeof *lat);
    size_t nlat = 0, sent = 0, errors = 0;
    unsigned long by_status[600] = {0};
    struct pollfd pfd[MAXC];
    double start = now_s(), end = start + secs;
    size_t due_count = 0; /* open loop: requests due so far */
    for (;;) {
        double t = now_s();
        bool sending = t < end;
        if (rate > 0 && sending)
            due_count = (size_t)((t - start) * rate) + 1;
        /* start requests on idle connections */
        for (int i = 0; i < nconn && sending; i++) {
            conn *c = &cs[i];
            if (c->busy)
                continue;
            if (rate > 0) {
                if (sent >= due_count || sent >= cap)
                    break;
                c->due = start + (double)sent / rate;
            } else {
                if (sent >= cap)
                    break;
                c->due = t;
            }
            c->busy = true;
            c->sent = 0;
            c->got = 0;
            sent++;
        }
        bool any = false;
        for (int i = 0; i < nconn; i++) {
            conn *c = &cs[i];
            pfd[i].fd = c->fd;
            pfd[i].events = c->busy ? (c->sent < rlen ? POLLOUT : POLLIN) : 0;
            any |= c->busy;
        }
        if (!any && !sending)
            break;
        int timeout = 1;
        if (rate <= 0)
            timeout = 50;
        if (poll(pfd, (nfds_t)nconn, timeout) < 0 && errno != EINTR)
            break;
        for (int i = 0; i < nconn; i++) {
            conn *c = &cs[i];
            if (!c->busy || !pfd[i].revents)
                continue;
            if (c->sent < rlen) {
                ssize_t w = write(c->fd, req + c->sent, rlen - c->sent);
                if (w > 0)
                    c->sent += (size_t)w;
                else if (w < 0 && errno != EAGAIN) {
                    errors++;
                    c->busy = false;
                }
                continue;
            }
            ssize_t r = read(c->fd, c->buf + c->got, sizeof c->buf - c->got);
            if (r <= 0) {
                if (r < 0 && errno == EAGAIN)
                    continue;
                errors++; /* the server closed: reconnect */
                close(c->fd);
                c->fd = dial(host, port);
                c->busy = false;
                if (c->fd < 0)
                    return 1;
                continue;
            }
            c->got += (size_t)r;
            int status = 0;
            if (response_len(c, &status)) {
                if (nlat < cap)
                    lat[nlat++] = (now_s() - c->due) * 1000;
                if (status > 0 && status < 600)
                    by_status[status]++;
                c->busy = false;
            }
        }
    }
    double el = now_s() - start;
    qsort(lat, nlat, sizeof *lat, cmp_d);
#define PCT(p) (nlat ? lat[(size_t)((double)(nlat - 1) * (p))] : 0.0)
    printf("{\"connections\": %d, \"rate\": %.0f, \"seconds\": %.3f, \"sent\": %zu, \"answered\": %zu, "
           "\"transport_errors\": %zu, \"req_per_s\": %.1f, \"p50_ms\": %.3f, \"p90_ms\": %.3f, \"p99_ms\": %.3f, "
           "\"max_ms\": %.3f, \"status\": {",
           nconn, rate, el, sent, nlat, errors, (double)nlat / el, PCT(0.5), PCT(0.9), PCT(0.99),
           nlat ? lat[nlat - 1] : 0.0);
    bool first = true;
    for (int s = 0; s < 600; s++)
        if (by_status[s]) {
            printf("%s\"%d\": %lu", first ? "" : ", ", s, by_status[s]);
            first = false;
        }
    printf("}}\n");
    for (int i = 0; i < nconn; i++)
        close(cs[i].fd);
    free(cs);
    free(lat);
    free(req);
    return 0;
}
