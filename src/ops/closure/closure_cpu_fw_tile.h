/*
 * The phase-3 tile product C = add(C, A (x) B) (C apart from A and B) as a
 * register-tiled SIMD kernel: an FW_MR_ x (FW_MW_ vectors) block of C stays
 * in registers while k runs over the whole tile; per k, FW_MW_ vectors of
 * row k of B are loaded once and meet one broadcast per row of the block
 * (BLIS-style). Part of the per-type template closure_cpu_fw_body.h, in
 * the SIMD units only (closure_cpu_fw_isa.h), with the vector operations
 * of closure_cpu_simd_*.h.
 *
 * The values are those of fw_update, bit for bit: every entry still takes
 * add(acc, mul(a, b)) for k = 0, 1, ... in order, with the same operand
 * order in min / max (which decides between +0 and -0 and drops a NaN
 * from inf + -inf), and where fw_update skips a == zero the kernel
 * computes a no-op (zero annihilates mul and is add's identity).
 *
 * The integer MIN_PLUS / MAX_PLUS multiply saturates
 * (gsp_plus_sat_inf / _ninf); with a broadcast a it is an exact clamp and a
 * wrapping add, from three per-(row, k) coefficients packed before the
 * k loop (s the addend, h and l the clamp bounds). MIN_PLUS:
 *   a >= 0:       min(b, MAX - a) + a    (exact, equals MAX when b = MAX)
 *   a == MAX:     min(b, MIN) + -1       (= MAX, wrapping: a no-op)
 *   a < 0:        max(b, MIN - a) + a,   then MAX where b == MAX
 * (MAX_PLUS mirrors it). A row block whose a are all of the first two kinds
 * (the usual case: no negative weights) runs without the b == MAX fix-up.
 */

#define FW_VOP_(op) FW_CAT(FW_V, op, _, FW_SFX)
#define FW_VT       FW_CAT(FW_V_, FW_SFX, , )
#define FW_VL       FW_CAT(FW_VL_, FW_SFX, , )
#define FW_MR       FW_CAT(FW_MR_, FW_SFX, , )
#define FW_MW       FW_CAT(FW_MW_, FW_SFX, , )
#define FW_TPACKED  (FW_INT && (sr == GSP_MIN_PLUS || sr == GSP_MAX_PLUS))

/* add(acc, mul(a, b)) on vectors; c0..c2 the broadcast coefficients (c0 =
 * a where nothing is packed, else s, h, l), e the b == MAX (MIN_PLUS) or
 * b == MIN (MAX_PLUS) fix-up of a general block. */
FW_INLINE FW_VT FW_FN(fw_vstep)(const gsp_semiring sr, const int general, FW_VT acc, FW_VT b, FW_VT e, FW_VT c0,
                                FW_VT c1, FW_VT c2) {
  switch (sr) {
  case GSP_MIN_PLUS:
    if (!FW_INT) return FW_VOP_(MIN)(FW_VOP_(ADD)(c0, b), acc);
    if (!general) return FW_VOP_(MIN)(FW_VOP_(ADD)(FW_VOP_(MIN)(b, c1), c0), acc);
    return FW_VOP_(MIN)(FW_VOP_(MAX)(FW_VOP_(ADD)(FW_VOP_(MIN)(FW_VOP_(MAX)(b, c2), c1), c0), e), acc);
  case GSP_MAX_PLUS:
    if (!FW_INT) return FW_VOP_(MAX)(FW_VOP_(ADD)(c0, b), acc);
    if (!general) return FW_VOP_(MAX)(FW_VOP_(ADD)(FW_VOP_(MAX)(b, c2), c0), acc);
    return FW_VOP_(MAX)(FW_VOP_(MIN)(FW_VOP_(ADD)(FW_VOP_(MAX)(FW_VOP_(MIN)(b, c1), c2), c0), e), acc);
  case GSP_MAX_MIN: /* gsp_min(a, b) = b < a ? b : a */
    return FW_VOP_(MAX)(FW_VOP_(MIN)(b, c0), acc);
  case GSP_MIN_MAX:
    return FW_VOP_(MIN)(FW_VOP_(MAX)(b, c0), acc);
  default:
    return acc;
  }
}

/* The coefficients of FW_MR rows of A, k-major (the broadcasts of one k
 * share a cache line, and the rows of A, ld apart, stop competing for the
 * same L1 sets): one per (k, r), a itself, or for the packed integer forms
 * three, (s, h, l), at pk[(k * FW_MR + r) * 3 + {0, 1, 2}]. Returns
 * FW_TSKIP when every a is zero (the block changes nothing: sparse inputs
 * in early rounds), else FW_TGENERAL when it needs the general form (some
 * a of the other sign), else 0. */
#define FW_TSKIP    1
#define FW_TGENERAL 2
FW_INLINE int FW_FN(fw_tpack)(FW_CT *pk, const FW_CT *A, int64_t ld, const gsp_semiring sr) {
  const FW_CT top = FW_FN(fw_zero)(GSP_MIN_PLUS), bot = FW_FN(fw_zero)(GSP_MAX_PLUS); /* MAX, MIN */
  const FW_CT szero = FW_FN(fw_zero)(sr);
  int general = 0, any = 0;
  for (int k = 0; k < TB; k++)
    for (int r = 0; r < FW_MR; r++) {
      const FW_CT a = A[(int64_t)r * ld + k];
      any |= a != szero;
      if (!FW_TPACKED) {
        pk[k * FW_MR + r] = a;
        continue;
      }
      FW_CT *c = pk + (k * FW_MR + r) * 3;
      /* MIN_PLUS; MAX_PLUS is its mirror image (top <-> bot, min <-> max) */
      const bool minp = sr == GSP_MIN_PLUS;
      const FW_CT zero = minp ? top : bot;
      if (a == zero) { /* clamp every b to the far end, wrap onto zero */
        c[0] = minp ? (FW_CT)-1 : (FW_CT)1;
        c[1] = c[2] = minp ? bot : top;
      } else if (minp ? a >= 0 : a <= 0) { /* no overflow towards zero's side */
        c[0] = a;
        c[1] = minp ? (FW_CT)(top - a) : top;
        c[2] = minp ? bot : (FW_CT)(bot - a);
      } else { /* clamped towards the other end; b == zero fixed by e */
        c[0] = a;
        c[1] = minp ? top : (FW_CT)(top - a);
        c[2] = minp ? (FW_CT)(bot - a) : bot;
        general = 1;
      }
    }
  return !any ? FW_TSKIP : general ? FW_TGENERAL : 0;
}

/* One register block: FW_MR rows of C (row stride ld) by FW_MW vectors,
 * from the packed coefficients pk and the packed B (row stride TB). */
FW_INLINE void FW_FN(fw_tblock)(FW_CT *C, int64_t ld, const FW_CT *pk, const FW_CT *B, const gsp_semiring sr,
                                const int general) {
  FW_VT acc[FW_MR][FW_MW];
#pragma GCC unroll 16
  for (int r = 0; r < FW_MR; r++)
#pragma GCC unroll 16
    for (int w = 0; w < FW_MW; w++) acc[r][w] = FW_VOP_(LOAD)(C + (int64_t)r * ld + w * FW_VL);
#if FW_INT
  /* e: zero where b is zero, else the other end (a no-op in the step) */
  const FW_VT fix = FW_VOP_(SET1)(FW_FN(fw_zero)(sr));
  const FW_VT pass = FW_VOP_(SET1)(FW_FN(fw_zero)(sr == GSP_MIN_PLUS ? GSP_MAX_PLUS : GSP_MIN_PLUS));
#endif
  for (int k = 0; k < TB; k++) {
    FW_VT b[FW_MW], e[FW_MW];
#pragma GCC unroll 16
    for (int w = 0; w < FW_MW; w++) {
      b[w] = FW_VOP_(LOAD)(B + k * TB + w * FW_VL);
      e[w] = b[w];
#if FW_INT
      if (general) e[w] = FW_VOP_(SELEQ)(b[w], fix, fix, pass);
#endif
    }
#pragma GCC unroll 16
    for (int r = 0; r < FW_MR; r++) {
      FW_VT c0, c1 = b[0], c2 = b[0];
      if (FW_TPACKED) {
        const FW_CT *c = pk + (k * FW_MR + r) * 3;
        c0 = FW_VOP_(SET1)(c[0]);
        c1 = FW_VOP_(SET1)(c[1]);
        c2 = FW_VOP_(SET1)(c[2]);
      } else {
        c0 = FW_VOP_(SET1)(pk[k * FW_MR + r]);
      }
#pragma GCC unroll 16
      for (int w = 0; w < FW_MW; w++) acc[r][w] = FW_FN(fw_vstep)(sr, general, acc[r][w], b[w], e[w], c0, c1, c2);
    }
  }
#pragma GCC unroll 16
  for (int r = 0; r < FW_MR; r++)
#pragma GCC unroll 16
    for (int w = 0; w < FW_MW; w++) FW_VOP_(STORE)(C + (int64_t)r * ld + w * FW_VL, acc[r][w]);
}

/* B is copied to a contiguous tile first: in place its rows lie ld apart,
 * and with ld a multiple of 1024 values (n = 2048, 4096) they all fall in
 * the same few L1 sets, so B would stream from L2 at every k. */
FW_INLINE void FW_FN(fw_product)(FW_CT *C, const FW_CT *A, const FW_CT *B, int64_t ld, const gsp_semiring sr) {
  _Static_assert(TB % FW_MR == 0 && TB % (FW_MW * FW_VL) == 0, "the register tile must divide the tile");
  FW_CT bp[TB * TB] __attribute__((aligned(64)));
  FW_CT pk[TB * FW_MR * 3] __attribute__((aligned(64)));
  for (int k = 0; k < TB; k++) memcpy(bp + k * TB, B + (int64_t)k * ld, TB * sizeof(FW_CT));
  for (int i = 0; i < TB; i += FW_MR) {
    FW_CT *ci = C + (int64_t)i * ld;
    const int kind = FW_FN(fw_tpack)(pk, A + (int64_t)i * ld, ld, sr);
    if (kind == FW_TSKIP) continue;
    if (kind == FW_TGENERAL) {
      for (int j = 0; j < TB; j += FW_MW * FW_VL) FW_FN(fw_tblock)(ci + j, ld, pk, bp + j, sr, 1);
    } else {
      for (int j = 0; j < TB; j += FW_MW * FW_VL) FW_FN(fw_tblock)(ci + j, ld, pk, bp + j, sr, 0);
    }
  }
}

#undef FW_VOP_
#undef FW_VT
#undef FW_VL
#undef FW_MR
#undef FW_MW
#undef FW_TPACKED
#undef FW_TSKIP
#undef FW_TGENERAL
