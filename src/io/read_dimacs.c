/* DIMACS shortest-path challenge files (9th challenge): graphs (.gr, "p sp n
 * m" and "a u v w" lines), source files (.ss, "p aux sp ss k" and "s v") and
 * pair files (.p2p, "p aux sp p2p k" and "q u v"). Vertices are 1-based.
 * Real weights are accepted as an extension (the challenge uses integers). */
#include <string.h>

#include "io_internal.h"

/* The line's type letter, or 0 for a blank line; *rest points after it. */
static char line_kind(const gsp__reader *r, char *line, const char **rest, gsp_info *info) {
  const char *p = gsp__skip_space(line);
  *info = GSP_SUCCESS;
  if (*p == '\0') return 0;
  if (p[1] != '\0' && !gsp__is_space(p[1])) {
    *info = gsp__parse_error(r,
                             "unknown line type '%.*s' (expected c, p "
                             "or a)",
                             gsp__token_len(p, 20), p);
    return 0;
  }
  *rest = p + 1;
  return *p;
}

static gsp_info end_of_line(const gsp__reader *r, const char *p) {
  p = gsp__skip_space(p);
  if (*p == '\0') return GSP_SUCCESS;
  return gsp__parse_error(r, "unexpected '%.*s' at the end of the line", gsp__token_len(p, 40), p);
}

/* A vertex in 1..n. */
static inline gsp_info vertex(const gsp__reader *r, const char **p, uint64_t n, const char *what, uint64_t *v) {
  gsp_info info = gsp__read_index_fast(r, p, v, what);
  if (info < 0) return info;
  /* a graph of 0 vertices has no valid vertex: every arc is out of range */
  if (*v < 1 || *v > n)
    return gsp__parse_error(r, "%s %llu out of range 1..%llu", what, (unsigned long long)*v, (unsigned long long)n);
  return GSP_SUCCESS;
}

/* Match the problem line's words ("sp", or "aux sp ss") at p. */
static bool words(const char **p, const char *const *w, int nw) {
  const char *q = *p;
  for (int k = 0; k < nw; k++) {
    q = gsp__skip_space(q);
    size_t len = strlen(w[k]);
    if (strncmp(q, w[k], len) != 0 || !(q[len] == '\0' || gsp__is_space(q[len]))) return false;
    q += len;
  }
  *p = q;
  return true;
}

gsp_info gsp__read_dimacs(gsp_matrix *A, gsp__reader *r, const gsp__read_ctx *c) {
  gsp_info info = GSP_SUCCESS;
  gsp__tuples T = {0};
#define GSP_FREE_ALL gsp__tuples_free(&T)
  uint64_t n = 0, m = 0, arcs = 0;
  bool have_p = false;
  char *line, *end;
  static const char *const sp[] = {"sp"};
  for (;;) {
    GSP_TRY(gsp__reader_line(r, &line, &end));
    if (!line) break;
    const char *p = NULL;
    char kind = line_kind(r, line, &p, &info);
    GSP_TRY(info);
    if (kind == 0 || kind == 'c') continue;
    if (kind == 'a') {
      GSP_CHECK(have_p, GSP_PARSE_ERROR, "%s line %lld: arc before the problem line \"p sp n m\"", r->path,
                (long long)r->lineno);
      uint64_t u, v;
      GSP_TRY(vertex(r, &p, n, "tail vertex", &u));
      GSP_TRY(vertex(r, &p, n, "head vertex", &v));
      gsp__val w;
      GSP_TRY(gsp__read_value_fast(r, c, &p, &T, &w));
      GSP_TRY(end_of_line(r, p));
      GSP_TRY(gsp__count_entry(r, &arcs, m, "arcs", "problem line"));
      GSP_TRY(gsp__tuples_push(&T, u - 1, v - 1, w));
      if (c->o.symmetrize && u != v) GSP_TRY(gsp__tuples_push(&T, v - 1, u - 1, w));
    } else if (kind == 'p') {
      if (have_p) GSP_TRY(gsp__parse_error(r, "second problem line"));
      if (!words(&p, sp, 1))
        GSP_TRY(gsp__parse_error(r, "problem line must be \"p sp <vertices> "
                                    "<arcs>\""));
      GSP_TRY(gsp__read_index(r, &p, &n, "vertex count"));
      GSP_TRY(gsp__read_index(r, &p, &m, "arc count"));
      GSP_TRY(end_of_line(r, p));
      if (n > GSP_INDEX_MAX)
        GSP_TRY(gsp__parse_error(r,
                                 "%llu vertices exceed the largest "
                                 "matrix (%llu)",
                                 (unsigned long long)n, (unsigned long long)GSP_INDEX_MAX));
      have_p = true;
      size_t reserve = m * (c->o.symmetrize ? 2 : 1);
      if (reserve > ((size_t)1 << 24)) reserve = (size_t)1 << 24;
      GSP_TRY(gsp__tuples_for(&T, c, true, reserve));
      T.nrows = T.ncols = n;
      T.id_base = 1;
    } else {
      GSP_TRY(gsp__parse_error(r,
                               "unknown line type '%c' (expected c, p or "
                               "a)",
                               kind));
    }
  }
  GSP_CHECK(have_p, GSP_PARSE_ERROR,
            "%s: no problem line \"p sp <vertices> <arcs>\" (not a DIMACS "
            "graph?)",
            r->path);
  if (arcs < m)
    GSP_TRY(gsp__parse_error(r,
                             "file ends after %llu of %llu arcs "
                             "(truncated?)",
                             (unsigned long long)arcs, (unsigned long long)m));
  GSP_TRY(gsp__check_dims(r, n, n, "the problem line declares", ""));
  GSP_TRY(gsp__tuples_build(A, &T, gsp__result_type(c, &T), c->dup, c->o.drop_self_loops, r->path));
#undef GSP_FREE_ALL
  return info;
}

/* Room for twice the lines (at most k) in *a and, when b != NULL, *b; on
 * failure the arrays stay the caller's. */
static gsp_info grow_aux(gsp_index **a, gsp_index **b, size_t *cap, uint64_t k, const char *path) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  const size_t ncap = *cap * 2 < k ? *cap * 2 : k;
  gsp_index *na = gsp__realloc_array(*a, ncap, sizeof *na);
  GSP_CHECK(na != NULL, GSP_OUT_OF_MEMORY, "%s: cannot hold %zu lines", path, ncap);
  *a = na;
  if (b) {
    gsp_index *nb = gsp__realloc_array(*b, ncap, sizeof *nb);
    GSP_CHECK(nb != NULL, GSP_OUT_OF_MEMORY, "%s: cannot hold %zu lines", path, ncap);
    *b = nb;
  }
  *cap = ncap;
#undef GSP_FREE_ALL
  return info;
}

/* ---- auxiliary files ---- */

/* The problem line of a source (or, pairs, a pair) file, p after its 'p':
 * *k, the count it announces. */
static gsp_info aux_problem(const gsp__reader *r, const char *p, bool pairs, const char *path, uint64_t *k) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  static const char *const ss[] = {"aux", "sp", "ss"};
  static const char *const p2p[] = {"aux", "sp", "p2p"};
  /* a well-formed file of the other kind is not malformed: the caller
   * asked the wrong reader, and can tell by the code */
  const char *q = p;
  GSP_CHECK(!words(&q, pairs ? ss : p2p, 3), GSP_INVALID_VALUE,
            "%s line %lld: a %s file (\"p aux sp %s\"), not a %s file: read it with %s", path, (long long)r->lineno,
            pairs ? "source" : "pair", pairs ? "ss" : "p2p", pairs ? "pair" : "source",
            pairs ? "gsp_dimacs_read_sources" : "gsp_dimacs_read_pairs");
  if (!words(&p, pairs ? p2p : ss, 3))
    GSP_TRY(gsp__parse_error(r,
                             "problem line must be \"p aux sp %s "
                             "<count>\"",
                             pairs ? "p2p" : "ss"));
  GSP_TRY(gsp__read_index(r, &p, k, "count"));
  GSP_TRY(end_of_line(r, p));
  if (*k > ((uint64_t)1 << 32)) GSP_TRY(gsp__parse_error(r, "count %llu is too large", (unsigned long long)*k));
#undef GSP_FREE_ALL
  return info;
}

/* The vertices of a source line ("s v": *u) or a pair line ("q u v": *u,
 * *v), p after the letter, 1-based as in the file. */
static gsp_info aux_entry(const gsp__reader *r, const char *p, gsp_index n, bool pairs, uint64_t *u, uint64_t *v) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  GSP_TRY(vertex(r, &p, n, pairs ? "source vertex" : "vertex", u));
  if (pairs) GSP_TRY(vertex(r, &p, n, "target vertex", v));
  GSP_TRY(end_of_line(r, p));
#undef GSP_FREE_ALL
  return info;
}

static gsp_info read_aux(gsp_index **a_out, gsp_index **b_out, gsp_index *k_out, gsp_index n, const char *path,
                         bool pairs) {
  gsp_info info = GSP_SUCCESS;
  gsp__reader r = {0};
  gsp_index *a = NULL, *b = NULL;
#define GSP_FREE_ALL (gsp__reader_close(&r), gsp__free(a), gsp__free(b))
  const char *fn = pairs ? "gsp_dimacs_read_pairs" : "gsp_dimacs_read_sources";
  GSP_CHECK(a_out && k_out && path && (!pairs || b_out), GSP_NULL_POINTER, "%s: an argument is NULL", fn);
  GSP_TRY(gsp__reader_open(&r, path, NULL, NULL));
  const char want = pairs ? 'q' : 's';
  uint64_t k = 0, count = 0;
  size_t cap = 0;
  bool have_p = false;
  char *line, *end;
  for (;;) {
    GSP_TRY(gsp__reader_line(&r, &line, &end));
    if (!line) break;
    const char *p = NULL;
    char kind = line_kind(&r, line, &p, &info);
    GSP_TRY(info);
    if (kind == 0 || kind == 'c') continue;
    if (kind == 'p') {
      if (have_p) GSP_TRY(gsp__parse_error(&r, "second problem line"));
      GSP_TRY(aux_problem(&r, p, pairs, path, &k));
      /* the arrays grow with the lines read, not with the announced count */
      cap = k < 1024 ? (k ? k : 1) : 1024;
      GSP_ALLOC(a, cap, sizeof *a);
      if (pairs) GSP_ALLOC(b, cap, sizeof *b);
      have_p = true;
    } else if (kind == want) {
      GSP_CHECK(have_p, GSP_PARSE_ERROR, "%s line %lld: '%c' line before the problem line", path, (long long)r.lineno,
                want);
      if (count == k)
        GSP_TRY(gsp__parse_error(&r,
                                 "more than the %llu lines the problem "
                                 "line announces",
                                 (unsigned long long)k));
      uint64_t u, v = 0;
      GSP_TRY(aux_entry(&r, p, n, pairs, &u, &v));
      if (count == cap) GSP_TRY(grow_aux(&a, pairs ? &b : NULL, &cap, k, path));
      a[count] = u - 1;
      if (pairs) b[count] = v - 1;
      count++;
    } else {
      GSP_TRY(gsp__parse_error(&r,
                               "unexpected line type '%c' (expected c, p "
                               "or %c)",
                               kind, want));
    }
  }
  GSP_CHECK(have_p, GSP_PARSE_ERROR, "%s: no problem line \"p aux sp %s\"", path, pairs ? "p2p" : "ss");
  if (count < k)
    GSP_TRY(gsp__parse_error(&r,
                             "file ends after %llu of %llu lines "
                             "(truncated?)",
                             (unsigned long long)count, (unsigned long long)k));
  gsp__reader_close(&r);
  *a_out = a;
  if (pairs) *b_out = b;
  *k_out = k;
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp_dimacs_read_sources(gsp_index **sources, gsp_index *k, gsp_index n, const char *path) {
  const gsp__output out[] = {{sources, sizeof *sources, "sources"}, {k, sizeof *k, "k"}};
  gsp_info info = gsp__check_outputs("gsp_dimacs_read_sources", out, 2);
  if (info < 0) return info;
  return read_aux(sources, NULL, k, n, path, false);
}

gsp_info gsp_dimacs_read_pairs(gsp_index **src, gsp_index **dst, gsp_index *k, gsp_index n, const char *path) {
  const gsp__output out[] = {{src, sizeof *src, "src"}, {dst, sizeof *dst, "dst"}, {k, sizeof *k, "k"}};
  gsp_info info = gsp__check_outputs("gsp_dimacs_read_pairs", out, 3);
  if (info < 0) return info;
  return read_aux(src, dst, k, n, path, true);
}
