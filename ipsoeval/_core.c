/* ipsoeval._core: the compiled reading and alignment core.
 *
 * The hot loops of ipsoeval in C, with no semantics of their own:
 *
 *   parse()      one pass over the bytes of a run or qrels file, filling
 *                caller-preallocated arrays (id words, numbers, line numbers);
 *   align_run()  per-topic duplicate check, qrels lookup, ranking (score
 *                descending, ties by docno), cut, judged-only filter
 *                (align_topic(), one topic);
 *   streamer(), stream_feed(), stream_result()  a run read and aligned in
 *                one pass: parse() into a small buffer, align_topic() on
 *                each topic as soon as its last line is read;
 *   id_scan(), id_fill(), int_fill()  the id words of an in-memory column
 *                of str or of integers (a DataFrame's, a dict's);
 *   span_fill()  the id words of an Arrow string column (buffer, offsets);
 *   stream_columns()  a run held in columns (an Arrow record batch's buffers:
 *                dictionary indices, string offsets and bytes, integers)
 *                read and aligned in the same pass as stream_feed()'s lines.
 *   eval_official(), eval_measures()  eval's quick path without numpy: each
 *                run file read 1 MiB at a time and scored topic by topic
 *                (quick_run(): align_topic() and the measures on each topic
 *                once its last line is read; quick_buffers() reports the
 *                largest buffers held).
 *
 * All accept only input they are sure about (valid-input-only): anything
 * else is reported as "rejected" and the caller (ipsoeval/reading/compiled.py) falls
 * back to the pure-Python reader or alignment on the same bytes, which
 * produces the one and only error message (FILE:LINE).  So this file holds
 * no error wording and no edge-case policy beyond "accept or decline".
 *
 * Only the Python C API is used (buffers, no numpy headers): the arrays are
 * allocated by the caller.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* byte classes: 0 token byte, 1 blank (space, tab, CR), 2 newline, 3 other control */
static unsigned char CLS[256];

static void init_classes(void)
{
    for (int c = 0; c < 256; c++)
        CLS[c] = c < 32 ? 3 : (c == 32 ? 1 : 0);
    CLS['\t'] = 1;
    CLS['\r'] = 1;
    CLS['\n'] = 2;
}

static const double POW10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8,
                               1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};

static inline int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

/* A finite decimal in plain ASCII syntax: [+-] digits [. digits] [e [+-] digits],
 * at least one mantissa digit.  Correctly rounded (like strtod and float()). */
static int parse_double(const unsigned char *s, Py_ssize_t n, double *out)
{
    Py_ssize_t i = 0;
    int neg = 0, nd = 0, nf = 0, has_exp = 0;
    uint64_t mant = 0;
    if (n <= 0)
        return -1;
    if (s[0] == '+' || s[0] == '-') {
        neg = s[0] == '-';
        i = 1;
    }
    while (i < n && is_digit(s[i])) {
        if (nd + nf < 19)
            mant = mant * 10 + (uint64_t)(s[i] - '0');
        nd++;
        i++;
    }
    if (i < n && s[i] == '.') {
        i++;
        while (i < n && is_digit(s[i])) {
            if (nd + nf < 19)
                mant = mant * 10 + (uint64_t)(s[i] - '0');
            nf++;
            i++;
        }
    }
    if (nd + nf == 0)
        return -1;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        Py_ssize_t e0;
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            i++;
        e0 = i;
        while (i < n && is_digit(s[i]))
            i++;
        if (i == e0)
            return -1;
        has_exp = 1;
    }
    if (i != n)
        return -1;
    if (!has_exp && nd + nf <= 15) {
        /* mant < 1e15 and 10^nf are exact doubles: one correctly rounded division */
        double v = (double)mant;
        if (nf)
            v /= POW10[nf];
        *out = neg ? -v : v;
        return 0;
    }
    {
        char tmp[512];
        char *end;
        double v;
        if (n >= (Py_ssize_t)sizeof(tmp))
            return -1;
        memcpy(tmp, s, (size_t)n);
        tmp[n] = 0;
        v = strtod(tmp, &end);
        if (end != tmp + n || !isfinite(v))
            return -1;
        *out = v;
        return 0;
    }
}

/* [+-] ASCII digits, at most 18 of them. */
static int parse_int(const unsigned char *s, Py_ssize_t n, int64_t *out)
{
    Py_ssize_t i = 0;
    int neg = 0;
    int64_t v = 0;
    if (n <= 0)
        return -1;
    if (s[0] == '+' || s[0] == '-') {
        neg = s[0] == '-';
        i = 1;
    }
    if (i == n || n - i > 18)
        return -1;
    for (; i < n; i++) {
        if (!is_digit(s[i]))
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    *out = neg ? -v : v;
    return 0;
}

#if defined(__SSE2__)
/* One line of at most 63 bytes starting at L (with 64 readable bytes):
 * returns its length n and, in *sep, a bit per byte <= 32 up to and
 * including the newline at n; -1 when it holds a control byte other than
 * tab/CR, -2 when the line is longer (the scalar loop then serves).  *high
 * is non-zero when a byte >= 0x80 is among the bytes read, which may go past
 * the line: a hint to look at the ids, never a verdict. */
static inline int scan_line(const unsigned char *L, uint64_t *sep, uint64_t *high)
{
    const __m128i c32 = _mm_set1_epi8(32), c31 = _mm_set1_epi8(31),
                  cnl = _mm_set1_epi8('\n'), c9 = _mm_set1_epi8('\t'), c13 = _mm_set1_epi8('\r');
    uint64_t sp = 0, ctl = 0, nl = 0;
    __m128i acc = _mm_setzero_si128();
    for (int k = 0; k < 4; k++) {
        __m128i x = _mm_loadu_si128((const __m128i *)(L + 16 * k));
        uint64_t s = (uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(x, c32), x));
        uint64_t lo = (uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(x, c31), x));
        uint64_t ok = (uint16_t)_mm_movemask_epi8(
            _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, c9), _mm_cmpeq_epi8(x, c13)),
                         _mm_cmpeq_epi8(x, cnl)));
        uint64_t n = (uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x, cnl));
        sp |= s << (16 * k);
        acc = _mm_or_si128(acc, x);
        ctl |= (lo & ~ok) << (16 * k);
        nl |= n << (16 * k);
        if (n)
            break;
    }
    if (!nl || (nl & ((uint64_t)1 << 63)))
        return -2;
    {
        int n = __builtin_ctzll(nl);
        uint64_t upto = ((uint64_t)1 << (n + 1)) - 1;     /* bytes 0..n */
        if (ctl & upto)
            return -1;
        *sep = sp & upto;
        *high = (uint64_t)_mm_movemask_epi8(acc);
        return n;
    }
}
#endif

/* 1 when s[0:n] is valid UTF-8 as Python's strict decoder has it (no
 * overlong forms, no surrogates, nothing above U+10FFFF), else 0 */
static int utf8_valid(const unsigned char *s, Py_ssize_t n)
{
    Py_ssize_t i = 0;
    while (i < n) {
        unsigned char c = s[i];
        int k;
        unsigned char lo = 0x80, hi = 0xBF;
        if (c < 0x80) {
            i++;
            continue;
        }
        if (c >= 0xC2 && c <= 0xDF)
            k = 1;
        else if (c >= 0xE0 && c <= 0xEF) {
            k = 2;
            if (c == 0xE0)
                lo = 0xA0;
            else if (c == 0xED)
                hi = 0x9F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            k = 3;
            if (c == 0xF0)
                lo = 0x90;
            else if (c == 0xF4)
                hi = 0x8F;
        } else
            return 0;
        if (n - i <= k)
            return 0;
        if (s[i + 1] < lo || s[i + 1] > hi)
            return 0;
        for (int j = 2; j <= k; j++)
            if (s[i + j] < 0x80 || s[i + j] > 0xBF)
                return 0;
        i += k + 1;
    }
    return 1;
}

/* copy an id into its zeroed row: one masked 8-byte store when it is short */
static inline void put_id(unsigned char *dst, const unsigned char *src, Py_ssize_t len,
                          const unsigned char *lim)
{
    if (len <= 8 && src + 8 <= lim) {
        uint64_t v;
        memcpy(&v, src, 8);
        if (len < 8)
            v &= ((uint64_t)1 << (8 * len)) - 1;
        memcpy(dst, &v, 8);
    } else {
        memcpy(dst, src, (size_t)len);
    }
}

enum { K_TREC = 0, K_MSMARCO = 1, K_QRELS = 2 };
enum { ST_DONE = 0, ST_FULL = 1, ST_WIDE_Q = 2, ST_WIDE_D = 3, ST_REJECT = -1 };

#define LABEL_MIN (-2147483647LL - 1 + 2) /* int32 minus the PAD and UNJUDGED sentinels */
#define LABEL_MAX 2147483647LL

typedef struct {
    const unsigned char *s;     /* the bytes */
    Py_ssize_t blen;
    int kind;
    Py_ssize_t cap, Wq, Wd;     /* rows and id widths (words) of the arrays */
    unsigned char *qw, *dw;     /* zeroed id words */
    void *num;                  /* float64 (runs) or int64 (qrels labels) */
    void *ln;                   /* int32 or int64 line numbers, or NULL */
    int line32;
    Py_ssize_t p, row, need, tag_s, tag_l;
    long long line;
    long long hi_line;          /* 1-based line of the first qid/docno that is not
                                 * valid UTF-8, 0: none */
} Parse;

/* Parse whole lines P->s[P->p:hi] into the arrays; the status of parse(). */
static int parse_core(Parse *P, Py_ssize_t hi)
{
    const unsigned char *s = P->s;
    const int kind = P->kind;
    const Py_ssize_t cap = P->cap, Wq = P->Wq, Wd = P->Wd;
    unsigned char *qw = P->qw, *dw = P->dw;
    double *fnum = (double *)P->num;
    int64_t *inum = (int64_t *)P->num;
    const int line32 = P->line32, has_ln = P->ln != NULL;
    int32_t *ln32 = (int32_t *)P->ln;
    int64_t *ln64 = (int64_t *)P->ln;
    const int fq = 0, fd = kind == K_MSMARCO ? 1 : 2,
              fn = kind == K_TREC ? 4 : (kind == K_MSMARCO ? 2 : 3);
    const int want = kind == K_TREC ? 6 : (kind == K_MSMARCO ? 3 : 4);
    Py_ssize_t p = P->p, row = P->row, need = 0, tag_s = P->tag_s, tag_l = P->tag_l;
    long long line = P->line, hi_line = P->hi_line;
    int status = ST_DONE;
        const unsigned char *limit = s + P->blen;
        unsigned char lastline[1024 + 8];
        while (p < hi) {
            /* L[0:n] is the line; L[n] is a byte <= 32 (its newline, or the
             * newline added to a copy of an unterminated last line), so the
             * token loops need no bound checks */
            const unsigned char *L, *lim, *nl;
            Py_ssize_t n, nextp, ts[6], te[6], q = 0;
            int nt = 0;
            uint64_t high = 0;      /* non-zero: a byte >= 0x80 in the line's tokens */
#if defined(__SSE2__)
            if (hi - p >= 64) {
                uint64_t sep;
                int k = scan_line(s + p, &sep, &high);
                if (k == -1) {
                    status = ST_REJECT;
                    goto out;
                }
                if (k >= 0) {
                    L = s + p;
                    n = k;
                    nextp = p + n + 1;
                    lim = limit;
                    if (L[0] == '#') {                   /* comment line */
                        p = nextp;
                        line++;
                        continue;
                    }
                    {
                        uint64_t starts = ~sep & ((sep << 1) | 1);
                        uint64_t ends = sep & ~(sep << 1) & ~(uint64_t)1;
                        starts &= ((uint64_t)1 << n) - 1;
                        while (starts) {
                            if (nt < 6) {
                                ts[nt] = __builtin_ctzll(starts);
                                te[nt] = __builtin_ctzll(ends);
                            }
                            nt++;
                            starts &= starts - 1;
                            ends &= ends - 1;
                        }
                    }
                    goto tokens;
                }
            }
#endif
            nl = memchr(s + p, '\n', (size_t)(hi - p));
            if (nl) {
                L = s + p;
                n = nl - L;
                nextp = p + n + 1;
                lim = limit;
            } else {
                n = hi - p;
                /* an unterminated last line ending in blanks: the Python reader
                 * decides how many fields it has (one policy) */
                if (n > 1024 || (n > 0 && CLS[s[hi - 1]] == 1)) {
                    status = ST_REJECT;
                    goto out;
                }
                memcpy(lastline, s + p, (size_t)n);
                memset(lastline + n, '\n', 8);
                L = lastline;
                nextp = hi;
                lim = lastline + sizeof(lastline);
            }
            if (L[0] == '#') {                       /* comment line */
                for (Py_ssize_t k = 0; k < n; k++)
                    if (CLS[L[k]] == 3) {
                        status = ST_REJECT;
                        goto out;
                    }
                p = nextp;
                line++;
                continue;
            }
            for (;;) {
                while (L[q] == ' ' || L[q] == '\t' || L[q] == '\r')
                    q++;
                if (q >= n)
                    break;
                if (L[q] < 32) {                     /* a control byte: not text */
                    status = ST_REJECT;
                    goto out;
                }
                {
                    Py_ssize_t st = q;
                    unsigned char hb = 0;
                    while (L[q] > 32)
                        hb |= L[q++];
                    high |= hb & 0x80;
                    if (nt < 6) {
                        ts[nt] = st;
                        te[nt] = q;
                    }
                    nt++;
                }
            }
        tokens:
            if (nt == 0) {                           /* blank line */
                p = nextp;
                line++;
                continue;
            }
            if (kind == K_TREC ? nt < want : nt != want) {
                status = ST_REJECT;
                goto out;
            }
            if (row >= cap) {
                status = ST_FULL;
                goto out;
            }
            {
                Py_ssize_t lq = te[fq] - ts[fq], ld = te[fd] - ts[fd];
                if (lq > 8 * Wq) {
                    status = ST_WIDE_Q;
                    need = lq;
                    goto out;
                }
                if (ld > 8 * Wd) {
                    status = ST_WIDE_D;
                    need = ld;
                    goto out;
                }
                if (kind == K_TREC) {
                    if (parse_double(L + ts[fn], te[fn] - ts[fn], &fnum[row])) {
                        status = ST_REJECT;
                        goto out;
                    }
                    tag_s = p + ts[5];
                    tag_l = te[5] - ts[5];
                } else {
                    int64_t v;
                    if (parse_int(L + ts[fn], te[fn] - ts[fn], &v)) {
                        status = ST_REJECT;
                        goto out;
                    }
                    if (kind == K_QRELS) {
                        if (v < LABEL_MIN || v > LABEL_MAX) {
                            status = ST_REJECT;
                            goto out;
                        }
                        inum[row] = v;
                    } else {
                        if (v > 999999999999999LL || v < -999999999999999LL) {
                            status = ST_REJECT;
                            goto out;
                        }
                        fnum[row] = -(double)v;
                    }
                }
                put_id(qw + row * Wq * 8, L + ts[fq], lq, lim);
                put_id(dw + row * Wd * 8, L + ts[fd], ld, lim);
                /* ids are bytes; one that is not UTF-8 is warned about */
                if (__builtin_expect(high != 0, 0) && !hi_line &&
                    !(utf8_valid(L + ts[fq], lq) && utf8_valid(L + ts[fd], ld)))
                    hi_line = line + 1;
                if (!has_ln)
                    ;
                else if (line32)
                    ln32[row] = (int32_t)(line + 1);
                else
                    ln64[row] = line + 1;
            }
            row++;
            line++;
            p = nextp;
        }
out:
    P->p = p;
    P->row = row;
    P->line = line;
    P->hi_line = hi_line;
    P->need = need;
    P->tag_s = tag_s;
    P->tag_l = tag_l;
    return status;
}

/* parse(data, lo, hi, kind, line0, row0, cap, qid, docno, num, line)
 *   -> (status, pos, row, line, need, tag_start, tag_len)
 * Fills rows row0.. of the preallocated, zeroed arrays from data[lo:hi]
 * (whole lines).  status: 0 done, 1 arrays full, 2/3 an id needs `need`
 * bytes (qid/docno arrays too narrow), -1 rejected.  On 1-3, pos/row/line
 * point at the start of the line that did not fit.  The 8th value, hi_line:
 * the line of this call's first qid/docno that is not UTF-8, 0 if none
 * (the caller keeps the first non-zero one). */
static PyObject *py_parse(PyObject *self, PyObject *args)
{
    Py_buffer b, q, d, num, ln;
    Py_ssize_t lo, hi, row0, cap;
    long long line0;
    int kind;
    if (!PyArg_ParseTuple(args, "y*nniLnnw*w*w*w*", &b, &lo, &hi, &kind, &line0, &row0, &cap,
                          &q, &d, &num, &ln))
        return NULL;
    PyObject *result = NULL;
    if (lo < 0 || hi > b.len || lo > hi || cap < 0 || row0 > cap || kind < 0 || kind > 2 ||
        q.len % 8 || d.len % 8 || num.len < cap * 8 ||
        (ln.len != cap * 4 && ln.len != cap * 8) || (cap && (q.len / 8) % cap) ||
        (cap && (d.len / 8) % cap)) {
        PyErr_SetString(PyExc_ValueError, "_core.parse: bad arguments");
        goto done;
    }
    {
        Parse P = {(const unsigned char *)b.buf, b.len, kind, cap,
                   cap ? q.len / 8 / cap : 0, cap ? d.len / 8 / cap : 0,
                   (unsigned char *)q.buf, (unsigned char *)d.buf, num.buf, ln.buf,
                   ln.len == cap * 4 && cap * 4 != cap * 8, lo, row0, 0, -1, 0, line0};
        int status;
        Py_BEGIN_ALLOW_THREADS
        status = parse_core(&P, hi);
        Py_END_ALLOW_THREADS
        result = Py_BuildValue("innLnnnL", status, P.p, P.row, P.line, P.need, P.tag_s, P.tag_l,
                               P.hi_line);
    }
done:
    PyBuffer_Release(&b);
    PyBuffer_Release(&q);
    PyBuffer_Release(&d);
    PyBuffer_Release(&num);
    PyBuffer_Release(&ln);
    return result;
}

/* count_lines(data, lo, hi) -> number of b'\n' in data[lo:hi] */
static PyObject *py_count_lines(PyObject *self, PyObject *args)
{
    Py_buffer b;
    Py_ssize_t lo, hi, n = 0;
    if (!PyArg_ParseTuple(args, "y*nn", &b, &lo, &hi))
        return NULL;
    if (lo < 0 || hi > b.len || lo > hi) {
        PyBuffer_Release(&b);
        PyErr_SetString(PyExc_ValueError, "_core.count_lines: bad range");
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    {
        const char *s = (const char *)b.buf + lo, *e = (const char *)b.buf + hi;
        while (s < e) {
            const char *nl = memchr(s, '\n', (size_t)(e - s));
            if (!nl)
                break;
            n++;
            s = nl + 1;
        }
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&b);
    return PyLong_FromSsize_t(n);
}

/* ---------------------------------------------------------------- alignment */

#define M1 0x9E3779B97F4A7C15ULL
#define M2 0xC2B2AE3D27D4EB4FULL
#define PAD_LABEL (-2147483647 - 1)
#define UNJUDGED_LABEL (-2147483647)
#define POOLED_LABEL (-2147483646)

/* words of an id up to its last non-zero word: ids compare by their full bytes
 * whatever the width of the array that holds them */
static inline int nz_words(const uint64_t *w, Py_ssize_t W)
{
    while (W > 0 && w[W - 1] == 0)
        W--;
    return (int)W;
}

static inline uint64_t hash_words(uint64_t h, const uint64_t *w, int n)
{
    for (int i = 0; i < n; i++) {
        h ^= w[i];
        h *= M1;
        h ^= h >> 29;
    }
    return h * M2;
}

static inline int same_words(const uint64_t *a, const uint64_t *b, Py_ssize_t n)
{
    for (Py_ssize_t k = 0; k < n; k++)
        if (a[k] != b[k])
            return 0;
    return 1;
}

static inline uint64_t bswap(uint64_t x) { return __builtin_bswap64(x); }

/* strcmp order of two zero-padded ids of width W */
static inline int cmp_ids(const uint64_t *a, const uint64_t *b, Py_ssize_t W)
{
    for (Py_ssize_t k = 0; k < W; k++) {
        if (a[k] != b[k]) {
            uint64_t x = bswap(a[k]), y = bswap(b[k]);
            return x < y ? -1 : 1;
        }
    }
    return 0;
}

/* qtable(qdocno, W, qcodes, table) -> None.  table: int32, a power of two
 * at least 2 * rows + 2 entries, filled with -1 by the caller. */
static PyObject *py_qtable(PyObject *self, PyObject *args)
{
    Py_buffer d, c, t;
    Py_ssize_t W;
    if (!PyArg_ParseTuple(args, "y*ny*w*", &d, &W, &c, &t))
        return NULL;
    PyObject *res = NULL;
    Py_ssize_t m = c.len / 4, size = t.len / 4;
    if (W < 1 || d.len != m * W * 8 || size < 2 * m + 2 || (size & (size - 1))) {
        PyErr_SetString(PyExc_ValueError, "_core.qtable: bad arguments");
        goto done;
    }
    {
        const uint64_t *w = (const uint64_t *)d.buf;
        const int32_t *codes = (const int32_t *)c.buf;
        int32_t *tab = (int32_t *)t.buf;
        uint64_t mask = (uint64_t)size - 1;
        int shift = 64;
        while (((uint64_t)1 << (64 - shift)) < (uint64_t)size)
            shift--;
        Py_BEGIN_ALLOW_THREADS
        for (Py_ssize_t i = 0; i < m; i++) {
            const uint64_t *wi = w + i * W;
            uint64_t hw = hash_words(M2, wi, nz_words(wi, W));
            uint64_t k = ((hw ^ (((uint64_t)codes[i] + 1) * M1)) * M2) >> shift;
            while (tab[k] != -1)
                k = (k + 1) & mask;
            tab[k] = (int32_t)i;
        }
        Py_END_ALLOW_THREADS
    }
    Py_INCREF(Py_None);
    res = Py_None;
done:
    PyBuffer_Release(&d);
    PyBuffer_Release(&c);
    PyBuffer_Release(&t);
    return res;
}

typedef struct {
    const uint64_t *w;
    const double *score;
    const int32_t *idx;  /* position in the topic (file order) -> row */
    Py_ssize_t W;
    int tie; /* 0 trec (docno descending), 1 docno ascending, 2 input order */
} SortCtx;

static int cmp_rows(const void *pa, const void *pb, void *vctx)
{
    const SortCtx *c = (const SortCtx *)vctx;
    int32_t i = c->idx[*(const int32_t *)pa], j = c->idx[*(const int32_t *)pb];
    double si = c->score[i], sj = c->score[j];
    int r;
    if (si > sj)
        return -1;
    if (si < sj)
        return 1;
    if (c->tie == 2)
        return (i > j) - (i < j);
    r = cmp_ids(c->w + (Py_ssize_t)i * c->W, c->w + (Py_ssize_t)j * c->W, c->W);
    if (r == 0)
        r = (i > j) - (i < j);
    else if (c->tie == 0)
        r = -r;
    return r;
}

/* align_run(docno, W, score, codes, local2eval, local2q, qdocno, Wq, qcodes,
 *           qlabels, table, tie, depth, out_lab, seg_start, kept, nrows)
 *   -> 0 ok, -1 declined (a duplicate docno in a topic: the caller's Python
 *      path produces the error), -2 out of memory
 * Per local topic l (rows in file order): duplicate check, then for topics
 * with local2eval[l] >= 0 the ranking (score descending, then the tie rule),
 * cut at depth (0: none), qrels labels (UNJUDGED when absent or negative),
 * judged-only filter; the labels go to out_lab[seg_start[l] : seg_start[l] +
 * kept[l]].  nrows[l]: rows of topic l in the run. */
typedef struct {
    const uint64_t *w;          /* run docnos, n x W words */
    Py_ssize_t n, W;
    const double *score;
    const int32_t *codes;       /* local topic of each row */
    Py_ssize_t L;
    const int32_t *l2e, *l2q;   /* local topic -> evaluated topic / qrels topic, or -1 */
    const uint64_t *qw;         /* qrels docnos, m x Wq words */
    Py_ssize_t m, Wq;
    const int32_t *qcodes;      /* qrels topic of each qrels row */
    const int64_t *qlab;
    const int32_t *qorder;      /* qrels rows grouped by topic ... */
    const int64_t *qstart;      /* ... topic q: qorder[qstart[q]:qstart[q+1]] */
    Py_ssize_t Q;
    const int32_t *tab;         /* qrels hash table (qtable) */
    Py_ssize_t size;
    int tie, judged_only;
    long long depth;
    int32_t *out;               /* outputs, see align_run() */
    int64_t *seg, *kept, *nrows;
    uint8_t *tout;              /* tie flags, the shape of out (same score as the rank above) */
} Align;

/* The qrels side and the options of the per-topic alignment. */
typedef struct {
    const uint64_t *qw;         /* qrels docnos, m x Wq words */
    Py_ssize_t Wq;
    const int32_t *qcodes;      /* qrels topic of each qrels row */
    const int64_t *qlab;
    const int32_t *qorder;      /* qrels rows grouped by topic ... */
    const int64_t *qstart;      /* ... topic q: qorder[qstart[q]:qstart[q+1]] */
    const int32_t *tab;         /* qrels hash table (qtable) */
    uint64_t tmask;
    int tshift;
    int tie, judged_only;
    long long depth;
} TopicCtx;

/* One topic of a run: its c rows idx[0..c) (file order) of the docno words w
 * (width W) and scores.  The duplicate check, then -- for an evaluated topic
 * (ev) -- the qrels label of each row (qrels topic qc, -1: none), the ranking
 * (score descending, then the tie rule), the cut at depth and the judged-only
 * filter; the labels go to dst.  Scratch: set (at least 2c + 2 entries, a
 * power of two up to 16 more), ord and labk (c).  tdst: the tie flag of each
 * label written (1: the same score as the document written before it, as
 * align.py's Aligned.tied).  Returns the number of labels written, or -1 (a
 * duplicate docno: declined). */
static Py_ssize_t align_topic(const TopicCtx *X, const uint64_t *w, Py_ssize_t W,
                              const double *score, const int32_t *idx, Py_ssize_t c, int32_t qc,
                              int ev, int32_t *set, int32_t *ord, int32_t *labk, int32_t *dst,
                              uint8_t *tdst)
{
    const uint64_t *qw = X->qw;
    const Py_ssize_t Wq = X->Wq;
    const int32_t *qcodes = X->qcodes, *tab = X->tab, *qorder = X->qorder;
    const int64_t *qlab = X->qlab;
    const int64_t q0 = qc >= 0 ? X->qstart[qc] : 0, q1 = qc >= 0 ? X->qstart[qc + 1] : 0;
    const int tie = X->tie;
    /* a topic with few judgments: compare with each (no table probe) */
    const int few = q1 - q0 <= 8 && Wq == 1;
    const int judge = ev && qc >= 0;
    SortCtx ctx = {w, score, idx, W, tie};
    Py_ssize_t hm = 16;
    while (hm < 2 * c + 2)
        hm <<= 1;
    int sh = 64;
    while (((Py_ssize_t)1 << (64 - sh)) < hm)
        sh--;
    memset(set, 0xff, sizeof(int32_t) * (size_t)hm);
    /* one pass in file order: duplicate check (every topic) and the
     * qrels label of each row (evaluated topics) from one hash */
    for (Py_ssize_t k = 0; k < c; k++) {
        const uint64_t *wi = w + (Py_ssize_t)idx[k] * W;
        int nz = nz_words(wi, W);
        uint64_t hw = hash_words(M2, wi, nz);
        uint64_t h = hw >> sh;
        int32_t lab = UNJUDGED_LABEL;
        while (set[h] != -1) {
            const uint64_t *wj = w + (Py_ssize_t)set[h] * W;
            if (same_words(wi, wj, W))
                return -1;
            h = (h + 1) & (uint64_t)(hm - 1);
        }
        set[h] = idx[k];
        if (!judge) {
        } else if (few) {
            if (nz <= 1)
                for (int64_t j = q0; j < q1; j++)
                    if (qw[qorder[j]] == wi[0]) {
                        lab = (int32_t)qlab[qorder[j]];
                        break;
                    }
        } else {
            uint64_t t = ((hw ^ (((uint64_t)qc + 1) * M1)) * M2) >> X->tshift;
            for (;;) {
                int32_t cand = tab[t];
                if (cand < 0)
                    break;
                if (qcodes[cand] == qc) {
                    const uint64_t *wq = qw + (Py_ssize_t)cand * Wq;
                    if (nz_words(wq, Wq) == nz && same_words(wq, wi, nz)) {
                        lab = (int32_t)qlab[cand];
                        break;
                    }
                }
                t = (t + 1) & X->tmask;
            }
        }
        /* a negative qrels label: pooled, not judged (model.POOLED) */
        labk[k] = lab < 0 && lab != UNJUDGED_LABEL ? POOLED_LABEL : lab;
    }
    if (!ev)
        return 0;
    for (Py_ssize_t k = 0; k < c; k++)
        ord[k] = (int32_t)k;
    /* ranking: the usual run is already in score order, with at most
     * the ties to order; otherwise one sort of the topic */
    {
        int by_score = 1;
        for (Py_ssize_t k = 1; k < c; k++)
            if (score[idx[k - 1]] < score[idx[k]]) {
                by_score = 0;
                break;
            }
        if (!by_score) {
            qsort_r(ord, (size_t)c, sizeof(int32_t), cmp_rows, &ctx);
        } else if (tie != 2) {
            Py_ssize_t a = 0;
            while (a < c) {
                Py_ssize_t e = a + 1;
                while (e < c && score[idx[e]] == score[idx[a]])
                    e++;
                if (e - a > 1) {
                    for (Py_ssize_t k = a + 1; k < e; k++)
                        if (cmp_rows(&ord[k - 1], &ord[k], &ctx) > 0) {
                            qsort_r(ord + a, (size_t)(e - a), sizeof(int32_t), cmp_rows,
                                    &ctx);
                            break;
                        }
                }
                a = e;
            }
        }
    }
    {
        Py_ssize_t cut = c, o = 0;
        double prev = 0.0;
        if (X->depth > 0 && cut > X->depth)
            cut = (Py_ssize_t)X->depth;
        for (Py_ssize_t k = 0; k < cut; k++) {
            int32_t lab = labk[ord[k]];
            if (X->judged_only && lab < 0)
                continue;
            {
                double sc = score[idx[ord[k]]];
                tdst[o] = o > 0 && sc == prev;
                prev = sc;
            }
            dst[o++] = lab;
        }
        return o;
    }
}

static int align_core(const Align *A)
{
    const uint64_t *w = A->w;
    const double *score = A->score;
    const int32_t *codes = A->codes, *l2e = A->l2e, *l2q = A->l2q;
    const Py_ssize_t n = A->n, W = A->W, L = A->L, Q = A->Q, size = A->size;
    int32_t *out = A->out;
    int64_t *seg = A->seg, *kept = A->kept, *nrows = A->nrows;
    int rc = 0;
    int64_t *first = NULL, *last = NULL;
    int32_t *perm = NULL, *set = NULL, *idx = NULL, *ord = NULL, *labk = NULL;
    Py_ssize_t maxseg = 0;
    uint64_t tmask = (uint64_t)size - 1;
    int tshift = 64;
    while (((uint64_t)1 << (64 - tshift)) < (uint64_t)size)
        tshift--;
    const TopicCtx X = {A->qw, A->Wq, A->qcodes, A->qlab, A->qorder, A->qstart, A->tab, tmask,
                        tshift, A->tie, A->judged_only, A->depth};
    first = malloc(sizeof(int64_t) * (size_t)(L ? L : 1));
        last = malloc(sizeof(int64_t) * (size_t)(L ? L : 1));
        if (!first || !last) {
            rc = -2;
            goto out;
        }
        for (Py_ssize_t l = 0; l < L; l++) {
            nrows[l] = 0;
            first[l] = -1;
            last[l] = -1;
        }
        for (Py_ssize_t l = 0; l < L; l++)
            if (l2q[l] >= Q || l2q[l] < -1) {
                rc = -1;
                goto out;
            }
        for (Py_ssize_t i = 0; i < n; i++) {
            int32_t l = codes[i];
            if (l < 0 || l >= L) {
                rc = -1;
                goto out;
            }
            if (first[l] < 0)
                first[l] = i;
            last[l] = i;
            nrows[l]++;
        }
        {
            int grouped = 1;
            int64_t pos = 0;
            for (Py_ssize_t l = 0; l < L; l++) {
                if (nrows[l] && last[l] - first[l] + 1 != nrows[l])
                    grouped = 0;
                if (nrows[l] > maxseg)
                    maxseg = nrows[l];
            }
            if (grouped) {
                for (Py_ssize_t l = 0; l < L; l++)
                    seg[l] = nrows[l] ? first[l] : 0;
            } else {
                /* counting sort of the rows by topic, file order within a topic */
                perm = malloc(sizeof(int32_t) * (size_t)(n ? n : 1));
                if (!perm) {
                    rc = -2;
                    goto out;
                }
                for (Py_ssize_t l = 0; l < L; l++) {
                    seg[l] = pos;
                    first[l] = pos;
                    pos += nrows[l];
                }
                for (Py_ssize_t i = 0; i < n; i++)
                    perm[first[codes[i]]++] = (int32_t)i;
            }
        }
        {
            Py_ssize_t hs = 16;
            while (hs < 2 * maxseg + 2)
                hs <<= 1;
            set = malloc(sizeof(int32_t) * (size_t)hs);
            idx = malloc(sizeof(int32_t) * (size_t)(maxseg ? maxseg : 1));
            ord = malloc(sizeof(int32_t) * (size_t)(maxseg ? maxseg : 1));
            labk = malloc(sizeof(int32_t) * (size_t)(maxseg ? maxseg : 1));
            if (!set || !idx || !ord || !labk) {
                rc = -2;
                goto out;
            }
            for (Py_ssize_t l = 0; l < L && rc == 0; l++) {
                Py_ssize_t c = nrows[l], s0 = seg[l], got;
                kept[l] = 0;
                if (!c)
                    continue;
                for (Py_ssize_t k = 0; k < c; k++)
                    idx[k] = perm ? perm[s0 + k] : (int32_t)(s0 + k);
                got = align_topic(&X, w, W, score, idx, c, l2q[l], l2e[l] >= 0, set, ord, labk,
                                  out + s0, A->tout + s0);
                if (got < 0)
                    rc = -1;
                else
                    kept[l] = got;
            }
        }
out:
        free(first);
        free(last);
        free(perm);
        free(set);
        free(idx);
        free(ord);
        free(labk);
    return rc;
}

static PyObject *py_align_run(PyObject *self, PyObject *args)
{
    Py_buffer bd, bs, bc, bl2e, bl2q, bqd, bqc, bql, bt, bo, bseg, bkept, bnrows, btie;
    Py_ssize_t W, Wq;
    int tie, judged_only;
    long long depth;
    Py_buffer bqo, bqs;
    if (!PyArg_ParseTuple(args, "y*ny*y*y*y*y*ny*y*y*y*y*iiLw*w*w*w*w*", &bd, &W, &bs, &bc,
                          &bl2e, &bl2q, &bqd, &Wq, &bqc, &bql, &bqo, &bqs, &bt, &tie,
                          &judged_only, &depth, &bo, &bseg, &bkept, &bnrows, &btie))
        return NULL;
    PyObject *res = NULL;
    Py_ssize_t n = bs.len / 8, L = bl2e.len / 4, m = bqc.len / 4, size = bt.len / 4;
    int rc = 0;
    if (W < 1 || Wq < 1 || bd.len != n * W * 8 || bc.len != n * 4 || bl2q.len != L * 4 ||
        bqd.len != m * Wq * 8 || bql.len != m * 8 || bo.len != n * 4 || bseg.len != L * 8 ||
        bkept.len != L * 8 || bnrows.len != L * 8 || size < 1 || (size & (size - 1)) ||
        n >= 0x7fffffff || tie < 0 || tie > 2 || bqo.len != m * 4 || bqs.len % 8 ||
        bqs.len < 16 || btie.len != n) {
        PyErr_SetString(PyExc_ValueError, "_core.align_run: bad arguments");
        goto done;
    }
    {
        Align A = {(const uint64_t *)bd.buf, n, W, (const double *)bs.buf,
                   (const int32_t *)bc.buf, L, (const int32_t *)bl2e.buf,
                   (const int32_t *)bl2q.buf, (const uint64_t *)bqd.buf, m, Wq,
                   (const int32_t *)bqc.buf, (const int64_t *)bql.buf,
                   (const int32_t *)bqo.buf, (const int64_t *)bqs.buf, bqs.len / 8 - 1,
                   (const int32_t *)bt.buf, size, tie, judged_only, depth,
                   (int32_t *)bo.buf, (int64_t *)bseg.buf, (int64_t *)bkept.buf,
                   (int64_t *)bnrows.buf, (uint8_t *)btie.buf};
        Py_BEGIN_ALLOW_THREADS
        rc = align_core(&A);
        Py_END_ALLOW_THREADS
    }
    if (rc == -2) {
        PyErr_NoMemory();
        goto done;
    }
    res = PyLong_FromLong(rc);
done:
    PyBuffer_Release(&bd);
    PyBuffer_Release(&bs);
    PyBuffer_Release(&bc);
    PyBuffer_Release(&bl2e);
    PyBuffer_Release(&bl2q);
    PyBuffer_Release(&bqd);
    PyBuffer_Release(&bqc);
    PyBuffer_Release(&bql);
    PyBuffer_Release(&bt);
    PyBuffer_Release(&bqo);
    PyBuffer_Release(&bqs);
    PyBuffer_Release(&bo);
    PyBuffer_Release(&bseg);
    PyBuffer_Release(&bkept);
    PyBuffer_Release(&bnrows);
    PyBuffer_Release(&btie);
    return res;
}

/* fill(labels, D, out_lab, seg_start, kept, local2eval, tied, out_tie): labels
 * (T, D) int32 rows of one run, filled with PAD by the caller; tied (T, D)
 * uint8, zeroed by the caller, gets the tie flags out_tie (the shape of out_lab). */
static PyObject *py_fill(PyObject *self, PyObject *args)
{
    Py_buffer bl, bo, bseg, bkept, bl2e, btd, bto;
    Py_ssize_t D;
    if (!PyArg_ParseTuple(args, "w*ny*y*y*y*w*y*", &bl, &D, &bo, &bseg, &bkept, &bl2e, &btd,
                          &bto))
        return NULL;
    PyObject *res = NULL;
    Py_ssize_t L = bl2e.len / 4, T = D ? bl.len / 4 / D : 0, n = bo.len / 4;
    if (D < 1 || bseg.len != L * 8 || bkept.len != L * 8 || bl.len != T * D * 4 ||
        btd.len != T * D || bto.len != n) {
        PyErr_SetString(PyExc_ValueError, "_core.fill: bad arguments");
        goto done;
    }
    {
        int32_t *lab = (int32_t *)bl.buf;
        const int32_t *o = (const int32_t *)bo.buf, *l2e = (const int32_t *)bl2e.buf;
        const int64_t *seg = (const int64_t *)bseg.buf, *kept = (const int64_t *)bkept.buf;
        for (Py_ssize_t l = 0; l < L; l++) {
            int32_t t = l2e[l];
            if (t < 0 || !kept[l])
                continue;
            if (t >= T || kept[l] > D || seg[l] + kept[l] > n) {
                PyErr_SetString(PyExc_ValueError, "_core.fill: out of range");
                goto done;
            }
            memcpy(lab + (Py_ssize_t)t * D, o + seg[l], sizeof(int32_t) * (size_t)kept[l]);
            memcpy((uint8_t *)btd.buf + (Py_ssize_t)t * D, (const uint8_t *)bto.buf + seg[l],
                   (size_t)kept[l]);
        }
    }
    Py_INCREF(Py_None);
    res = Py_None;
done:
    PyBuffer_Release(&bl);
    PyBuffer_Release(&bo);
    PyBuffer_Release(&bseg);
    PyBuffer_Release(&bkept);
    PyBuffer_Release(&bl2e);
    PyBuffer_Release(&btd);
    PyBuffer_Release(&bto);
    return res;
}

/* ------------------------------------------------- eval without numpy */

/* Parse a whole buffer into malloc'ed arrays, widening the id arrays as
 * needed; 0 ok, -1 declined or out of memory. */
static int parse_all(const unsigned char *s, Py_ssize_t len, int kind, Parse *P)
{
    Py_ssize_t cap = 1;
    for (const unsigned char *x = s, *e = s + len; x < e;) {
        const unsigned char *nl = memchr(x, '\n', (size_t)(e - x));
        if (!nl)
            break;
        cap++;
        x = nl + 1;
    }
    memset(P, 0, sizeof(*P));
    P->s = s;
    P->blen = len;
    P->kind = kind;
    P->cap = cap;
    P->Wq = P->Wd = 1;
    P->tag_s = -1;
    P->qw = calloc((size_t)cap, 8);
    P->dw = calloc((size_t)cap, 8);
    P->num = malloc((size_t)cap * 8);
    if (!P->qw || !P->dw || !P->num)
        return -1;
    for (;;) {
        int st = parse_core(P, len);
        if (st == ST_DONE)       /* an id that is not UTF-8: the full program warns */
            return P->row && !P->hi_line ? 0 : -1;
        if (st == ST_WIDE_Q || st == ST_WIDE_D) {
            unsigned char **arr = st == ST_WIDE_Q ? &P->qw : &P->dw;
            Py_ssize_t *Wp = st == ST_WIDE_Q ? &P->Wq : &P->Wd;
            Py_ssize_t W2 = (P->need + 7) / 8;
            unsigned char *b = calloc((size_t)cap, (size_t)W2 * 8);
            if (!b)
                return -1;
            for (Py_ssize_t r = 0; r < P->row; r++)
                memcpy(b + r * W2 * 8, *arr + r * *Wp * 8, (size_t)*Wp * 8);
            free(*arr);
            *arr = b;
            *Wp = W2;
            continue;
        }
        return -1;
    }
}

static void parse_free(Parse *P)
{
    free(P->qw);
    free(P->dw);
    free(P->num);
}

typedef struct {
    const uint64_t *qid;
    Py_ssize_t W;
    const int64_t *rep;
} TopicCmp;

static int cmp_topics(const void *pa, const void *pb, void *vctx)
{
    const TopicCmp *c = (const TopicCmp *)vctx;
    int32_t a = *(const int32_t *)pa, b = *(const int32_t *)pb;
    return cmp_ids(c->qid + c->rep[a] * c->W, c->qid + c->rep[b] * c->W, c->W);
}

/* topic code of an id in an open-addressing map over representative rows */
static int32_t topic_find(const int32_t *map, uint64_t mask, int shift, const uint64_t *keys,
                          Py_ssize_t Wk, const int64_t *rep, const uint64_t *id, Py_ssize_t W,
                          int32_t *slot)
{
    int nz = nz_words(id, W);
    uint64_t h = hash_words(M1, id, nz) >> shift;
    for (;;) {
        int32_t c = map[h];
        if (c < 0) {
            *slot = (int32_t)h;
            return -1;
        }
        {
            const uint64_t *k = keys + rep[c] * Wk;
            if (nz_words(k, Wk) == nz && same_words(k, id, nz))
                return c;
        }
        h = (h + 1) & mask;
    }
}

static const int PCUT[] = {5, 10, 15, 20, 30, 100, 200, 500, 1000};
static const double RECALL_AT[] = {0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0};
static const char *RECALL_NAME[] = {"0.00", "0.10", "0.20", "0.30", "0.40", "0.50",
                                    "0.60", "0.70", "0.80", "0.90", "1.00"};
#define NMEAS 29

/* Text growing by appends. */
typedef struct {
    char *buf;
    size_t len, cap;
} Text;

static int text_reserve(Text *t, size_t more)
{
    if (t->len + more <= t->cap)
        return 0;
    size_t cap = (t->cap ? t->cap * 2 : 8192) + more;
    char *b = realloc(t->buf, cap);
    if (!b)
        return -1;
    t->buf = b;
    t->cap = cap;
    return 0;
}

/* The qrels side of eval_official: topics, judgments grouped by topic,
 * the hash table, the evaluated order. */
typedef struct {
    Parse P;
    Py_ssize_t m, T, msize, size;
    int mshift;
    int32_t *tmap, *qcodes, *tab, *qorder, *sorted, *l2e, *l2q;
    int64_t *rep, *qstart, *numrel, *numnonrel;
} QrelsSide;

static void qside_free(QrelsSide *S)
{
    parse_free(&S->P);
    free(S->tmap);
    free(S->qcodes);
    free(S->tab);
    free(S->qorder);
    free(S->sorted);
    free(S->l2e);
    free(S->l2q);
    free(S->rep);
    free(S->qstart);
    free(S->numrel);
    free(S->numnonrel);
}

static int qside_build(QrelsSide *S, const unsigned char *s, Py_ssize_t len)
{
    if (parse_all(s, len, K_QRELS, &S->P))
        return -1;
    Py_ssize_t m = S->m = S->P.row, T = 0;
    const uint64_t *qq = (const uint64_t *)S->P.qw, *qd = (const uint64_t *)S->P.dw;
    const int64_t *qlab = (const int64_t *)S->P.num;
    S->msize = 16;
    while (S->msize < 2 * m + 2)
        S->msize <<= 1;
    S->mshift = 64;
    while (((Py_ssize_t)1 << (64 - S->mshift)) < S->msize)
        S->mshift--;
    S->tmap = malloc(sizeof(int32_t) * (size_t)S->msize);
    S->rep = malloc(sizeof(int64_t) * (size_t)m);
    S->qcodes = malloc(sizeof(int32_t) * (size_t)m);
    if (!S->tmap || !S->rep || !S->qcodes)
        return -1;
    memset(S->tmap, 0xff, sizeof(int32_t) * (size_t)S->msize);
    for (Py_ssize_t i = 0; i < m; i++) {
        int32_t slot, c = topic_find(S->tmap, (uint64_t)S->msize - 1, S->mshift, qq, S->P.Wq,
                                     S->rep, qq + i * S->P.Wq, S->P.Wq, &slot);
        if (c < 0) {
            c = (int32_t)T;
            S->rep[T++] = i;
            S->tmap[slot] = c;
        }
        S->qcodes[i] = c;
    }
    S->T = T;
    S->qorder = malloc(sizeof(int32_t) * (size_t)m);
    S->qstart = calloc((size_t)T + 1, sizeof(int64_t));
    S->numrel = calloc((size_t)T, sizeof(int64_t));
    S->numnonrel = calloc((size_t)T, sizeof(int64_t));
    if (!S->qorder || !S->qstart || !S->numrel || !S->numnonrel || T == 0)
        return -1;
    for (Py_ssize_t i = 0; i < m; i++) {
        S->qstart[S->qcodes[i] + 1]++;
        if (qlab[i] >= 1)
            S->numrel[S->qcodes[i]]++;
        else if (qlab[i] >= 0)
            S->numnonrel[S->qcodes[i]]++;
    }
    for (Py_ssize_t t = 0; t < T; t++)
        S->qstart[t + 1] += S->qstart[t];
    {
        int64_t *fill = malloc(sizeof(int64_t) * (size_t)T);
        if (!fill)
            return -1;
        memcpy(fill, S->qstart, sizeof(int64_t) * (size_t)T);
        for (Py_ssize_t i = 0; i < m; i++)
            S->qorder[fill[S->qcodes[i]]++] = (int32_t)i;
        free(fill);
    }
    /* the qrels hash table; a duplicate (topic, docno) declines */
    S->size = 16;
    while (S->size < 2 * m + 2)
        S->size <<= 1;
    int shift = 64;
    while (((Py_ssize_t)1 << (64 - shift)) < S->size)
        shift--;
    S->tab = malloc(sizeof(int32_t) * (size_t)S->size);
    if (!S->tab)
        return -1;
    memset(S->tab, 0xff, sizeof(int32_t) * (size_t)S->size);
    for (Py_ssize_t i = 0; i < m; i++) {
        const uint64_t *wi = qd + i * S->P.Wd;
        int nz = nz_words(wi, S->P.Wd);
        uint64_t hw = hash_words(M2, wi, nz);
        uint64_t k = ((hw ^ (((uint64_t)S->qcodes[i] + 1) * M1)) * M2) >> shift;
        while (S->tab[k] != -1) {
            int32_t j = S->tab[k];
            if (S->qcodes[j] == S->qcodes[i] && same_words(qd + j * S->P.Wd, wi, S->P.Wd))
                return -1;
            k = (k + 1) & (uint64_t)(S->size - 1);
        }
        S->tab[k] = (int32_t)i;
    }
    /* evaluated topics: all of them, in strcmp order */
    S->sorted = malloc(sizeof(int32_t) * (size_t)T);
    S->l2e = malloc(sizeof(int32_t) * (size_t)T);
    S->l2q = malloc(sizeof(int32_t) * (size_t)T);
    if (!S->sorted || !S->l2e || !S->l2q)
        return -1;
    {
        TopicCmp tc = {qq, S->P.Wq, S->rep};
        for (Py_ssize_t t = 0; t < T; t++)
            S->sorted[t] = (int32_t)t;
        qsort_r(S->sorted, (size_t)T, sizeof(int32_t), cmp_topics, &tc);
        for (Py_ssize_t t = 0; t < T; t++) {
            S->l2e[S->sorted[t]] = (int32_t)t;
            S->l2q[t] = (int32_t)t;
        }
    }
    return 0;
}

/* The measures eval_measures computes: one per requested measure, a cutoff k
 * (0: none) and a relevance level.  The codes are assigned in the families'
 * declarations (Family(..., core=N) in ipsoeval/measures/families, whose
 * kernels are the full program's); this enum is the receiving side, and
 * family_codes() reports it so that a test binds the two. */
enum { G_P = 1, G_R, G_AP, G_NDCG, G_RR, G_SUCCESS, G_JUDGED, G_BPREF, G_RPREC, G_ERR,
       G_NUMRET, G_NUMREL, G_NUMRELRET, G_NUMQ };
#define G_MAX 64            /* measures per call */
#define G_ERR_GMAX 4        /* ERR's default gmax: a larger label declines (a usage error) */

typedef struct {
    int n;                  /* measures */
    int code[G_MAX];
    long long k[G_MAX];     /* cutoff, 0: none */
    long long rel[G_MAX];   /* relevance level */
    int ntc;                /* rank cutoffs whose straddling tie groups are flagged */
    long long tc[G_MAX];
    long long depth;        /* documents kept per topic (-M), 0: all */
} Gen;

/* Whether a topic's ranked labels lab[0:nr] (tie flags tie: the same score as
 * the rank above) hold a tie group with two different labels, whose order then
 * moves a reported number (the full program's warning, ties.tie_notes); bit j
 * of *mask is set when such a group straddles PCUT[j] (ranks k and k + 1 tied,
 * 1-based). */
static int mixed_ties(const int32_t *lab, const uint8_t *tie, Py_ssize_t nr, long *mask)
{
    int topic_mixed = 0;
    Py_ssize_t g0 = 0;
    while (g0 < nr) {
        Py_ssize_t g1 = g0 + 1;
        int mixed = 0;
        while (g1 < nr && tie[g1]) {
            if (lab[g1] != lab[g1 - 1])
                mixed = 1;
            g1++;
        }
        if (mixed) {            /* ranks g0+1..g1 (1-based) */
            topic_mixed = 1;
            for (int j = 0; j < 9; j++)
                if (g0 < PCUT[j] && PCUT[j] < g1)
                    *mask |= 1L << j;
        }
        g0 = g1;
    }
    return topic_mixed;
}

/* The official measures of qrels topic c, ranked labels lab[0:nr], into
 * v[0:25], in trec_eval's order of operations; the relevant documents
 * retrieved returned.  Scratch: smax (nr + 1 entries), table (nr + 2). */
static Py_ssize_t official_topic(const QrelsSide *S, int32_t c, const int32_t *lab,
                                 Py_ssize_t nr_, double *smax, double *table, double *v)
{
    int64_t Rt = S->numrel[c], Nt = S->numnonrel[c];
    double ap = 0.0, bp = 0.0;
    Py_ssize_t rel = 0, nonrel = 0, first = -1, rprec = 0;
    int64_t cnt_at[9] = {0};
    for (Py_ssize_t i = 0; i < nr_; i++) {
        int32_t x = lab[i];
        if (x >= 1) {
            rel++;
            if (first < 0)
                first = i;
            ap += (double)rel / (i + 1.0);
            if (nonrel > 0) {
                double denom = (double)(Nt < Rt ? Nt : Rt), frac = 0.0;
                if (denom > 0)
                    frac = (double)(nonrel < Rt ? nonrel : Rt) / denom;
                bp += 1.0 - frac;
            } else {
                bp += 1.0;
            }
            if (i < (nr_ < Rt ? nr_ : Rt))
                rprec++;
            for (int k = 0; k < 9; k++)
                if (i < PCUT[k])
                    cnt_at[k]++;
        } else if (x >= 0) {
            nonrel++;
        }
        smax[i] = (double)rel / (i + 1.0);
    }
    for (Py_ssize_t i = nr_ - 2; i >= 0; i--)
        if (smax[i + 1] > smax[i])
            smax[i] = smax[i + 1];
    {
        Py_ssize_t j = 0;
        for (Py_ssize_t i = 0; i < nr_; i++)
            if (lab[i] >= 1)
                table[++j] = smax[i];
        table[0] = rel ? table[1] : 0.0;
    }
    v[0] = Rt ? ap / (double)Rt : 0.0;                       /* map */
    v[1] = v[0];                                             /* gm_map */
    v[2] = Rt ? (double)rprec / (double)Rt : 0.0;            /* Rprec */
    v[3] = Rt ? bp / (double)Rt : 0.0;                       /* bpref */
    v[4] = first >= 0 ? 1.0 / (first + 1.0) : 0.0;          /* recip_rank */
    for (int k = 0; k < 11; k++) {                           /* iprec_at_recall */
        double xr = RECALL_AT[k] * (double)Rt, f = floor(xr);
        long long cpos = (long long)(xr - f >= 0.5 ? f + 1 : f);
        v[5 + k] = (rel > 0 && cpos <= rel) ? table[cpos] : 0.0;
    }
    for (int k = 0; k < 9; k++)                              /* P */
        v[16 + k] = (double)cnt_at[k] / (double)PCUT[k];
    return rel;
}

/* trec_eval's block of one run from its topics' official measures (vals, T x
 * NMEAS in the evaluated order) appended to out; 0, or -1 out of memory. */
static int official_text(Py_ssize_t T, const double *vals, long long num_ret,
                         long long num_rel, long long num_rel_ret, const unsigned char *tag,
                         Py_ssize_t tag_l, Text *out)
{
    /* aggregates: sequential sums over topics, as trec_eval */
    double agg[25];
    for (int k = 0; k < 25; k++) {
        double sum = 0.0;
        for (Py_ssize_t e = 0; e < T; e++) {
            double x = vals[e * NMEAS + k];
            if (k == 1)
                x = log(x > 0.00001 ? x : 0.00001);
            sum += x;
        }
        agg[k] = sum / (double)T;
        if (k == 1)
            agg[k] = exp(agg[k]);
    }
    if (text_reserve(out, 4096 + (size_t)tag_l))
        return -1;
    {
        char *o = out->buf + out->len;
        o += sprintf(o, "%-22s\tall\t", "runid");
        memcpy(o, tag, (size_t)tag_l);
        o += tag_l;
        *o++ = '\n';
        o += sprintf(o, "%-22s\tall\t%lld\n", "num_q", (long long)T);
        o += sprintf(o, "%-22s\tall\t%lld\n", "num_ret", num_ret);
        o += sprintf(o, "%-22s\tall\t%lld\n", "num_rel", num_rel);
        o += sprintf(o, "%-22s\tall\t%lld\n", "num_rel_ret", num_rel_ret);
        static const char *names[] = {"map", "gm_map", "Rprec", "bpref", "recip_rank"};
        for (int k = 0; k < 5; k++)
            o += sprintf(o, "%-22s\tall\t%6.4f\n", names[k], agg[k]);
        for (int k = 0; k < 11; k++) {
            char nm[32];
            sprintf(nm, "iprec_at_recall_%s", RECALL_NAME[k]);
            o += sprintf(o, "%-22s\tall\t%6.4f\n", nm, agg[5 + k]);
        }
        for (int k = 0; k < 9; k++) {
            char nm[32];
            sprintf(nm, "P_%d", PCUT[k]);
            o += sprintf(o, "%-22s\tall\t%6.4f\n", nm, agg[16 + k]);
        }
        out->len = (size_t)(o - out->buf);
    }
    return 0;
}

/* One run: its block of trec_eval's layout appended to out; 0 ok, -1 declined.
 * *n_mixed: the topics with a tie group holding two different labels (their
 * values depend on the tie order: the full program's warning, ties.tie_notes);
 * *cut_mask: bit j set when such a group straddles PCUT[j] (ranks k and k + 1
 * tied, 1-based). */
static int eval_specs(const QrelsSide *S, const Gen *G, const int32_t *lab_out,
                      const uint8_t *tie_out, const int64_t *seg, const int64_t *kept,
                      double *vals, uint8_t *flags);

static int eval_one_run(const QrelsSide *S, const unsigned char *s, Py_ssize_t len, Text *out,
                        const unsigned char **name, Py_ssize_t *name_len,
                        long long *n_mixed, long *cut_mask, long long depth, const Gen *G,
                        double *gen_vals, uint8_t *gen_flags)
{
    Parse R;
    int rc = -1;
    const Py_ssize_t T = S->T;
    int32_t *rcodes = NULL, *lab_out = NULL;
    uint8_t *tie_out = NULL;
    int64_t *nrows = NULL, *seg = NULL, *kept = NULL;
    double *vals = NULL, *smax = NULL, *table = NULL;
    memset(&R, 0, sizeof(R));
    do {
        if (parse_all(s, len, K_TREC, &R) || R.tag_s < 0)
            break;
        Py_ssize_t n = R.row;
        const uint64_t *rq = (const uint64_t *)R.qw, *qq = (const uint64_t *)S->P.qw;
        rcodes = malloc(sizeof(int32_t) * (size_t)n);
        nrows = calloc((size_t)T, sizeof(int64_t));
        seg = malloc(sizeof(int64_t) * (size_t)T);
        kept = malloc(sizeof(int64_t) * (size_t)T);
        lab_out = malloc(sizeof(int32_t) * (size_t)n);
        tie_out = malloc((size_t)(n ? n : 1));
        if (!rcodes || !nrows || !seg || !kept || !lab_out || !tie_out)
            break;
        {
            int bad = 0;
            for (Py_ssize_t i = 0; i < n && !bad; i++) {
                int32_t slot, c = topic_find(S->tmap, (uint64_t)S->msize - 1, S->mshift, qq,
                                             S->P.Wq, S->rep, rq + i * R.Wq, R.Wq, &slot);
                if (c < 0)
                    bad = 1;            /* a run topic not in the qrels: a warning */
                else
                    rcodes[i] = c;
            }
            if (bad)
                break;
        }
        {
            Align A = {(const uint64_t *)R.dw, n, R.Wd, (const double *)R.num, rcodes, T,
                       S->l2e, S->l2q, (const uint64_t *)S->P.dw, S->m, S->P.Wd, S->qcodes,
                       (const int64_t *)S->P.num, S->qorder, S->qstart, T, S->tab, S->size,
                       0, 0, depth, lab_out, seg, kept, nrows, tie_out};
            if (align_core(&A))
                break;
        }
        {
            /* a tie group holding two different labels: a reported number depends on
             * the tie order, which the caller warns about as the full program does
             * (ties.tie_notes): per topic, whether one exists, and which cutoffs
             * PCUT[j] such a group straddles */
            long long nm = 0;
            long mask = 0;
            for (Py_ssize_t t = 0; t < T; t++)
                nm += mixed_ties(lab_out + seg[t], tie_out + seg[t], kept[t], &mask);
            *n_mixed = nm;
            *cut_mask = mask;
        }
        {
            int missing = 0;
            for (Py_ssize_t t = 0; t < T; t++)
                if (!nrows[t])
                    missing = 1;        /* a qrels topic not in the run: a warning */
            if (missing)
                break;
        }
        {
            /* no retrieved document in the qrels: the full program warns */
            int any = 0;
            for (Py_ssize_t t = 0; t < T && !any; t++)
                for (Py_ssize_t i = 0; i < kept[t]; i++)
                    if (lab_out[seg[t] + i] != UNJUDGED_LABEL) {
                        any = 1;
                        break;
                    }
            if (!any)
                break;
        }
        if (G) {                /* eval_measures: the requested measures */
            if (eval_specs(S, G, lab_out, tie_out, seg, kept, gen_vals, gen_flags))
                break;
            *name = s + R.tag_s;
            *name_len = R.tag_l;
            rc = 0;
            break;
        }
        /* the measures, topic by topic, in trec_eval's order of operations */
        vals = calloc((size_t)T * NMEAS, sizeof(double));
        Py_ssize_t maxk = 1;
        for (Py_ssize_t t = 0; t < T; t++)
            if (kept[t] > maxk)
                maxk = kept[t];
        smax = malloc(sizeof(double) * (size_t)(maxk + 1));
        table = malloc(sizeof(double) * (size_t)(maxk + 2));
        if (!vals || !smax || !table)
            break;
        long long num_ret = 0, num_rel = 0, num_rel_ret = 0;
        for (Py_ssize_t e = 0; e < T; e++) {
            int32_t c = S->sorted[e];
            num_ret += kept[c];
            num_rel += S->numrel[c];
            num_rel_ret += official_topic(S, c, lab_out + seg[c], kept[c], smax, table,
                                          vals + e * NMEAS);
        }
        if (official_text(T, vals, num_ret, num_rel, num_rel_ret, s + R.tag_s, R.tag_l, out))
            break;
        *name = s + R.tag_s;
        *name_len = R.tag_l;
        rc = 0;
    } while (0);
    parse_free(&R);
    free(rcodes);
    free(lab_out);
    free(tie_out);
    free(nrows);
    free(seg);
    free(kept);
    free(vals);
    free(smax);
    free(table);
    return rc;
}

static int cmp_desc(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x < y) - (x > y);
}

/* The requested measures of qrels topic c, ranked labels lab[0:nr] (tie flags
 * tie), into v[0:G->n]; its tie flags into fl[0:1 + G->ntc].  disc: at least
 * max(nr, the topic's judgments) + 1 discounts; ideal: the topic's judgments.
 * 0, or -1 (an unknown measure). */
static int spec_topic(const QrelsSide *S, const Gen *G, int32_t c, const int32_t *lab,
                      const uint8_t *tie, Py_ssize_t nr, const double *disc, double *ideal,
                      double *v, uint8_t *fl)
{
    const int64_t *qlab = (const int64_t *)S->P.num;
    const int F = 1 + G->ntc, n = G->n;
    const int64_t q0 = S->qstart[c], q1 = S->qstart[c + 1];
    memset(fl, 0, (size_t)F);
    for (Py_ssize_t g0 = 0; g0 < nr;) {
        Py_ssize_t g1 = g0 + 1;
        int mixed = 0;
        while (g1 < nr && tie[g1]) {
            if (lab[g1] != lab[g1 - 1])
                mixed = 1;
            g1++;
        }
        if (mixed) {                /* ranks g0+1..g1 (1-based) */
            fl[0] = 1;
            for (int j = 0; j < G->ntc; j++)
                if (g0 < G->tc[j] && G->tc[j] < g1)
                    fl[1 + j] = 1;
        }
        g0 = g1;
    }
    Py_ssize_t nideal = -1;         /* the positive labels sorted descending, once */
    for (int m = 0; m < n; m++) {
        const long long L = G->rel[m], k = G->k[m];
        const Py_ssize_t lim = (k > 0 && k < nr) ? (Py_ssize_t)k : nr;
        int64_t Rt = 0, Nt = 0;
        for (int64_t q = q0; q < q1; q++) {
            int64_t x = qlab[S->qorder[q]];
            if (x >= L)
                Rt++;
            else if (x >= 0)
                Nt++;
        }
        double out = 0.0;
        switch (G->code[m]) {
        case G_P: {                                 /* precision.precision */
            int64_t cnt = 0;
            for (Py_ssize_t i = 0; i < lim; i++)
                cnt += lab[i] >= L;
            out = (double)cnt / (double)k;
            break;
        }
        case G_R: {                                 /* recall.recall */
            int64_t cnt = 0;
            for (Py_ssize_t i = 0; i < lim; i++)
                cnt += lab[i] >= L;
            out = Rt ? (double)cnt / (double)Rt : 0.0;
            break;
        }
        case G_AP: {                                /* average_precision */
            double sum = 0.0;
            int64_t j = 0;
            for (Py_ssize_t i = 0; i < lim; i++)
                if (lab[i] >= L) {
                    j++;
                    sum += (double)j / ((double)i + 1.0);
                }
            out = Rt ? sum / (double)Rt : 0.0;
            break;
        }
        case G_NDCG: {                              /* dcg.ndcg_trec */
            if (nideal < 0) {
                nideal = 0;
                for (int64_t q = q0; q < q1; q++) {
                    int64_t x = qlab[S->qorder[q]];
                    if (x > 0)
                        ideal[nideal++] = (double)x;
                }
                qsort(ideal, (size_t)nideal, sizeof(double), cmp_desc);
            }
            double d = 0.0, id = 0.0;
            for (Py_ssize_t i = 0; i < lim; i++)
                if (lab[i] > 0)
                    d += (double)lab[i] / disc[i];
            Py_ssize_t il = (k > 0 && k < nideal) ? (Py_ssize_t)k : nideal;
            for (Py_ssize_t i = 0; i < il; i++)
                id += ideal[i] / disc[i];
            out = id > 0 ? d / id : d;
            break;
        }
        case G_RR:                                  /* first_relevant */
        case G_SUCCESS: {
            Py_ssize_t f = -1;
            for (Py_ssize_t i = 0; i < lim; i++)
                if (lab[i] >= L) {
                    f = i;
                    break;
                }
            if (G->code[m] == G_RR)
                out = f >= 0 ? 1.0 / ((double)f + 1.0) : 0.0;
            else
                out = f >= 0 ? 1.0 : 0.0;
            break;
        }
        case G_JUDGED: {                            /* judged.judged_at */
            int64_t cnt = 0;
            for (Py_ssize_t i = 0; i < lim; i++)
                cnt += lab[i] >= 0;    /* model.judged: a label >= 0 */
            out = lim ? (double)cnt / (double)lim : 0.0;
            break;
        }
        case G_BPREF: {                             /* bpref.bpref */
            double bp = 0.0;
            int64_t nonrel = 0;
            for (Py_ssize_t i = 0; i < nr; i++) {
                int32_t x = lab[i];
                if (x >= L) {
                    if (nonrel > 0) {
                        int64_t denom = Nt < Rt ? Nt : Rt;
                        double frac = 0.0;
                        if (denom > 0)
                            frac = (double)(nonrel < Rt ? nonrel : Rt) / (double)denom;
                        bp += 1.0 - frac;
                    } else {
                        bp += 1.0;
                    }
                } else if (x >= 0) {
                    nonrel++;
                }
            }
            out = Rt ? bp / (double)Rt : 0.0;
            break;
        }
        case G_RPREC: {                             /* precision.r_precision */
            int64_t cnt = 0, top = nr < Rt ? nr : Rt;
            for (Py_ssize_t i = 0; i < top; i++)
                cnt += lab[i] >= L;
            out = Rt ? (double)cnt / (double)Rt : 0.0;
            break;
        }
        case G_ERR: {                               /* err.err, gmax 4 */
            double stay = 1.0, sum = 0.0;
            for (Py_ssize_t i = 0; i < lim; i++) {
                double grade = lab[i] > 0 ? (double)lab[i] : 0.0;
                double rr = (exp2(grade) - 1.0) / 16.0;
                sum += rr * stay / ((double)i + 1.0);
                stay *= 1.0 - rr;
            }
            out = sum;
            break;
        }
        case G_NUMRET:
            out = (double)nr;
            break;
        case G_NUMREL:
            out = (double)Rt;
            break;
        case G_NUMRELRET: {
            int64_t cnt = 0;
            for (Py_ssize_t i = 0; i < nr; i++)
                cnt += lab[i] >= L;
            out = (double)cnt;
            break;
        }
        case G_NUMQ:
            out = 1.0;
            break;
        default:
            return -1;
        }
        v[m] = out;
    }
    return 0;
}

/* The requested measures of one run, per topic in the evaluated order: vals
 * (T x G->n, row-major), and flags (T x (1 + G->ntc)): [0] a tie group holding
 * two different labels, [1 + j] such a group straddles rank cutoff tc[j]
 * (ranks k and k + 1 tied) -- the full program's rule (ties.tie_hits).  Each
 * value is computed in the order of operations of the family's kernel
 * (ipsoeval/measures/families), so the numbers are the same bits. */
static int eval_specs(const QrelsSide *S, const Gen *G, const int32_t *lab_out,
                      const uint8_t *tie_out, const int64_t *seg, const int64_t *kept,
                      double *vals, uint8_t *flags)
{
    const Py_ssize_t T = S->T;
    const int F = 1 + G->ntc, n = G->n;
    Py_ssize_t maxd = 1;
    for (Py_ssize_t t = 0; t < T; t++) {
        if (kept[t] > maxd)
            maxd = kept[t];
        if (S->qstart[t + 1] - S->qstart[t] > maxd)
            maxd = (Py_ssize_t)(S->qstart[t + 1] - S->qstart[t]);
    }
    double *disc = malloc(sizeof(double) * (size_t)(maxd + 1));
    double *ideal = malloc(sizeof(double) * (size_t)(maxd + 1));
    if (!disc || !ideal) {
        free(disc);
        free(ideal);
        return -1;
    }
    for (Py_ssize_t i = 0; i <= maxd; i++)      /* kernels.log2_discounts: C's log2 */
        disc[i] = log2((double)i + 2.0);
    for (Py_ssize_t e = 0; e < T; e++) {
        const int32_t c = S->sorted[e];
        if (spec_topic(S, G, c, lab_out + seg[c], tie_out + seg[c], kept[c], disc, ideal,
                       vals + e * n, flags + e * F)) {
            free(disc);
            free(ideal);
            return -1;
        }
    }
    free(disc);
    free(ideal);
    return 0;
}

/* Whether a file's first n bytes are a gzip, bzip2 or xz signature or a
 * table's (Parquet, Arrow IPC file or stream: reading.opening.TABLE_MAGIC). */
static int not_plain(const unsigned char *buf, size_t n)
{
    return (n >= 2 && buf[0] == 0x1f && buf[1] == 0x8b) ||
           (n >= 3 && memcmp(buf, "BZh", 3) == 0) ||
           (n >= 6 && memcmp(buf, "\xfd" "7zXZ\0", 6) == 0) ||
           (n >= 4 && memcmp(buf, "PAR1", 4) == 0) ||
           (n >= 6 && memcmp(buf, "ARROW1", 6) == 0) ||
           (n >= 4 && memcmp(buf, "\xff\xff\xff\xff", 4) == 0);
}

/* The whole of a plain file in a malloc'ed buffer; NULL when it cannot be
 * read, is empty, or starts with a compressed file's or a table's signature
 * (found in the first block read: such a file is not read further). */
static unsigned char *read_plain(const char *path, Py_ssize_t *len)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    size_t cap = 0, n = 0;
    if (!f)
        return NULL;
    for (;;) {
        if (n == cap) {
            size_t c2 = cap ? cap * 2 : (1 << 22);
            unsigned char *b = realloc(buf, c2);
            if (!b) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = b;
            cap = c2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0 || (n == got && n >= 6 && not_plain(buf, n)))
            break;
    }
    if (ferror(f) || n == 0 || not_plain(buf, n)) {
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    *len = (Py_ssize_t)n;
    return buf;
}

/* ------------------------------- a run read a block at a time (eval_runs) */

#define QUICK_BLOCK (1 << 20)   /* bytes read at a time (more when one line is longer) */
#define QUICK_ROWS 4096         /* rows held at first (more when one topic is longer) */

/* The largest read buffer (bytes) and row buffer (rows) one part of a run of
 * eval_official or eval_measures held, and the most parts a run was read in,
 * since quick_buffers() was last called: what bounds the quick path's memory,
 * whatever the run's length.  Written with the GIL held. */
static Py_ssize_t quick_peak[3];

/* A run being read and scored topic by topic: only the open topic's rows are
 * held, and each topic's values are computed once its last line is read. */
typedef struct {
    const QrelsSide *S;
    const Gen *G;               /* eval_measures' measures, or NULL: the official ones */
    TopicCtx X;
    Parse P;                    /* the row buffer: the open topic's rows [t0, P.row) */
    Py_ssize_t cap, t0, scan, maxq, rows;
    int32_t *idx, *set, *ord, *labk, *lab;
    uint8_t *tie;
    double *disc, *smax, *table, *ideal;
    uint8_t *seen;              /* per qrels topic: its rows were read (shared by the parts) */
    Py_ssize_t nseen;
    int judged;
    long long n_mixed, num_ret, num_rel, num_rel_ret;
    long mask;
    double *vals;               /* per evaluated topic (the caller's): G's values or the
                                 * official ones (T x NMEAS) */
    uint8_t *flags;
    unsigned char *tag;         /* the last row's tag */
    Py_ssize_t tag_l;
    Py_ssize_t peak[2];         /* the read buffer's bytes, the row buffer's rows */
} QuickRun;

static void quick_free(QuickRun *Q)
{
    parse_free(&Q->P);
    free(Q->idx);
    free(Q->set);
    free(Q->ord);
    free(Q->labk);
    free(Q->lab);
    free(Q->tie);
    free(Q->disc);
    free(Q->smax);
    free(Q->table);
    free(Q->ideal);
    free(Q->tag);
}

/* The per-topic scratch for Q->cap rows; 0, or -1 out of memory. */
static int quick_scratch(QuickRun *Q)
{
    Py_ssize_t cap = Q->cap, hs = 16, nd = (cap > Q->maxq ? cap : Q->maxq) + 2;
    while (hs < 2 * cap + 2)
        hs <<= 1;
    free(Q->idx);
    free(Q->set);
    free(Q->ord);
    free(Q->labk);
    free(Q->lab);
    free(Q->tie);
    free(Q->disc);
    free(Q->smax);
    free(Q->table);
    Q->idx = malloc(sizeof(int32_t) * (size_t)cap);
    Q->set = malloc(sizeof(int32_t) * (size_t)hs);
    Q->ord = malloc(sizeof(int32_t) * (size_t)cap);
    Q->labk = malloc(sizeof(int32_t) * (size_t)cap);
    Q->lab = malloc(sizeof(int32_t) * (size_t)cap);
    Q->tie = malloc((size_t)cap);
    Q->disc = malloc(sizeof(double) * (size_t)nd);
    Q->smax = malloc(sizeof(double) * (size_t)(cap + 2));
    Q->table = malloc(sizeof(double) * (size_t)(cap + 2));
    if (!Q->idx || !Q->set || !Q->ord || !Q->labk || !Q->lab || !Q->tie || !Q->disc ||
        !Q->smax || !Q->table)
        return -1;
    for (Py_ssize_t k = 0; k < cap; k++)
        Q->idx[k] = (int32_t)k;
    for (Py_ssize_t i = 0; i < nd; i++)         /* kernels.log2_discounts: C's log2 */
        Q->disc[i] = log2((double)i + 2.0);
    return 0;
}

/* Topic rows [r0, r0 + c) of the row buffer, all of the topic's rows: aligned
 * as align_core aligns them, and scored.  0 ok, -1 declined, 1 the topic was
 * read before (its rows are not in one block of lines). */
static int quick_topic(QuickRun *Q, Py_ssize_t r0, Py_ssize_t c)
{
    const QrelsSide *S = Q->S;
    const Parse *P = &Q->P;
    int32_t slot, qc;
    Py_ssize_t got;
    qc = topic_find(S->tmap, (uint64_t)S->msize - 1, S->mshift, (const uint64_t *)S->P.qw,
                    S->P.Wq, S->rep, (const uint64_t *)P->qw + r0 * P->Wq, P->Wq, &slot);
    if (qc < 0)
        return -1;              /* a run topic not in the qrels: a warning */
    if (__atomic_exchange_n(&Q->seen[qc], 1, __ATOMIC_RELAXED))
        return 1;               /* (claimed once: parts read side by side share seen) */
    Q->nseen++;
    got = align_topic(&Q->X, (const uint64_t *)P->dw + r0 * P->Wd, P->Wd,
                      (const double *)P->num + r0, Q->idx, c, qc, 1, Q->set, Q->ord, Q->labk,
                      Q->lab, Q->tie);
    if (got < 0)
        return -1;              /* a duplicate docno: the full program's error */
    for (Py_ssize_t i = 0; i < got && !Q->judged; i++)
        Q->judged = Q->lab[i] != UNJUDGED_LABEL;
    {
        const Py_ssize_t e = S->l2e[qc];
        if (Q->G)
            return spec_topic(S, Q->G, qc, Q->lab, Q->tie, got, Q->disc, Q->ideal,
                              Q->vals + e * Q->G->n, Q->flags + e * (1 + Q->G->ntc));
        Q->n_mixed += mixed_ties(Q->lab, Q->tie, got, &Q->mask);
        Q->num_ret += got;
        Q->num_rel += S->numrel[qc];
        Q->num_rel_ret += official_topic(S, qc, Q->lab, got, Q->smax, Q->table,
                                         Q->vals + e * NMEAS);
    }
    return 0;
}

/* Rows [scan, P.row) are new: a row whose topic is not the open topic's
 * closes it (scored) and opens its own; then the open topic's rows move to
 * the front of the buffer.  0, -1 or 1 as quick_topic. */
static int quick_scan(QuickRun *Q)
{
    Parse *P = &Q->P;
    const uint64_t *qw = (const uint64_t *)P->qw;
    Q->rows += P->row - Q->scan;
    for (Py_ssize_t r = Q->scan; r < P->row; r++)
        if (r > Q->t0 && !same_words(qw + r * P->Wq, qw + Q->t0 * P->Wq, P->Wq)) {
            int rc = quick_topic(Q, Q->t0, r - Q->t0);
            if (rc)
                return rc;
            Q->t0 = r;
        }
    Q->scan = P->row;
    if (Q->t0 > 0) {                /* rows before the open topic's are done with */
        Py_ssize_t keep = P->row - Q->t0, t0 = Q->t0;
        memmove(P->qw, P->qw + t0 * P->Wq * 8, (size_t)(keep * P->Wq * 8));
        memmove(P->dw, P->dw + t0 * P->Wd * 8, (size_t)(keep * P->Wd * 8));
        memmove(P->num, (double *)P->num + t0, (size_t)keep * 8);
        memset(P->qw + keep * P->Wq * 8, 0, (size_t)(t0 * P->Wq * 8));
        memset(P->dw + keep * P->Wd * 8, 0, (size_t)(t0 * P->Wd * 8));
        P->row = Q->scan = keep;
        Q->t0 = 0;
    }
    return 0;
}

/* The parse rows of a buffer of cap rows doubled (ids, docnos, scores), the
   new rows zeroed; the caller records the new capacity.  0, or -1 out of
   memory (what was reallocated is kept, the old rows intact). */
static int parse_grow(Parse *P, Py_ssize_t cap)
{
    Py_ssize_t cap2 = 2 * cap;
    unsigned char *a;
    if (cap2 > 0x3fffffff)
        return -1;
    if (!(a = realloc(P->qw, (size_t)cap2 * (size_t)P->Wq * 8)))
        return -1;
    P->qw = a;
    memset(a + cap * P->Wq * 8, 0, (size_t)(cap * P->Wq * 8));
    if (!(a = realloc(P->dw, (size_t)cap2 * (size_t)P->Wd * 8)))
        return -1;
    P->dw = a;
    memset(a + cap * P->Wd * 8, 0, (size_t)(cap * P->Wd * 8));
    if (!(a = realloc(P->num, (size_t)cap2 * 8)))
        return -1;
    P->num = a;
    return 0;
}

/* Twice the rows: one topic fills the buffer.  0, or -1 out of memory. */
static int quick_grow(QuickRun *Q)
{
    if (parse_grow(&Q->P, Q->cap))
        return -1;
    Q->cap = Q->P.cap = 2 * Q->cap;
    return quick_scratch(Q);
}

/* Wider id rows (W2 words) for the topic ids (q) or the docnos.  0, or -1. */
static int quick_widen(QuickRun *Q, int q, Py_ssize_t W2)
{
    Parse *P = &Q->P;
    unsigned char **arr = q ? &P->qw : &P->dw;
    Py_ssize_t *W = q ? &P->Wq : &P->Wd;
    unsigned char *b = calloc((size_t)Q->cap, (size_t)W2 * 8);
    if (!b)
        return -1;
    for (Py_ssize_t r = 0; r < P->row; r++)
        memcpy(b + r * W2 * 8, *arr + r * *W * 8, (size_t)*W * 8);
    free(*arr);
    *arr = b;
    *W = W2;
    return 0;
}

/* Q's buffers and the alignment's options (Q->S, G, seen, vals and flags set
 * by the caller).  0, or -1 out of memory. */
static int quick_setup(QuickRun *Q, long long depth)
{
    const QrelsSide *S = Q->S;
    Parse *P = &Q->P;
    uint64_t tmask = (uint64_t)S->size - 1;
    int tshift = 64;
    while (((uint64_t)1 << (64 - tshift)) < (uint64_t)S->size)
        tshift--;
    {
        const TopicCtx X = {(const uint64_t *)S->P.dw, S->P.Wd, S->qcodes,
                            (const int64_t *)S->P.num, S->qorder, S->qstart, S->tab, tmask,
                            tshift, 0, 0, depth};
        Q->X = X;
    }
    for (Py_ssize_t t = 0; t < S->T; t++)
        if (S->qstart[t + 1] - S->qstart[t] > Q->maxq)
            Q->maxq = (Py_ssize_t)(S->qstart[t + 1] - S->qstart[t]);
    Q->cap = QUICK_ROWS;
    P->kind = K_TREC;
    P->cap = Q->cap;
    P->Wq = P->Wd = 1;
    P->tag_s = -1;
    P->qw = calloc((size_t)Q->cap, 8);
    P->dw = calloc((size_t)Q->cap, 8);
    P->num = malloc((size_t)Q->cap * 8);
    Q->ideal = malloc(sizeof(double) * (size_t)(Q->maxq + 1));
    if (!P->qw || !P->dw || !P->num || !Q->ideal || quick_scratch(Q))
        return -1;
    return 0;
}

/* Bytes [lo, hi) of a plain TREC run file (hi < 0: to its end; lo: the start
 * of a line, and of a topic), read a block at a time and scored topic by
 * topic into Q; what is accepted and the numbers are eval_one_run's.  first:
 * the range starts the file (an empty, compressed or table file declines).
 * 0 ok, -1 declined, 1 a topic whose rows are not in one block of lines. */
static int quick_read(QuickRun *Q, const char *path, long long lo, long long hi_, int first)
{
    Parse *P = &Q->P;
    FILE *f = NULL;
    unsigned char *buf = NULL;
    size_t bcap = QUICK_BLOCK, have = 0;
    long long left = hi_ < 0 ? -1 : hi_ - lo;
    int eof = 0, rc = -1;
    buf = malloc(bcap);
    if (!buf || !(f = fopen(path, "rb")) || (lo > 0 && fseeko(f, (off_t)lo, SEEK_SET)))
        goto done;
    for (;;) {
        size_t hi;
        while (!eof && have < bcap) {
            size_t want = bcap - have, got;
            if (left >= 0 && (long long)want > left)
                want = (size_t)left;
            got = want ? fread(buf + have, 1, want, f) : 0;
            if (got == 0) {
                if (ferror(f))
                    goto done;
                eof = 1;
            }
            have += got;
            if (left >= 0)
                left -= (long long)got;
        }
        if (first) {        /* empty, compressed or a table: the full program reads it */
            if (have == 0 || not_plain(buf, have))
                goto done;
            first = 0;
        }
        if (eof) {
            hi = have;
        } else {
            const unsigned char *nl = memrchr(buf, '\n', have);
            if (!nl) {      /* a line longer than the buffer */
                unsigned char *b = realloc(buf, 2 * bcap);
                if (!b)
                    goto done;
                buf = b;
                bcap *= 2;
                continue;
            }
            hi = (size_t)(nl - buf) + 1;
        }
        P->s = buf;
        P->blen = (Py_ssize_t)have;
        P->p = 0;
        for (;;) {
            int st = parse_core(P, (Py_ssize_t)hi), r;
            if (P->tag_s >= 0) {
                unsigned char *t = realloc(Q->tag, (size_t)P->tag_l + 1);
                if (!t)
                    goto done;
                memcpy(t, buf + P->tag_s, (size_t)P->tag_l);
                Q->tag = t;
                Q->tag_l = P->tag_l;
                P->tag_s = -1;
            }
            if (st == ST_REJECT || P->hi_line)  /* an id that is not UTF-8: a warning */
                goto done;
            if ((r = quick_scan(Q))) {
                rc = r;
                goto done;
            }
            if (st == ST_DONE)
                break;
            if (st == ST_WIDE_Q || st == ST_WIDE_D) {
                if (quick_widen(Q, st == ST_WIDE_Q, (P->need + 7) / 8))
                    goto done;
            } else if (st == ST_FULL && P->row == Q->cap && quick_grow(Q)) {
                goto done;
            }
        }
        memmove(buf, buf + hi, have - hi);
        have -= hi;
        if (eof)
            break;
    }
    rc = P->row > Q->t0 ? quick_topic(Q, Q->t0, P->row - Q->t0) : 0;
done:
    if (f)
        fclose(f);
    free(buf);
    Q->peak[0] = (Py_ssize_t)bcap;
    Q->peak[1] = Q->cap;
    return rc;
}

/* The start of the first line after the first line start past off whose
 * first field differs from the line before it (a topic boundary of a run
 * grouped by topic, found as topic_cut finds it), or size: none within 64 MiB
 * of off, a line longer than a block, or a read error.  Reads a block at a
 * time. */
static long long quick_cut(const char *path, long long off, long long size)
{
    FILE *f = fopen(path, "rb");
    unsigned char *w = malloc(QUICK_BLOCK), *prev = NULL;
    size_t plen = 0, pcap = 0;
    int skip = 1;                       /* the line off falls in */
    long long pos = off, res = size;
    if (!f || !w)
        goto done;
    while (pos < size && pos - off < (64LL << 20)) {
        size_t got, hi, p = 0;
        int end;
        if (fseeko(f, (off_t)pos, SEEK_SET))
            goto done;
        got = fread(w, 1, QUICK_BLOCK, f);
        end = pos + (long long)got >= size || got < QUICK_BLOCK;
        {
            const unsigned char *last = memrchr(w, '\n', got);
            hi = end ? got : (last ? (size_t)(last - w) + 1 : 0);
        }
        if (hi == 0)
            goto done;
        if (skip) {
            const unsigned char *nl = memchr(w, '\n', hi);
            if (!nl)
                goto done;
            p = (size_t)(nl - w) + 1;
            skip = 0;
        }
        while (p < hi) {
            const unsigned char *e0 = memchr(w + p, '\n', hi - p);
            size_t e = e0 ? (size_t)(e0 - w) : hi, a = p, z;
            while (a < e && (w[a] == ' ' || w[a] == '\t'))
                a++;
            z = a;
            while (z < e && w[z] > 32)
                z++;
            if (prev && (z - a != plen || memcmp(prev, w + a, plen))) {
                res = pos + (long long)p;
                goto done;
            }
            if (z - a + 1 > pcap) {
                unsigned char *b2 = realloc(prev, z - a + 1);
                if (!b2)
                    goto done;
                prev = b2;
                pcap = z - a + 1;
            }
            if (!prev && !(prev = malloc(1)))
                goto done;
            memcpy(prev, w + a, z - a);
            plen = z - a;
            p = e + 1;
        }
        pos += (long long)hi;
        if (end)
            break;
    }
done:
    if (f)
        fclose(f);
    free(w);
    free(prev);
    return res;
}

typedef struct {
    QuickRun Q;
    const char *path;
    long long lo, hi;
    int rc;
} QuickPart;

static void *quick_part(void *arg)
{
    QuickPart *X = (QuickPart *)arg;
    X->rc = X->rc ? X->rc : quick_read(&X->Q, X->path, X->lo, X->hi, X->lo == 0);
    return NULL;
}

#define QUICK_PARTS_MAX 16
#define QUICK_PART_BYTES (8LL << 20)   /* a file this size or larger is read in parts */

/* One plain TREC run file scored topic by topic (quick_read), in up to
 * `parts` ranges cut at topic boundaries and read side by side, as the full
 * program's reader cuts a large file: values into vals (G: G's, else the
 * official ones, T x NMEAS) and flags, the official text appended to out,
 * the run's name (its last row's tag, malloc'ed) into *name.  0 ok, -1
 * declined, 1 a topic whose rows are not in one block of lines (eval_one_run
 * then serves: the full program merges such a topic's rows). */
static int quick_file(const QrelsSide *S, const Gen *G, const char *path, long long depth,
                      int parts, double *vals, uint8_t *flags, Text *out, char **name,
                      Py_ssize_t *name_len, long long *n_mixed, long *cut_mask, Py_ssize_t *peak)
{
    QuickPart X[QUICK_PARTS_MAX];
    pthread_t th[QUICK_PARTS_MAX];
    int started[QUICK_PARTS_MAX] = {0};
    long long cuts[QUICK_PARTS_MAX + 1];
    int k = 1, rc = 0;
    uint8_t *seen = calloc((size_t)S->T, 1);
    if (!seen)
        return -1;
    cuts[0] = 0;
    if (parts > 1) {
        struct stat sb;
        if (parts > QUICK_PARTS_MAX)
            parts = QUICK_PARTS_MAX;
        if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size >= QUICK_PART_BYTES) {
            long long size = (long long)sb.st_size;
            for (int i = 1; i < parts; i++) {
                long long c = quick_cut(path, size * i / parts, size);
                if (c > cuts[k - 1] && c < size)
                    cuts[k++] = c;
            }
        }
    }
    cuts[k] = -1;                                /* the last part: to the end */
    memset(X, 0, sizeof(QuickPart) * (size_t)k);
    for (int i = 0; i < k; i++) {
        X[i].Q.S = S;
        X[i].Q.G = G;
        X[i].Q.seen = seen;
        X[i].Q.vals = vals;
        X[i].Q.flags = flags;
        X[i].path = path;
        X[i].lo = cuts[i];
        X[i].hi = cuts[i + 1];
        X[i].rc = quick_setup(&X[i].Q, depth) ? -1 : 0;
    }
    for (int i = 1; i < k; i++)
        started[i] = pthread_create(&th[i], NULL, quick_part, &X[i]) == 0;
    for (int i = 1; i < k; i++)
        if (!started[i])
            quick_part(&X[i]);
    quick_part(&X[0]);
    for (int i = 1; i < k; i++)
        if (started[i])
            pthread_join(th[i], NULL);
    {
        QuickRun *L = NULL;      /* the last part with rows: its last tag is the run's */
        Py_ssize_t nseen = 0, rows = 0;
        long long nm = 0, num_ret = 0, num_rel = 0, num_rel_ret = 0;
        long mask = 0;
        int judged = 0, again = 0;
        for (int i = 0; i < k; i++) {
            QuickRun *Q = &X[i].Q;
            if (X[i].rc < 0)
                rc = -1;
            again |= X[i].rc == 1;
            nseen += Q->nseen;
            rows += Q->rows;
            judged |= Q->judged;
            nm += Q->n_mixed;
            mask |= Q->mask;
            num_ret += Q->num_ret;
            num_rel += Q->num_rel;
            num_rel_ret += Q->num_rel_ret;
            if (Q->rows)
                L = Q;
            for (int j = 0; j < 2; j++)
                if (Q->peak[j] > peak[j])
                    peak[j] = Q->peak[j];
        }
        if (k > peak[2])
            peak[2] = k;
        if (rc == 0 && again)
            rc = 1;
        /* no rows; a qrels topic not in the run, or no retrieved document in the
         * qrels: the full program warns */
        if (rc == 0 && (!L || !L->tag || nseen != S->T || !judged))
            rc = -1;
        if (rc == 0 && !G && official_text(S->T, vals, num_ret, num_rel, num_rel_ret, L->tag,
                                           L->tag_l, out))
            rc = -1;
        if (rc == 0) {
            *name = (char *)L->tag;
            *name_len = L->tag_l;
            L->tag = NULL;
            *n_mixed = nm;
            *cut_mask = mask;
        }
    }
    for (int i = 0; i < k; i++)
        quick_free(&X[i].Q);
    free(seen);
    return rc;
}

/* A call's largest buffers into quick_peak; with the GIL. */
static void quick_note_peak(const Py_ssize_t *peak)
{
    for (int i = 0; i < 3; i++)
        if (peak[i] > quick_peak[i])
            quick_peak[i] = peak[i];
}

/* quick_buffers() -> (bytes, rows, parts): the largest read buffer and row
 * buffer one part of a run of eval_official or eval_measures held, and the
 * most parts a run was read in, since the last call (then forgotten): the
 * buffers bound the memory of a run's reading, whatever its length. */
static PyObject *py_quick_buffers(PyObject *self, PyObject *args)
{
    PyObject *res = Py_BuildValue("(nnn)", quick_peak[0], quick_peak[1], quick_peak[2]);
    quick_peak[0] = quick_peak[1] = quick_peak[2] = 0;
    return res;
}

/* Each run of paths read and scored topic by topic (quick_file, in up to
 * `parts` parts read side by side; eval_one_run on the whole file when a
 * topic's rows are not in one block of lines), G: eval_measures' measures,
 * their values and tie flags into vals[k] and flags[k], allocated here; else
 * the official ones' text into out; its name copied into names[k]; then the
 * check that no run name repeats (the full program tells such runs apart).
 * peak: the largest buffers one part held (bytes, rows), the most parts.
 * 0, or -1: declined.
 * Runs without the GIL. */
static int eval_runs(const QrelsSide *S, char **paths, Py_ssize_t N, Text *out, char **names,
                     Py_ssize_t *name_lens, long long *n_mixed, long *cut_mask,
                     long long depth, const Gen *G, double **vals, uint8_t **flags,
                     Py_ssize_t *peak, int parts)
{
    for (Py_ssize_t k = 0; k < N; k++) {
        int rc;
        long long nmix = 0;
        long mask = 0;
        double *ov = NULL;      /* the official measures per topic */
        if (G) {
            vals[k] = malloc(sizeof(double) * (size_t)(S->T * G->n));
            flags[k] = malloc((size_t)(S->T * (1 + G->ntc)));
            if (!vals[k] || !flags[k])
                return -1;
        } else if (!(ov = calloc((size_t)S->T * NMEAS, sizeof(double)))) {
            return -1;
        }
        rc = quick_file(S, G, paths[k], depth, parts, G ? vals[k] : ov, G ? flags[k] : NULL,
                        out, &names[k], &name_lens[k], &nmix, &mask, peak);
        free(ov);
        if (rc == 0 && n_mixed) {
            n_mixed[k] = nmix;
            cut_mask[k] = mask;
        }
        if (rc == 1) {          /* topics interleaved: the whole file, as before */
            Py_ssize_t len;
            const unsigned char *nm;
            unsigned char *buf = read_plain(paths[k], &len);
            int bad = !buf || eval_one_run(S, buf, len, out, &nm, &name_lens[k], &nmix, &mask,
                                           depth, G, G ? vals[k] : NULL, G ? flags[k] : NULL) ||
                      !(names[k] = malloc((size_t)name_lens[k] + 1));
            if (!bad) {
                memcpy(names[k], nm, (size_t)name_lens[k]);
                if (n_mixed) {
                    n_mixed[k] = nmix;
                    cut_mask[k] = mask;
                }
            }
            free(buf);
            rc = bad ? -1 : 0;
        }
        if (rc)
            return -1;
    }
    for (Py_ssize_t a = 0; a < N; a++)
        for (Py_ssize_t b = a + 1; b < N; b++)
            if (name_lens[a] == name_lens[b] &&
                memcmp(names[a], names[b], (size_t)name_lens[a]) == 0)
                return -1;
    return 0;
}

/* Whether every run name is UTF-8 (else the full program, which warns:
 * ipsoeval/ids.py); with the GIL. */
/* calloc of N per-run slots, at least one so that no runs is not a failed
   allocation. */
static void *calloc_runs(Py_ssize_t N, size_t size)
{
    return calloc((size_t)(N ? N : 1), size);
}

/* paths[k] = a copy of the bytes runs[k]; 0 where one is not bytes or a copy
   fails (the copies made so far stay in paths for the caller to free). */
static int run_paths(PyObject *runs, Py_ssize_t N, char **paths)
{
    for (Py_ssize_t k = 0; k < N; k++) {
        PyObject *o = PyList_GET_ITEM(runs, k);
        if (!PyBytes_Check(o) || !(paths[k] = strdup(PyBytes_AS_STRING(o))))
            return 0;
    }
    return 1;
}

/* Frees arr[0..N) and then arr (which may be NULL: a failed allocation). */
static void free_each(void **arr, Py_ssize_t N)
{
    if (!arr)
        return;
    for (Py_ssize_t k = 0; k < N; k++)
        free(arr[k]);
    free(arr);
}

/* Puts item (a new reference) at list[k]; where item is NULL (its error
   set) it releases the list and sets it NULL, and returns 0. */
static int list_put(PyObject **list, Py_ssize_t k, PyObject *item)
{
    if (!item) {
        Py_CLEAR(*list);
        return 0;
    }
    PyList_SET_ITEM(*list, k, item);
    return 1;
}

/* The pair (a, b), stealing both; NULL (both released) where either is NULL
   (its error set). */
static PyObject *pair_steal(PyObject *a, PyObject *b)
{
    if (a && b)
        return Py_BuildValue("(NN)", a, b);
    Py_XDECREF(a);
    Py_XDECREF(b);
    return NULL;
}

static int names_utf8(char **names, const Py_ssize_t *name_lens, Py_ssize_t N)
{
    for (Py_ssize_t k = 0; k < N; k++) {
        PyObject *name = PyUnicode_DecodeUTF8(names[k], name_lens[k], "strict");
        if (!name) {
            PyErr_Clear();
            return 0;
        }
        Py_DECREF(name);
    }
    return 1;
}

/* eval_official(qrels_path, [run_path, ...][, depth[, parts]]) -> (bytes, info) or None
 * (depth: the documents kept per topic, -M; 0, the default: all; parts: a run
 * file of 8 MiB or more is read in up to this many parts side by side, cut at
 * topic boundaries; 1, the default: in one).  The
 * bytes: trec_eval's layout of the official measures, one block per run
 * (exactly what `ipsoeval eval --format trec` prints on stdout); info, per
 * run: (run name bytes, topics with a tie group holding two different labels,
 * bit mask of the PCUT cutoffs such a group straddles), from which the caller
 * writes the full program's tie warning (ipsoeval/tiewarn_text.py).  None when
 * anything is out of the ordinary, and then the full program runs.  Accepted: plain TREC runs whose topics are
 * exactly the qrels' topics, distinct UTF-8 run names, UTF-8 ids, no duplicate (topic,
 * docno) in any file, every line valid.  Paths are bytes (os.fsencode). */
static PyObject *py_eval_official(PyObject *self, PyObject *args)
{
    PyObject *qpath, *runs;
    long long depth = 0;
    int parts = 1;
    if (!PyArg_ParseTuple(args, "O!O!|Li", &PyBytes_Type, &qpath, &PyList_Type, &runs, &depth,
                          &parts))
        return NULL;
    if (depth < 0) {
        PyErr_SetString(PyExc_ValueError, "depth must be >= 0");
        return NULL;
    }
    Py_ssize_t N = PyList_GET_SIZE(runs);
    char **paths = calloc_runs(N, sizeof(char *));
    char **names = calloc_runs(N, sizeof(char *));
    Py_ssize_t *name_lens = calloc_runs(N, sizeof(Py_ssize_t));
    long long *n_mixed = calloc_runs(N, sizeof(long long));
    long *cut_mask = calloc_runs(N, sizeof(long));
    char *qp = strdup(PyBytes_AS_STRING(qpath));
    int ok = paths && names && name_lens && n_mixed && cut_mask && qp;
    ok = ok && run_paths(runs, N, paths);
    QrelsSide S;
    Text out = {NULL, 0, 0};
    Py_ssize_t peak[3] = {0, 0, 0};
    memset(&S, 0, sizeof(S));
    Py_BEGIN_ALLOW_THREADS
    unsigned char *qbuf = NULL;
    Py_ssize_t qlen = 0;
    if (ok && N > 0 && (qbuf = read_plain(qp, &qlen)) && qside_build(&S, qbuf, qlen) == 0)
        ok = eval_runs(&S, paths, N, &out, names, name_lens, n_mixed, cut_mask, depth, NULL,
                       NULL, NULL, peak, parts) == 0;
    else
        ok = 0;
    free(qbuf);
    qside_free(&S);
    Py_END_ALLOW_THREADS
    quick_note_peak(peak);
    PyObject *res = NULL;
    if (ok && names_utf8(names, name_lens, N)) {
        /* (bytes, [(run name bytes, topics with mixed ties, cutoff bit mask), ...]) */
        PyObject *b = PyBytes_FromStringAndSize(out.buf, (Py_ssize_t)out.len);
        PyObject *info = PyList_New(N);
        for (Py_ssize_t k = 0; k < N && b && info; k++) {
            PyObject *t = Py_BuildValue("(y#Lk)", names[k], name_lens[k], n_mixed[k],
                                        (unsigned long)cut_mask[k]);
            if (!list_put(&info, k, t))
                break;
        }
        res = pair_steal(b, info);
    } else {
        Py_INCREF(Py_None);
        res = Py_None;
    }
    free(out.buf);
    free_each((void **)paths, N);
    free_each((void **)names, N);
    free(name_lens);
    free(n_mixed);
    free(cut_mask);
    free(qp);
    return res;
}

/* family_codes() -> {family name: code}: the G_* codes, under the names of the
 * families whose kernels each follows. */
static PyObject *py_family_codes(PyObject *self, PyObject *noargs)
{
    static const struct { const char *name; int code; } codes[] = {
        {"P", G_P}, {"R", G_R}, {"AP", G_AP}, {"nDCG", G_NDCG}, {"RR", G_RR},
        {"Success", G_SUCCESS}, {"Judged", G_JUDGED}, {"bpref", G_BPREF}, {"Rprec", G_RPREC},
        {"ERR", G_ERR}, {"NumRet", G_NUMRET}, {"NumRel", G_NUMREL},
        {"NumRelRet", G_NUMRELRET}, {"NumQ", G_NUMQ}};
    PyObject *d = PyDict_New();
    for (size_t i = 0; d && i < sizeof(codes) / sizeof(codes[0]); i++) {
        PyObject *v = PyLong_FromLong(codes[i].code);
        if (!v || PyDict_SetItemString(d, codes[i].name, v) < 0) {
            Py_XDECREF(v);
            Py_CLEAR(d);
            break;
        }
        Py_DECREF(v);
    }
    return d;
}

/* eval_measures(qrels_path, [run_path, ...], [(code, k, rel), ...], [tie cutoff, ...]
 *               [, depth[, parts]]) -> (topics, [(run name, values, flags), ...]) or None.
 * The measures of G_* codes (k 0: no cutoff; rel, the relevance level), per run and topic:
 * depth: the documents kept per topic (-M; 0, the default: all); parts: as
 * eval_official's;
 * topics, the ids (bytes) in the evaluated order; values, float64 bytes
 * (topics x measures, row-major); flags, bytes (topics x (1 + tie cutoffs)):
 * a tie group holding two different labels, then such a group straddling
 * each tie cutoff (eval_specs).  Declined (None) as eval_official declines,
 * and when ERR is asked for and a qrels label exceeds its gmax (the full
 * program's usage error). */
static PyObject *py_eval_measures(PyObject *self, PyObject *args)
{
    PyObject *qpath, *runs, *specs, *tcuts;
    long long depth = 0;
    int parts = 1;
    if (!PyArg_ParseTuple(args, "O!O!O!O!|Li", &PyBytes_Type, &qpath, &PyList_Type, &runs,
                          &PyList_Type, &specs, &PyList_Type, &tcuts, &depth, &parts))
        return NULL;
    if (depth < 0) {
        PyErr_SetString(PyExc_ValueError, "depth must be >= 0");
        return NULL;
    }
    Gen G;
    memset(&G, 0, sizeof(G));
    G.depth = depth;
    Py_ssize_t ns = PyList_GET_SIZE(specs), nt = PyList_GET_SIZE(tcuts);
    if (ns < 1 || ns > G_MAX || nt > G_MAX) {
        PyErr_SetString(PyExc_ValueError, "1 to 64 measures and at most 64 tie cutoffs");
        return NULL;
    }
    int want_err = 0;
    for (Py_ssize_t i = 0; i < ns; i++) {
        int code;
        long long k, rel;
        if (!PyArg_ParseTuple(PyList_GET_ITEM(specs, i), "iLL", &code, &k, &rel))
            return NULL;
        if (code < G_P || code > G_NUMQ || k < 0 || rel < 0) {
            PyErr_SetString(PyExc_ValueError, "bad measure spec");
            return NULL;
        }
        if ((code == G_P || code == G_JUDGED || code == G_SUCCESS) && k < 1) {
            PyErr_SetString(PyExc_ValueError, "P, Judged and Success need a cutoff");
            return NULL;
        }
        G.code[i] = code;
        G.k[i] = k;
        G.rel[i] = rel;
        want_err |= code == G_ERR;
    }
    G.n = (int)ns;
    for (Py_ssize_t j = 0; j < nt; j++) {
        G.tc[j] = PyLong_AsLongLong(PyList_GET_ITEM(tcuts, j));
        if (G.tc[j] == -1 && PyErr_Occurred())
            return NULL;
    }
    G.ntc = (int)nt;
    Py_ssize_t N = PyList_GET_SIZE(runs);
    char **paths = calloc_runs(N, sizeof(char *));
    char **names = calloc_runs(N, sizeof(char *));
    Py_ssize_t *name_lens = calloc_runs(N, sizeof(Py_ssize_t));
    double **vals = calloc_runs(N, sizeof(double *));
    uint8_t **flags = calloc_runs(N, sizeof(uint8_t *));
    char *qp = strdup(PyBytes_AS_STRING(qpath));
    int ok = paths && names && name_lens && vals && flags && qp;
    ok = ok && run_paths(runs, N, paths);
    QrelsSide S;
    Text out = {NULL, 0, 0};
    Py_ssize_t peak[3] = {0, 0, 0};
    memset(&S, 0, sizeof(S));
    Py_ssize_t T = 0;
    Py_BEGIN_ALLOW_THREADS
    unsigned char *qbuf = NULL;
    Py_ssize_t qlen = 0;
    if (ok && N > 0 && (qbuf = read_plain(qp, &qlen)) && qside_build(&S, qbuf, qlen) == 0) {
        T = S.T;
        if (want_err)
            for (Py_ssize_t i = 0; i < S.m; i++)
                if (((const int64_t *)S.P.num)[i] > G_ERR_GMAX)
                    ok = 0;
        ok = ok && eval_runs(&S, paths, N, &out, names, name_lens, NULL, NULL, G.depth, &G,
                             vals, flags, peak, parts) == 0;
    } else {
        ok = 0;
    }
    free(qbuf);
    Py_END_ALLOW_THREADS
    quick_note_peak(peak);
    PyObject *res = NULL, *topics = NULL, *per_run = NULL;
    if (ok && names_utf8(names, name_lens, N)) {
        topics = PyList_New(T);
        per_run = PyList_New(N);
        for (Py_ssize_t e = 0; e < T && topics; e++) {
            const unsigned char *id = S.P.qw + (size_t)S.rep[S.sorted[e]] * 8 * (size_t)S.P.Wq;
            Py_ssize_t len = 0;
            while (len < 8 * S.P.Wq && id[len])
                len++;
            PyObject *b = PyBytes_FromStringAndSize((const char *)id, len);
            if (!list_put(&topics, e, b))
                break;
        }
        for (Py_ssize_t k = 0; k < N && per_run && topics; k++) {
            PyObject *t = Py_BuildValue("(y#y#y#)", names[k], name_lens[k], (const char *)vals[k],
                                        (Py_ssize_t)(sizeof(double) * (size_t)(T * G.n)),
                                        (const char *)flags[k], (Py_ssize_t)(T * (1 + G.ntc)));
            if (!list_put(&per_run, k, t))
                break;
        }
        res = pair_steal(topics, per_run);
    } else {
        Py_INCREF(Py_None);
        res = Py_None;
    }
    qside_free(&S);
    free(out.buf);
    free_each((void **)paths, N);
    free_each((void **)names, N);
    free(name_lens);
    free_each((void **)vals, N);
    free_each((void **)flags, N);
    free(qp);
    return res;
}

/* --- ids of an in-memory column (a DataFrame's, a dict's) ----------------- */

/* The UTF-8 bytes of a list item, or NULL (with no Python error set) when the
 * item is not a str or cannot be encoded. */
static const unsigned char *id_utf8(PyObject *o, Py_ssize_t *len)
{
    const char *s;
    if (!PyUnicode_Check(o))
        return NULL;
    s = PyUnicode_AsUTF8AndSize(o, len);
    if (!s) {
        PyErr_Clear();
        return NULL;
    }
    return (const unsigned char *)s;
}

/* id_scan(list, longest) -> the longest id's byte length, or -1 (declined).
 * Accepts only a non-empty list of str whose UTF-8 forms are 1..longest bytes
 * with no byte <= 32 (blank, control, newline): anything else is left to the
 * Python reader (ipsoeval/reading/memory.py), which says what is wrong. */
static PyObject *py_id_scan(PyObject *self, PyObject *args)
{
    PyObject *list;
    Py_ssize_t longest, n, i, k, len, most = 0;
    if (!PyArg_ParseTuple(args, "O!n", &PyList_Type, &list, &longest))
        return NULL;
    n = PyList_GET_SIZE(list);
    if (n == 0)
        return PyLong_FromLong(-1);
    for (i = 0; i < n; i++) {
        const unsigned char *s = id_utf8(PyList_GET_ITEM(list, i), &len);
        if (!s || len == 0 || len > longest)
            return PyLong_FromLong(-1);
        for (k = 0; k < len; k++)
            if (s[k] <= 32)
                return PyLong_FromLong(-1);
        if (len > most)
            most = len;
    }
    return PyLong_FromSsize_t(most);
}

/* id_fill(list, out, W): the ids of a list id_scan accepted into the zeroed
 * (n, W) uint64 array out, each row holding its id's bytes (the layout of
 * parse() and readers.load_words).  Returns 0, or -1 when the list changed. */
static PyObject *py_id_fill(PyObject *self, PyObject *args)
{
    PyObject *list;
    Py_buffer o;
    Py_ssize_t W, n, i, len;
    int rc = 0;
    if (!PyArg_ParseTuple(args, "O!w*n", &PyList_Type, &list, &o, &W))
        return NULL;
    n = PyList_GET_SIZE(list);
    if (W < 1 || o.len != n * W * 8) {
        PyBuffer_Release(&o);
        PyErr_SetString(PyExc_ValueError, "_core.id_fill: bad arguments");
        return NULL;
    }
    for (i = 0; i < n; i++) {
        const unsigned char *s = id_utf8(PyList_GET_ITEM(list, i), &len);
        if (!s || len > W * 8) {
            rc = -1;
            break;
        }
        memcpy((unsigned char *)o.buf + i * W * 8, s, (size_t)len);
    }
    PyBuffer_Release(&o);
    return PyLong_FromLong(rc);
}

/* int_fill(ints, out, W): non-negative int64 ids written in decimal into the
 * zeroed (n, W) uint64 array out (the words of their text, as a file holds
 * them).  Returns 0, or -1 (declined) for a negative id or one too wide. */
static PyObject *py_int_fill(PyObject *self, PyObject *args)
{
    Py_buffer x, o;
    Py_ssize_t W, n, i;
    int rc = 0;
    if (!PyArg_ParseTuple(args, "y*w*n", &x, &o, &W))
        return NULL;
    n = x.len / 8;
    if (W < 1 || x.len % 8 || o.len != n * W * 8) {
        PyBuffer_Release(&x);
        PyBuffer_Release(&o);
        PyErr_SetString(PyExc_ValueError, "_core.int_fill: bad arguments");
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    for (i = 0; i < n; i++) {
        int64_t v;
        unsigned char tmp[24];
        int k = 24;
        memcpy(&v, (const unsigned char *)x.buf + i * 8, 8);
        if (v < 0) {
            rc = -1;
            break;
        }
        uint64_t u = (uint64_t)v;
        do {
            tmp[--k] = (unsigned char)('0' + u % 10);
            u /= 10;
        } while (u);
        if (24 - k > W * 8) {
            rc = -1;
            break;
        }
        memcpy((unsigned char *)o.buf + i * W * 8, tmp + k, (size_t)(24 - k));
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&x);
    PyBuffer_Release(&o);
    return PyLong_FromLong(rc);
}

/* span_fill(data, offsets, out, W): the ids data[offsets[i]:offsets[i+1]]
 * (an Arrow string/binary column: its value buffer and int64 offsets, n + 1
 * of them) into the zeroed (n, W) uint64 array out.  Returns 0, or -1
 * (declined, out partly written) when an id is empty, longer than W * 8
 * bytes or holds a byte <= 32: the Python path (ipsoeval/reading/arrow.py)
 * then says which row is wrong.  No Python object per id; the GIL is released. */
static PyObject *py_span_fill(PyObject *self, PyObject *args)
{
    Py_buffer d, x, o;
    Py_ssize_t W, n, i;
    int rc = 0;
    if (!PyArg_ParseTuple(args, "y*y*w*n", &d, &x, &o, &W))
        return NULL;
    n = x.len / 8 - 1;
    if (W < 1 || x.len % 8 || n < 0 || o.len != n * W * 8) {
        PyBuffer_Release(&d);
        PyBuffer_Release(&x);
        PyBuffer_Release(&o);
        PyErr_SetString(PyExc_ValueError, "_core.span_fill: bad arguments");
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    const int64_t *off = (const int64_t *)x.buf;
    const unsigned char *buf = (const unsigned char *)d.buf;
    for (i = 0; i < n; i++) {
        int64_t a = off[i], b = off[i + 1], k;
        if (a < 0 || b <= a || b > (int64_t)d.len || b - a > (int64_t)(W * 8)) {
            rc = -1;
            break;
        }
        for (k = a; k < b; k++)
            if (buf[k] <= 32)
                break;
        if (k < b) {
            rc = -1;
            break;
        }
        memcpy((unsigned char *)o.buf + i * W * 8, buf + a, (size_t)(b - a));
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&d);
    PyBuffer_Release(&x);
    PyBuffer_Release(&o);
    return PyLong_FromLong(rc);
}

/* --------------------------------------- read and align a run in one pass */

/* A growing set of ids (run topics) with their per-topic results. */
typedef struct {
    uint64_t *w;                /* ids, L x W words (zero-padded) */
    Py_ssize_t W, L, cap;
    int64_t *nrows, *seg, *kept;
    int32_t *qc;                /* qrels topic of each, or -1 */
    int32_t *map;               /* open addressing over the ids, -1 empty */
    Py_ssize_t msize;
    int mshift;
} IdSet;

static void idset_free(IdSet *I)
{
    free(I->w);
    free(I->nrows);
    free(I->seg);
    free(I->kept);
    free(I->qc);
    free(I->map);
}

static inline int same_id(const uint64_t *a, Py_ssize_t Wa, const uint64_t *b, Py_ssize_t Wb)
{
    int na = nz_words(a, Wa);
    return na == nz_words(b, Wb) && same_words(a, b, na);
}

/* index of id (width W) in I, or -1 (then *slot is where it would go) */
static Py_ssize_t idset_find(const IdSet *I, const uint64_t *id, Py_ssize_t W, Py_ssize_t *slot)
{
    uint64_t h = hash_words(M1, id, nz_words(id, W)) >> I->mshift;
    for (;;) {
        int32_t c = I->map[h];
        if (c < 0) {
            *slot = (Py_ssize_t)h;
            return -1;
        }
        if (same_id(I->w + (Py_ssize_t)c * I->W, I->W, id, W))
            return c;
        h = (h + 1) & (uint64_t)(I->msize - 1);
    }
}

static int idset_rehash(IdSet *I, Py_ssize_t msize)
{
    int32_t *map = malloc(sizeof(int32_t) * (size_t)msize);
    if (!map)
        return -1;
    memset(map, 0xff, sizeof(int32_t) * (size_t)msize);
    free(I->map);
    I->map = map;
    I->msize = msize;
    I->mshift = 64;
    while (((Py_ssize_t)1 << (64 - I->mshift)) < msize)
        I->mshift--;
    for (Py_ssize_t c = 0; c < I->L; c++) {
        Py_ssize_t slot;
        idset_find(I, I->w + c * I->W, I->W, &slot);
        I->map[slot] = (int32_t)c;
    }
    return 0;
}

/* add id (width W, not present); its index, or -1 (out of memory) */
static Py_ssize_t idset_add(IdSet *I, const uint64_t *id, Py_ssize_t W, int with_results)
{
    Py_ssize_t nz = nz_words(id, W), slot;
    if (nz < 1)
        nz = 1;
    if (nz > I->W || I->L == I->cap) {
        Py_ssize_t W2 = nz > I->W ? nz : I->W, cap2 = I->L == I->cap ? 2 * I->cap + 64 : I->cap;
        uint64_t *w2 = calloc((size_t)cap2 * (size_t)W2, 8);
        if (!w2)
            return -1;
        for (Py_ssize_t c = 0; c < I->L; c++)
            memcpy(w2 + c * W2, I->w + c * I->W, (size_t)I->W * 8);
        free(I->w);
        I->w = w2;
        I->W = W2;
        if (cap2 != I->cap) {
            if (with_results) {
                int64_t *a = realloc(I->nrows, sizeof(int64_t) * (size_t)cap2);
                if (!a)
                    return -1;
                I->nrows = a;
                if (!(a = realloc(I->seg, sizeof(int64_t) * (size_t)cap2)))
                    return -1;
                I->seg = a;
                if (!(a = realloc(I->kept, sizeof(int64_t) * (size_t)cap2)))
                    return -1;
                I->kept = a;
            }
            {
                int32_t *q = realloc(I->qc, sizeof(int32_t) * (size_t)cap2);
                if (!q)
                    return -1;
                I->qc = q;
            }
            I->cap = cap2;
        }
    }
    if (2 * (I->L + 1) + 2 > I->msize) {
        Py_ssize_t m = 64;
        while (m < 4 * (I->L + 1) + 2)
            m <<= 1;
        if (idset_rehash(I, m))
            return -1;
    }
    idset_find(I, id, W, &slot);
    memcpy(I->w + I->L * I->W, id, (size_t)(W < I->W ? W : I->W) * 8);
    I->map[slot] = (int32_t)I->L;
    return I->L++;
}

/* widen rows [0, rows) of a zero-padded (cap x *W) word array to W2 words */
static int widen_words(unsigned char **arr, Py_ssize_t *W, Py_ssize_t W2, Py_ssize_t cap,
                       Py_ssize_t rows)
{
    unsigned char *b = calloc((size_t)cap, (size_t)W2 * 8);
    if (!b)
        return -1;
    for (Py_ssize_t r = 0; r < rows; r++)
        memcpy(b + r * W2 * 8, *arr + r * *W * 8, (size_t)*W * 8);
    free(*arr);
    *arr = b;
    *W = W2;
    return 0;
}

/* Per-topic scratch for up to cap rows. */
typedef struct {
    int32_t *idx, *set, *ord, *labk;
} Scratch;

static void scratch_free(Scratch *K)
{
    free(K->idx);
    free(K->set);
    free(K->ord);
    free(K->labk);
    memset(K, 0, sizeof(*K));
}

static int scratch_alloc(Scratch *K, Py_ssize_t cap)
{
    Py_ssize_t hs = 16;
    while (hs < 2 * cap + 2)
        hs <<= 1;
    scratch_free(K);
    K->idx = malloc(sizeof(int32_t) * (size_t)cap);
    K->set = malloc(sizeof(int32_t) * (size_t)hs);
    K->ord = malloc(sizeof(int32_t) * (size_t)cap);
    K->labk = malloc(sizeof(int32_t) * (size_t)cap);
    if (!K->idx || !K->set || !K->ord || !K->labk)
        return -1;
    for (Py_ssize_t k = 0; k < cap; k++)
        K->idx[k] = (int32_t)k;
    return 0;
}

/* A run being read and aligned: the state kept from one block of lines to
 * the next (streamer(), stream_feed(), stream_result()). */
typedef struct {
    int kind, drop;             /* drop: the bytes fed are a mapped file's; parsed pages leave memory */
    Py_ssize_t long_id;
    Py_buffer bufs[7];          /* held: qrels topics, docnos, codes, labels, order, start, table */
    int nbufs;
    const uint64_t *qt;         /* the qrels topics, Q x Wt words */
    Py_ssize_t Q, Wt;
    TopicCtx X;
    int32_t *out;               /* labels, out[out0 : out_end] (the feed's array) */
    uint8_t *tout;              /* their tie flags, the same positions (the feed's array) */
    Py_ssize_t out0, out_end;
    /* the row buffer: the open topic's rows [t0, P.row), rows [0, scan) seen */
    Parse P;
    IdSet qtopics;
    Scratch K;
    Py_ssize_t cap, t0, scan;
    int32_t cur;
    uint64_t *curq;
    int state;                  /* 0 open, 1 finished, -1 declined */
    /* results */
    IdSet topics;
    Py_ssize_t pos, rows;       /* labels written (from out0), rows read */
    long long rows_eval, judged;
    unsigned char *tag;         /* the last row's tag (trec layout) */
    Py_ssize_t tag_l;
} Stream;

#define STREAM_ROWS 16384
#define DROP_BYTES (4 << 20)


/* Topic l's c rows (docno words dw, width Wd; scores num): aligned, their
 * labels appended to S->out.  0 ok, -1 declined. */
static int flush_topic(Stream *S, Py_ssize_t l, const uint64_t *dw, Py_ssize_t Wd,
                       const double *num, Py_ssize_t c)
{
    IdSet *I = &S->topics;
    int32_t qc = I->qc[l];
    int32_t *dst = S->out + S->out0 + S->pos;
    Py_ssize_t got;
    if (S->out0 + S->pos + c > S->out_end)
        return -1;
    got = align_topic(&S->X, dw, Wd, num, S->K.idx, c, qc, qc >= 0, S->K.set, S->K.ord,
                      S->K.labk, dst, S->tout + S->out0 + S->pos);
    if (got < 0)                         /* a duplicate docno */
        return -1;
    I->nrows[l] = c;
    I->seg[l] = S->out0 + S->pos;
    I->kept[l] = got;
    if (qc >= 0) {
        S->rows_eval += c;
        for (Py_ssize_t k = 0; k < got; k++)
            S->judged += dst[k] != UNJUDGED_LABEL;
    }
    S->pos += got;
    return 0;
}

static void stream_free(Stream *S)
{
    parse_free(&S->P);
    idset_free(&S->qtopics);
    idset_free(&S->topics);
    scratch_free(&S->K);
    free(S->curq);
    free(S->tag);
    for (int i = 0; i < S->nbufs; i++)
        PyBuffer_Release(&S->bufs[i]);
    S->nbufs = 0;
}

/* The row buffer, the qrels topics' map and the scratch; 0 ok, -1 declined
 * (a qrels topic twice), -2 out of memory. */
static int stream_init(Stream *S)
{
    S->cap = STREAM_ROWS;
    S->cur = -1;
    S->topics.W = S->qtopics.W = 1;
    S->P.cap = S->cap;
    S->P.kind = S->kind;         /* --run-format msmarco: 3 fields, never TREC lines */
    S->P.Wq = S->P.Wd = 1;
    S->P.tag_s = -1;
    S->P.qw = calloc((size_t)S->cap, 8);
    S->P.dw = calloc((size_t)S->cap, 8);
    S->P.num = malloc((size_t)S->cap * 8);
    S->curq = calloc(1, 8);
    if (!S->P.qw || !S->P.dw || !S->P.num || !S->curq || idset_rehash(&S->topics, 64) ||
        idset_rehash(&S->qtopics, 64) || scratch_alloc(&S->K, S->cap))
        return -2;
    for (Py_ssize_t q = 0; q < S->Q; q++) {        /* the qrels topics, in code order */
        Py_ssize_t slot;
        if (idset_find(&S->qtopics, S->qt + q * S->Wt, S->Wt, &slot) >= 0)
            return -1;
        if (idset_add(&S->qtopics, S->qt + q * S->Wt, S->Wt, 0) != q)
            return -2;
    }
    return 0;
}

/* Rows [scan, P->row) of the row buffer are new: row r either continues
 * topic cur (rows t0..r-1) or starts a topic, and topic cur is then whole
 * and aligned.  0 ok, -1 declined (a topic seen before, a byte-order mark,
 * a duplicate docno), -2 out of memory. */
static int stream_scan(Stream *S)
{
    Parse *P = &S->P;
    const uint64_t *qw = (const uint64_t *)P->qw, *dw = (const uint64_t *)P->dw;
    const double *num = (const double *)P->num;
    S->rows += P->row - S->scan;
    for (Py_ssize_t r = S->scan; r < P->row; r++) {
        const uint64_t *id = qw + r * P->Wq;
        Py_ssize_t slot, l;
        if (S->cur >= 0 && same_words(id, S->curq, P->Wq))
            continue;
        if (S->cur >= 0 && r > S->t0 &&
            flush_topic(S, S->cur, dw + S->t0 * P->Wd, P->Wd, num + S->t0, r - S->t0))
            return -1;
        S->t0 = r;
        if ((id[0] & 0xFFFFFF) == 0xBFBBEF ||                  /* a byte-order mark */
            idset_find(&S->topics, id, P->Wq, &slot) >= 0)    /* a topic seen before */
            return -1;
        l = idset_add(&S->topics, id, P->Wq, 1);
        if (l < 0)
            return -2;
        S->topics.qc[l] = (int32_t)idset_find(&S->qtopics, id, P->Wq, &slot);
        S->topics.nrows[l] = S->topics.seg[l] = S->topics.kept[l] = 0;
        S->cur = (int32_t)l;
        memcpy(S->curq, id, (size_t)P->Wq * 8);
    }
    S->scan = P->row;
    return 0;
}

/* The last topic, after the last row: aligned.  0 ok, -1 declined. */
static int stream_finish(Stream *S)
{
    Parse *P = &S->P;
    if (S->cur >= 0 && P->row > S->t0 &&
        flush_topic(S, S->cur, (const uint64_t *)P->dw + S->t0 * P->Wd, P->Wd,
                    (const double *)P->num + S->t0, P->row - S->t0))
        return -1;
    S->t0 = S->scan = P->row = 0;
    return 0;
}

/* The open topic's rows move to the front; the rows they leave are zeroed. */
static void stream_compact(Stream *S)
{
    Parse *P = &S->P;
    if (S->t0 > 0) {
        Py_ssize_t keep = P->row - S->t0, t0 = S->t0;
        memmove(P->qw, P->qw + t0 * P->Wq * 8, (size_t)(keep * P->Wq * 8));
        memmove(P->dw, P->dw + t0 * P->Wd * 8, (size_t)(keep * P->Wd * 8));
        memmove(P->num, (double *)P->num + t0, (size_t)keep * 8);
        memset(P->qw + keep * P->Wq * 8, 0, (size_t)(t0 * P->Wq * 8));
        memset(P->dw + keep * P->Wd * 8, 0, (size_t)(t0 * P->Wd * 8));
        P->row = S->scan = keep;
        S->t0 = 0;
    }
}

/* Wider id rows: W2 words for the topic ids (q) or the docnos.  0 ok, -2 out
 * of memory. */
static int stream_widen(Stream *S, int q, Py_ssize_t W2)
{
    Parse *P = &S->P;
    if (q) {
        uint64_t *c2 = calloc((size_t)W2, 8);
        if (!c2)
            return -2;
        memcpy(c2, S->curq, (size_t)P->Wq * 8);
        free(S->curq);
        S->curq = c2;
        return widen_words(&P->qw, &P->Wq, W2, S->cap, P->row) ? -2 : 0;
    }
    return widen_words(&P->dw, &P->Wd, W2, S->cap, P->row) ? -2 : 0;
}

/* One topic fills the row buffer: twice the rows.  0 ok, -2 out of memory. */
static int stream_grow(Stream *S)
{
    if (parse_grow(&S->P, S->cap))
        return -2;
    S->cap = S->P.cap = 2 * S->cap;
    return scratch_alloc(&S->K, S->cap) ? -2 : 0;
}

/* Read and align the whole lines s[lo:hi] of the run (kind: K_TREC or
 * K_MSMARCO): the rows are parsed into a small buffer and each topic is
 * aligned once its last row is read, so the run's rows never exist as
 * arrays.  The open topic's rows wait for the next feed unless final.  Any
 * input the two-step path (parse, then align_run) would not accept as it is
 * declines, and so does a topic in two blocks of lines.
 * 0 ok, -1 declined, -2 out of memory. */
static int stream_feed(Stream *S, const unsigned char *s, Py_ssize_t blen, Py_ssize_t lo,
                       Py_ssize_t hi, int final)
{
    Parse *P = &S->P;
    Py_ssize_t dropped = lo;
    long pagesize = sysconf(_SC_PAGESIZE);
    int can_drop = S->drop && pagesize > 0 && (uintptr_t)s % (uintptr_t)pagesize == 0;
    P->s = s;
    P->blen = blen;
    P->p = lo;
    P->tag_s = -1;
    for (;;) {
        int st = parse_core(P, hi), rc;
        if (st == ST_REJECT)
            return -1;
        if (P->tag_s >= 0) {                       /* the tag of the last row so far */
            unsigned char *t = realloc(S->tag, (size_t)P->tag_l + 1);
            if (!t)
                return -2;
            memcpy(t, s + P->tag_s, (size_t)P->tag_l);
            S->tag = t;
            S->tag_l = P->tag_l;
            P->tag_s = -1;
        }
        if ((rc = stream_scan(S)))
            return rc;
        if (st == ST_DONE && final)
            return stream_finish(S);
        stream_compact(S);
        if (can_drop && P->p - dropped >= DROP_BYTES) {   /* parsed bytes: the rows are copies */
            Py_ssize_t a = dropped + (pagesize - dropped % pagesize) % pagesize;
            Py_ssize_t b = P->p - P->p % pagesize;
            if (b > a)
                madvise((void *)(s + a), (size_t)(b - a), MADV_DONTNEED);
            dropped = b > a ? b : dropped;
        }
        if (st == ST_DONE)
            return 0;
        if (st == ST_WIDE_Q || st == ST_WIDE_D) {
            if (P->need > S->long_id)
                return -1;
            if (stream_widen(S, st == ST_WIDE_Q, (P->need + 7) / 8))
                return -2;
        } else if (st == ST_FULL && P->row == S->cap && stream_grow(S)) {
            return -2;
        }
    }
}

/* ------------------------- read and align a run of columns (Arrow buffers) */

/* One id column of a record batch, as Arrow lays it out (the Python side
 * passes the buffers; no Arrow headers here). */
enum { COL_DICT = 0, COL_STR32 = 1, COL_STR64 = 2, COL_INT = 3 };

typedef struct {
    int kind;
    const void *a;              /* DICT: int32 indices; STR32/STR64: n + 1 offsets;
                                 * INT: int64 values */
    const unsigned char *b;     /* STR: the value bytes; DICT: the dictionary's id
                                 * words (K x W uint64, zero-padded) */
    Py_ssize_t blen, W, K;
} Col;

/* The id of row r written into its zeroed row dst (W words): its length in
 * bytes (written when it fits; the caller widens the rows and asks again when
 * it does not), or -1: declined -- an empty id, a byte <= 32, bytes that are
 * not UTF-8 (the Python reader decides), a dictionary index out of range. */
static Py_ssize_t col_id(const Col *c, Py_ssize_t r, unsigned char *dst, Py_ssize_t W)
{
    switch (c->kind) {
    case COL_DICT: {
        int32_t k = ((const int32_t *)c->a)[r];
        if (k < 0 || k >= c->K)
            return -1;
        if (c->W > W)
            return c->W * 8;
        memcpy(dst, c->b + (Py_ssize_t)k * c->W * 8, (size_t)c->W * 8);
        return 1;
    }
    case COL_STR32:
    case COL_STR64: {
        int64_t a, z;
        uint64_t hi = 0;
        if (c->kind == COL_STR32) {
            a = ((const int32_t *)c->a)[r];
            z = ((const int32_t *)c->a)[r + 1];
        } else {
            a = ((const int64_t *)c->a)[r];
            z = ((const int64_t *)c->a)[r + 1];
        }
        if (a < 0 || z <= a || z > (int64_t)c->blen)
            return -1;
        if (z - a > W * 8)
            return (Py_ssize_t)(z - a);
        if (z - a <= 8 && z + 8 - (z - a) <= (int64_t)c->blen) {
            /* a short id: one 8-byte load, its bytes <= 32 and >= 128 found at once */
            const uint64_t L = 0x0101010101010101ULL, H = 0x8080808080808080ULL;
            uint64_t v, m = z - a < 8 ? ((uint64_t)1 << (8 * (z - a))) - 1 : ~(uint64_t)0, x;
            memcpy(&v, c->b + a, 8);
            v &= m;
            x = v | ~m;                 /* the bytes past the id count as 0xFF */
            if (((x - 33 * L) & ~x & H) != 0)
                return -1;
            if ((v & H) && !utf8_valid(c->b + a, (Py_ssize_t)(z - a)))
                return -1;
            memcpy(dst, &v, 8);
            return (Py_ssize_t)(z - a);
        }
        for (int64_t k = a; k < z; k++) {
            unsigned char ch = c->b[k];
            if (ch <= 32)
                return -1;
            hi |= ch & 0x80;
        }
        if (hi && !utf8_valid(c->b + a, (Py_ssize_t)(z - a)))
            return -1;
        put_id(dst, c->b + a, (Py_ssize_t)(z - a), c->b + c->blen);
        return (Py_ssize_t)(z - a);
    }
    default: {                  /* an integer, written in decimal as a file holds it */
        int64_t v = ((const int64_t *)c->a)[r];
        unsigned char tmp[24];
        int k = 24;
        uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
        while (u >= 100) {      /* two digits a division */
            unsigned d = (unsigned)(u % 100);
            u /= 100;
            tmp[--k] = (unsigned char)('0' + d % 10);
            tmp[--k] = (unsigned char)('0' + d / 10);
        }
        do {
            tmp[--k] = (unsigned char)('0' + u % 10);
            u /= 10;
        } while (u);
        if (v < 0)
            tmp[--k] = '-';
        if (24 - k > W * 8)
            return 24 - k;
        memcpy(dst, tmp + k, (size_t)(24 - k));
        return 24 - k;
    }
    }
}

/* Whether rows r - 1 and r of an id column hold the same id (the same
 * dictionary index, integer or bytes): the topic id of the row before is
 * then copied, not encoded again. */
static inline int col_same(const Col *c, Py_ssize_t r)
{
    switch (c->kind) {
    case COL_DICT:
        return ((const int32_t *)c->a)[r] == ((const int32_t *)c->a)[r - 1];
    case COL_INT:
        return ((const int64_t *)c->a)[r] == ((const int64_t *)c->a)[r - 1];
    case COL_STR32: {
        const int32_t *o = (const int32_t *)c->a;
        return o[r + 1] - o[r] == o[r] - o[r - 1] && o[r - 1] >= 0 && o[r + 1] <= c->blen &&
               !memcmp(c->b + o[r], c->b + o[r - 1], (size_t)(o[r] - o[r - 1]));
    }
    default: {
        const int64_t *o = (const int64_t *)c->a;
        return o[r + 1] - o[r] == o[r] - o[r - 1] && o[r - 1] >= 0 && o[r + 1] <= c->blen &&
               !memcmp(c->b + o[r], c->b + o[r - 1], (size_t)(o[r] - o[r - 1]));
    }
    }
}

/* Read and align rows [0, n) of a run's columns (topic ids q, docnos d,
 * scores): each row's ids go straight into the row buffer, then the same
 * scan, alignment and cut as stream_feed's lines.  final: the last rows of
 * the run.  0 ok, -1 declined, -2 out of memory. */
static int stream_columns(Stream *S, const Col *q, const Col *d, const double *score,
                          Py_ssize_t n, int final)
{
    Parse *P = &S->P;
    Py_ssize_t r = 0;
    for (;;) {
        int rc;
        while (r < n && P->row < S->cap) {
            Py_ssize_t got;
            unsigned char *qrow = P->qw + P->row * P->Wq * 8;
            unsigned char *drow = P->dw + P->row * P->Wd * 8;
            /* the buffer's last row is row r - 1 whenever it holds a row */
            if (r > 0 && P->row > 0 && col_same(q, r)) {
                memcpy(qrow, qrow - P->Wq * 8, (size_t)P->Wq * 8);
                got = 1;
            } else {
                got = col_id(q, r, qrow, P->Wq);
            }
            if (got > P->Wq * 8) {
                memset(qrow, 0, (size_t)P->Wq * 8);
                if (got > S->long_id)
                    return -1;
                if ((rc = stream_widen(S, 1, (got + 7) / 8)))
                    return rc;
                continue;
            }
            if (got < 0)
                return -1;
            got = col_id(d, r, drow, P->Wd);
            if (got > P->Wd * 8) {
                memset(qrow, 0, (size_t)P->Wq * 8);
                memset(drow, 0, (size_t)P->Wd * 8);
                if (got > S->long_id)
                    return -1;
                if ((rc = stream_widen(S, 0, (got + 7) / 8)))
                    return rc;
                continue;
            }
            if (got < 0 || !isfinite(score[r]))
                return -1;
            ((double *)P->num)[P->row] = score[r];
            P->row++;
            r++;
        }
        if ((rc = stream_scan(S)))
            return rc;
        if (r == n && final)
            return stream_finish(S);
        stream_compact(S);
        if (r == n)
            return 0;
        if (P->row == S->cap && (rc = stream_grow(S)))
            return rc;
    }
}

static void streamer_destroy(PyObject *capsule)
{
    Stream *S = PyCapsule_GetPointer(capsule, "ipsoeval._core.Stream");
    if (S) {
        stream_free(S);
        PyMem_Free(S);
    }
}

/* streamer(kind, long_id, drop, qtopics, Wt, qdocno, Wq, qcodes, qlabels,
 *          qorder, qstart, table, tie, judged_only, depth, out0) -> a streamer
 * A run to be read and aligned by stream_feed() against the qrels (qtopics:
 * the qrels topic ids, Q x Wt words, in code order; the rest as for
 * align_run), its labels written to the feeds' out array from out0 on.
 * drop: the bytes fed are a mapped file's, whose parsed pages may leave
 * memory (MADV_DONTNEED). */
static PyObject *py_streamer(PyObject *self, PyObject *args)
{
    Stream *S = PyMem_Calloc(1, sizeof(Stream));
    Py_ssize_t Wt, Wq, out0;
    int tie, judged_only, rc;
    long long depth;
    if (!S)
        return PyErr_NoMemory();
    S->nbufs = 7;
    if (!PyArg_ParseTuple(args, "iniy*ny*ny*y*y*y*y*iiLn", &S->kind, &S->long_id, &S->drop,
                          &S->bufs[0], &Wt, &S->bufs[1], &Wq, &S->bufs[2], &S->bufs[3],
                          &S->bufs[4], &S->bufs[5], &S->bufs[6], &tie, &judged_only, &depth,
                          &out0)) {
        PyMem_Free(S);                  /* "y*" releases what it got on failure */
        return NULL;
    }
    {
        Py_buffer *B = S->bufs;
        Py_ssize_t m = B[2].len / 4, size = B[6].len / 4, Q = B[5].len / 8 - 1;
        if ((S->kind != K_TREC && S->kind != K_MSMARCO) || Wt < 1 || Wq < 1 ||
            B[0].len != Q * Wt * 8 || B[1].len != m * Wq * 8 || B[3].len != m * 8 ||
            B[4].len != m * 4 || B[5].len % 8 || B[5].len < 8 || size < 1 ||
            (size & (size - 1)) || tie < 0 || tie > 2 || out0 < 0 || depth < 0) {
            stream_free(S);
            PyMem_Free(S);
            PyErr_SetString(PyExc_ValueError, "_core.streamer: bad arguments");
            return NULL;
        }
        int tshift = 64;
        while (((uint64_t)1 << (64 - tshift)) < (uint64_t)size)
            tshift--;
        TopicCtx X = {(const uint64_t *)B[1].buf, Wq, (const int32_t *)B[2].buf,
                      (const int64_t *)B[3].buf, (const int32_t *)B[4].buf,
                      (const int64_t *)B[5].buf, (const int32_t *)B[6].buf,
                      (uint64_t)size - 1, tshift, tie, judged_only, depth};
        S->X = X;
        S->qt = (const uint64_t *)B[0].buf;
        S->Q = Q;
        S->Wt = Wt;
        S->out0 = out0;
    }
    rc = stream_init(S);
    if (rc == -2) {
        stream_free(S);
        PyMem_Free(S);
        return PyErr_NoMemory();
    }
    S->state = rc;
    {
        PyObject *cap = PyCapsule_New(S, "ipsoeval._core.Stream", streamer_destroy);
        if (!cap) {
            stream_free(S);
            PyMem_Free(S);
        }
        return cap;
    }
}

/* stream_feed(streamer, data, lo, hi, final, out, out_tie) -> 0 ok, -1 declined
 * Reads and aligns the whole lines data[lo:hi]; final: the last feed.  out:
 * int32, at least out0 + the rows fed so far long (rows <= bytes / 6);
 * out_tie: uint8, as long as out (the tie flags of the labels). */
static PyObject *py_stream_feed(PyObject *self, PyObject *args)
{
    PyObject *cap;
    Py_buffer b, bo, bt;
    Py_ssize_t lo, hi;
    int final, rc = -1;
    Stream *S;
    if (!PyArg_ParseTuple(args, "Oy*nniw*w*", &cap, &b, &lo, &hi, &final, &bo, &bt))
        return NULL;
    S = PyCapsule_GetPointer(cap, "ipsoeval._core.Stream");
    if (!S || lo < 0 || hi > b.len || lo > hi || bo.len % 4 || S->out0 > bo.len / 4 ||
        bt.len != bo.len / 4) {
        PyBuffer_Release(&b);
        PyBuffer_Release(&bo);
        PyBuffer_Release(&bt);
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "_core.stream_feed: bad arguments");
        return NULL;
    }
    if (S->state == 0) {
        S->out = (int32_t *)bo.buf;
        S->tout = (uint8_t *)bt.buf;
        S->out_end = bo.len / 4;
        Py_BEGIN_ALLOW_THREADS
        rc = stream_feed(S, (const unsigned char *)b.buf, b.len, lo, hi, final);
        Py_END_ALLOW_THREADS
        S->out = NULL;
        S->tout = NULL;
        S->state = rc ? -1 : (final ? 1 : 0);
    }
    PyBuffer_Release(&b);
    PyBuffer_Release(&bo);
    PyBuffer_Release(&bt);
    if (rc == -2)
        return PyErr_NoMemory();
    return PyLong_FromLong(rc ? -1 : 0);
}

/* one id column of stream_columns from (kind, a, b, W, off): n values from
 * element off of a (an Arrow array's offset into its buffers) */
static int col_of(Col *c, int kind, const Py_buffer *a, const Py_buffer *b, Py_ssize_t W,
                  Py_ssize_t off, Py_ssize_t n)
{
    Py_ssize_t size = kind == COL_STR32 || kind == COL_DICT ? 4 : 8;
    Py_ssize_t need = kind == COL_STR32 || kind == COL_STR64 ? n + 1 : n;
    if (off < 0 || a->len / size < off + need || ((uintptr_t)a->buf % (uintptr_t)size))
        return -1;
    c->kind = kind;
    c->a = (const unsigned char *)a->buf + off * size;
    c->b = (const unsigned char *)b->buf;
    c->blen = b->len;
    c->W = W;
    c->K = 0;
    switch (kind) {
    case COL_DICT:
        if (W < 1 || b->len % (W * 8))
            return -1;
        c->K = b->len / (W * 8);
        return 0;
    case COL_STR32:
    case COL_STR64:
    case COL_INT:
        return 0;
    }
    return -1;
}

/* stream_columns(streamer, n, qkind, qa, qb, qW, qoff, dkind, da, db, dW, doff,
 *                score, soff, final, out, out_tie) -> 0 ok, -1 declined
 * Reads and aligns n rows of a run held in columns (a record batch of an
 * Arrow table, its buffers as Arrow lays them out, each from element
 * *off on: the array's offset): the topic ids and the docnos each one of
 *   0 dictionary: qa int32 indices, qb the dictionary's id words
 *     (K x qW uint64, as words.load_words lays them out);
 *   1 / 2 strings or binary: qa the int32 / int64 offsets into qb, the
 *     value bytes;
 *   3 integers: qa int64 values, written in decimal;
 * scores: float64 (one that is not finite declines).  final: the last
 * rows.  out/out_tie as for stream_feed (at least out0 + the rows fed so far
 * long). */
static PyObject *py_stream_columns(PyObject *self, PyObject *args)
{
    PyObject *cap;
    Py_buffer qa, qb, da, db, sc, bo, bt;
    Py_ssize_t n, qW, dW, qoff, doff, soff;
    int qkind, dkind, final, rc = -1;
    Col q, d;
    Stream *S;
    if (!PyArg_ParseTuple(args, "Oniy*y*nniy*y*nny*niw*w*", &cap, &n, &qkind, &qa, &qb, &qW,
                          &qoff, &dkind, &da, &db, &dW, &doff, &sc, &soff, &final, &bo, &bt))
        return NULL;
    S = PyCapsule_GetPointer(cap, "ipsoeval._core.Stream");
    if (!S || n < 0 || col_of(&q, qkind, &qa, &qb, qW, qoff, n) ||
        col_of(&d, dkind, &da, &db, dW, doff, n) || soff < 0 || sc.len / 8 < soff + n ||
        (uintptr_t)sc.buf % 8 || bo.len % 4 || S->out0 > bo.len / 4 || bt.len != bo.len / 4 ||
        S->kind != K_TREC) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "_core.stream_columns: bad arguments");
    } else {
        if (S->state == 0) {
            S->out = (int32_t *)bo.buf;
            S->tout = (uint8_t *)bt.buf;
            S->out_end = bo.len / 4;
            Py_BEGIN_ALLOW_THREADS
            rc = stream_columns(S, &q, &d, (const double *)sc.buf + soff, n, final);
            Py_END_ALLOW_THREADS
            S->out = NULL;
            S->tout = NULL;
            S->state = rc ? -1 : (final ? 1 : 0);
        }
    }
    PyBuffer_Release(&qa);
    PyBuffer_Release(&qb);
    PyBuffer_Release(&da);
    PyBuffer_Release(&db);
    PyBuffer_Release(&sc);
    PyBuffer_Release(&bo);
    PyBuffer_Release(&bt);
    if (PyErr_Occurred())
        return NULL;
    if (rc == -2)
        return PyErr_NoMemory();
    return PyLong_FromLong(rc ? -1 : 0);
}

/* stream_result(streamer) -> None (declined, or no rows) or
 *   (L, W, topic_words, nrows, seg, kept, qcode, rows, rows_eval, judged, tag, written,
 *    hi_line)
 * hi_line: the line of the first qid/docno that is not UTF-8, 0 if none.
 * The run's topics in first-appearance order: their ids (L x W words),
 * rows, the start and length of their labels in out (int64) and their
 * qrels topic (int32, or -1); tag: the last row's tag, or None. */
static PyObject *py_stream_result(PyObject *self, PyObject *args)
{
    PyObject *cap;
    Stream *S;
    if (!PyArg_ParseTuple(args, "O", &cap))
        return NULL;
    S = PyCapsule_GetPointer(cap, "ipsoeval._core.Stream");
    if (!S)
        return NULL;
    if (S->state != 1 || !S->rows)
        Py_RETURN_NONE;
    {
        IdSet *I = &S->topics;
        Py_ssize_t L = I->L;
        PyObject *tag = S->tag ? PyBytes_FromStringAndSize((const char *)S->tag, S->tag_l)
                               : (Py_INCREF(Py_None), Py_None);
        PyObject *res;
        if (!tag)
            return NULL;
        res = Py_BuildValue("nny#y#y#y#y#nLLNnL", L, I->W, (const char *)I->w, L * I->W * 8,
                            (const char *)I->nrows, L * 8, (const char *)I->seg, L * 8,
                            (const char *)I->kept, L * 8, (const char *)I->qc, L * 4, S->rows,
                            S->rows_eval, S->judged, tag, S->pos, S->P.hi_line);
        return res;
    }
}

/* topic_cut(data, pos, hi) -> the start of the first line at or after pos
 * whose first field differs from the previous line's (a topic boundary of
 * a run grouped by topic), or hi.  pos: the start of a line. */
static PyObject *py_topic_cut(PyObject *self, PyObject *args)
{
    Py_buffer b;
    Py_ssize_t pos, hi, cut;
    if (!PyArg_ParseTuple(args, "y*nn", &b, &pos, &hi))
        return NULL;
    if (pos < 0 || hi > b.len || pos > hi) {
        PyBuffer_Release(&b);
        PyErr_SetString(PyExc_ValueError, "_core.topic_cut: bad range");
        return NULL;
    }
    {
        const unsigned char *s = (const unsigned char *)b.buf;
        const unsigned char *prev = NULL;
        Py_ssize_t plen = 0, p = pos;
        cut = hi;
        while (p < hi) {
            const unsigned char *nl = memchr(s + p, '\n', (size_t)(hi - p));
            Py_ssize_t e = nl ? nl - s : hi, a = p, z;
            while (a < e && (s[a] == ' ' || s[a] == '\t'))
                a++;
            z = a;
            while (z < e && s[z] > 32)
                z++;
            if (prev && (z - a != plen || memcmp(prev, s + a, (size_t)plen))) {
                cut = p;
                break;
            }
            prev = s + a;
            plen = z - a;
            p = e + 1;
        }
    }
    PyBuffer_Release(&b);
    return PyLong_FromSsize_t(cut);
}

/* ------------------------------------------- randomised Tukey HSD */

/* hsd_ranges(X, n, k, seed, first, out): for samples b = first ..
 * first + len(out) - 1, permute each topic's row of X (n topics x k runs,
 * float64, row-major) with a Fisher-Yates shuffle and store in out[b - first]
 * max_j(S_j / n) - min_j(S_j / n), S_j the sum over topics (in topic order)
 * of column j of the permuted matrix.  The draws are a counter-based
 * splitmix64 stream per sample (ipsoeval/stats/randhsd.py documents it and
 * holds the pure-Python twin, which gives the same bytes); the GIL is
 * released, so callers may run blocks of samples on several threads. */
#define HSD_GAMMA 0x9E3779B97F4A7C15ULL

static inline uint64_t hsd_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline uint32_t hsd_below(uint64_t r, uint64_t m)
{
    /* floor(r * m / 2^64) for m < 2^32, without 128-bit arithmetic */
    uint64_t hi = r >> 32, lo = r & 0xFFFFFFFFULL;
    return (uint32_t)((hi * m + ((lo * m) >> 32)) >> 32);
}

static PyObject *py_hsd_ranges(PyObject *self, PyObject *args)
{
    Py_buffer bx, bo;
    Py_ssize_t n, k;
    unsigned long long seed, first;
    if (!PyArg_ParseTuple(args, "y*nnKKw*", &bx, &n, &k, &seed, &first, &bo))
        return NULL;
    PyObject *res = NULL;
    Py_ssize_t count = bo.len / 8;
    if (n < 1 || k < 2 || k > 0x7FFFFFFF || bx.len != n * k * 8 || bo.len % 8) {
        PyErr_SetString(PyExc_ValueError, "_core.hsd_ranges: bad arguments");
        goto done;
    }
    {
        const double *X = (const double *)bx.buf;
        double *out = (double *)bo.buf;
        double *sums = malloc(sizeof(double) * (size_t)k);
        int32_t *perm = malloc(sizeof(int32_t) * (size_t)k);
        if (!sums || !perm) {
            free(sums);
            free(perm);
            PyErr_NoMemory();
            goto done;
        }
        uint64_t root = hsd_mix((uint64_t)seed + HSD_GAMMA);
        Py_BEGIN_ALLOW_THREADS
        for (Py_ssize_t s = 0; s < count; s++) {
            uint64_t b = (uint64_t)first + (uint64_t)s;
            uint64_t key = hsd_mix(root + (b + 1) * HSD_GAMMA);
            uint64_t ctr = key;
            for (Py_ssize_t j = 0; j < k; j++)
                sums[j] = 0.0;
            for (Py_ssize_t t = 0; t < n; t++) {
                const double *row = X + t * k;
                for (Py_ssize_t j = 0; j < k; j++)
                    perm[j] = (int32_t)j;
                for (Py_ssize_t i = k - 1; i >= 1; i--) {
                    ctr += HSD_GAMMA;
                    uint32_t j = hsd_below(hsd_mix(ctr), (uint64_t)(i + 1));
                    int32_t tmp = perm[i];
                    perm[i] = perm[j];
                    perm[j] = tmp;
                }
                for (Py_ssize_t j = 0; j < k; j++)
                    sums[j] += row[perm[j]];
            }
            double lo = sums[0] / (double)n, hi = lo;
            for (Py_ssize_t j = 1; j < k; j++) {
                double m = sums[j] / (double)n;
                if (m < lo)
                    lo = m;
                if (m > hi)
                    hi = m;
            }
            out[s] = hi - lo;
        }
        Py_END_ALLOW_THREADS
        free(sums);
        free(perm);
    }
    Py_INCREF(Py_None);
    res = Py_None;
done:
    PyBuffer_Release(&bx);
    PyBuffer_Release(&bo);
    return res;
}

static PyMethodDef methods[] = {
    {"parse", py_parse, METH_VARARGS, "Parse whole lines into preallocated arrays."},
    {"count_lines", py_count_lines, METH_VARARGS, "Count newlines in a byte range."},
    {"qtable", py_qtable, METH_VARARGS, "Build the qrels (topic, docno) hash table."},
    {"align_run", py_align_run, METH_VARARGS, "Align one run to the qrels."},
    {"fill", py_fill, METH_VARARGS, "Copy aligned labels into a (T, D) matrix."},
    {"streamer", py_streamer, METH_VARARGS, "A run to read and align in one pass."},
    {"stream_feed", py_stream_feed, METH_VARARGS, "Read and align whole lines of the run."},
    {"stream_columns", py_stream_columns, METH_VARARGS,
     "Read and align a run's rows held in columns (Arrow buffers)."},
    {"stream_result", py_stream_result, METH_VARARGS,
     "The topics and labels of a streamed run, or None (declined)."},
    {"topic_cut", py_topic_cut, METH_VARARGS, "The next topic boundary of a run's lines."},
    {"id_scan", py_id_scan, METH_VARARGS, "Longest id of a list of str, or -1 (declined)."},
    {"id_fill", py_id_fill, METH_VARARGS, "Write the ids of a list of str as uint64 words."},
    {"int_fill", py_int_fill, METH_VARARGS, "Write non-negative int64 ids in decimal as words."},
    {"span_fill", py_span_fill, METH_VARARGS, "Write ids given by a buffer and offsets as words."},
    {"eval_official", py_eval_official, METH_VARARGS,
     "trec_eval's official measures of runs and their tie counts, or None (declined)."},
    {"eval_measures", py_eval_measures, METH_VARARGS,
     "Requested measures of runs per topic and their tie flags, or None (declined)."},
    {"family_codes", py_family_codes, METH_NOARGS,
     "The measure codes eval_measures takes, by family name."},
    {"quick_buffers", py_quick_buffers, METH_NOARGS,
     "The largest buffers (bytes, rows) eval_official/eval_measures held, and parts."},
    {"hsd_ranges", py_hsd_ranges, METH_VARARGS,
     "Ranges of the run means under within-topic permutations (randomised Tukey HSD)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_core",
                                    "ipsoeval's compiled reading and alignment core.", -1,
                                    methods};

/* Bumped whenever a function's arguments or results change: a stale build
 * (an editable install not rebuilt after a pull) is then not used at all. */
#define CORE_API 11

PyMODINIT_FUNC PyInit__core(void)
{
    PyObject *m;
    init_classes();
    m = PyModule_Create(&module);
    if (m && PyModule_AddIntConstant(m, "API", CORE_API) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
