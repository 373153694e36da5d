/* Structured generators: road-like grids, rings, complete graphs. Arcs are
 * produced in row-major order, so building needs no sort. Undirected edges
 * take one weight for both directions (keyed by the unordered pair). */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* madvise (huge pages for fresh n^2 arrays) */
#endif
#include "dense_pass.h"
#include "io_internal.h"

static inline uint64_t pair_key(uint64_t u, uint64_t v) {
  return u < v ? u << 32 | v : v << 32 | u;
}

/* The generator's arguments checked (n already is), then T ready for up
 * to `arcs` arcs of an n x n matrix. */
static gsp_info start(gsp__tuples *T, gsp_matrix *A, gsp_type t, int64_t wmin, int64_t wmax, uint64_t n, uint64_t arcs,
                      const char *fn) {
  if (n > GSP_INDEX_MAX)
    return GSP_ERROR(GSP_TOO_LARGE, "%s: %llu vertices exceed %llu", fn, (unsigned long long)n,
                     (unsigned long long)GSP_INDEX_MAX);
  gsp_info info = gsp__gen_check(A, t, wmin, wmax, fn);
  if (info >= 0) info = gsp__tuples_init(T, t != GSP_BOOL, arcs);
  T->nrows = T->ncols = n;
  return info;
}

#define PUSH(u, v, key) \
  GSP_TRY(gsp__tuples_push(&T, (u), (v), (gsp__val){.i = gsp__gen_weight(seed, (key), wmin, wmax)}))

gsp_info gsp_generate_grid(gsp_matrix *A, gsp_type t, gsp_index rows, gsp_index cols, int64_t wmin, int64_t wmax,
                           uint64_t seed) {
  gsp_info info = GSP_SUCCESS;
  gsp__tuples T = {0};
#define GSP_FREE_ALL gsp__tuples_free(&T)
  const char *fn = "gsp_generate_grid";
  GSP_CHECK(rows <= GSP_INDEX_MAX && cols <= GSP_INDEX_MAX && (rows == 0 || cols <= GSP_INDEX_MAX / rows),
            GSP_TOO_LARGE, "%s: %llu x %llu grid exceeds %llu vertices", fn, (unsigned long long)rows,
            (unsigned long long)cols, (unsigned long long)GSP_INDEX_MAX);
  uint64_t n = rows * cols;
  GSP_TRY(start(&T, A, t, wmin, wmax, n, 4 * n, fn));
  for (uint64_t r = 0; r < rows; r++)
    for (uint64_t c = 0; c < cols; c++) {
      uint64_t v = r * cols + c; /* neighbours in increasing order */
      if (r > 0) PUSH(v, v - cols, pair_key(v, v - cols));
      if (c > 0) PUSH(v, v - 1, pair_key(v, v - 1));
      if (c + 1 < cols) PUSH(v, v + 1, pair_key(v, v + 1));
      if (r + 1 < rows) PUSH(v, v + cols, pair_key(v, v + cols));
    }
  GSP_TRY(gsp__tuples_build(A, &T, t, GSP_DUP_ERROR, false, fn));
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp_generate_ring(gsp_matrix *A, gsp_type t, gsp_index n, bool undirected, int64_t wmin, int64_t wmax,
                           uint64_t seed) {
  gsp_info info = GSP_SUCCESS;
  gsp__tuples T = {0};
#define GSP_FREE_ALL gsp__tuples_free(&T)
  const char *fn = "gsp_generate_ring";
  GSP_CHECK(n >= 2, GSP_INVALID_VALUE, "%s: a ring needs n >= 2 vertices, not %llu", fn, (unsigned long long)n);
  GSP_TRY(start(&T, A, t, wmin, wmax, n, 2 * n, fn));
  for (uint64_t v = 0; n >= 2 && v < n; v++) {
    uint64_t prev = (v + n - 1) % n, next = (v + 1) % n;
    /* directed arcs keyed by the arc, undirected by the pair */
    uint64_t lo = prev < next ? prev : next, hi = prev < next ? next : prev;
    if (undirected) {
      if (lo != v) PUSH(v, lo, pair_key(v, lo));
      if (hi != v && hi != lo) PUSH(v, hi, pair_key(v, hi));
    } else {
      PUSH(v, next, v << 32 | next);
    }
  }
  GSP_TRY(gsp__tuples_build(A, &T, t, GSP_DUP_ERROR, false, fn));
#undef GSP_FREE_ALL
  return info;
}

/* The complete graph is written straight into CSR, rows in parallel: row i
 * holds every j != i in order, and each weight is keyed by its arc, so the
 * result is the same for any thread count. */
gsp_info gsp_generate_complete(gsp_matrix *A, gsp_type t, gsp_index n, int64_t wmin, int64_t wmax, uint64_t seed) {
  gsp_info info = GSP_SUCCESS;
  gsp_index *p = NULL, *jj = NULL;
  void *x = NULL;
#define GSP_FREE_ALL (gsp__free(p), gsp__free(jj), gsp__free(x))
  const char *fn = "gsp_generate_complete";
  GSP_TRY(gsp__gen_check(A, t, wmin, wmax, fn));
  GSP_CHECK(n <= ((gsp_index)1 << 20), GSP_TOO_LARGE, "%s: %llu vertices: %llu arcs is too many", fn,
            (unsigned long long)n, (unsigned long long)n * (n ? n - 1 : 0));
  const size_t deg = n ? (size_t)n - 1 : 0, nv = (size_t)n * deg;
  GSP_ALLOC(p, (size_t)n + 1, sizeof *p);
  GSP_ALLOC(jj, nv ? nv : 1, sizeof *jj);
  GSP_ALLOC(x, nv ? nv : 1, gsp_type_size(t));
  gsp__pass_huge(jj, nv * sizeof *jj);
  gsp__pass_huge(x, nv * gsp_type_size(t));
  const int nt = nv < ((size_t)1 << 16) ? 1 : gsp__threads();
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
  for (int64_t i = 0; i < (int64_t)n; i++) {
    size_t k = (size_t)i * deg;
    p[i] = (gsp_index)k;
    for (uint64_t j = 0; j < n; j++) {
      if (j == (uint64_t)i) continue;
      jj[k] = (gsp_index)j;
      const int64_t w = gsp__gen_weight(seed, (uint64_t)i << 32 | j, wmin, wmax);
      if (t == GSP_BOOL) ((bool *)x)[k] = true; /* every arc is an entry, whatever its weight */
      else gsp__cast_value(gsp__at(x, t, (int64_t)k), t, &w, GSP_INT64);
      k++;
    }
  }
  p[n] = (gsp_index)nv;
  GSP_TRY(gsp_matrix_pack_csr(A, t, n, n, &p, &jj, &x));
#undef GSP_FREE_ALL
  return info;
}
