/*
 * make-large-capture: writes a deterministic, realistic classic pcap for the capture
 * benchmark (scripts/bench-capture). Built and run by scripts/make-large-capture; the
 * traffic mix is described in docs/performance-captures.md.
 *
 *   make-large-capture --size 1GiB --out FILE [--seed N] [--duration SECONDS] [--shape steady|sessions]
 *
 * The file is Ethernet (LINKTYPE 1) with nanosecond timestamps (magic 0xa1b23c4d, written
 * little-endian), seen from a phone on home Wi-Fi: 192.168.1.23 plus a global and a ULA
 * IPv6 address. Every session (a DNS lookup, a TCP connection, a QUIC connection, link
 * chatter) is laid out in full when it starts, as compact packet descriptors; sessions are
 * merged in time order through a heap and rendered to bytes (headers, checksums, payload)
 * only when written, so memory stays small and the output is identical for a given seed.
 * Bulk downloads are started whenever the bytes planned so far fall behind a straight line
 * from 0 to --size over --duration; the background traffic runs on its own clock. Once the
 * planned bytes reach --size no new session starts and the running ones finish.
 *
 * --shape sessions writes a different capture instead (default duration 8.2 days): one short
 * session after another, each opening with a DNS lookup (unless the name is cached) and,
 * but for plain HTTP, a TLS handshake with SNI — a bulk download sized to keep the planned bytes on the line, a few
 * polls 30 s apart each on a new connection, a chatty plain-HTTP JSON exchange, a QUIC-like
 * UDP transfer, or a beacon — separated by idle gaps of 0.5-60 s, beside the push connection.
 *
 * Two more shapes are made of nothing but short flows, one started at a fixed interval until
 * --size is written (--duration does not apply): --shape flows, a DNS question every 50 ms,
 * each to a resolver address of its own (100.64.0.0/10) and never answered, so that every
 * datagram is a flow of its own (up to 4,194,304 of them, about 380 MB, after which the
 * addresses repeat); --shape connections, an HTTPS poll every 250 ms, each on a new TCP
 * connection (the polls of the steady shape), so that source ports come round again and later
 * connections reuse a closed 5-tuple.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <zlib.h>

#define NS_PER_US 1000ULL
#define NS_PER_MS 1000000ULL
#define NS_PER_S 1000000000ULL
#define CAPTURE_EPOCH 1773478800ULL /* 2026-03-14T09:00:00Z */

/* ---------------------------------------------------------------- random numbers */

typedef struct { uint64_t state; } Rng;

/* splitmix64: tiny, fast, and good enough for traffic shapes. */
static uint64_t rng_next(Rng *r) {
    uint64_t z = (r->state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static double rng_unit(Rng *r) { return (double)(rng_next(r) >> 11) * 0x1.0p-53; }
static uint64_t rng_range(Rng *r, uint64_t lo, uint64_t hi) { return lo + rng_next(r) % (hi - lo + 1); }
static bool rng_chance(Rng *r, double p) { return rng_unit(r) < p; }
static uint64_t rng_ns(Rng *r, double lo_s, double hi_s) {
    return (uint64_t)((lo_s + (hi_s - lo_s) * rng_unit(r)) * 1e9);
}
static uint64_t rng_exp_ns(Rng *r, double mean_s) {
    double u = rng_unit(r);
    if (u < 1e-12) u = 1e-12;
    return (uint64_t)(-mean_s * 1e9 * log(u));
}

/* Payload bytes (ciphertext, compressed bodies) come from one seeded pool. */
#define POOL_SIZE (1u << 20)
#define POOL_MASK (POOL_SIZE - 1)
static uint8_t pool[POOL_SIZE];

static void pool_copy(uint8_t *dst, uint64_t pos, uint32_t n) {
    while (n) {
        uint32_t i = (uint32_t)(pos & POOL_MASK), k = POOL_SIZE - i;
        if (k > n) k = n;
        memcpy(dst, pool + i, k);
        dst += k; pos += k; n -= k;
    }
}

/* ---------------------------------------------------------------- byte helpers */

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
static void put32(uint8_t *p, uint32_t v) { put16(p, (uint16_t)(v >> 16)); put16(p + 2, (uint16_t)v); }
static void put24(uint8_t *p, uint32_t v) { p[0] = (uint8_t)(v >> 16); put16(p + 1, (uint16_t)v); }
static void le32(uint8_t *p, uint32_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24); }

static void *xrealloc(void *p, size_t n) {
    void *q = realloc(p, n);
    if (!q) { fprintf(stderr, "make-large-capture: out of memory\n"); exit(1); }
    return q;
}

/* Internet checksum, summed in memory order (RFC 1071 §2(B)) so the folded result is
 * stored back with memcpy in the same order. */
static uint64_t csum_add(uint64_t acc, const uint8_t *p, size_t n) {
    while (n >= 4) { uint32_t w; memcpy(&w, p, 4); acc += w; p += 4; n -= 4; }
    if (n >= 2) { uint16_t w; memcpy(&w, p, 2); acc += w; p += 2; n -= 2; }
    if (n) { uint8_t b[2] = {p[0], 0}; uint16_t w; memcpy(&w, b, 2); acc += w; }
    return acc;
}
static void csum_store(uint8_t *dst, uint64_t acc) {
    while (acc >> 16) acc = (acc & 0xffff) + (acc >> 16);
    uint16_t c = (uint16_t)~acc;
    memcpy(dst, &c, 2);
}

/* ---------------------------------------------------------------- addresses and hosts */

static const uint8_t DEV_MAC[6] = {0xda, 0xa1, 0x19, 0x5e, 0x2b, 0x07}; /* randomised MAC, as phones use */
static const uint8_t GW_MAC[6] = {0x74, 0xac, 0xb9, 0x10, 0x3c, 0x01};
static const uint8_t BCAST_MAC[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
static const uint8_t DEV4[4] = {192, 168, 1, 23};
static const uint8_t GW4[4] = {192, 168, 1, 1};
static const uint8_t DEV6[16] = {0x20, 0x01, 0x0d, 0xb8, 0x00, 0x4a, 0x00, 0x01, 0x5d, 0x1c, 0x9e, 0x02, 0x7b, 0x41, 0x00, 0x23};
static const uint8_t DEV6_ULA[16] = {0xfd, 0x12, 0x34, 0x56, 0x78, 0x9a, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0, 0x23};
static const uint8_t GW6_ULA[16] = {0xfd, 0x12, 0x34, 0x56, 0x78, 0x9a, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0, 0x01};
static const uint8_t DEV6_LL[16] = {0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0xd8, 0xa1, 0x19, 0xff, 0xfe, 0x5e, 0x2b, 0x07};
static const uint8_t GW6_LL[16] = {0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01};

typedef struct {
    const char *name;
    const char *cname[2];      /* CNAME chain from name to the address owner */
    uint8_t v4[4], v6[16];
    bool has_v4, has_v6;
    uint32_t ttl_s, rtt_us;
    uint8_t hops;               /* TTL / hop limit its packets arrive with */
    uint64_t dns_valid_until;   /* the phone's resolver cache */
} Host;

enum { H_API, H_METRICS, H_FEED, H_IMG, H_DL, H_CDN, H_UPDATE, H_VIDEO, H_PUSH, H_TIME, H_DEAD, H_COUNT };

static Host hosts[H_COUNT] = {
    [H_API] = {"api.example.com", {0}, {203, 0, 113, 10}, {0}, true, false, 300, 38000, 53, 0},
    [H_METRICS] = {"metrics.example.org", {0}, {198, 51, 100, 77},
                   {0x20, 0x01, 0x0d, 0xb8, 0x00, 0x77, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10}, true, true, 600, 70000, 49, 0},
    [H_FEED] = {"feed.example.com", {0}, {198, 51, 100, 20}, {0}, true, false, 120, 45000, 55, 0},
    [H_IMG] = {"img.example.com", {"img.example.com.cdn.example.net", "e42.edge.example.net"}, {203, 0, 113, 80},
               {0x20, 0x01, 0x0d, 0xb8, 0x00, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x42}, true, true, 60, 12000, 58, 0},
    [H_DL] = {"dl.example.net", {0}, {203, 0, 113, 120}, {0}, true, false, 300, 60000, 52, 0},
    [H_CDN] = {"cdn.example.net", {"cdn.example.net.edgekey.example.net", 0}, {203, 0, 113, 121},
               {0x20, 0x01, 0x0d, 0xb8, 0x00, 0xcd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01}, true, true, 60, 14000, 57, 0},
    [H_UPDATE] = {"update.example.com", {0}, {198, 51, 100, 50}, {0}, true, false, 900, 85000, 50, 0},
    [H_VIDEO] = {"video.example.com", {"video.example.com.v.example.net", 0}, {203, 0, 113, 90},
                 {0x20, 0x01, 0x0d, 0xb8, 0x1d, 0xe0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x05}, true, true, 120, 18000, 56, 0},
    [H_PUSH] = {"push.example.com", {0}, {203, 0, 113, 200}, {0}, true, false, 3600, 110000, 47, 0},
    [H_TIME] = {"time.example.com", {0}, {203, 0, 113, 123}, {0}, true, false, 1800, 25000, 54, 0},
    [H_DEAD] = {"legacy.example.com", {0}, {203, 0, 113, 9}, {0}, true, false, 300, 40000, 53, 0},
};

/* ---------------------------------------------------------------- packet descriptors */

enum { UP = 0, DOWN = 1 };                 /* device -> server, server -> device */
enum { K_TCP, K_RAW, K_QUIC };             /* rendered from state / stored frame / QUIC short header */
enum { F_FIN = 0x01, F_SYN = 0x02, F_RST = 0x04, F_PSH = 0x08, F_ACK = 0x10 };
enum { OPT_NONE, OPT_TS, OPT_SYN, OPT_SACK };
enum { C_DNS, C_POLL, C_BEACON, C_HTTP, C_IMAGES, C_BULK_TLS, C_BULK_HTTP, C_QUIC, C_PUSH, C_NTP, C_LINK, C_REFUSED, C_COUNT };
static const char *category_name[C_COUNT] = {
    "DNS (A/AAAA, CNAME chains, fragmented TXT)", "HTTPS polls every 30 s", "HTTPS beacons (IPv6)",
    "plain HTTP/1.1 JSON (chatty)", "HTTPS images (IPv6, CNAME)", "bulk HTTPS downloads (v4, v6)",
    "bulk plain HTTP downloads", "QUIC video (443/udp, IPv6)", "push connection (5223/tcp)", "NTP",
    "ARP, ICMPv6 NS/NA/RA, MLDv2", "refused connections (RST)",
};

typedef struct {
    uint64_t ts;          /* ns since capture start */
    uint32_t seq, ack;    /* TCP, absolute */
    uint32_t off;         /* TCP: payload offset in the direction's stream, or SACK left edge;
                             RAW: frame offset in the session blob; QUIC: pool position */
    uint32_t aux;         /* TCP: SACK right edge */
    uint32_t order;       /* creation order, to keep equal timestamps stable */
    uint16_t len;         /* TCP/QUIC: payload bytes; RAW: frame bytes */
    uint16_t win;
    uint8_t kind, dir, flags, opt, cat;
} Pkt;

/* A direction's byte stream: literal bytes, random bytes, or TLS application-data records
 * with random ciphertext. TCP segments copy their payload out of it when rendered. */
enum { CH_BLOB, CH_RAND, CH_TLS };
#define TLS_MAX_PLAIN 16384u
#define TLS_OVERHEAD 22u /* 5-byte header, 16-byte AEAD tag, 1 content-type byte (TLS 1.3) */
typedef struct { uint8_t kind; uint32_t len, where, last_record; } Chunk;
typedef struct { Chunk *c; int n, cap; uint64_t len; int cur; uint64_t cur_start; } Stream;

typedef struct {
    Pkt *p; size_t n, cap, next;
    uint8_t *blob; size_t blob_len, blob_cap;
    Stream st[2];
    Rng rng;
    Host *host;
    int fam;                              /* 4 or 6 */
    const uint8_t *ip[2];                 /* [UP] device address, [DOWN] server address */
    uint16_t port[2];                     /* [UP] device port, [DOWN] server port */
    uint8_t hops[2];
    uint16_t ipid[2], win_up;
    uint32_t flow[2];
    uint32_t isn[2], ts_base[2], last_tsval[2];
    uint64_t sent[2];
    uint8_t fin[2];
    uint32_t mss;
    uint64_t rtt;
    uint64_t last_off; uint32_t last_len; /* the last data segment tcp_msg sent */
    uint64_t bytes;                       /* bytes this session adds to the file */
    uint8_t quic_cid[2][8];
    uint8_t cat;
} Session;

static uint64_t planned_bytes;
static uint32_t pkt_order;
static Rng world;
static uint16_t next_port = 49152;

static Session *session_new(uint8_t cat) {
    Session *s = calloc(1, sizeof *s);
    if (!s) { fprintf(stderr, "make-large-capture: out of memory\n"); exit(1); }
    s->cat = cat;
    s->rng.state = rng_next(&world);
    s->ipid[UP] = (uint16_t)rng_next(&s->rng);
    s->ipid[DOWN] = (uint16_t)rng_next(&s->rng);
    s->flow[UP] = (uint32_t)rng_next(&s->rng) & 0xfffff;
    s->flow[DOWN] = (uint32_t)rng_next(&s->rng) & 0xfffff;
    s->isn[UP] = (uint32_t)rng_next(&s->rng);
    s->isn[DOWN] = (uint32_t)rng_next(&s->rng);
    s->ts_base[UP] = (uint32_t)rng_next(&s->rng) >> 2;
    s->ts_base[DOWN] = (uint32_t)rng_next(&s->rng) >> 2;
    s->win_up = (uint16_t)(2048 - rng_range(&s->rng, 0, 16) * 16);
    s->hops[UP] = 64;
    s->hops[DOWN] = 64;
    return s;
}

static void session_free(Session *s) {
    free(s->p); free(s->blob); free(s->st[0].c); free(s->st[1].c); free(s);
}

static uint16_t ephemeral_port(void) {
    uint16_t p = next_port;
    next_port = next_port >= 65535 - 7 ? 49152 : (uint16_t)(next_port + 1 + rng_range(&world, 0, 6));
    return p;
}

/* Points the session's transport endpoint at a host, IPv6 when it has an address. */
static void session_connect_to(Session *s, Host *h, uint16_t port) {
    s->host = h;
    s->fam = h->has_v6 ? 6 : 4;
    s->ip[UP] = s->fam == 6 ? DEV6 : DEV4;
    s->ip[DOWN] = s->fam == 6 ? h->v6 : h->v4;
    s->port[UP] = ephemeral_port();
    s->port[DOWN] = port;
    s->hops[DOWN] = h->hops;
    s->rtt = (uint64_t)h->rtt_us * NS_PER_US * (90 + rng_range(&s->rng, 0, 20)) / 100;
    s->mss = (s->fam == 6 ? 1440 : 1460) - 12; /* minus the timestamp option */
}

static size_t l3_len(int fam) { return fam == 6 ? 40 : 20; }
static size_t tcp_opt_len(int opt) { return opt == OPT_SYN ? 20 : opt == OPT_SACK ? 24 : opt == OPT_TS ? 12 : 0; }

static Pkt *pkt_push(Session *s, uint64_t ts, uint8_t kind, uint8_t dir, uint8_t cat) {
    if (s->n == s->cap) { s->cap = s->cap ? s->cap * 2 : 64; s->p = xrealloc(s->p, s->cap * sizeof *s->p); }
    Pkt *p = &s->p[s->n++];
    memset(p, 0, sizeof *p);
    p->ts = ts; p->kind = kind; p->dir = dir; p->cat = cat; p->order = pkt_order++;
    return p;
}

static void account(Session *s, size_t frame) { s->bytes += 16 + frame; }

static uint8_t *blob_reserve(Session *s, size_t n) {
    if (s->blob_len + n > s->blob_cap) {
        while (s->blob_len + n > s->blob_cap) s->blob_cap = s->blob_cap ? s->blob_cap * 2 : 4096;
        s->blob = xrealloc(s->blob, s->blob_cap);
    }
    return s->blob + s->blob_len;
}

/* ---------------------------------------------------------------- streams */

static void stream_push(Session *s, int dir, uint8_t kind, uint32_t len, uint32_t where, uint32_t last_record) {
    Stream *st = &s->st[dir];
    if (st->n == st->cap) { st->cap = st->cap ? st->cap * 2 : 8; st->c = xrealloc(st->c, (size_t)st->cap * sizeof *st->c); }
    st->c[st->n++] = (Chunk){kind, len, where, last_record};
    st->len += len;
}
static void add_blob(Session *s, int dir, const void *data, size_t n) {
    memcpy(blob_reserve(s, n), data, n);
    stream_push(s, dir, CH_BLOB, (uint32_t)n, (uint32_t)s->blob_len, 0);
    s->blob_len += n;
}
static void add_rand(Session *s, int dir, uint32_t n) { stream_push(s, dir, CH_RAND, n, (uint32_t)rng_next(&s->rng), 0); }
/* Appends `plain` bytes of TLS 1.3 application data as full records; returns wire bytes. */
static uint32_t add_tls(Session *s, int dir, uint32_t plain) {
    uint32_t full = plain / TLS_MAX_PLAIN, rest = plain % TLS_MAX_PLAIN;
    if (rest == 0 && full) { full--; rest = TLS_MAX_PLAIN; }
    uint32_t wire = full * (TLS_MAX_PLAIN + TLS_OVERHEAD) + rest + TLS_OVERHEAD;
    stream_push(s, dir, CH_TLS, wire, (uint32_t)rng_next(&s->rng), rest + TLS_OVERHEAD - 5);
    return wire;
}

static void chunk_copy(const Session *s, const Chunk *c, uint32_t in, uint32_t n, uint8_t *dst) {
    if (c->kind == CH_BLOB) { memcpy(dst, s->blob + c->where + in, n); return; }
    if (c->kind == CH_RAND) { pool_copy(dst, (uint64_t)c->where + in, n); return; }
    const uint32_t rec = TLS_MAX_PLAIN + TLS_OVERHEAD;
    while (n) {
        uint32_t r = in / rec, at = in % rec;
        bool last = (uint64_t)(r + 1) * rec >= c->len;
        if (at < 5) {
            uint8_t h[5] = {0x17, 0x03, 0x03, 0, 0};
            put16(h + 3, (uint16_t)(last ? c->last_record : rec - 5));
            uint32_t k = 5 - at < n ? 5 - at : n;
            memcpy(dst, h + at, k);
            dst += k; in += k; n -= k;
            continue;
        }
        uint32_t end = last ? c->len : (r + 1) * rec, k = end - in < n ? end - in : n;
        pool_copy(dst, (uint64_t)c->where + in, k);
        dst += k; in += k; n -= k;
    }
}

static void stream_copy(Session *s, int dir, uint64_t off, uint32_t n, uint8_t *dst) {
    Stream *st = &s->st[dir];
    if (off < st->cur_start) { st->cur = 0; st->cur_start = 0; }
    while (off >= st->cur_start + st->c[st->cur].len) { st->cur_start += st->c[st->cur].len; st->cur++; }
    int ci = st->cur;
    uint64_t start = st->cur_start;
    while (n) {
        const Chunk *c = &st->c[ci];
        uint32_t in = (uint32_t)(off - start), k = c->len - in < n ? c->len - in : n;
        chunk_copy(s, c, in, k, dst);
        dst += k; off += k; n -= k;
        start += c->len; ci++;
    }
}

/* ---------------------------------------------------------------- frame builders */

static size_t put_eth(uint8_t *o, const uint8_t *dst, const uint8_t *src, uint16_t type) {
    memcpy(o, dst, 6); memcpy(o + 6, src, 6); put16(o + 12, type);
    return 14;
}
static size_t put_ip4(uint8_t *o, const uint8_t *src, const uint8_t *dst, uint8_t proto, size_t payload,
                      uint16_t id, uint16_t frag, uint8_t ttl) {
    o[0] = 0x45; o[1] = 0; put16(o + 2, (uint16_t)(20 + payload)); put16(o + 4, id); put16(o + 6, frag);
    o[8] = ttl; o[9] = proto; o[10] = o[11] = 0; memcpy(o + 12, src, 4); memcpy(o + 16, dst, 4);
    csum_store(o + 10, csum_add(0, o, 20));
    return 20;
}
static size_t put_ip6(uint8_t *o, const uint8_t *src, const uint8_t *dst, uint8_t next, size_t payload,
                      uint32_t flow, uint8_t hops) {
    put32(o, 0x60000000u | (flow & 0xfffff)); put16(o + 4, (uint16_t)payload); o[6] = next; o[7] = hops;
    memcpy(o + 8, src, 16); memcpy(o + 24, dst, 16);
    return 40;
}
static void l4_checksum(int fam, const uint8_t *src, const uint8_t *dst, uint8_t proto, uint8_t *seg, size_t len,
                        size_t csum_at) {
    uint8_t ph[40];
    size_t n;
    if (fam == 4) {
        memcpy(ph, src, 4); memcpy(ph + 4, dst, 4); ph[8] = 0; ph[9] = proto; put16(ph + 10, (uint16_t)len); n = 12;
    } else {
        memcpy(ph, src, 16); memcpy(ph + 16, dst, 16); put32(ph + 32, (uint32_t)len);
        ph[36] = ph[37] = ph[38] = 0; ph[39] = proto; n = 40;
    }
    seg[csum_at] = seg[csum_at + 1] = 0;
    csum_store(seg + csum_at, csum_add(csum_add(0, ph, n), seg, len));
    if (proto == 17 && seg[csum_at] == 0 && seg[csum_at + 1] == 0) seg[csum_at] = seg[csum_at + 1] = 0xff;
}

/* A UDP datagram stored whole in the blob (DNS, NTP, QUIC handshake). */
static void emit_udp(Session *s, uint64_t ts, int dir, uint8_t cat, int fam, const uint8_t *src, const uint8_t *dst,
                     uint16_t sport, uint16_t dport, uint8_t hops, const uint8_t *payload, size_t n) {
    size_t frame = 14 + l3_len(fam) + 8 + n;
    uint8_t *o = blob_reserve(s, frame);
    size_t at = dir == UP ? put_eth(o, GW_MAC, DEV_MAC, fam == 6 ? 0x86dd : 0x0800)
                          : put_eth(o, DEV_MAC, GW_MAC, fam == 6 ? 0x86dd : 0x0800);
    at += fam == 4 ? put_ip4(o + at, src, dst, 17, 8 + n, s->ipid[dir]++, dir == UP ? 0x4000 : 0, hops)
                   : put_ip6(o + at, src, dst, 17, 8 + n, s->flow[dir], hops);
    uint8_t *u = o + at;
    put16(u, sport); put16(u + 2, dport); put16(u + 4, (uint16_t)(8 + n));
    memcpy(u + 8, payload, n);
    l4_checksum(fam, src, dst, 17, u, 8 + n, 6);
    Pkt *p = pkt_push(s, ts, K_RAW, (uint8_t)dir, cat);
    p->off = (uint32_t)s->blob_len; p->len = (uint16_t)frame;
    s->blob_len += frame;
    account(s, frame);
}

/* A UDP datagram over IPv4 larger than the MTU, as the fragments a router delivers. */
static void emit_udp4_fragmented(Session *s, uint64_t ts, uint8_t cat, const uint8_t *src, const uint8_t *dst,
                                 uint16_t sport, uint16_t dport, uint8_t hops, const uint8_t *payload, size_t n) {
    uint8_t dgram[8 + 4096];
    put16(dgram, sport); put16(dgram + 2, dport); put16(dgram + 4, (uint16_t)(8 + n));
    memcpy(dgram + 8, payload, n);
    l4_checksum(4, src, dst, 17, dgram, 8 + n, 6);
    uint16_t id = s->ipid[DOWN]++;
    for (size_t off = 0; off < 8 + n; off += 1480) {
        size_t k = 8 + n - off < 1480 ? 8 + n - off : 1480;
        bool more = off + k < 8 + n;
        size_t frame = 14 + 20 + k;
        uint8_t *o = blob_reserve(s, frame);
        size_t at = put_eth(o, DEV_MAC, GW_MAC, 0x0800);
        at += put_ip4(o + at, src, dst, 17, k, id, (uint16_t)((more ? 0x2000 : 0) | (off / 8)), hops);
        memcpy(o + at, dgram + off, k);
        Pkt *p = pkt_push(s, ts + off / 1480 * 12 * NS_PER_US, K_RAW, DOWN, cat);
        p->off = (uint32_t)s->blob_len; p->len = (uint16_t)frame;
        s->blob_len += frame;
        account(s, frame);
    }
}

/* ---------------------------------------------------------------- DNS */

static size_t dns_name(uint8_t *o, const char *name) {
    size_t at = 0;
    while (*name) {
        const char *dot = strchr(name, '.');
        size_t k = dot ? (size_t)(dot - name) : strlen(name);
        o[at++] = (uint8_t)k; memcpy(o + at, name, k); at += k;
        name += k + (dot ? 1 : 0);
    }
    o[at++] = 0;
    return at;
}
static size_t dns_header(uint8_t *o, uint16_t id, uint16_t flags, uint16_t an, uint16_t ar) {
    put16(o, id); put16(o + 2, flags); put16(o + 4, 1); put16(o + 6, an); put16(o + 8, 0); put16(o + 10, ar);
    return 12;
}
static size_t dns_opt(uint8_t *o, uint16_t udp_size) {
    o[0] = 0; put16(o + 1, 41); put16(o + 3, udp_size); put32(o + 5, 0); put16(o + 9, 0);
    return 11;
}
static size_t dns_query(uint8_t *o, uint16_t id, const char *name, uint16_t qtype, bool edns) {
    size_t at = dns_header(o, id, 0x0100, 0, edns ? 1 : 0);
    at += dns_name(o + at, name);
    put16(o + at, qtype); put16(o + at + 2, 1); at += 4;
    if (edns) at += dns_opt(o + at, 4096);
    return at;
}
/* The answer follows the CNAME chain with compression pointers; a family the host lacks
 * gets the chain alone, as real resolvers answer. */
static size_t dns_answer(uint8_t *o, uint16_t id, const Host *h, uint16_t qtype) {
    bool has = qtype == 1 ? h->has_v4 : h->has_v6;
    int chain = (h->cname[0] != NULL) + (h->cname[1] != NULL);
    size_t at = dns_header(o, id, 0x8180, (uint16_t)(chain + (has ? 1 : 0)), 0);
    at += dns_name(o + at, h->name);
    put16(o + at, qtype); put16(o + at + 2, 1); at += 4;
    uint16_t owner = 12;
    for (int i = 0; i < chain; i++) {
        put16(o + at, (uint16_t)(0xc000 | owner)); put16(o + at + 2, 5); put16(o + at + 4, 1);
        put32(o + at + 6, h->ttl_s); at += 10;
        size_t rd = at + 2;
        size_t k = dns_name(o + rd, h->cname[i]);
        put16(o + at, (uint16_t)k);
        owner = (uint16_t)rd;
        at = rd + k;
    }
    if (has) {
        put16(o + at, (uint16_t)(0xc000 | owner)); put16(o + at + 2, qtype); put16(o + at + 4, 1);
        put32(o + at + 6, h->ttl_s / (chain ? 3 : 1));
        put16(o + at + 10, qtype == 1 ? 4 : 16);
        memcpy(o + at + 12, qtype == 1 ? h->v4 : h->v6, qtype == 1 ? 4 : 16);
        at += 12 + (qtype == 1 ? 4 : 16);
    }
    return at;
}

/* A and AAAA lookups, in parallel as phones do, unless the cache still holds the name.
 * Returns when the answers are in. */
static uint64_t dns_lookup(Session *s, uint64_t t, Host *h) {
    if (t < h->dns_valid_until) return t;
    h->dns_valid_until = t + (uint64_t)h->ttl_s * NS_PER_S;
    bool v6 = rng_chance(&s->rng, 0.3);
    int fam = v6 ? 6 : 4;
    const uint8_t *dev = v6 ? DEV6_ULA : DEV4, *res = v6 ? GW6_ULA : GW4;
    uint64_t done = t;
    for (int q = 0; q < 2; q++) {
        uint16_t qtype = q == 0 ? 1 : 28, id = (uint16_t)rng_next(&s->rng), port = ephemeral_port();
        uint8_t msg[512];
        uint64_t tq = t + (uint64_t)q * rng_range(&s->rng, 80, 400) * NS_PER_US;
        size_t n = dns_query(msg, id, h->name, qtype, false);
        emit_udp(s, tq, UP, C_DNS, fam, dev, res, port, 53, 64, msg, n);
        uint64_t ta = tq + rng_range(&s->rng, 4, 30) * NS_PER_MS;
        n = dns_answer(msg, id, h, qtype);
        emit_udp(s, ta, DOWN, C_DNS, fam, res, dev, 53, port, 64, msg, n);
        if (ta > done) done = ta;
    }
    return done + rng_range(&s->rng, 200, 900) * NS_PER_US;
}

/* ---------------------------------------------------------------- TCP */

static uint32_t seq_of(const Session *s, int dir, uint64_t off) { return s->isn[dir] + 1 + (uint32_t)off; }
static uint32_t ack_all(const Session *s, int dir) { return s->isn[!dir] + 1 + (uint32_t)s->sent[!dir] + s->fin[!dir]; }

static Pkt *tcp_emit(Session *s, uint64_t ts, int dir, uint8_t flags, uint32_t seq, uint32_t ack, uint64_t off,
                     uint32_t len, int opt) {
    Pkt *p = pkt_push(s, ts, K_TCP, (uint8_t)dir, s->cat);
    p->seq = seq; p->ack = ack; p->off = (uint32_t)off; p->len = (uint16_t)len; p->flags = flags; p->opt = (uint8_t)opt;
    if (flags & F_SYN) p->win = dir == UP ? 65535 : 65160;
    else p->win = dir == UP ? s->win_up : 501;
    account(s, 14 + l3_len(s->fam) + 20 + tcp_opt_len(opt) + len);
    return p;
}

static uint64_t tcp_connect(Session *s, uint64_t t) {
    tcp_emit(s, t, UP, F_SYN, s->isn[UP], 0, 0, 0, OPT_SYN);
    t += s->rtt;
    tcp_emit(s, t, DOWN, F_SYN | F_ACK, s->isn[DOWN], s->isn[UP] + 1, 0, 0, OPT_SYN);
    t += rng_range(&s->rng, 40, 120) * NS_PER_US;
    tcp_emit(s, t, UP, F_ACK, seq_of(s, UP, 0), seq_of(s, DOWN, 0), 0, 0, OPT_TS);
    return t;
}

/* Sends what the direction's stream holds beyond what was sent, MSS by MSS. The phone
 * acknowledges every second segment it receives and the last one; the server's ACK of a
 * request is shown only when asked for (when the answer takes long enough to be delayed). */
static uint64_t tcp_msg(Session *s, uint64_t t, int dir, bool server_ack) {
    uint64_t end = s->st[dir].len, last = t;
    int unacked = 0;
    while (s->sent[dir] < end) {
        uint64_t off = s->sent[dir];
        uint32_t len = end - off < s->mss ? (uint32_t)(end - off) : s->mss;
        s->sent[dir] += len;
        bool final = s->sent[dir] == end;
        tcp_emit(s, t, dir, F_ACK | (final ? F_PSH : 0), seq_of(s, dir, off), ack_all(s, dir), off, len, OPT_TS);
        s->last_off = off; s->last_len = len;
        last = t;
        if (dir == DOWN && (++unacked == 2 || final)) {
            last = t + rng_range(&s->rng, 30, 150) * NS_PER_US;
            tcp_emit(s, last, UP, F_ACK, seq_of(s, UP, s->sent[UP]), ack_all(s, UP), 0, 0, OPT_TS);
            unacked = 0;
        }
        t += rng_range(&s->rng, 20, 90) * NS_PER_US;
    }
    if (dir == UP && server_ack) {
        last += s->rtt;
        tcp_emit(s, last, DOWN, F_ACK, seq_of(s, DOWN, s->sent[DOWN]), ack_all(s, DOWN), 0, 0, OPT_TS);
    }
    return last;
}

/* The phone resends its last segment after a retransmission timeout (the server's ACK was
 * lost); the copy is byte-identical, so a capture shows a repeated sequence number. */
static uint64_t tcp_retransmit_last_up(Session *s, uint64_t t) {
    t += 200 * NS_PER_MS + s->rtt;
    tcp_emit(s, t, UP, F_ACK | F_PSH, seq_of(s, UP, s->last_off), ack_all(s, UP), s->last_off, s->last_len, OPT_TS);
    return t;
}

/* A server-to-phone bulk transfer of the rest of the DOWN stream: slow start in round
 * trips from 10 segments, then paced at `rate` bytes/s. A rare segment is lost before the
 * phone: the phone sends duplicate ACKs with SACK until the fast retransmission arrives. */
static uint64_t tcp_bulk_down(Session *s, uint64_t t, double rate) {
    const uint64_t end = s->st[DOWN].len;
    const uint64_t line_gap = (uint64_t)((s->mss + 66) * 8 / 300e6 * 1e9); /* 300 Mbit/s Wi-Fi */
    const double paced_gap = s->mss / rate * 1e9;
    double cwnd = 10;
    bool steady = false;
    int unacked = 0;
    bool hole = false;
    uint64_t hole_off = 0, retx_at = 0;
    uint32_t hole_len = 0;
    uint64_t now = t, last = t;
    uint32_t up_seq = seq_of(s, UP, s->sent[UP]);
    while (s->sent[DOWN] < end) {
        uint64_t round_start = now;
        int segments = steady ? 64 : (int)cwnd;
        for (int i = 0; i < segments && s->sent[DOWN] < end; i++) {
            uint64_t off = s->sent[DOWN];
            uint32_t len = end - off < s->mss ? (uint32_t)(end - off) : s->mss;
            if (hole && now >= retx_at) {
                tcp_emit(s, retx_at, DOWN, F_ACK, seq_of(s, DOWN, hole_off), up_seq, hole_off, hole_len, OPT_TS);
                tcp_emit(s, retx_at + 60 * NS_PER_US, UP, F_ACK, up_seq, seq_of(s, DOWN, off), 0, 0, OPT_TS);
                hole = false;
                unacked = 0;
            }
            s->sent[DOWN] += len;
            bool final = s->sent[DOWN] == end;
            if (steady && !hole && end - off > 32 * (uint64_t)s->mss && rng_chance(&s->rng, 0.0004)) {
                hole = true; hole_off = off; hole_len = len;
                retx_at = now + s->rtt + rng_range(&s->rng, 1, 4) * NS_PER_MS;
            } else {
                tcp_emit(s, now, DOWN, F_ACK | (final ? F_PSH : 0), seq_of(s, DOWN, off), up_seq, off, len, OPT_TS);
                last = now;
                uint64_t ack_at = now + rng_range(&s->rng, 30, 120) * NS_PER_US;
                if (hole) {
                    Pkt *p = tcp_emit(s, ack_at, UP, F_ACK, up_seq, seq_of(s, DOWN, hole_off), 0, 0, OPT_SACK);
                    p->off = seq_of(s, DOWN, hole_off + hole_len);
                    p->aux = seq_of(s, DOWN, off + len);
                    last = ack_at;
                } else if (++unacked == 2 || final) {
                    tcp_emit(s, ack_at, UP, F_ACK, up_seq, seq_of(s, DOWN, off + len), 0, 0, OPT_TS);
                    unacked = 0;
                    last = ack_at;
                }
            }
            double gap = steady ? paced_gap * (0.6 + 0.8 * rng_unit(&s->rng)) : (double)line_gap;
            now += (uint64_t)gap;
        }
        if (!steady) {
            cwnd *= 2;
            if (cwnd * s->mss / ((double)s->rtt / 1e9) >= rate) steady = true;
            else if (now < round_start + s->rtt) now = round_start + s->rtt;
        }
    }
    if (hole) {
        uint64_t at = retx_at > now ? retx_at : now;
        tcp_emit(s, at, DOWN, F_ACK | F_PSH, seq_of(s, DOWN, hole_off), up_seq, hole_off, hole_len, OPT_TS);
        tcp_emit(s, at + 60 * NS_PER_US, UP, F_ACK, up_seq, seq_of(s, DOWN, end), 0, 0, OPT_TS);
        last = at + 60 * NS_PER_US;
    }
    return last;
}

enum { CLOSE_DEVICE_FIN, CLOSE_SERVER_FIN, CLOSE_DEVICE_RST, CLOSE_SERVER_RST };

static uint64_t tcp_close(Session *s, uint64_t t, int how) {
    switch (how) {
    case CLOSE_DEVICE_FIN:
        tcp_emit(s, t, UP, F_FIN | F_ACK, seq_of(s, UP, s->sent[UP]), ack_all(s, UP), 0, 0, OPT_TS);
        s->fin[UP] = 1;
        t += s->rtt;
        tcp_emit(s, t, DOWN, F_FIN | F_ACK, seq_of(s, DOWN, s->sent[DOWN]), ack_all(s, DOWN), 0, 0, OPT_TS);
        s->fin[DOWN] = 1;
        t += rng_range(&s->rng, 40, 120) * NS_PER_US;
        tcp_emit(s, t, UP, F_ACK, seq_of(s, UP, s->sent[UP]) + 1, ack_all(s, UP), 0, 0, OPT_TS);
        return t;
    case CLOSE_SERVER_FIN:
        tcp_emit(s, t, DOWN, F_FIN | F_ACK, seq_of(s, DOWN, s->sent[DOWN]), ack_all(s, DOWN), 0, 0, OPT_TS);
        s->fin[DOWN] = 1;
        t += rng_range(&s->rng, 1, 4) * NS_PER_MS;
        tcp_emit(s, t, UP, F_FIN | F_ACK, seq_of(s, UP, s->sent[UP]), ack_all(s, UP), 0, 0, OPT_TS);
        s->fin[UP] = 1;
        t += s->rtt;
        tcp_emit(s, t, DOWN, F_ACK, seq_of(s, DOWN, s->sent[DOWN]) + 1, ack_all(s, DOWN), 0, 0, OPT_TS);
        return t;
    case CLOSE_DEVICE_RST:
        tcp_emit(s, t, UP, F_RST | F_ACK, seq_of(s, UP, s->sent[UP]), ack_all(s, UP), 0, 0, OPT_TS);
        return t;
    default:
        tcp_emit(s, t, DOWN, F_RST | F_ACK, seq_of(s, DOWN, s->sent[DOWN]), ack_all(s, DOWN), 0, 0, OPT_TS);
        return t;
    }
}

/* ---------------------------------------------------------------- TLS */

static size_t tls_client_hello(uint8_t *o, const char *sni, Rng *r) {
    static const uint16_t suites[] = {0x1301, 0x1302, 0x1303, 0xc02b, 0xc02f, 0xc02c, 0xc030, 0xcca9,
                                      0xcca8, 0xc013, 0xc014, 0x009c, 0x009d, 0x002f, 0x0035};
    static const uint8_t fixed_ext[] = {
        0x00, 0x17, 0x00, 0x00,                                                       /* extended_master_secret */
        0xff, 0x01, 0x00, 0x01, 0x00,                                                 /* renegotiation_info */
        0x00, 0x0a, 0x00, 0x08, 0x00, 0x06, 0x00, 0x1d, 0x00, 0x17, 0x00, 0x18,       /* supported_groups */
        0x00, 0x0b, 0x00, 0x02, 0x01, 0x00,                                           /* ec_point_formats */
        0x00, 0x23, 0x00, 0x00,                                                       /* session_ticket */
        0x00, 0x10, 0x00, 0x0e, 0x00, 0x0c, 0x02, 'h', '2', 0x08, 'h', 't', 't', 'p', '/', '1', '.', '1', /* ALPN */
        0x00, 0x05, 0x00, 0x05, 0x01, 0x00, 0x00, 0x00, 0x00,                         /* status_request */
        0x00, 0x0d, 0x00, 0x12, 0x00, 0x10, 0x04, 0x03, 0x08, 0x04, 0x04, 0x01, 0x05, 0x03, 0x08, 0x05,
        0x05, 0x01, 0x08, 0x06, 0x06, 0x01,                                           /* signature_algorithms */
        0x00, 0x12, 0x00, 0x00,                                                       /* signed_certificate_timestamp */
    };
    uint8_t *p = o + 9;
    put16(p, 0x0303); p += 2;
    for (int i = 0; i < 32; i++) *p++ = (uint8_t)rng_next(r);
    *p++ = 32;
    for (int i = 0; i < 32; i++) *p++ = (uint8_t)rng_next(r);
    put16(p, sizeof suites); p += 2;
    for (size_t i = 0; i < sizeof suites / sizeof *suites; i++) { put16(p, suites[i]); p += 2; }
    *p++ = 1; *p++ = 0;
    uint8_t *ext_len = p; p += 2;
    uint8_t *ext = p;
    size_t n = strlen(sni);
    put16(p, 0x0000); put16(p + 2, (uint16_t)(n + 5)); put16(p + 4, (uint16_t)(n + 3)); p[6] = 0;
    put16(p + 7, (uint16_t)n); memcpy(p + 9, sni, n); p += 9 + n;
    memcpy(p, fixed_ext, sizeof fixed_ext); p += sizeof fixed_ext;
    put16(p, 0x0033); put16(p + 2, 38); put16(p + 4, 36); put16(p + 6, 0x001d); put16(p + 8, 32); p += 10;
    for (int i = 0; i < 32; i++) *p++ = (uint8_t)rng_next(r);
    static const uint8_t tail[] = {0x00, 0x2d, 0x00, 0x02, 0x01, 0x01,                  /* psk_key_exchange_modes */
                                   0x00, 0x2b, 0x00, 0x05, 0x04, 0x03, 0x04, 0x03, 0x03}; /* supported_versions */
    memcpy(p, tail, sizeof tail); p += sizeof tail;
    long pad = 517 - (long)(p - o) - 4; /* padding extension up to the common 517-byte record */
    if (pad >= 0) { put16(p, 0x0015); put16(p + 2, (uint16_t)pad); memset(p + 4, 0, (size_t)pad); p += 4 + pad; }
    put16(ext_len, (uint16_t)(p - ext));
    size_t total = (size_t)(p - o);
    o[0] = 0x16; put16(o + 1, 0x0301); put16(o + 3, (uint16_t)(total - 5));
    o[5] = 0x01; put24(o + 6, (uint32_t)(total - 9));
    return total;
}

static size_t tls_server_hello(uint8_t *o, Rng *r) {
    uint8_t *p = o + 9;
    put16(p, 0x0303); p += 2;
    for (int i = 0; i < 32; i++) *p++ = (uint8_t)rng_next(r);
    *p++ = 32;
    for (int i = 0; i < 32; i++) *p++ = (uint8_t)rng_next(r);
    put16(p, 0x1301); p += 2;
    *p++ = 0;
    put16(p, 46); p += 2;
    put16(p, 0x002b); put16(p + 2, 2); put16(p + 4, 0x0304); p += 6;
    put16(p, 0x0033); put16(p + 2, 36); put16(p + 4, 0x001d); put16(p + 6, 32); p += 8;
    for (int i = 0; i < 32; i++) *p++ = (uint8_t)rng_next(r);
    size_t hs = (size_t)(p - o);
    o[0] = 0x16; put16(o + 1, 0x0303); put16(o + 3, (uint16_t)(hs - 5));
    o[5] = 0x02; put24(o + 6, (uint32_t)(hs - 9));
    static const uint8_t ccs[] = {0x14, 0x03, 0x03, 0x00, 0x01, 0x01};
    memcpy(p, ccs, sizeof ccs);
    return hs + sizeof ccs;
}

/* DNS, TCP handshake and a TLS 1.3 handshake with SNI; returns when the phone can send. */
static uint64_t https_open(Session *s, uint64_t t, Host *h, uint16_t port) {
    t = dns_lookup(s, t, h);
    session_connect_to(s, h, port);
    t = tcp_connect(s, t + rng_range(&s->rng, 100, 600) * NS_PER_US);
    uint8_t buf[1024];
    add_blob(s, UP, buf, tls_client_hello(buf, h->name, &s->rng));
    t = tcp_msg(s, t + 30 * NS_PER_US, UP, false);
    add_blob(s, DOWN, buf, tls_server_hello(buf, &s->rng));
    add_tls(s, DOWN, (uint32_t)rng_range(&s->rng, 2400, 4300)); /* certificates, verify, finished */
    t = tcp_msg(s, t + s->rtt + rng_range(&s->rng, 1, 6) * NS_PER_MS, DOWN, false);
    static const uint8_t ccs[] = {0x14, 0x03, 0x03, 0x00, 0x01, 0x01};
    add_blob(s, UP, ccs, sizeof ccs);
    add_tls(s, UP, 36);
    return tcp_msg(s, t + rng_range(&s->rng, 300, 1500) * NS_PER_US, UP, false);
}

/* One request and its answer over an open TLS connection. */
static uint64_t https_request(Session *s, uint64_t t, uint32_t req, uint32_t resp, uint64_t think, double rate) {
    add_tls(s, UP, req);
    bool slow = think > 25 * NS_PER_MS, retransmit = rng_chance(&s->rng, 0.02);
    t = tcp_msg(s, t, UP, slow && !retransmit);
    if (retransmit) t = tcp_retransmit_last_up(s, t);
    add_tls(s, DOWN, resp);
    uint64_t start = t + (slow && !retransmit ? think : s->rtt + think);
    return resp > 65536 ? tcp_bulk_down(s, start, rate) : tcp_msg(s, start, DOWN, false);
}

/* ---------------------------------------------------------------- HTTP/1.1 */

static size_t http_date(char *o, uint64_t t) {
    time_t sec = (time_t)(CAPTURE_EPOCH + t / NS_PER_S);
    struct tm tm;
    gmtime_r(&sec, &tm);
    return strftime(o, 40, "%a, %d %b %Y %H:%M:%S GMT", &tm);
}

static size_t json_body(char *o, size_t want, Rng *r) {
    size_t at = (size_t)sprintf(o, "{\"items\":[");
    while (at < want) {
        unsigned id = (unsigned)rng_range(r, 100000, 999999);
        at += (size_t)sprintf(o + at, "%s{\"id\":%u,\"title\":\"Item %u\",\"updated\":\"2026-03-14T09:%02u:%02uZ\","
                              "\"likes\":%u,\"tags\":[\"news\",\"local\"],\"read\":%s}",
                              at > 10 ? "," : "", id, id, (unsigned)rng_range(r, 0, 59), (unsigned)rng_range(r, 0, 59),
                              (unsigned)rng_range(r, 0, 5000), rng_chance(r, 0.5) ? "true" : "false");
    }
    at += (size_t)sprintf(o + at, "]}");
    return at;
}

/* gzip (RFC 1952) of `n` bytes into `out`; returns the compressed length. */
static size_t gzip_body(const char *in, size_t n, uint8_t *out, size_t cap) {
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        fprintf(stderr, "make-large-capture: zlib failed to initialise\n");
        exit(1);
    }
    z.next_in = (Bytef *)in; z.avail_in = (uInt)n; z.next_out = out; z.avail_out = (uInt)cap;
    if (deflate(&z, Z_FINISH) != Z_STREAM_END) { fprintf(stderr, "make-large-capture: gzip buffer too small\n"); exit(1); }
    size_t len = z.total_out;
    deflateEnd(&z);
    return len;
}

static const char *USER_AGENT = "Drain-Demo/4.2 (iPhone; iOS 17.4; Scale/3.00)";

/* One request/response pair of the chatty JSON API: GETs of feeds and items, POSTs of
 * events; about half the JSON answers are gzip-encoded, the rest plain. */
static uint64_t http_exchange(Session *s, uint64_t t, char *body) {
    char head[1024], date[48];
    Rng *r = &s->rng;
    bool post = rng_chance(r, 0.15);
    size_t n;
    if (post) {
        size_t len = json_body(body, rng_range(r, 120, 900), r);
        n = (size_t)sprintf(head, "POST /v2/events HTTP/1.1\r\nHost: %s\r\nUser-Agent: %s\r\n"
                            "Content-Type: application/json\r\nContent-Length: %zu\r\nAccept: application/json\r\n"
                            "Connection: keep-alive\r\n\r\n", s->host->name, USER_AGENT, len);
        add_blob(s, UP, head, n);
        add_blob(s, UP, body, len);
    } else {
        static const char *paths[] = {"/v2/feed/items?since=%u&limit=20", "/v2/items/%u", "/v2/users/me/notifications?after=%u",
                                      "/v2/items/%u/comments", "/v2/config?rev=%u"};
        char path[96];
        snprintf(path, sizeof path, paths[rng_range(r, 0, 4)], (unsigned)rng_range(r, 100000, 999999));
        n = (size_t)sprintf(head, "GET %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: %s\r\nAccept: application/json\r\n"
                            "Accept-Encoding: gzip, deflate\r\nAccept-Language: en-GB,en;q=0.9\r\nConnection: keep-alive\r\n\r\n",
                            path, s->host->name, USER_AGENT);
        add_blob(s, UP, head, n);
    }
    uint64_t think = rng_range(r, 8, 140) * NS_PER_MS;
    bool slow = think > 25 * NS_PER_MS, retransmit = rng_chance(r, 0.02);
    t = tcp_msg(s, t, UP, slow && !retransmit);
    if (retransmit) t = tcp_retransmit_last_up(s, t);
    http_date(date, t);
    if (post) {
        n = (size_t)sprintf(head, "HTTP/1.1 204 No Content\r\nDate: %s\r\nServer: nginx\r\nConnection: keep-alive\r\n\r\n", date);
        add_blob(s, DOWN, head, n);
    } else if (rng_chance(r, 0.08)) {
        n = (size_t)sprintf(head, "HTTP/1.1 304 Not Modified\r\nDate: %s\r\nServer: nginx\r\nETag: \"%08x\"\r\n"
                            "Connection: keep-alive\r\n\r\n", date, (unsigned)rng_next(r));
        add_blob(s, DOWN, head, n);
    } else {
        size_t want = rng_chance(r, 0.8) ? rng_range(r, 200, 4000) : rng_range(r, 4000, 24000);
        bool gzip = rng_chance(r, 0.5);
        size_t len = json_body(body, want, r);
        uint8_t packed[32768];
        if (gzip) len = gzip_body(body, len, packed, sizeof packed);
        n = (size_t)sprintf(head, "HTTP/1.1 200 OK\r\nDate: %s\r\nServer: nginx\r\nContent-Type: application/json; charset=utf-8\r\n"
                            "Content-Length: %zu\r\n%sCache-Control: private, max-age=0\r\nConnection: keep-alive\r\n\r\n",
                            date, len, gzip ? "Content-Encoding: gzip\r\nVary: Accept-Encoding\r\n" : "");
        add_blob(s, DOWN, head, n);
        add_blob(s, DOWN, gzip ? (const void *)packed : body, len);
    }
    return tcp_msg(s, t + (slow && !retransmit ? think : s->rtt + think), DOWN, false);
}

/* ---------------------------------------------------------------- session kinds */

static Session *gen_poll(uint64_t t) {
    Session *s = session_new(C_POLL);
    t = https_open(s, t, &hosts[H_API], 443);
    t = https_request(s, t + rng_range(&s->rng, 1, 3) * NS_PER_MS, (uint32_t)rng_range(&s->rng, 380, 520),
                      (uint32_t)rng_range(&s->rng, 900, 2600), rng_range(&s->rng, 15, 60) * NS_PER_MS, 0);
    double u = rng_unit(&s->rng);
    if (u < 0.70) tcp_close(s, t + rng_range(&s->rng, 50, 300) * NS_PER_MS, CLOSE_DEVICE_FIN);
    else if (u < 0.92) tcp_close(s, t + 60 * NS_PER_S, CLOSE_SERVER_FIN);  /* left open until the server's idle timeout */
    else tcp_close(s, t + rng_range(&s->rng, 200, 1500) * NS_PER_MS, CLOSE_DEVICE_RST);
    return s;
}

/* A DNS question to a resolver address used once, with no answer: a UDP flow of one datagram. */
static Session *gen_lone_question(uint64_t t) {
    static uint32_t asked;
    uint32_t n = asked++;
    const uint8_t resolver[4] = {100, (uint8_t)(64 + ((n >> 16) & 63)), (uint8_t)(n >> 8), (uint8_t)n};
    Session *s = session_new(C_DNS);
    uint8_t msg[512];
    size_t len = dns_query(msg, (uint16_t)rng_next(&s->rng), hosts[H_API].name, 1, false);
    emit_udp(s, t, UP, C_DNS, 4, DEV4, resolver, ephemeral_port(), 53, 64, msg, len);
    return s;
}

static Session *gen_beacon(uint64_t t) {
    Session *s = session_new(C_BEACON);
    t = https_open(s, t, &hosts[H_METRICS], 443);
    t = https_request(s, t + rng_range(&s->rng, 1, 3) * NS_PER_MS, (uint32_t)rng_range(&s->rng, 1500, 4000),
                      (uint32_t)rng_range(&s->rng, 60, 120), rng_range(&s->rng, 30, 150) * NS_PER_MS, 0);
    tcp_close(s, t + rng_range(&s->rng, 100, 600) * NS_PER_MS, CLOSE_DEVICE_FIN);
    return s;
}

static Session *gen_chatty_http(uint64_t t) {
    Session *s = session_new(C_HTTP);
    Host *h = &hosts[H_FEED];
    t = dns_lookup(s, t, h);
    session_connect_to(s, h, 80);
    t = tcp_connect(s, t + rng_range(&s->rng, 100, 600) * NS_PER_US);
    char *body = xrealloc(NULL, 32768);
    int requests = (int)rng_range(&s->rng, 15, 60);
    for (int i = 0; i < requests; i++) {
        t = http_exchange(s, t + rng_range(&s->rng, 1, 4) * NS_PER_MS, body);
        if (i + 1 < requests)
            t += rng_chance(&s->rng, 0.1) ? rng_ns(&s->rng, 5, 15) : rng_ns(&s->rng, 0.1, 2.5);
    }
    free(body);
    double u = rng_unit(&s->rng);
    if (u < 0.6) tcp_close(s, t + 5 * NS_PER_S, CLOSE_SERVER_FIN);
    else if (u < 0.9) tcp_close(s, t + rng_ns(&s->rng, 0.5, 20), CLOSE_DEVICE_FIN);
    else tcp_close(s, t + rng_ns(&s->rng, 0.5, 3), CLOSE_DEVICE_RST);
    return s;
}

static Session *gen_images(uint64_t t) {
    Session *s = session_new(C_IMAGES);
    t = https_open(s, t, &hosts[H_IMG], 443);
    int images = (int)rng_range(&s->rng, 1, 4);
    for (int i = 0; i < images; i++)
        t = https_request(s, t + rng_range(&s->rng, 50, 800) * NS_PER_MS, (uint32_t)rng_range(&s->rng, 300, 600),
                          (uint32_t)rng_range(&s->rng, 15000, 200000), rng_range(&s->rng, 5, 30) * NS_PER_MS,
                          rng_range(&s->rng, 3, 10) * 1e6);
    if (rng_chance(&s->rng, 0.5)) tcp_close(s, t + rng_ns(&s->rng, 2, 10), CLOSE_DEVICE_FIN);
    else tcp_close(s, t + 30 * NS_PER_S, CLOSE_SERVER_FIN);
    return s;
}

static Session *gen_bulk_https(uint64_t t, uint64_t size, bool v6) {
    Session *s = session_new(C_BULK_TLS);
    t = https_open(s, t, &hosts[v6 ? H_CDN : H_DL], 443);
    double rate = (double)rng_range(&s->rng, 2, 12) * 1e6;
    t = https_request(s, t + rng_range(&s->rng, 1, 3) * NS_PER_MS, (uint32_t)rng_range(&s->rng, 400, 700),
                      (uint32_t)size, rng_range(&s->rng, 10, 40) * NS_PER_MS, rate);
    if (rng_chance(&s->rng, 0.8)) tcp_close(s, t + rng_range(&s->rng, 20, 500) * NS_PER_MS, CLOSE_DEVICE_FIN);
    else tcp_close(s, t + 15 * NS_PER_S, CLOSE_SERVER_FIN);
    return s;
}

static Session *gen_bulk_http(uint64_t t, uint64_t size) {
    Session *s = session_new(C_BULK_HTTP);
    Host *h = &hosts[H_UPDATE];
    t = dns_lookup(s, t, h);
    session_connect_to(s, h, 80);
    t = tcp_connect(s, t + rng_range(&s->rng, 100, 600) * NS_PER_US);
    char head[1024], date[48];
    unsigned build = (unsigned)rng_range(&s->rng, 100, 999);
    size_t n = (size_t)sprintf(head, "GET /releases/app-4.2.%u-universal.zip HTTP/1.1\r\nHost: %s\r\nUser-Agent: %s\r\n"
                               "Accept: */*\r\nAccept-Encoding: identity\r\nConnection: keep-alive\r\n\r\n",
                               build, h->name, USER_AGENT);
    add_blob(s, UP, head, n);
    t = tcp_msg(s, t + 200 * NS_PER_US, UP, false);
    http_date(date, t);
    n = (size_t)sprintf(head, "HTTP/1.1 200 OK\r\nDate: %s\r\nServer: Apache\r\nContent-Type: application/zip\r\n"
                        "Content-Length: %llu\r\nETag: \"%08x-%u\"\r\nAccept-Ranges: bytes\r\nConnection: keep-alive\r\n\r\n",
                        date, (unsigned long long)size, (unsigned)rng_next(&s->rng), build);
    add_blob(s, DOWN, head, n);
    static const uint8_t zip[4] = {'P', 'K', 0x03, 0x04};
    add_blob(s, DOWN, zip, sizeof zip);
    add_rand(s, DOWN, (uint32_t)(size - sizeof zip));
    t = tcp_bulk_down(s, t + s->rtt + rng_range(&s->rng, 5, 30) * NS_PER_MS, (double)rng_range(&s->rng, 2, 9) * 1e6);
    tcp_close(s, t + rng_range(&s->rng, 20, 300) * NS_PER_MS, CLOSE_DEVICE_FIN);
    return s;
}

/* QUIC long-header packet (Initial or Handshake), padded to `n` UDP payload bytes. */
static size_t quic_long(uint8_t *o, uint8_t type, const uint8_t *dcid, const uint8_t *scid, size_t n, Rng *r) {
    o[0] = (uint8_t)(0xc3 | (type << 4)); put32(o + 1, 1);
    o[5] = 8; memcpy(o + 6, dcid, 8); o[14] = 8; memcpy(o + 15, scid, 8);
    size_t at = 23;
    if (type == 0) o[at++] = 0; /* Initial: empty token */
    put16(o + at, (uint16_t)(0x4000 | (n - at - 2))); at += 2;
    for (; at < n; at++) o[at] = (uint8_t)rng_next(r);
    return n;
}

static void quic_short(Session *s, uint64_t ts, int dir, uint32_t len) {
    Pkt *p = pkt_push(s, ts, K_QUIC, (uint8_t)dir, C_QUIC);
    p->len = (uint16_t)len; p->off = (uint32_t)rng_next(&s->rng);
    account(s, 14 + l3_len(s->fam) + 8 + len);
}

/* A video player over QUIC: segments of 1-3 MB fetched every few seconds on one
 * connection, each paced at the connection's rate, acknowledged every few datagrams. */
static Session *gen_quic_video(uint64_t t, uint64_t size) {
    Session *s = session_new(C_QUIC);
    Rng *r = &s->rng;
    Host *h = &hosts[H_VIDEO];
    t = dns_lookup(s, t, h);
    session_connect_to(s, h, 443);
    for (int d = 0; d < 2; d++) for (int i = 0; i < 8; i++) s->quic_cid[d][i] = (uint8_t)rng_next(r);
    const uint8_t *dev = s->ip[UP], *srv = s->ip[DOWN];
    uint16_t dp = s->port[UP];
    uint8_t d[1400];
    t += rng_range(r, 100, 600) * NS_PER_US;
    emit_udp(s, t, UP, C_QUIC, 6, dev, srv, dp, 443, 64, d, quic_long(d, 0, s->quic_cid[DOWN], s->quic_cid[UP], 1252, r));
    t += s->rtt;
    emit_udp(s, t, DOWN, C_QUIC, 6, srv, dev, 443, dp, h->hops, d, quic_long(d, 0, s->quic_cid[UP], s->quic_cid[DOWN], 1252, r));
    emit_udp(s, t + 40 * NS_PER_US, DOWN, C_QUIC, 6, srv, dev, 443, dp, h->hops, d,
             quic_long(d, 2, s->quic_cid[UP], s->quic_cid[DOWN], 1252, r));
    emit_udp(s, t + 80 * NS_PER_US, DOWN, C_QUIC, 6, srv, dev, 443, dp, h->hops, d,
             quic_long(d, 2, s->quic_cid[UP], s->quic_cid[DOWN], (size_t)rng_range(r, 700, 1100), r));
    t += rng_range(r, 1, 3) * NS_PER_MS;
    emit_udp(s, t, UP, C_QUIC, 6, dev, srv, dp, 443, 64, d, quic_long(d, 2, s->quic_cid[DOWN], s->quic_cid[UP], 92, r));
    uint64_t sent = 0;
    double rate = (double)rng_range(r, 3, 10) * 1e6;
    const uint32_t dgram = 1252;
    while (sent < size) {
        quic_short(s, t + 200 * NS_PER_US, UP, (uint32_t)rng_range(r, 60, 95));
        uint64_t segment = rng_range(r, 1000000, 3000000);
        if (segment > size - sent) segment = size - sent;
        uint64_t now = t + 200 * NS_PER_US + s->rtt + rng_range(r, 2, 12) * NS_PER_MS;
        int since_ack = 0;
        for (uint64_t got = 0; got < segment;) {
            uint32_t len = segment - got < dgram ? (uint32_t)(segment - got) : dgram;
            if (len < 40) len = 40;
            quic_short(s, now, DOWN, len);
            got += len;
            if (++since_ack == 4 || got >= segment) {
                quic_short(s, now + rng_range(r, 40, 150) * NS_PER_US, UP, (uint32_t)rng_range(r, 34, 48));
                since_ack = 0;
            }
            now += (uint64_t)(dgram / rate * 1e9 * (0.6 + 0.8 * rng_unit(r)));
        }
        sent += segment;
        t = now + rng_ns(r, 3.5, 6.5);
    }
    quic_short(s, t, UP, 38); /* CONNECTION_CLOSE */
    return s;
}

/* The push service's long-lived TLS connection: keepalives every 10-15 min, a push now
 * and then, closed at the end of the capture. */
static Session *gen_push(uint64_t t, uint64_t until) {
    Session *s = session_new(C_PUSH);
    Rng *r = &s->rng;
    t = https_open(s, t, &hosts[H_PUSH], 5223);
    uint64_t keepalive = t + rng_ns(r, 600, 900), push = t + rng_exp_ns(r, 480);
    for (;;) {
        uint64_t next = keepalive < push ? keepalive : push;
        if (next >= until) break;
        if (next == keepalive) {
            add_tls(s, UP, 14);
            uint64_t at = tcp_msg(s, next, UP, false);
            add_tls(s, DOWN, 14);
            tcp_msg(s, at + s->rtt, DOWN, false);
            keepalive = next + rng_ns(r, 600, 900);
        } else {
            add_tls(s, DOWN, (uint32_t)rng_range(r, 300, 900));
            tcp_msg(s, next, DOWN, false);
            push = next + rng_exp_ns(r, 480);
        }
    }
    tcp_close(s, until, CLOSE_DEVICE_FIN);
    return s;
}

static Session *gen_ntp(uint64_t t) {
    Session *s = session_new(C_NTP);
    Host *h = &hosts[H_TIME];
    t = dns_lookup(s, t, h);
    uint8_t m[48] = {0};
    uint16_t port = ephemeral_port();
    uint64_t ntp_sec = CAPTURE_EPOCH + 2208988800ULL;
    m[0] = 0x23;
    put32(m + 40, (uint32_t)(ntp_sec + t / NS_PER_S)); put32(m + 44, (uint32_t)rng_next(&s->rng));
    emit_udp(s, t, UP, C_NTP, 4, DEV4, h->v4, port, 123, 64, m, 48);
    uint8_t a[48] = {0x24, 2, 6, 0xe9};
    put32(a + 4, 0x00000a1c); put32(a + 8, 0x00000d2b); memcpy(a + 12, "\xc0\x00\x02\x7b", 4);
    put32(a + 16, (uint32_t)(ntp_sec + t / NS_PER_S - 40)); memcpy(a + 24, m + 40, 8);
    put32(a + 32, (uint32_t)(ntp_sec + t / NS_PER_S)); put32(a + 36, (uint32_t)rng_next(&s->rng));
    put32(a + 40, (uint32_t)(ntp_sec + t / NS_PER_S)); put32(a + 44, (uint32_t)rng_next(&s->rng));
    emit_udp(s, t + h->rtt_us * NS_PER_US, DOWN, C_NTP, 4, h->v4, DEV4, 123, port, h->hops, a, 48);
    return s;
}

static Session *gen_refused(uint64_t t) {
    Session *s = session_new(C_REFUSED);
    t = dns_lookup(s, t, &hosts[H_DEAD]);
    session_connect_to(s, &hosts[H_DEAD], 8443);
    tcp_emit(s, t + 300 * NS_PER_US, UP, F_SYN, s->isn[UP], 0, 0, 0, OPT_SYN);
    tcp_emit(s, t + 300 * NS_PER_US + s->rtt, DOWN, F_RST | F_ACK, 0, s->isn[UP] + 1, 0, 0, OPT_NONE);
    return s;
}

/* A large TXT answer (EDNS0, 4096-byte buffer) that arrives as two IPv4 fragments. */
static Session *gen_txt_fragmented(uint64_t t) {
    Session *s = session_new(C_DNS);
    uint8_t q[128], a[4096];
    uint16_t id = (uint16_t)rng_next(&s->rng), port = ephemeral_port();
    const char *name = "_config.example.com";
    emit_udp(s, t, UP, C_DNS, 4, DEV4, GW4, port, 53, 64, q, dns_query(q, id, name, 16, true));
    size_t at = dns_header(a, id, 0x8180, 1, 1);
    at += dns_name(a + at, name);
    put16(a + at, 16); put16(a + at + 2, 1); at += 4;
    put16(a + at, 0xc00c); put16(a + at + 2, 16); put16(a + at + 4, 1); put32(a + at + 6, 300);
    size_t rdlen_at = at + 10, rd = at + 12, strings = rng_range(&s->rng, 8, 10);
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < strings; i++) {
        a[rd++] = 240;
        size_t k = (size_t)sprintf((char *)a + rd, "v=cfg1;k%02zu=", i);
        for (rd += k; k < 240; k++) a[rd++] = (uint8_t)b64[rng_next(&s->rng) & 63];
    }
    put16(a + rdlen_at, (uint16_t)(rd - at - 12));
    rd += dns_opt(a + rd, 1232);
    emit_udp4_fragmented(s, t + rng_range(&s->rng, 10, 40) * NS_PER_MS, C_DNS, GW4, DEV4, 53, port, 64, a, rd);
    return s;
}

static void emit_raw(Session *s, uint64_t ts, int dir, const uint8_t *frame, size_t n) {
    memcpy(blob_reserve(s, n), frame, n);
    Pkt *p = pkt_push(s, ts, K_RAW, (uint8_t)dir, C_LINK);
    p->off = (uint32_t)s->blob_len; p->len = (uint16_t)n;
    s->blob_len += n;
    account(s, n);
}

static Session *gen_arp(uint64_t t) {
    Session *s = session_new(C_LINK);
    uint8_t f[60] = {0};
    size_t at = put_eth(f, BCAST_MAC, DEV_MAC, 0x0806);
    static const uint8_t hdr[] = {0, 1, 0x08, 0x00, 6, 4};
    memcpy(f + at, hdr, 6); put16(f + at + 6, 1);
    memcpy(f + at + 8, DEV_MAC, 6); memcpy(f + at + 14, DEV4, 4); memcpy(f + at + 24, GW4, 4);
    emit_raw(s, t, UP, f, 42);
    memset(f, 0, sizeof f);
    at = put_eth(f, DEV_MAC, GW_MAC, 0x0806);
    memcpy(f + at, hdr, 6); put16(f + at + 6, 2);
    memcpy(f + at + 8, GW_MAC, 6); memcpy(f + at + 14, GW4, 4); memcpy(f + at + 18, DEV_MAC, 6); memcpy(f + at + 24, DEV4, 4);
    emit_raw(s, t + rng_range(&s->rng, 1, 5) * NS_PER_MS, DOWN, f, 60); /* padded to the Ethernet minimum */
    return s;
}

static void emit_icmp6(Session *s, uint64_t ts, int dir, const uint8_t *dmac, const uint8_t *src, const uint8_t *dst,
                       const uint8_t *hbh, size_t hbh_len, uint8_t *icmp, size_t n) {
    uint8_t f[256];
    size_t at = put_eth(f, dmac, dir == UP ? DEV_MAC : GW_MAC, 0x86dd);
    at += put_ip6(f + at, src, dst, hbh_len ? 0 : 58, hbh_len + n, 0, hbh_len ? 1 : 255);
    memcpy(f + at, hbh, hbh_len); at += hbh_len;
    l4_checksum(6, src, dst, 58, icmp, n, 2);
    memcpy(f + at, icmp, n);
    emit_raw(s, ts, dir, f, at + n);
}

/* Neighbour unreachability detection of the router: NS and the solicited NA. */
static Session *gen_ndp(uint64_t t) {
    Session *s = session_new(C_LINK);
    uint8_t m[32] = {135};
    memcpy(m + 8, GW6_LL, 16); m[24] = 1; m[25] = 1; memcpy(m + 26, DEV_MAC, 6);
    emit_icmp6(s, t, UP, GW_MAC, DEV6_LL, GW6_LL, NULL, 0, m, 32);
    uint8_t a[32] = {136, 0, 0, 0, 0xc0};
    memcpy(a + 8, GW6_LL, 16); a[24] = 2; a[25] = 1; memcpy(a + 26, GW_MAC, 6);
    emit_icmp6(s, t + rng_range(&s->rng, 1, 6) * NS_PER_MS, DOWN, DEV_MAC, GW6_LL, DEV6_LL, NULL, 0, a, 32);
    return s;
}

/* MLDv2 report behind a hop-by-hop header (router alert), as hosts send on joining groups. */
static Session *gen_mld(uint64_t t) {
    Session *s = session_new(C_LINK);
    static const uint8_t mac[6] = {0x33, 0x33, 0, 0, 0, 0x16};
    static const uint8_t dst[16] = {0xff, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x16};
    static const uint8_t hbh[8] = {58, 0, 5, 2, 0, 0, 1, 0};
    uint8_t m[48] = {143};
    put16(m + 6, 2);
    static const uint8_t g1[16] = {0xff, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0xff, 0x5e, 0x2b, 0x07};
    static const uint8_t g2[16] = {0xff, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0xff, 0x41, 0x00, 0x23};
    m[8] = 4; memcpy(m + 12, g1, 16);
    m[28] = 4; memcpy(m + 32, g2, 16);
    emit_icmp6(s, t, UP, mac, DEV6_LL, dst, hbh, sizeof hbh, m, 48);
    return s;
}

/* The router's periodic advertisement: global and ULA prefixes, MTU, RDNSS. */
static Session *gen_ra(uint64_t t) {
    Session *s = session_new(C_LINK);
    static const uint8_t mac[6] = {0x33, 0x33, 0, 0, 0, 1};
    static const uint8_t dst[16] = {0xff, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    uint8_t m[128] = {134, 0, 0, 0, 64, 0};
    put16(m + 6, 1800);
    size_t at = 16;
    m[at] = 1; m[at + 1] = 1; memcpy(m + at + 2, GW_MAC, 6); at += 8;
    m[at] = 5; m[at + 1] = 1; put32(m + at + 4, 1500); at += 8;
    for (int i = 0; i < 2; i++) {
        m[at] = 3; m[at + 1] = 4; m[at + 2] = 64; m[at + 3] = 0xc0;
        put32(m + at + 4, 86400); put32(m + at + 8, 14400);
        memcpy(m + at + 16, i == 0 ? DEV6 : DEV6_ULA, 8); memset(m + at + 24, 0, 8);
        at += 32;
    }
    m[at] = 25; m[at + 1] = 3; put32(m + at + 4, 1800); memcpy(m + at + 8, GW6_ULA, 16); at += 24;
    emit_icmp6(s, t, DOWN, mac, GW6_LL, dst, NULL, 0, m, at);
    return s;
}

/* ---------------------------------------------------------------- scheduling */

static int by_time(const void *a, const void *b) {
    const Pkt *x = a, *y = b;
    if (x->ts != y->ts) return x->ts < y->ts ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

static Session **heap;
static size_t heap_n, heap_cap;
static uint64_t head_ts(size_t i) { return heap[i]->p[heap[i]->next].ts; }
static void heap_push(Session *s) {
    if (heap_n == heap_cap) { heap_cap = heap_cap ? heap_cap * 2 : 64; heap = xrealloc(heap, heap_cap * sizeof *heap); }
    size_t i = heap_n++;
    heap[i] = s;
    while (i && head_ts((i - 1) / 2) > head_ts(i)) {
        Session *t = heap[i]; heap[i] = heap[(i - 1) / 2]; heap[(i - 1) / 2] = t; i = (i - 1) / 2;
    }
}
static void heap_sift_down(void) {
    size_t i = 0;
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < heap_n && head_ts(l) < head_ts(m)) m = l;
        if (r < heap_n && head_ts(r) < head_ts(m)) m = r;
        if (m == i) return;
        Session *t = heap[i]; heap[i] = heap[m]; heap[m] = t; i = m;
    }
}

/* Queues a session's packets for writing; returns the time of its last packet (0 if it has
 * none). */
static uint64_t schedule(Session *s) {
    if (s->n == 0) { session_free(s); return 0; }
    qsort(s->p, s->n, sizeof *s->p, by_time);
    planned_bytes += s->bytes;
    heap_push(s);
    return s->p[s->n - 1].ts;
}

/* ---------------------------------------------------------------- rendering */

static size_t render(Session *s, const Pkt *p, uint8_t *o) {
    if (p->kind == K_RAW) { memcpy(o, s->blob + p->off, p->len); return p->len; }
    int dir = p->dir, fam = s->fam;
    const uint8_t *src = s->ip[dir], *dst = s->ip[!dir];
    size_t l4 = p->kind == K_TCP ? 20 + tcp_opt_len(p->opt) + p->len : 8u + p->len;
    size_t at = dir == UP ? put_eth(o, GW_MAC, DEV_MAC, fam == 6 ? 0x86dd : 0x0800)
                          : put_eth(o, DEV_MAC, GW_MAC, fam == 6 ? 0x86dd : 0x0800);
    uint8_t proto = p->kind == K_TCP ? 6 : 17;
    at += fam == 4 ? put_ip4(o + at, src, dst, proto, l4, s->ipid[dir]++, 0x4000, s->hops[dir])
                   : put_ip6(o + at, src, dst, proto, l4, s->flow[dir], s->hops[dir]);
    uint8_t *h = o + at;
    put16(h, s->port[dir]); put16(h + 2, s->port[!dir]);
    if (p->kind == K_QUIC) {
        put16(h + 4, (uint16_t)l4);
        h[8] = (uint8_t)(0x40 | (p->off & 0x3f));
        size_t cid = p->len > 9 ? 8 : 0;
        memcpy(h + 9, s->quic_cid[!dir], cid);
        pool_copy(h + 9 + cid, p->off, (uint32_t)(p->len - 1 - cid));
        l4_checksum(fam, src, dst, 17, h, l4, 6);
        return at + l4;
    }
    uint32_t tsval = s->ts_base[dir] + (uint32_t)(p->ts / NS_PER_MS);
    size_t hl = 20 + tcp_opt_len(p->opt);
    put32(h + 4, p->seq); put32(h + 8, p->ack);
    h[12] = (uint8_t)((hl / 4) << 4); h[13] = p->flags; put16(h + 14, p->win); put16(h + 18, 0);
    uint8_t *opt = h + 20;
    if (p->opt == OPT_SYN) {
        opt[0] = 2; opt[1] = 4; put16(opt + 2, (uint16_t)(s->mss + 12)); opt[4] = 4; opt[5] = 2;
        opt[6] = 8; opt[7] = 10; put32(opt + 8, tsval); put32(opt + 12, dir == UP ? 0 : s->last_tsval[UP]);
        opt[16] = 1; opt[17] = 3; opt[18] = 3; opt[19] = dir == UP ? 6 : 9;
    } else if (p->opt != OPT_NONE) {
        opt[0] = 1; opt[1] = 1; opt[2] = 8; opt[3] = 10; put32(opt + 4, tsval); put32(opt + 8, s->last_tsval[!dir]);
        if (p->opt == OPT_SACK) { opt[12] = 1; opt[13] = 1; opt[14] = 5; opt[15] = 10; put32(opt + 16, p->off); put32(opt + 20, p->aux); }
    }
    if (p->opt != OPT_NONE) s->last_tsval[dir] = tsval;
    if (p->len) stream_copy(s, dir, p->off, p->len, h + hl);
    l4_checksum(fam, src, dst, 6, h, l4, 16);
    return at + l4;
}

/* ---------------------------------------------------------------- main */

static bool parse_size(const char *text, uint64_t *out) {
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || end == text || v <= 0) return false;
    static const struct { const char *suffix; double scale; } units[] = {
        {"", 1}, {"b", 1}, {"k", 1024.0}, {"kib", 1024.0}, {"kb", 1e3}, {"m", 1048576.0}, {"mib", 1048576.0},
        {"mb", 1e6}, {"g", 1073741824.0}, {"gib", 1073741824.0}, {"gb", 1e9}, {"t", 1099511627776.0},
        {"tib", 1099511627776.0}, {"tb", 1e12},
    };
    for (size_t i = 0; i < sizeof units / sizeof *units; i++)
        if (strcasecmp(end, units[i].suffix) == 0) { *out = (uint64_t)(v * units[i].scale + 0.5); return true; }
    return false;
}

static void usage(const char *message) {
    if (message) fprintf(stderr, "make-large-capture: %s\n", message);
    fprintf(message ? stderr : stdout, "usage: make-large-capture --size SIZE --out FILE [--seed N] [--duration SECONDS]\n"
                    "                          [--shape steady|sessions|flows|connections]\n"
                    "  SIZE: bytes, or with a unit: KiB MiB GiB TiB (also K M G T), kB MB GB TB\n"
                    "  steady (default): two hours of overlapping app traffic; sessions: 8.2 days of short\n"
                    "  sessions one after another with idle gaps (--duration overrides either); flows: an\n"
                    "  unanswered DNS question every 50 ms, each its own flow (the resolver addresses, in\n"
                    "  100.64.0.0/10, repeat after 4,194,304 questions, about 380 MB); connections: an\n"
                    "  HTTPS poll every 250 ms, each on its own TCP connection (neither takes --duration)\n");
    exit(message ? 2 : 0);
}

static uint8_t outbuf[8u << 20];
static size_t outlen;
static FILE *out;
static const char *out_tmp;

static void flush_out(void) {
    if (outlen && fwrite(outbuf, 1, outlen, out) != outlen) {
        fprintf(stderr, "make-large-capture: writing %s: %s\n", out_tmp, strerror(errno));
        remove(out_tmp);
        exit(1);
    }
    outlen = 0;
}

static double seconds_since(const struct timespec *a) {
    struct timespec b;
    clock_gettime(CLOCK_MONOTONIC, &b);
    return (double)(b.tv_sec - a->tv_sec) + (double)(b.tv_nsec - a->tv_nsec) / 1e9;
}

typedef struct { uint64_t next; } Timer;

int main(int argc, char **argv) {
    uint64_t target = 0, seed = 20260314;
    double duration_s = 0;
    enum { STEADY, SESSIONS, FLOWS, CONNECTIONS } shape = STEADY;
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) usage(NULL);
        if (i + 1 >= argc) usage("every option takes a value");
        const char *v = argv[++i];
        char *end;
        if (strcmp(a, "--size") == 0) { if (!parse_size(v, &target)) usage("--size: not a size"); }
        else if (strcmp(a, "--out") == 0) path = v;
        else if (strcmp(a, "--seed") == 0) { seed = strtoull(v, &end, 10); if (*end || !*v) usage("--seed: not a number"); }
        else if (strcmp(a, "--shape") == 0) {
            if (strcmp(v, "steady") == 0) shape = STEADY;
            else if (strcmp(v, "sessions") == 0) shape = SESSIONS;
            else if (strcmp(v, "flows") == 0) shape = FLOWS;
            else if (strcmp(v, "connections") == 0) shape = CONNECTIONS;
            else usage("--shape: steady, sessions, flows or connections");
        } else if (strcmp(a, "--duration") == 0) {
            duration_s = strtod(v, &end);
            if (*end || duration_s < 60) usage("--duration: seconds, at least 60");
        } else usage("unknown option");
    }
    if (!target || !path) usage("--size and --out are required");
    if (duration_s == 0) duration_s = shape == SESSIONS ? 8.2 * 86400 : 7200;

    struct timespec started;
    clock_gettime(CLOCK_MONOTONIC, &started);
    world.state = seed;
    Rng pool_rng = {seed ^ 0x5eed5eed5eed5eedULL};
    for (size_t i = 0; i < POOL_SIZE; i += 8) { uint64_t v = rng_next(&pool_rng); memcpy(pool + i, &v, 8); }

    size_t tmp_len = strlen(path) + 16;
    char *tmp = xrealloc(NULL, tmp_len);
    snprintf(tmp, tmp_len, "%s.partial", path);
    out_tmp = tmp;
    out = fopen(tmp, "wb");
    if (!out) { fprintf(stderr, "make-large-capture: cannot create %s: %s\n", tmp, strerror(errno)); return 1; }

    uint8_t *g = outbuf;
    le32(g, 0xa1b23c4d); g[4] = 2; g[5] = 0; g[6] = 4; g[7] = 0; /* nanosecond magic, version 2.4 */
    le32(g + 8, 0); le32(g + 12, 0); le32(g + 16, 262144); le32(g + 20, 1);
    outlen = 24;
    planned_bytes = 24;

    const uint64_t duration = (uint64_t)(duration_s * 1e9);
    enum { T_POLL, T_BEACON, T_USER, T_BULK, T_NTP, T_ARP, T_NDP, T_MLD, T_RA, T_TXT, T_REFUSED, T_SESSION, T_FLOW, T_COUNT };
    Timer timers[T_COUNT] = {
        [T_POLL] = {3 * NS_PER_S}, [T_BEACON] = {40 * NS_PER_S}, [T_USER] = {20 * NS_PER_S}, [T_BULK] = {30 * NS_PER_S},
        [T_NTP] = {2 * NS_PER_S}, [T_ARP] = {1 * NS_PER_S}, [T_NDP] = {90 * NS_PER_S}, [T_MLD] = {1500 * NS_PER_MS},
        [T_RA] = {5 * NS_PER_S}, [T_TXT] = {10 * NS_PER_S}, [T_REFUSED] = {600 * NS_PER_S}, [T_SESSION] = {UINT64_MAX},
        [T_FLOW] = {UINT64_MAX},
    };
    if (shape != STEADY) for (int i = 0; i < T_COUNT; i++) timers[i].next = UINT64_MAX;
    if (shape == SESSIONS) timers[T_SESSION].next = 2 * NS_PER_S;
    if (shape == FLOWS || shape == CONNECTIONS) timers[T_FLOW].next = NS_PER_S;
    else schedule(gen_push(500 * NS_PER_MS, duration));
    uint64_t poll_base = timers[T_POLL].next, bulk_busy_until[2] = {0, 0};
    bool stopping = false;
    uint64_t written = 24, packets = 0, cat_packets[C_COUNT] = {0}, cat_bytes[C_COUNT] = {0}, first_ts = UINT64_MAX, last_ts = 0;
    uint8_t frame[2048];

    for (;;) {
        uint64_t tp = heap_n ? head_ts(0) : UINT64_MAX;
        int which = -1;
        uint64_t tt = UINT64_MAX;
        if (!stopping)
            for (int i = 0; i < T_COUNT; i++) if (timers[i].next < tt) { tt = timers[i].next; which = i; }
        if (tp == UINT64_MAX && which < 0) break;
        if (which >= 0 && tt <= tp) {
            Timer *tm = &timers[which];
            uint64_t t = tm->next;
            switch (which) {
            case T_POLL: /* every 30 s on the app's timer, with a little scheduling jitter */
                schedule(gen_poll(t));
                poll_base += 30 * NS_PER_S;
                tm->next = poll_base + rng_range(&world, 0, 400) * NS_PER_MS;
                break;
            case T_BEACON: schedule(gen_beacon(t)); tm->next = t + 300 * NS_PER_S + rng_range(&world, 0, 2000) * NS_PER_MS; break;
            case T_USER: { /* the user opens the app: a chatty JSON session, images alongside */
                schedule(gen_chatty_http(t));
                int fetches = (int)rng_range(&world, 1, 2);
                for (int i = 0; i < fetches; i++) schedule(gen_images(t + rng_ns(&world, 0.5, 60)));
                tm->next = t + rng_exp_ns(&world, 300) + 30 * NS_PER_S;
                break;
            }
            case T_BULK: { /* keep the planned bytes on a straight line to --size at --duration */
                tm->next = t + NS_PER_S;
                double line = (double)target * ((double)(t + 120 * NS_PER_S) / (double)duration);
                int slot = bulk_busy_until[0] <= t ? 0 : bulk_busy_until[1] <= t ? 1 : -1;
                if (slot < 0 || (double)planned_bytes >= line) break;
                /* a sixth of the target at most, and no more than is still missing */
                uint64_t cap = target / 6 < target - planned_bytes ? target / 6 : target - planned_bytes;
                if (cap < (1u << 20)) cap = 1u << 20;
                double u = rng_unit(&world);
                Session *s;
                if (u < 0.35) s = gen_bulk_https(t, (uint64_t)fmin(cap, rng_range(&world, 4, 48) * 1000000.0), false);
                else if (u < 0.55) s = gen_bulk_https(t, (uint64_t)fmin(cap, rng_range(&world, 2, 24) * 1000000.0), true);
                else if (u < 0.70) s = gen_bulk_http(t, (uint64_t)fmin(cap, rng_range(&world, 8, 64) * 1000000.0));
                else s = gen_quic_video(t, (uint64_t)fmin(cap, rng_range(&world, 8, 96) * 1000000.0));
                bulk_busy_until[slot] = schedule(s);
                break;
            }
            case T_NTP: schedule(gen_ntp(t)); tm->next = t + rng_ns(&world, 900, 1200); break;
            case T_ARP: schedule(gen_arp(t)); tm->next = t + rng_exp_ns(&world, 90) + NS_PER_S; break;
            case T_NDP: schedule(gen_ndp(t)); tm->next = t + rng_ns(&world, 180, 300); break;
            case T_MLD: schedule(gen_mld(t)); tm->next = t + rng_ns(&world, 800, 1000); break;
            case T_RA: schedule(gen_ra(t)); tm->next = t + rng_ns(&world, 500, 700); break;
            case T_TXT: schedule(gen_txt_fragmented(t)); tm->next = t + rng_ns(&world, 1500, 2100); break;
            case T_SESSION: { /* sessions shape: one short session, then an idle gap */
                uint64_t end = t;
                double u = rng_unit(&world);
                if (u < 0.12) {
                    /* a bulk transfer carrying what keeps the planned bytes on the line to --size */
                    double want = (double)target * ((double)t / (double)duration) - (double)planned_bytes;
                    uint64_t size = (uint64_t)fmin(fmax(want, 20e3), 4e6);
                    end = schedule(rng_chance(&world, 0.3) ? gen_quic_video(t, size) : gen_bulk_https(t, size, rng_chance(&world, 0.4)));
                } else if (u < 0.45) {
                    int polls = (int)rng_range(&world, 2, 6);
                    for (int i = 0; i < polls; i++) {
                        uint64_t last = schedule(gen_poll(t + (uint64_t)i * 30 * NS_PER_S + rng_range(&world, 0, 400) * NS_PER_MS));
                        if (last > end) end = last;
                    }
                } else if (u < 0.75) {
                    end = schedule(gen_chatty_http(t));
                } else {
                    end = schedule(rng_chance(&world, 0.5) ? gen_beacon(t) : gen_images(t));
                }
                tm->next = end + rng_ns(&world, 0.5, 60);
                break;
            }
            case T_FLOW: /* flows and connections shapes: one short flow at a fixed interval */
                schedule(shape == FLOWS ? gen_lone_question(t) : gen_poll(t));
                tm->next = t + (shape == FLOWS ? 50 : 250) * NS_PER_MS;
                break;
            default: schedule(gen_refused(t)); tm->next = t + rng_ns(&world, 1200, 1800); break;
            }
            if (planned_bytes >= target) stopping = true;
            continue;
        }
        Session *s = heap[0];
        const Pkt *p = &s->p[s->next];
        size_t n = render(s, p, frame);
        if (outlen + 16 + n > sizeof outbuf) flush_out();
        uint64_t abs_ns = CAPTURE_EPOCH * NS_PER_S + p->ts;
        uint8_t *rec = outbuf + outlen;
        le32(rec, (uint32_t)(abs_ns / NS_PER_S)); le32(rec + 4, (uint32_t)(abs_ns % NS_PER_S));
        le32(rec + 8, (uint32_t)n); le32(rec + 12, (uint32_t)n);
        memcpy(rec + 16, frame, n);
        outlen += 16 + n;
        written += 16 + n;
        packets++;
        cat_packets[p->cat]++;
        cat_bytes[p->cat] += 16 + n;
        if (p->ts < first_ts) first_ts = p->ts;
        last_ts = p->ts;
        if (++s->next == s->n) {
            heap[0] = heap[--heap_n];
            session_free(s);
        }
        if (heap_n) heap_sift_down();
    }
    flush_out();
    if (fclose(out) != 0 || rename(tmp, path) != 0) {
        fprintf(stderr, "make-large-capture: finishing %s: %s\n", path, strerror(errno));
        remove(tmp);
        return 1;
    }
    double took = seconds_since(&started);
    double span = (double)(last_ts - first_ts) / 1e9;
    fprintf(stderr, "make-large-capture: %s: %llu bytes, %llu packets, capture time %.0f s (%.2f h), "
                    "generated in %.1f s (%.0f MB/s)\n",
            path, (unsigned long long)written, (unsigned long long)packets, span, span / 3600, took,
            (double)written / 1e6 / took);
    for (int c = 0; c < C_COUNT; c++)
        fprintf(stderr, "  %-44s %10llu packets %8.1f MB\n", category_name[c], (unsigned long long)cat_packets[c],
                (double)cat_bytes[c] / 1e6);
    return 0;
}
