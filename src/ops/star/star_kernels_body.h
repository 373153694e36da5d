/*
 * The sparse star's kernels for one (semiring, type): star_kernels.c
 * includes this file once per pair with STAR_CT (the C type), STAR_SR (the
 * semiring's lower-case name), STAR_SRE (its gsp_semiring) and STAR_SFX (the type suffix of
 * gsp_semiring.h) defined. The operators are gsp_semiring.h's, so these
 * loops compute what the dense closure and the GPU kernels compute; the
 * inner loops run over STAR_B lanes or a contiguous row and vectorise as
 * plain min/max/add.
 */
#define SK_CAT3_(a, b, c)     a##b##c
#define SK_CAT3(a, b, c)      SK_CAT3_(a, b, c)
#define SK_FN(name)           SK_CAT3(star_, SK_CAT3(STAR_SR, _, STAR_SFX), SK_CAT3(_, name, ))
#define SK_PAIR_(sr, op, sfx) gsp_##sr##_##op##_##sfx
#define SK_PAIR(sr, op, sfx)  SK_PAIR_(sr, op, sfx)
#define ADD(a, b)             SK_PAIR(STAR_SR, add, STAR_SFX)(a, b)
#define MUL(a, b)             SK_PAIR(STAR_SR, mul, STAR_SFX)(a, b)
#define ZERO                  SK_PAIR(STAR_SR, zero, STAR_SFX)()
#define ONE                   SK_PAIR(STAR_SR, one, STAR_SFX)()
typedef STAR_CT SK_FN(t);
#define CT SK_FN(t)

static void SK_FN(fill_zero)(void *x, int64_t cnt) {
  CT *v = x;
  const CT z = ZERO;
  for (int64_t i = 0; i < cnt; i++) v[i] = z;
}

static void SK_FN(assemble)(void *x, const int64_t *at, const void *a, int64_t m) {
  CT *v = x;
  const CT *w = a;
  for (int64_t e = 0; e < m; e++) v[at[e]] = ADD(v[at[e]], w[e]);
}

/* y[b] += x[b] (x) a over the STAR_B lanes (a != zero) */
static inline void SK_FN(axpy)(CT *restrict y, const CT *restrict x, CT a) {
  for (int b = 0; b < STAR_B; b++) y[b] = ADD(y[b], MUL(x[b], a));
}

/* y[j] += a (x) x[j], j < len: a row of a product */
static inline void SK_FN(row_axpy)(CT *restrict y, const CT *restrict x, CT a, int64_t len) {
  for (int64_t j = 0; j < len; j++) y[j] = ADD(y[j], MUL(a, x[j]));
}

static gsp_info SK_FN(factor)(void *xv, void *Cv, const gsp__star_symbolic *S, int64_t s, void *work, int64_t *bad) {
  CT *x = xv, *C = Cv, *tmp = work;
  const int64_t w = S->super[s + 1] - S->super[s], nr = S->rp[s + 1] - S->rp[s];
  CT *D = x + S->vp[s], *L = D + w * w, *U = L + nr * w;
  const CT z = ZERO;
  /* D := D* (Floyd-Warshall; the diagonal starts at add(one, D(i,i))) */
  for (int64_t i = 0; i < w; i++) D[i * w + i] = ADD(ONE, D[i * w + i]);
  for (int64_t k = 0; k < w; k++) {
    const CT *Dk = D + k * w;
    for (int64_t i = 0; i < w; i++) {
      const CT a = D[i * w + k];
      if (i != k && a != z) SK_FN(row_axpy)(D + i * w, Dk, a, w);
    }
    for (int64_t i = 0; i < w; i++)
      if (ADD(D[i * w + i], ONE) != ONE) { /* a diagonal beats the empty path */
        *bad = i;
        return GSP_NEGATIVE_CYCLE;
      }
  }
  /* L := L (x) D, a row at a time through tmp */
  for (int64_t r = 0; r < nr; r++) {
    CT *Lr = L + r * w;
    for (int64_t k = 0; k < w; k++) tmp[k] = z;
    for (int64_t k = 0; k < w; k++)
      if (Lr[k] != z) SK_FN(row_axpy)(tmp, D + k * w, Lr[k], w);
    memcpy(Lr, tmp, (size_t)w * sizeof *Lr);
  }
  /* C += L (x) F[K,R], F[K,R] (U transposed) gathered into tmp */
  if (nr > 0) {
    CT *Ut = tmp;
    for (int64_t r = 0; r < nr; r++)
      for (int64_t k = 0; k < w; k++) Ut[k * nr + r] = U[r * w + k];
#pragma omp taskloop grainsize(8) if (nr * nr * w > ((int64_t)1 << 20))
    for (int64_t i = 0; i < nr; i++) {
      const CT *Li = L + i * w;
      for (int64_t k = 0; k < w; k++)
        if (Li[k] != z) SK_FN(row_axpy)(C + i * nr, Ut + k * nr, Li[k], nr);
    }
  }
  return GSP_SUCCESS;
}

static void SK_FN(extend_add)(void *xv, void *Cpv, const void *Cv, const gsp__star_symbolic *S, int64_t c) {
  CT *x = xv, *Cp = Cpv;
  const CT *C = Cv;
  const int64_t p = S->parent[c], nr = S->rp[c + 1] - S->rp[c];
  const int64_t pw = S->super[p + 1] - S->super[p], pnr = S->rp[p + 1] - S->rp[p];
  CT *D = x + S->vp[p], *L = D + pw * pw, *U = L + pnr * pw;
  const int64_t *rel = S->rel + S->rp[c];
  for (int64_t i = 0; i < nr; i++) {
    const int64_t fi = rel[i];
    const CT *Ci = C + i * nr;
    for (int64_t j = 0; j < nr; j++) {
      const int64_t fj = rel[j];
      CT *dst = fi < pw ? (fj < pw ? D + fi * pw + fj : U + (fj - pw) * pw + fi)
                        : (fj < pw ? L + (fi - pw) * pw + fj : Cp + (fi - pw) * pnr + (fj - pw));
      *dst = ADD(*dst, Ci[j]);
    }
  }
}

static void SK_FN(solve)(void *Wv, const void *xv, const gsp__star_symbolic *S, const uint8_t *active, bool col,
                         void *work) {
  CT *W = Wv, *tmp = work;
  const CT *x = xv;
  const CT z = ZERO;
  /* forward, supernodes ascending, only those a right-hand side reaches */
  for (int64_t s = 0; s < S->nsuper; s++) {
    if (!active[s]) continue;
    const int64_t k0 = S->super[s], w = S->super[s + 1] - k0, nr = S->rp[s + 1] - S->rp[s];
    const CT *D = x + S->vp[s], *L = D + w * w, *U = L + nr * w;
    const int64_t *R = S->rows + S->rp[s];
    CT *WK = W + k0 * STAR_B;
    if (!col) { /* x_K := x_K (x) D; x_R += x_K (x) F[K,R] */
      for (int64_t i = 0; i < w * STAR_B; i++) tmp[i] = z;
      for (int64_t j = 0; j < w; j++)
        for (int64_t k = 0; k < w; k++)
          if (D[j * w + k] != z) SK_FN(axpy)(tmp + k * STAR_B, WK + j * STAR_B, D[j * w + k]);
      memcpy(WK, tmp, (size_t)(w * STAR_B) * sizeof *WK);
    }
    const CT *P = col ? L : U; /* y_R += L (x) y_K, or x_R += x_K (x) F[K,R] */
    for (int64_t r = 0; r < nr; r++) {
      CT *Wr = W + R[r] * STAR_B;
      for (int64_t k = 0; k < w; k++)
        if (P[r * w + k] != z) SK_FN(axpy)(Wr, WK + k * STAR_B, P[r * w + k]);
    }
  }
  /* backward, supernodes descending: every one */
  for (int64_t s = S->nsuper - 1; s >= 0; s--) {
    const int64_t k0 = S->super[s], w = S->super[s + 1] - k0, nr = S->rp[s + 1] - S->rp[s];
    const CT *D = x + S->vp[s], *L = D + w * w, *U = L + nr * w;
    const int64_t *R = S->rows + S->rp[s];
    CT *WK = W + k0 * STAR_B;
    const CT *P = col ? U : L; /* y_K += F[K,R] (x) y_R, or x_K += x_R (x) L */
    for (int64_t r = 0; r < nr; r++) {
      const CT *Wr = W + R[r] * STAR_B;
      for (int64_t k = 0; k < w; k++)
        if (P[r * w + k] != z) SK_FN(axpy)(WK + k * STAR_B, Wr, P[r * w + k]);
    }
    if (col) { /* y_K := D (x) y_K */
      for (int64_t i = 0; i < w * STAR_B; i++) tmp[i] = z;
      for (int64_t k = 0; k < w; k++)
        for (int64_t j = 0; j < w; j++)
          if (D[k * w + j] != z) SK_FN(axpy)(tmp + k * STAR_B, WK + j * STAR_B, D[k * w + j]);
      memcpy(WK, tmp, (size_t)(w * STAR_B) * sizeof *WK);
    }
  }
}

static void SK_FN(unpack)(void *outv, const void *Wv, const int64_t *iperm, int64_t n, const int64_t *row, int64_t nb) {
  CT *out = outv;
  const CT *W = Wv;
  CT tile[64][STAR_B];
  /* 64 vertices at a time: their W rows (STAR_B lanes each) copied whole,
   * then written out as nb runs of 64 values, one per output row */
  for (int64_t v0 = 0; v0 < n; v0 += 64) {
    const int64_t nv = n - v0 < 64 ? n - v0 : 64;
    for (int64_t i = 0; i < nv; i++) memcpy(tile[i], W + iperm[v0 + i] * STAR_B, sizeof tile[i]);
    for (int64_t b = 0; b < nb; b++) {
      CT *o = out + row[b] * n + v0;
      for (int64_t i = 0; i < nv; i++) o[i] = tile[i][b];
    }
  }
}

static void SK_FN(unit)(void *Wv, int64_t n, const int64_t *pos, int64_t nb) {
  CT *W = Wv;
  SK_FN(fill_zero)(W, n * STAR_B);
  for (int64_t b = 0; b < nb; b++) W[pos[b] * STAR_B + b] = ONE;
}

static const gsp__star_kernels SK_FN(kernels) = {
    .sr = STAR_SRE,
    .esize = sizeof(CT),
    .fill_zero = SK_FN(fill_zero),
    .assemble = SK_FN(assemble),
    .factor = SK_FN(factor),
    .extend_add = SK_FN(extend_add),
    .solve = SK_FN(solve),
    .unpack = SK_FN(unpack),
    .unit = SK_FN(unit),
};

#undef CT
#undef ADD
#undef MUL
#undef ZERO
#undef ONE
#undef SK_CAT3_
#undef SK_CAT3
#undef SK_FN
#undef SK_PAIR_
#undef SK_PAIR
