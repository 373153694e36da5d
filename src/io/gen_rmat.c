/* R-MAT / Kronecker graphs (Chakrabarti et al.; Graph500 parameters by
 * default). Each arc descends `scale` levels of the adjacency matrix,
 * choosing a quadrant with probabilities a, b, c, d. Arcs are independent
 * (counter-based random numbers), so the loop is parallel and still gives
 * the same graph for any thread count. */
#include <math.h>

#include "io_internal.h"

gsp_info gsp_generate_rmat(gsp_matrix *A, gsp_type t, int scale, gsp_index edgefactor, double a, double b, double c,
                           int64_t wmin, int64_t wmax, uint64_t seed) {
  gsp_info info = GSP_SUCCESS;
  gsp__tuples T = {0};
  uint64_t *perm = NULL;
#define GSP_FREE_ALL (gsp__tuples_free(&T), gsp__free(perm))
  const char *fn = "gsp_generate_rmat";
  GSP_TRY(gsp__gen_check(A, t, wmin, wmax, fn));
  GSP_CHECK(scale >= 0 && scale <= 30, GSP_INVALID_VALUE, "%s: scale %d not in 0..30", fn, scale);
  if (a == 0 && b == 0 && c == 0) a = 0.57, b = 0.19, c = 0.19;
  GSP_CHECK(a >= 0 && b >= 0 && c >= 0 && a + b + c <= 1 + 1e-12, GSP_INVALID_VALUE,
            "%s: quadrant probabilities a=%g b=%g c=%g must be >= 0 with "
            "a+b+c <= 1",
            fn, a, b, c);
  uint64_t n = (uint64_t)1 << scale;
  GSP_CHECK(edgefactor <= ((gsp_index)1 << 34) >> scale, GSP_TOO_LARGE, "%s: %llu x 2^%d arcs is too many", fn,
            (unsigned long long)edgefactor, scale);
  uint64_t m = edgefactor * n;
  /* random relabelling (Fisher-Yates), so high degree is not vertex 0 */
  GSP_ALLOC(perm, n, sizeof *perm);
  for (uint64_t v = 0; v < n; v++) perm[v] = v;
  for (uint64_t v = n; v-- > 1;) {
    uint64_t w = gsp__rand_below(gsp__rand_at(seed, 3, v), v + 1);
    uint64_t tmp = perm[v];
    perm[v] = perm[w];
    perm[w] = tmp;
  }
  bool weighted = t != GSP_BOOL;
  GSP_TRY(gsp__tuples_init(&T, weighted, m));
  T.nrows = T.ncols = n;
  /* quadrant thresholds in 16-bit fixed point: one 64-bit random number
   * serves four levels */
  const uint32_t ta = (uint32_t)(a * 65536.0), tab = (uint32_t)((a + b) * 65536.0),
                 tabc = (uint32_t)((a + b + c) * 65536.0);
  const uint64_t base = gsp__rand_stream(seed, 2);
  int nth = gsp__threads();
#pragma omp parallel for num_threads(nth) schedule(static) if (m > 100000)
  for (int64_t k = 0; k < (int64_t)m; k++) {
    uint64_t u = 0, v = 0, r = 0;
    for (int level = 0; level < scale; level++) {
      if ((level & 3) == 0) r = gsp__rand_next(base, (uint64_t)k * 8 + level / 4);
      uint32_t q = (uint32_t)(r & 0xffff);
      r >>= 16;
      u <<= 1;
      v <<= 1;
      if (q < ta) {
      } else if (q < tab) {
        v |= 1;
      } else if (q < tabc) {
        u |= 1;
      } else {
        u |= 1;
        v |= 1;
      }
    }
    u = perm[u];
    v = perm[v];
    uint64_t key = u << 32 | v;
    T.key[k] = key;
    if (weighted) T.val[k].i = gsp__gen_weight(seed, key, wmin, wmax);
  }
  T.n = m;
  T.sorted = false;
  /* duplicates share a weight (keyed by the arc), so MIN just merges */
  GSP_TRY(gsp__tuples_build(A, &T, t, GSP_DUP_MIN, true, fn));
  gsp__free(perm);
#undef GSP_FREE_ALL
  return info;
}
