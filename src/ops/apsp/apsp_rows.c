/*
 * Result rows of gsp_apsp: computed distances (any algorithm, any type)
 * become output rows: Johnson's potentials taken back out, the cutoff
 * applied, values converted to the output type as gsp_matrix_cast does,
 * and parents of dropped vertices removed unless a kept vertex's tree path
 * still needs them (with negative weights a path to a vertex within the
 * cutoff may pass one beyond it).
 */
#include <math.h>
#include <omp.h>

#include "apsp.h"

__extension__ typedef __int128 i128;

bool gsp__apsp_finish_needed(const gsp__apsp_finish *f) {
  return f->h_int || f->h_fp || f->has_cutoff || f->out != f->tw;
}

/* Conversions of gsp__cast_value: integers clamp, floats to integers
 * saturate and truncate. */
static inline int64_t clamp64(i128 v) {
  return v > (i128)INT64_MAX ? INT64_MAX : v < (i128)INT64_MIN ? INT64_MIN : (int64_t)v;
}
static inline int64_t f2i(double v, int64_t lo, int64_t hi) {
  if (v <= (double)lo) return lo;
  if (v >= (double)hi) return hi;
  return (int64_t)v;
}
#define I2_INT32(v) ((int32_t)(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v))
#define I2_INT64(v) clamp64(v)
#define I2_FP32(v)  ((float)clamp64(v))
#define I2_FP64(v)  ((double)clamp64(v))
#define F2_INT32(v) ((int32_t)f2i(v, INT32_MIN, INT32_MAX))
#define F2_INT64(v) f2i(v, INT64_MIN, INT64_MAX)
#define F2_FP32(v)  ((float)(v))
#define F2_FP64(v)  ((double)(v))

/* One row of source s: w (type WT) -> o (type OT). WIDE is i128 for
 * integer WT, double for floats; H the matching potentials (f->HF). Sets
 * drop[v] for vertices reached but dropped; returns their count. */
#define FIN_ROW(NAME, WT, WSFX, WIDE, H, HF, CONV, OT, OINF)                                                      \
  static int64_t NAME(void *ov, const void *wv, int64_t n, const gsp__apsp_finish *f, int64_t s, uint8_t *drop) { \
    const WT *w = (const WT *)wv, wl = f->wlim.WSFX;                                                              \
    const H *h = f->HF;                                                                                           \
    const int tk = f->to_t;                                                                                       \
    const bool hc = f->has_cutoff;                                                                                \
    const double cut = f->cutoff;                                                                                 \
    OT *o = (OT *)ov;                                                                                             \
    const OT oinf = OINF;                                                                                         \
    const WIDE hs = h ? (WIDE)h[s] : 0;                                                                           \
    int64_t drops = 0;                                                                                            \
    for (int64_t v = 0; v < n; v++) {                                                                             \
      const WT x = w[v];                                                                                          \
      if (!(x <= wl)) {                                                                                           \
        o[v] = oinf;                                                                                              \
        continue;                                                                                                 \
      }                                                                                                           \
      WIDE d = h ? (WIDE)x - hs + (WIDE)h[v] : (WIDE)x;                                                           \
      bool out_of_range = false;                                                                                  \
      if (tk == 1) { /* back into INT32, saturating as its arithmetic */                                          \
        out_of_range = d > (WIDE)(INT32_MAX - 1);                                                                 \
        if (d < (WIDE)INT32_MIN) d = (WIDE)INT32_MIN;                                                             \
      } else if (tk == 2) { /* rounded to FP32 */                                                                 \
        d = (WIDE)(float)d;                                                                                       \
      }                                                                                                           \
      const OT y = CONV(d);                                                                                       \
      if (out_of_range || (hc && (double)d > cut) || y == oinf) {                                                 \
        o[v] = oinf;                                                                                              \
        drop[v] = 1;                                                                                              \
        drops++;                                                                                                  \
        continue;                                                                                                 \
      }                                                                                                           \
      o[v] = y;                                                                                                   \
    }                                                                                                             \
    return drops;                                                                                                 \
  }

#define FIN_ROWS_FOR(WN, WT, WIDE, H, HF, PFX)                                   \
  FIN_ROW(fin_##WN##_i32, WT, WN, WIDE, H, HF, PFX##2_INT32, int32_t, INT32_MAX) \
  FIN_ROW(fin_##WN##_i64, WT, WN, WIDE, H, HF, PFX##2_INT64, int64_t, INT64_MAX) \
  FIN_ROW(fin_##WN##_f32, WT, WN, WIDE, H, HF, PFX##2_FP32, float, INFINITY)     \
  FIN_ROW(fin_##WN##_f64, WT, WN, WIDE, H, HF, PFX##2_FP64, double, INFINITY)

FIN_ROWS_FOR(i32, int32_t, i128, int64_t, h_int, I)
FIN_ROWS_FOR(i64, int64_t, i128, int64_t, h_int, I)
FIN_ROWS_FOR(f32, float, double, double, h_fp, F)
FIN_ROWS_FOR(f64, double, double, double, h_fp, F)

/* The row finisher of each (work type, output type), numeric types in
 * GSP_NUM_TYPE_LIST order. */
typedef int64_t (*fin_fn)(void *o, const void *w, int64_t n, const gsp__apsp_finish *f, int64_t s, uint8_t *drop);
static const fin_fn fin_table[4][4] = {{fin_i32_i32, fin_i32_i64, fin_i32_f32, fin_i32_f64},
                                       {fin_i64_i32, fin_i64_i64, fin_i64_f32, fin_i64_f64},
                                       {fin_f32_i32, fin_f32_i64, fin_f32_f32, fin_f32_f64},
                                       {fin_f64_i32, fin_f64_i64, fin_f64_f32, fin_f64_f64}};
static int num_index(gsp_type t) {
  return t == GSP_INT32 ? 0 : t == GSP_INT64 ? 1 : t == GSP_FP32 ? 2 : 3;
}

/* Keep parents only for kept vertices and their tree ancestors. */
static void prune_parents(int64_t *par, const uint8_t *drop, uint8_t *anc, int64_t n) {
  for (int64_t v = 0; v < n; v++) anc[v] = 0;
  for (int64_t v = 0; v < n; v++) {
    if (par[v] < 0 || drop[v]) continue;
    /* walk up to the root (its own parent) or a vertex already marked;
     * parent trees have depth < n */
    int64_t x = v;
    for (int64_t steps = 0; steps <= n && !anc[x]; steps++) {
      anc[x] = 1;
      if (par[x] == x || par[x] < 0) break;
      x = par[x];
    }
  }
  for (int64_t v = 0; v < n; v++)
    if (drop[v] && !anc[v]) par[v] = -1;
}

gsp_info gsp__apsp_finish_rows(void *out, int64_t *par, const void *w, const int64_t *src, int64_t nb,
                               const gsp__apsp_finish *f, int nthreads) {
  gsp_info info = GSP_SUCCESS;
  const int64_t n = f->n;
  int nt = nthreads > 0 ? nthreads : 1;
  if (nt > nb) nt = (int)(nb > 0 ? nb : 1);
  uint8_t *scratch = NULL;
#define GSP_FREE_ALL gsp__free(scratch)
  GSP_CALLOC(scratch, (size_t)nt * 2, (size_t)(n > 0 ? n : 1));
  const size_t ws = gsp_type_size(f->tw), os = gsp_type_size(f->out);
  const fin_fn fin = fin_table[num_index(f->tw)][num_index(f->out)];
#pragma omp parallel num_threads(nt)
  {
    uint8_t *drop = scratch + (size_t)omp_get_thread_num() * 2 * (size_t)n, *anc = drop + n;
#pragma omp for schedule(dynamic, 4)
    for (int64_t k = 0; k < nb; k++) {
      void *o = (char *)out + (size_t)k * (size_t)n * os;
      const void *x = (const char *)w + (size_t)k * (size_t)n * ws;
      const int64_t drops = fin(o, x, n, f, src[k], drop);
      if (drops > 0) {
        if (par) prune_parents(par + (size_t)k * (size_t)n, drop, anc, n);
        for (int64_t v = 0; v < n; v++) drop[v] = 0;
      }
    }
  }
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}
