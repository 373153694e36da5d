/*
 * Shared machinery of the readers, writers and generators: a streaming line
 * reader over plain or gzip files, a hand-written number parser, and the
 * tuple store that turns (i, j, value) triples into a CSR matrix with
 * little more memory than the final matrix.
 */
#ifndef GSP_IO_INTERNAL_H
#define GSP_IO_INTERNAL_H

#include <stdarg.h>
#include <stdio.h>
#include <zlib.h>

#include "gsp_internal.h"
#include "gsp_output.h"

/* ---------------------------------------------------------------------- */
/* Line reader                                                             */
/* ---------------------------------------------------------------------- */

/* The input is opened once and read once, front to back, so a pipe, a FIFO
 * or stdin gives exactly what a regular file with the same bytes gives.
 * gzip is recognised by its magic bytes and decoded here (members may be
 * concatenated; anything else after the last member is an error). */
typedef struct {
  int fd;
  bool own_fd;          /* false for stdin */
  const char *path;     /* as given by the caller ("stdin" for "-") */
  char *buf;            /* decoded bytes */
  size_t cap, len, pos; /* buffer capacity, bytes held, start of next line */
  bool eof;
  int64_t lineno; /* number of the line last returned (1-based) */
  /* Whether a line other than blank or comment (starting with one of
   * `comments`; a Matrix Market banner is not one) has been returned, or
   * any byte read by gsp__reader_bytes: an input without one is empty,
   * whatever its format. */
  const char *comments;
  bool content;
  /* The input itself failed (read error, corrupt gzip, NUL byte, a line too
   * long, a byte order mark): that error, not "empty input", is reported. */
  bool failed;
  /* raw (on-disk) bytes, and the gzip decoder when the input is gzip */
  unsigned char *raw;
  size_t raw_len, raw_pos;
  bool raw_eof;
  bool gzip, z_init, z_member_end;
  z_stream z;
  int64_t raw_read;    /* raw bytes read so far (progress) */
  int64_t decoded;     /* decoded bytes produced so far (size checks) */
  int64_t file_size;   /* on-disk size for progress; 0 if unknown */
  int64_t next_report; /* on-disk offset of the next progress call */
  void (*progress)(double, void *);
  void *progress_ctx;
} gsp__reader;

/* Open path for reading (gzip or plain; "-" is stdin). GSP_IO_ERROR naming
 * the path and errno's reason on failure. */
gsp_info gsp__reader_open(gsp__reader *r, const char *path, void (*progress)(double, void *), void *ctx);
/* Make at least n decoded bytes available at r->buf + r->pos without
 * consuming them (fewer only at end of input): format detection looks at
 * the start of the data that the format reader then reads. */
gsp_info gsp__reader_peek(gsp__reader *r, size_t n);
/* Next line, NUL-terminated, without its "\n" or "\r\n": *line = NULL at
 * end of file. The line stays valid until the next call. */
gsp_info gsp__reader_line(gsp__reader *r, char **line, char **end);
/* Read exactly n raw bytes (binary formats); *got < n at end of file. */
gsp_info gsp__reader_bytes(gsp__reader *r, void *dst, size_t n, size_t *got);
void gsp__reader_close(gsp__reader *r);

/* GSP_PARSE_ERROR "<path> line <n>: <message>". */
gsp_info gsp__parse_error(const gsp__reader *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Count one more entry of a file whose header announced `total` of them
 * (`what`: "arcs", "entries"; `header`: the line that announced them):
 * GSP_PARSE_ERROR when *count already is total. */
gsp_info gsp__count_entry(const gsp__reader *r, uint64_t *count, uint64_t total, const char *what, const char *header);

/* ---------------------------------------------------------------------- */
/* Numbers                                                                 */
/* ---------------------------------------------------------------------- */

static inline bool gsp__is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}
static inline const char *gsp__skip_space(const char *p) {
  while (gsp__is_space(*p)) p++;
  return p;
}

/* Outcome of parsing one number token. */
typedef enum {
  GSP_NUM_NONE = 0, /* not a number at all */
  GSP_NUM_INT,      /* integer syntax, fits int64 */
  GSP_NUM_REAL,     /* decimal point or exponent, or inf */
  GSP_NUM_NAN,      /* "nan" */
  GSP_NUM_RANGE,    /* integer syntax beyond int64, or real overflow */
  GSP_NUM_JUNK,     /* a number followed by other characters ("12ab") */
  GSP_NUM_UNDERFLOW /* a nonzero real below the smallest normal double
                       (1e-400 -> 0, 1e-310 -> subnormal); *d holds it */
} gsp__num_kind;

static inline bool gsp__is_digit(char c) {
  return (unsigned char)(c - '0') < 10;
}
/* Characters that may follow a number token. */
static inline bool gsp__is_token_end(char c) {
  return c == '\0' || gsp__is_space(c) || c == ',' || c == '#';
}
/* Move past the rest of a malformed token. */
static inline const char *gsp__skip_token(const char *p) {
  while (!gsp__is_token_end(*p)) p++;
  return p;
}

/* Parse an unsigned decimal integer (a leading '+' allowed). Returns
 * GSP_NUM_INT, GSP_NUM_NONE, GSP_NUM_RANGE or GSP_NUM_JUNK; *p is moved
 * past the token. Tokens end at whitespace, NUL, ',' or '#'. Inline: it is
 * the innermost loop of every text reader. */
static inline gsp__num_kind gsp__parse_index(const char **pp, uint64_t *out) {
  const char *p = *pp;
  if (*p == '+') p++;
  if (!gsp__is_digit(*p)) {
    *pp = gsp__skip_token(p);
    return GSP_NUM_NONE;
  }
  uint64_t v = 0;
  int nd = 0;
  for (; gsp__is_digit(*p); p++, nd++) v = v * 10 + (uint64_t)(*p - '0');
  if (!gsp__is_token_end(*p)) {
    *pp = gsp__skip_token(p);
    return GSP_NUM_JUNK;
  }
  *pp = p;
  *out = v;
  /* 19 digits always fit; longer ones only with leading zeros */
  if (nd > 19) {
    const char *q = *pp - nd;
    while (*q == '0' && nd > 19) q++, nd--;
    if (nd > 19) return GSP_NUM_RANGE;
    v = 0;
    for (; gsp__is_digit(*q); q++) v = v * 10 + (uint64_t)(*q - '0');
    *out = v;
  }
  return GSP_NUM_INT;
}
/* Parse an integer or real number; *i holds an integer, *d a real. */
gsp__num_kind gsp__parse_number(const char **p, int64_t *i, double *d);
/* Length of the token at p (for messages), at most max. */
int gsp__token_len(const char *p, int max);

/* ---------------------------------------------------------------------- */
/* Values                                                                  */
/* ---------------------------------------------------------------------- */

/* Values are held as int64 until the first real number, then all as double
 * (integers beyond 2^53 round then, as they would in a GSP_FP64 result). */
typedef union {
  int64_t i;
  double d;
} gsp__val;

/* How values are checked while parsing. */
typedef struct {
  bool forced;   /* the caller chose the type */
  gsp_type type; /* forced type */
} gsp__valpolicy;

/* ---------------------------------------------------------------------- */
/* Tuple store                                                             */
/* ---------------------------------------------------------------------- */

/* Entries as 64-bit keys (row << 32 | column) plus optional 8-byte values.
 * Row-major order of keys is CSR order, and the key array is reused in
 * place as the column array, so building needs no second copy. */
typedef struct {
  uint64_t *key;
  gsp__val *val; /* NULL for pattern data */
  size_t n, cap;
  bool weighted;            /* values present */
  bool real;                /* values are doubles (else int64) */
  bool sorted;              /* keys nondecreasing so far */
  uint64_t last;            /* last key pushed */
  gsp_index nrows, ncols;   /* dimensions (fixed or grown) */
  gsp_index maxrow, maxcol; /* largest indices seen + 1 */
  /* how the file numbers rows and columns, for messages: index + id_base,
   * or id_of[index] when ids are remapped */
  int64_t id_base;
  const int64_t *id_of;
} gsp__tuples;

gsp_info gsp__tuples_init(gsp__tuples *T, bool weighted, size_t reserve);
void gsp__tuples_free(gsp__tuples *T);
gsp_info gsp__tuples_grow(gsp__tuples *T);
/* Switch the stored values from int64 to double. */
void gsp__tuples_make_real(gsp__tuples *T);

/* Append (i, j, v); i, j < 2^32 already checked by the caller. */
static inline gsp_info gsp__tuples_push(gsp__tuples *T, uint64_t i, uint64_t j, gsp__val v) {
  if (T->n == T->cap) {
    gsp_info info = gsp__tuples_grow(T);
    if (info < 0) return info;
  }
  uint64_t k = (i << 32) | j;
  T->sorted &= (k >= T->last);
  T->last = k;
  T->key[T->n] = k;
  if (T->val) T->val[T->n] = v;
  T->n++;
  if (i >= T->maxrow) T->maxrow = i + 1;
  if (j >= T->maxcol) T->maxcol = j + 1;
  return GSP_SUCCESS;
}

/* Build *A (type t, nrows x ncols) from T, applying dup; T is consumed
 * (freed) whether or not this succeeds. `what` names the source in
 * messages (a file name). drop_loops leaves out (i, i). */
gsp_info gsp__tuples_build(gsp_matrix *A, gsp__tuples *T, gsp_type t, gsp_dup dup, bool drop_loops, const char *what);

/* ---------------------------------------------------------------------- */
/* Readers (one per format)                                                */
/* ---------------------------------------------------------------------- */

/* Everything a format reader needs from the options, with defaults filled
 * in. ids_out may be NULL. */
typedef struct {
  gsp_read_opts o;
  gsp_type type; /* valid when o.use_type */
  gsp_dup dup;
  int64_t **ids_out;
  gsp_index *nids_out;
} gsp__read_ctx;

gsp_info gsp__read_mtx(gsp_matrix *A, gsp__reader *r, const gsp__read_ctx *c);
gsp_info gsp__read_dimacs(gsp_matrix *A, gsp__reader *r, const gsp__read_ctx *c);
gsp_info gsp__read_edgelist(gsp_matrix *A, gsp__reader *r, const gsp__read_ctx *c);
gsp_info gsp__read_dense(gsp_matrix *A, gsp__reader *r, const gsp__read_ctx *c);
gsp_info gsp__read_npy(gsp_matrix *A, gsp__reader *r, const gsp__read_ctx *c);

/* Check a parsed value against the value policy and store it: returns
 * GSP_SUCCESS or a parse error naming the line. *real tells whether the
 * tuple store must switch to doubles. */
gsp_info gsp__value_accept(const gsp__reader *r, const gsp__read_ctx *c, gsp__num_kind kind, int64_t iv, double dv,
                           const char *tok, gsp__tuples *T, gsp__val *out);

/* Parse the weight token at *p (moved past it) into *out via
 * gsp__value_accept; messages name the line and the token. */
gsp_info gsp__read_value(const gsp__reader *r, const gsp__read_ctx *c, const char **p, gsp__tuples *T, gsp__val *out);
/* Parse a vertex / row / column index token at *p; `what` names it in
 * messages ("row", "source vertex"). */
gsp_info gsp__read_index(const gsp__reader *r, const char **p, uint64_t *out, const char *what);

/* Fast paths of the two above for the common tokens (plain digits; an
 * integer weight while values are unforced int64); anything else goes to
 * the full parsers, which also word the errors. */
static inline gsp_info gsp__read_index_fast(const gsp__reader *r, const char **p, uint64_t *out, const char *what) {
  const char *q = gsp__skip_space(*p);
  if (gsp__parse_index(&q, out) == GSP_NUM_INT) {
    *p = q;
    return GSP_SUCCESS;
  }
  return gsp__read_index(r, p, out, what);
}
static inline gsp_info gsp__read_value_fast(const gsp__reader *r, const gsp__read_ctx *c, const char **p,
                                            gsp__tuples *T, gsp__val *out) {
  if ((!c->o.use_type || c->type == GSP_INT64) && !T->real) {
    const char *q = gsp__skip_space(*p);
    bool neg = *q == '-';
    q += neg;
    uint64_t v;
    if (gsp__is_digit(*q) && gsp__parse_index(&q, &v) == GSP_NUM_INT && v <= (uint64_t)INT64_MAX) {
      out->i = neg ? -(int64_t)v : (int64_t)v;
      *p = q;
      return GSP_SUCCESS;
    }
  }
  return gsp__read_value(r, c, p, T, out);
}

/* Whether integer v is exactly a double / a float. */
static inline bool gsp__int_exact_fp64(int64_t v) {
  double d = (double)v;
  return d < 9223372036854775808.0 && (int64_t)d == v;
}
static inline bool gsp__int_exact_fp32(int64_t v) {
  double d = (double)(float)v;
  return d < 9223372036854775808.0 && (int64_t)d == v;
}

/* Default result type of what was read (pattern / integer / real). */
gsp_type gsp__natural_type(const gsp__tuples *T);
/* Start a tuple store for a reader (doubles from the start when the caller
 * forced a float type) and the result type at the end. */
gsp_info gsp__tuples_for(gsp__tuples *T, const gsp__read_ctx *c, bool weighted, size_t reserve);
gsp_type gsp__result_type(const gsp__read_ctx *c, const gsp__tuples *T);
/* Format implied by a path's extension (".gz" dropped); AUTO if none. */
gsp_file_format gsp__format_from_path(const char *path);

/* Declared or implied dimensions are trusted only as far as the data read
 * justifies: rows and columns each at most GSP_READ_DIM_FLOOR or 4 per
 * decoded input byte, whichever is larger. Otherwise a parse error (a
 * 17-byte "p sp 200000000 0" would allocate gigabytes of row pointers). */
#define GSP_READ_DIM_FLOOR ((uint64_t)1 << 22)
gsp_info gsp__check_dims(const gsp__reader *r, uint64_t nrows, uint64_t ncols, const char *source, const char *hint);

/* Identity id arrays for gsp_matrix_read_ids in non-remap modes. */
gsp_info gsp__ids_identity(int64_t **ids, gsp_index n, int64_t base);

/* ---------------------------------------------------------------------- */
/* Writers                                                                 */
/* ---------------------------------------------------------------------- */

typedef struct {
  gzFile gz; /* compressed output, or */
  FILE *f;   /* plain output */
  const char *path;
  char *buf;
  size_t len, cap;
  bool failed;
} gsp__writer;

/* Write into the open output file `out` (compressed when gzip); the
 * caller commits or aborts `out` after gsp__writer_close/abort. */
gsp_info gsp__writer_open(gsp__writer *w, gsp__ofile *out, bool gzip);
void gsp__writer_put(gsp__writer *w, const void *data, size_t n);
void gsp__writer_printf(gsp__writer *w, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Flush (the gzip stream ended); GSP_IO_ERROR if any write failed. */
gsp_info gsp__writer_close(gsp__writer *w);
/* Drop the buffer after a failure without reporting. */
void gsp__writer_abort(gsp__writer *w);
/* Append a decimal integer / a round-trip real to the buffer. */
void gsp__writer_int(gsp__writer *w, int64_t v);
void gsp__writer_uint(gsp__writer *w, uint64_t v);
void gsp__writer_value(gsp__writer *w, gsp_type t, const void *x);

/* Visit the entries of row i of a host matrix in column order. */
typedef void (*gsp__entry_fn)(void *ctx, gsp_index i, gsp_index j, const void *x);
void gsp__matrix_foreach_in_row(const struct gsp_matrix_s *A, int64_t i, gsp__entry_fn fn, void *ctx);

gsp_info gsp__write_mtx(gsp__writer *w, const struct gsp_matrix_s *A, const gsp_write_opts *o);
gsp_info gsp__write_dimacs(gsp__writer *w, const struct gsp_matrix_s *A, const gsp_write_opts *o);
gsp_info gsp__write_edgelist(gsp__writer *w, const struct gsp_matrix_s *A, const gsp_write_opts *o);
gsp_info gsp__write_dense(gsp__writer *w, const struct gsp_matrix_s *A, const void *absent);
gsp_info gsp__write_npy(gsp__writer *w, const struct gsp_matrix_s *A, const void *absent);
/* The default absent value of type t (see gsp_write_opts). */
void gsp__default_absent(void *out, gsp_type t);
/* Write one dense row (values with absent filled in) into row[ncols]. */
void gsp__dense_row(void *row, const struct gsp_matrix_s *A, int64_t i, const void *absent);

/* gsp binary dense header layout (little-endian). */
#define GSP_DENSE_MAGIC   "GSPDENSE"
#define GSP_DENSE_VERSION 1u
#define GSP_DENSE_HEADER  64

/* ---------------------------------------------------------------------- */
/* Generators                                                              */
/* ---------------------------------------------------------------------- */

/* Counter-based random numbers: value k of stream `stream` for a seed, so
 * generation order (and thread count) never changes the result. */
static inline uint64_t gsp__mix64(uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
static inline uint64_t gsp__rand_stream(uint64_t seed, uint64_t stream) {
  return gsp__mix64(seed ^ (stream * 0xd1b54a32d192ed03ULL));
}
static inline uint64_t gsp__rand_next(uint64_t base, uint64_t k) {
  return gsp__mix64(base + k);
}
static inline uint64_t gsp__rand_at(uint64_t seed, uint64_t stream, uint64_t k) {
  return gsp__rand_next(gsp__rand_stream(seed, stream), k);
}
/* Uniform integer in [0, bound) (bound > 0), nearly unbiased for the
 * bounds used here (128-bit multiply-shift). */
static inline uint64_t gsp__rand_below(uint64_t r, uint64_t bound) {
  return (uint64_t)(((unsigned __int128)r * bound) >> 64);
}
static inline double gsp__rand_unit(uint64_t r) {
  return (double)(r >> 11) * 0x1.0p-53;
}

/* Check generator arguments common to all: type, weight range. */
gsp_info gsp__gen_check(gsp_matrix *A, gsp_type t, int64_t wmin, int64_t wmax, const char *fn);
/* Weight number k of a generator: uniform in [wmin, wmax]. */
static inline int64_t gsp__gen_weight(uint64_t seed, uint64_t k, int64_t wmin, int64_t wmax) {
  uint64_t span = (uint64_t)wmax - (uint64_t)wmin + 1; /* 0: full range */
  uint64_t r = gsp__rand_at(seed, 7, k);
  return (int64_t)((uint64_t)wmin + (span ? gsp__rand_below(r, span) : r));
}

#endif /* GSP_IO_INTERNAL_H */
