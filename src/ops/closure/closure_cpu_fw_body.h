/*
 * Generic Floyd-Warshall for one element type. C has no templates, so this
 * file is the template: closure_cpu_fw.c includes it once per type with
 * FW_CT (the C type), FW_SFX (the suffix of gsp_semiring.h) and FW_SR_LIST
 * (the closure semirings of that type) defined.
 *
 * The generic bodies are force-inlined into thin wrappers stamped per
 * semiring, where the semiring is a constant: every switch on it folds away
 * and the inner loops are plain min/max/add loops the compiler vectorises
 * (zstd's ZSTD_GEN_FAST_FN trick). The operators themselves come from
 * gsp_semiring.h, so the CPU and CUDA kernels share one definition.
 *
 * Two drivers:
 *  - blocked (distances only): Venkataraman tiles, cache-resident updates;
 *  - the textbook k-i-j order with successors (its steps fused by blocks of
 *    TB for memory traffic, see below): blocked FW reads panel values that
 *    already went through later k of the block, and with ties (zero-weight
 *    cycles, bottleneck and boolean semirings) the successor pointers it
 *    records can form loops (seen in tests); the textbook order keeps the
 *    classic guarantee that every recorded walk ends at its target.
 */

#define FW_FN(name) FW_CAT(name, _, FW_SFX, )

/* ---- semiring operators on a compile-time semiring ---- */

#define FW_CASE_ADD_(SR, sr) \
  case GSP_##SR:             \
    return FW_CAT(gsp_, sr, _add_, FW_SFX)(a, b);
#define FW_CASE_MUL_(SR, sr) \
  case GSP_##SR:             \
    return FW_CAT(gsp_, sr, _mul_, FW_SFX)(a, b);
#define FW_CASE_ZERO_(SR, sr) \
  case GSP_##SR:              \
    return FW_CAT(gsp_, sr, _zero_, FW_SFX)();
#define FW_CASE_ONE_(SR, sr) \
  case GSP_##SR:             \
    return FW_CAT(gsp_, sr, _one_, FW_SFX)();

FW_INLINE FW_CT FW_FN(fw_add)(const gsp_semiring sr, FW_CT a, FW_CT b) {
  switch (sr) { FW_SR_LIST(FW_CASE_ADD_) default : return a; }
}
FW_INLINE FW_CT FW_FN(fw_mul)(const gsp_semiring sr, FW_CT a, FW_CT b) {
  switch (sr) { FW_SR_LIST(FW_CASE_MUL_) default : return a; }
}
FW_INLINE FW_CT FW_FN(fw_zero)(const gsp_semiring sr) {
  switch (sr) { FW_SR_LIST(FW_CASE_ZERO_) default : return (FW_CT)0; }
}
FW_INLINE FW_CT FW_FN(fw_one)(const gsp_semiring sr) {
  switch (sr) { FW_SR_LIST(FW_CASE_ONE_) default : return (FW_CT)0; }
}

#undef FW_CASE_ADD_
#undef FW_CASE_MUL_
#undef FW_CASE_ZERO_
#undef FW_CASE_ONE_

/* ---- generic bodies ---- */

/* c[j] = add(c[j], mul(a, b[j])) for j < TB. c may equal b (same index
 * only), which is why the loop is asserted independent with omp simd rather
 * than restrict. */
FW_INLINE void FW_FN(fw_row)(FW_CT *c, FW_CT a, const FW_CT *b, const gsp_semiring sr) {
#pragma omp simd
  for (int j = 0; j < TB; j++) c[j] = FW_FN(fw_add)(sr, c[j], FW_FN(fw_mul)(sr, a, b[j]));
}

/* Phase 1: Floyd-Warshall inside the diagonal tile T (in place). */
FW_INLINE void FW_FN(fw_diag)(FW_CT *T, int64_t ld, const gsp_semiring sr) {
  const FW_CT zero = FW_FN(fw_zero)(sr);
  for (int k = 0; k < TB; k++) {
    const FW_CT *tk = T + (int64_t)k * ld;
    for (int i = 0; i < TB; i++) {
      FW_CT *ti = T + (int64_t)i * ld;
      const FW_CT a = ti[k];
      if (a == zero) continue; /* zero absorbs in mul and is add's identity */
      FW_FN(fw_row)(ti, a, tk, sr);
    }
  }
}

/*
 * Phases 2 and 3: C = add(C, A (x) B) as a plain product. It is exact in any
 * loop order, also in place (phase 2 has C == B for a row panel and C == A
 * for a column panel): once the diagonal tile is closed, one product adds
 * every path whose intermediates lie in the k-block, and entries read after
 * being improved are still weights of real paths, never below the optimum.
 *
 * A row segment of C is accumulated in a local array of 256 bytes (16 SSE
 * registers) across the whole k loop: the compiler keeps it in registers
 * since it cannot alias A or B, which leaves one load per vector of tasks
 * instead of two loads and a store (+33% fp32, +55% fp64 measured).
 */
#define FW_ACC ((int)(256 / sizeof(FW_CT)) < TB ? (int)(256 / sizeof(FW_CT)) : TB)
FW_INLINE void FW_FN(fw_update)(FW_CT *C, const FW_CT *A, const FW_CT *B, int64_t ld, const gsp_semiring sr) {
  const FW_CT zero = FW_FN(fw_zero)(sr);
  for (int i = 0; i < TB; i++) {
    FW_CT *ci = C + (int64_t)i * ld;
    const FW_CT *ai = A + (int64_t)i * ld;
    for (int h = 0; h < TB; h += FW_ACC) {
      FW_CT acc[FW_ACC];
      memcpy(acc, ci + h, sizeof acc);
      for (int k = 0; k < TB; k++) {
        const FW_CT a = ai[k];
        if (a == zero) continue; /* zero absorbs in mul and is add's identity */
        const FW_CT *b = B + (int64_t)k * ld + h;
#pragma omp simd
        for (int j = 0; j < FW_ACC; j++) acc[j] = FW_FN(fw_add)(sr, acc[j], FW_FN(fw_mul)(sr, a, b[j]));
      }
      memcpy(ci + h, acc, sizeof acc);
    }
  }
}
#undef FW_ACC

/* Row i of step k of the standard order, with successors: where going
 * through k strictly improves c[j], c[j] takes the new value and sc[j] the
 * first hop towards k (sa). Written with a mask, not a conditional, so
 * that it vectorises. */
FW_INLINE void FW_FN(fw_row_paths)(FW_CT *restrict c, int64_t *restrict sc, FW_CT a, int64_t sa,
                                   const FW_CT *restrict b, int64_t len, const gsp_semiring sr) {
#pragma omp simd
  for (int64_t j = 0; j < len; j++) {
    const FW_CT old = c[j];
    const FW_CT v = FW_FN(fw_add)(sr, old, FW_FN(fw_mul)(sr, a, b[j]));
    const int64_t took = (int64_t)(v == old) - 1; /* all ones iff improved */
    c[j] = v;
    sc[j] = (sa & took) | (sc[j] & ~took);
  }
}

/* Phase 3 (C distinct from A and B): the register-tiled SIMD product of
 * an ISA translation unit where this type has one (closure_cpu_fw_tile.h),
 * else the plain update above. */
#ifdef FW_TILE_SIMD
#include "closure_cpu_fw_tile.h"
#define FW_PRODUCT_(sr) FW_CAT(fw_product_, sr, _, FW_SFX)
#else
#define FW_PRODUCT_(sr) FW_CAT(fw_update_, sr, _, FW_SFX)
#endif

/* ---- stamped kernels: one per semiring ----
 *
 * The OpenMP regions live in the per-type drivers below, which call these
 * through pointers: GCC outlines a parallel region before it inlines, so a
 * region inside a force-inlined body would be shared by all semirings with
 * the semiring as a runtime value, and nothing would fold. */

typedef struct {
  gsp_semiring sr;
  void (*diag)(FW_CT *T, int64_t ld);
  void (*update)(FW_CT *C, const FW_CT *A, const FW_CT *B, int64_t ld);
  void (*product)(FW_CT *C, const FW_CT *A, const FW_CT *B, int64_t ld); /* C apart from A, B */
  void (*row_paths)(FW_CT *c, int64_t *sc, FW_CT a, int64_t sa, const FW_CT *b, int64_t len);
} FW_FN(fw_kernels);

#define FW_STAMP_(SR, sr)                                                                                        \
  static void FW_CAT(fw_diag_, sr, _, FW_SFX)(FW_CT * T, int64_t ld) {                                           \
    FW_FN(fw_diag)(T, ld, GSP_##SR);                                                                             \
  }                                                                                                              \
  static void FW_CAT(fw_update_, sr, _, FW_SFX)(FW_CT * C, const FW_CT *A, const FW_CT *B, int64_t ld) {         \
    FW_FN(fw_update)(C, A, B, ld, GSP_##SR);                                                                     \
  }                                                                                                              \
  static void FW_CAT(fw_row_paths_, sr, _, FW_SFX)(FW_CT * c, int64_t * sc, FW_CT a, int64_t sa, const FW_CT *b, \
                                                   int64_t len) {                                                \
    FW_FN(fw_row_paths)(c, sc, a, sa, b, len, GSP_##SR);                                                         \
  }                                                                                                              \
  FW_TILE_STAMP_(SR, sr)
#ifdef FW_TILE_SIMD
#define FW_TILE_STAMP_(SR, sr)                                                                            \
  static void FW_CAT(fw_product_, sr, _, FW_SFX)(FW_CT * C, const FW_CT *A, const FW_CT *B, int64_t ld) { \
    FW_FN(fw_product)(C, A, B, ld, GSP_##SR);                                                             \
  }
#else
#define FW_TILE_STAMP_(SR, sr)
#endif
FW_SR_LIST(FW_STAMP_)
#undef FW_TILE_STAMP_
#undef FW_STAMP_

/* Kernels for a semiring of this type's list (false if it has none). */
static bool FW_FN(fw_pick)(FW_FN(fw_kernels) * k, gsp_semiring sr) {
  switch (sr) {
#define FW_PICK_(SR, sr_)                                 \
  case GSP_##SR:                                          \
    k->sr = GSP_##SR;                                     \
    k->diag = FW_CAT(fw_diag_, sr_, _, FW_SFX);           \
    k->update = FW_CAT(fw_update_, sr_, _, FW_SFX);       \
    k->product = FW_PRODUCT_(sr_);                        \
    k->row_paths = FW_CAT(fw_row_paths_, sr_, _, FW_SFX); \
    return true;
    FW_SR_LIST(FW_PICK_)
#undef FW_PICK_
  default:
    return false;
  }
}

/* Whether d(k,k) beats the empty path: a negative (MIN_PLUS) or positive
 * (MAX_PLUS) cycle. The other semirings have none. */
static inline bool FW_FN(fw_cycle_at)(gsp_semiring sr, FW_CT dkk) {
  if (sr != GSP_MIN_PLUS && sr != GSP_MAX_PLUS) return false;
  const FW_CT one = FW_FN(fw_one)(sr);
  return FW_FN(fw_add)(sr, one, dkk) != one;
}

/* ---- blocked driver on a padded np x np array (np % TB == 0) ---- */

static bool FW_FN(fw_blocked)(FW_CT *w, int64_t np, int nth, const FW_FN(fw_kernels) * kern,
                              const gsp__progress *progress) {
  const int64_t nb = np / TB;
#define FW_TILE_(I, J) (w + ((I)*np + (J)) * TB)
  for (int64_t K = 0; K < nb; K++) {
    FW_CT *dkk = FW_TILE_(K, K);
    kern->diag(dkk, np);
    /* A cycle that beats the empty path shows on the diagonal as soon as
     * the block holding its largest vertex is closed. Stopping here keeps
     * the cost and the overflow spiral bounded. */
    bool cycle = false;
    for (int i = 0; i < TB; i++) cycle |= FW_FN(fw_cycle_at)(kern->sr, dkk[(int64_t)i * np + i]);
    if (cycle) return true;
#pragma omp parallel num_threads(nth)
    {
      /* Phase 2: row panel (K, X) and column panel (X, K) for X != K. */
#pragma omp for schedule(dynamic, 1)
      for (int64_t p = 0; p < 2 * nb; p++) {
        const int64_t X = p >> 1;
        if (X == K) continue;
        if ((p & 1) == 0) kern->update(FW_TILE_(K, X), dkk, FW_TILE_(K, X), np);
        else kern->update(FW_TILE_(X, K), FW_TILE_(X, K), dkk, np);
      }
      /* Phase 3: every other tile, independent of each other. */
#pragma omp for collapse(2) schedule(static)
      for (int64_t I = 0; I < nb; I++) {
        for (int64_t J = 0; J < nb; J++) {
          if (I == K || J == K) continue;
          kern->product(FW_TILE_(I, J), FW_TILE_(I, K), FW_TILE_(K, J), np);
        }
      }
    }
    if (gsp__progress_due(progress, K, nb)) gsp__progress_report(progress, (double)(K + 1) / (double)nb);
  }
#undef FW_TILE_
  return false;
}

/* ---- the tile kernels as gsp__fw_tiles (closure_cpu.h) ----
 * void-pointer entry points to the stamped kernels above, one set per
 * semiring, for drivers outside this file. */

#define FW_STAMP_TILES_(SR, sr)                                                                         \
  static void FW_CAT(fw_tdiag_, sr, _, FW_SFX)(void *T, int64_t ld) {                                   \
    FW_CAT(fw_diag_, sr, _, FW_SFX)((FW_CT *)T, ld);                                                    \
  }                                                                                                     \
  static void FW_CAT(fw_tupdate_, sr, _, FW_SFX)(void *C, const void *A, const void *B, int64_t ld) {   \
    FW_CAT(fw_update_, sr, _, FW_SFX)((FW_CT *)C, (const FW_CT *)A, (const FW_CT *)B, ld);              \
  }                                                                                                     \
  static void FW_CAT(fw_tproduct_, sr, _, FW_SFX)(void *C, const void *A, const void *B, int64_t ld) {  \
    FW_PRODUCT_(sr)((FW_CT *)C, (const FW_CT *)A, (const FW_CT *)B, ld);                                \
  }                                                                                                     \
  static bool FW_CAT(fw_tcycle_, sr, _, FW_SFX)(const void *T, int64_t ld) {                            \
    bool cycle = false;                                                                                 \
    for (int i = 0; i < TB; i++) cycle |= FW_FN(fw_cycle_at)(GSP_##SR, ((const FW_CT *)T)[i * ld + i]); \
    return cycle;                                                                                       \
  }                                                                                                     \
  static void FW_CAT(fw_trefl_, sr, _, FW_SFX)(void *T, int64_t ld, int64_t m) {                        \
    FW_CT *d = T;                                                                                       \
    for (int64_t i = 0; i < m && i < TB; i++)                                                           \
      d[i * ld + i] = FW_FN(fw_add)(GSP_##SR, FW_FN(fw_one)(GSP_##SR), d[i * ld + i]);                  \
  }
FW_SR_LIST(FW_STAMP_TILES_)
#undef FW_STAMP_TILES_

static bool FW_FN(fw_tiles)(gsp__fw_tiles *k, gsp_semiring sr) {
  switch (sr) {
#define FW_TILES_(SR, sr_)                             \
  case GSP_##SR: {                                     \
    const FW_CT zero = FW_FN(fw_zero)(GSP_##SR);       \
    k->esize = sizeof(FW_CT);                          \
    memset(k->zero, 0, sizeof k->zero);                \
    memcpy(k->zero, &zero, sizeof zero);               \
    k->diag = FW_CAT(fw_tdiag_, sr_, _, FW_SFX);       \
    k->update = FW_CAT(fw_tupdate_, sr_, _, FW_SFX);   \
    k->product = FW_CAT(fw_tproduct_, sr_, _, FW_SFX); \
    k->cycle = FW_CAT(fw_tcycle_, sr_, _, FW_SFX);     \
    k->reflexive = FW_CAT(fw_trefl_, sr_, _, FW_SFX);  \
    return true;                                       \
  }
    FW_SR_LIST(FW_TILES_)
#undef FW_TILES_
  default:
    return false;
  }
}

/* ---- standard-order driver with successors (n x n, unpadded) ----
 *
 * Every entry (i,j) sees exactly the operands of the textbook k-i-j order:
 * at step k, d(i,k) and row k as they are after step k-1 (row and column k
 * do not change during step k without a cycle beating the empty path). The
 * steps are fused by blocks of TB, though, so that the matrix is streamed
 * once per TB steps instead of once per step:
 *  1. the TB pivot rows run their TB steps in plain order (one thread),
 *     and row k is copied out after step k (snapshot s = k - k0);
 *  2. every other row runs the TB steps on the pivot columns only, which
 *     yields the sequence of d(i,k) (and successors) that step k uses;
 *  3. every other row and column applies the TB steps from those values
 *     and the snapshots, in column chunks so the snapshots stay in cache.
 */

#define FW_CHUNK 512 /* columns per chunk in pass 3 */

static gsp_info FW_FN(fw_standard_paths)(FW_CT *w, int64_t *ws, int64_t n, int nth, const FW_FN(fw_kernels) * kern,
                                         bool *cycle, const gsp__progress *progress) {
  const FW_CT zero = FW_FN(fw_zero)(kern->sr);
  FW_CT *snap = gsp__malloc_array((size_t)(TB * n), sizeof(FW_CT));
  int64_t *ssnap = gsp__malloc_array((size_t)(TB * n), sizeof(int64_t));
  FW_CT *av = gsp__malloc_array((size_t)(TB * n), sizeof(FW_CT));
  int64_t *sav = gsp__malloc_array((size_t)(TB * n), sizeof(int64_t));
  if (!snap || !ssnap || !av || !sav) {
    gsp__free(snap), gsp__free(ssnap), gsp__free(av), gsp__free(sav);
    return GSP_ERROR(GSP_OUT_OF_MEMORY, "closure: cannot allocate %lld x %d pivot buffers", (long long)n, TB);
  }
  const int64_t nchunks = (n + FW_CHUNK - 1) / FW_CHUNK, rounds = (n + TB - 1) / TB;
  bool cyc = false;
  for (int64_t k0 = 0; k0 < n && !cyc; k0 += TB) {
    const int64_t nb = (n - k0 < TB) ? n - k0 : TB;
    /* 1. pivot rows, plain order */
    for (int64_t s = 0; s < nb && !cyc; s++) {
      const int64_t k = k0 + s;
      /* d(k,k) holds every cycle through k with intermediates < k. */
      if (FW_FN(fw_cycle_at)(kern->sr, w[k * n + k])) {
        cyc = true;
        break;
      }
      for (int64_t i = k0; i < k0 + nb; i++) {
        const FW_CT a = w[i * n + k];
        if (i == k || a == zero) continue;
        kern->row_paths(w + i * n, ws + i * n, a, ws[i * n + k], w + k * n, n);
      }
      memcpy(snap + s * n, w + k * n, (size_t)n * sizeof(FW_CT));
      memcpy(ssnap + s * n, ws + k * n, (size_t)n * sizeof(int64_t));
    }
    if (cyc) break;
#pragma omp parallel num_threads(nth)
    {
      /* 2. the pivot columns of every other row, recording d(i,k) */
#pragma omp for schedule(static)
      for (int64_t i = 0; i < n; i++) {
        if (i >= k0 && i < k0 + nb) continue;
        FW_CT *wi = w + i * n;
        int64_t *si = ws + i * n;
        for (int64_t s = 0; s < nb; s++) {
          const FW_CT a = wi[k0 + s];
          av[i * TB + s] = a;
          sav[i * TB + s] = si[k0 + s];
          if (a != zero) kern->row_paths(wi + k0, si + k0, a, si[k0 + s], snap + s * n + k0, nb);
        }
      }
      /* 3. the rest: chunk-major so a chunk of the snapshots is reused by
       * consecutive rows of a thread */
#pragma omp for collapse(2) schedule(static)
      for (int64_t c = 0; c < nchunks; c++) {
        for (int64_t i = 0; i < n; i++) {
          if (i >= k0 && i < k0 + nb) continue;
          const int64_t c0 = c * FW_CHUNK, c1 = (c0 + FW_CHUNK < n) ? c0 + FW_CHUNK : n;
          FW_CT *wi = w + i * n;
          int64_t *si = ws + i * n;
          for (int64_t s = 0; s < nb; s++) {
            const FW_CT a = av[i * TB + s];
            if (a == zero) continue;
            const int64_t sa = sav[i * TB + s];
            const FW_CT *row = snap + s * n;
            /* columns of the chunk left and right of the pivot columns */
            const int64_t l1 = (c1 < k0) ? c1 : k0, r0 = (c0 > k0 + nb) ? c0 : k0 + nb;
            if (c0 < l1) kern->row_paths(wi + c0, si + c0, a, sa, row + c0, l1 - c0);
            if (r0 < c1) kern->row_paths(wi + r0, si + r0, a, sa, row + r0, c1 - r0);
          }
        }
      }
    }
    if (gsp__progress_due(progress, k0 / TB, rounds))
      gsp__progress_report(progress, (double)(k0 / TB + 1) / (double)rounds);
  }
  gsp__free(snap), gsp__free(ssnap), gsp__free(av), gsp__free(sav);
  *cycle = cyc;
  return GSP_SUCCESS;
}
#undef FW_CHUNK

/*
 * Entry for this type. Without successors: pad to a multiple of TB with the
 * semiring zero (no edges, so padding never changes a result), run the
 * blocked driver, copy back (in place when n is already a multiple). With
 * successors: initialise them (j where there is an edge) and run the
 * standard driver in place.
 */
static gsp_info FW_FN(fw_dense)(FW_CT *d, int64_t *succ, int64_t n, gsp_semiring sr, bool reflexive, bool *cycle,
                                const gsp__progress *progress) {
  FW_FN(fw_kernels) kern;
  if (!FW_FN(fw_pick)(&kern, sr)) return GSP_ERROR(GSP_PANIC, "closure: semiring %d has no CPU kernel", (int)sr);
  const FW_CT zero = FW_FN(fw_zero)(sr), one = FW_FN(fw_one)(sr);
  const int nth = gsp__threads() > 0 ? gsp__threads() : 1;
  *cycle = false;
  if (n == 0) return GSP_SUCCESS;
  bool cyc = false;
  if (succ) {
#pragma omp parallel for num_threads(nth) schedule(static)
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < n; j++) succ[i * n + j] = (d[i * n + j] != zero) ? j : -1;
    const gsp_info info = FW_FN(fw_standard_paths)(d, succ, n, nth, &kern, &cyc, progress);
    if (info != GSP_SUCCESS) return info;
  } else {
    const int64_t np = (n + TB - 1) / TB * TB;
    FW_CT *w = d;
    if (np != n) {
      w = gsp__malloc_array((size_t)(np * np), sizeof(FW_CT));
      if (w == NULL)
        return GSP_ERROR(GSP_OUT_OF_MEMORY, "closure: cannot allocate a %lld x %lld padded work array", (long long)np,
                         (long long)np);
#pragma omp parallel for num_threads(nth) schedule(static)
      for (int64_t i = 0; i < np; i++) {
        FW_CT *wi = w + i * np;
        int64_t j0 = 0;
        if (i < n) {
          memcpy(wi, d + i * n, (size_t)n * sizeof(FW_CT));
          j0 = n;
        }
        for (int64_t j = j0; j < np; j++) wi[j] = zero;
      }
    }
    cyc = FW_FN(fw_blocked)(w, np, nth, &kern, progress);
    if (np != n) {
      if (!cyc) {
#pragma omp parallel for num_threads(nth) schedule(static)
        for (int64_t i = 0; i < n; i++) memcpy(d + i * n, w + i * np, (size_t)n * sizeof(FW_CT));
      }
      gsp__free(w);
    }
  }
  if (!cyc && reflexive) {
    for (int64_t i = 0; i < n; i++) {
      d[i * n + i] = FW_FN(fw_add)(sr, one, d[i * n + i]);
      if (succ) succ[i * n + i] = i;
    }
  }
  *cycle = cyc;
  return GSP_SUCCESS;
}

#undef FW_PRODUCT_
#undef FW_FN
