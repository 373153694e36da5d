/*
 * The CPU closure kernels of every instruction set (AVX2, AVX-512:
 * src/ops/closure/closure_cpu_isa.h) against the portable one, bit for bit:
 * every numeric type and closure semiring, with absent entries, negative
 * weights, negative cycles, signed zeros, infinities and integer extremes,
 * at every n from 1 to 130 and a few larger ones (none a multiple of the
 * tile but 64 and 128), with and without successors; the phase-3 tile
 * product alone on hostile tiles; NaN refused under every set. A set this
 * processor lacks is checked to be refused instead (and the log says so).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "closure_cpu.h"
#include "gsp.h"

static uint64_t rng_state;

static uint64_t rnd(void) {
  uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/* Whether isa runs here. Where the processor lacks it, the check is that
 * the set is refused and never chosen, and the log says so: on a machine
 * with AVX-512 (every set) the comparisons themselves run. */
static bool isa_here(gsp__cpu_isa_t isa) {
  if (gsp__cpu_isa_supported(isa)) return true;
  /* said on stderr, not with cr_log_warn: Criterion 2.4 exits 1 after any
   * warning, which failed this suite on every processor without AVX-512 */
  fprintf(stderr, "closure_isa: instruction set %s: not on this processor; checking that it is refused\n",
          gsp__cpu_isa_name(isa));
  gsp__cpu_isa_force(GSP_CPU_ISA_COUNT);
  cr_assert_eq(gsp__cpu_isa_force(isa), GSP_INVALID_VALUE);
  cr_assert_neq(gsp__cpu_isa(), isa);
  return false;
}

static void force(gsp__cpu_isa_t isa) {
  cr_assert_eq(gsp__cpu_isa_force(isa), GSP_SUCCESS, "instruction set %s unavailable: %s", gsp__cpu_isa_name(isa),
               gsp_last_error());
  cr_assert_eq(gsp__cpu_isa(), isa);
}

static void restore(void) {
  gsp__cpu_isa_force(GSP_CPU_ISA_COUNT);
}

static size_t type_size(gsp_type t) {
  return gsp_type_size(t);
}

/* One random value of type t for semiring s: the semiring zero (absent)
 * with probability pz, else mostly small weights of either sign (negative
 * only where neg), now and then a signed zero, an infinity or an integer
 * near the extremes (saturation). */
static void rand_value(void *x, gsp_type t, gsp_semiring s, double pz, bool neg, bool extremes) {
  const double u = (double)(rnd() >> 11) * 0x1.0p-53;
  const uint64_t r = rnd();
  const bool plus = s == GSP_MIN_PLUS || s == GSP_MAX_PLUS;
  const int sign = s == GSP_MAX_PLUS ? -1 : 1; /* MAX_PLUS: weights <= 0 close without cycles */
  if (u < pz) {
    gsp__semiring_zero(x, s, t);
    return;
  }
  int64_t v = (int64_t)(r % 100);
  if (neg && (r >> 40) % 4 == 0) v = -v;
  if (plus) v *= sign;
  else v -= 50;
  const int kind = extremes ? (int)((r >> 20) % 16) : 15;
  switch (t) {
  case GSP_INT32: {
    int32_t w = (int32_t)v;
    if (kind == 0) w = INT32_MAX - (int32_t)(r >> 50);
    if (kind == 1) w = INT32_MIN + (int32_t)(r >> 50);
    if (kind == 2) w = (r >> 33) & 1 ? INT32_MAX : INT32_MIN;
    memcpy(x, &w, sizeof w);
    break;
  }
  case GSP_INT64: {
    int64_t w = v;
    if (kind == 0) w = INT64_MAX - (int64_t)(r >> 50);
    if (kind == 1) w = INT64_MIN + (int64_t)(r >> 50);
    if (kind == 2) w = (r >> 33) & 1 ? INT64_MAX : INT64_MIN;
    memcpy(x, &w, sizeof w);
    break;
  }
  case GSP_FP32: {
    float w = (float)v * 0.25f;
    if (kind == 0) w = -0.0f;
    if (kind == 1) w = 0.0f;
    if (kind == 2) w = (r >> 33) & 1 ? INFINITY : -INFINITY;
    memcpy(x, &w, sizeof w);
    break;
  }
  case GSP_FP64: {
    double w = (double)v * 0.125;
    if (kind == 0) w = -0.0;
    if (kind == 1) w = 0.0;
    if (kind == 2) w = (r >> 33) & 1 ? INFINITY : -INFINITY;
    memcpy(x, &w, sizeof w);
    break;
  }
  case GSP_BOOL: {
    bool w = (r >> 7) & 1;
    memcpy(x, &w, sizeof w);
    break;
  }
  }
}

static const gsp_type num_types[] = {GSP_INT32, GSP_INT64, GSP_FP32, GSP_FP64};
static const gsp_semiring num_srs[] = {GSP_MIN_PLUS, GSP_MAX_PLUS, GSP_MAX_MIN, GSP_MIN_MAX};

/* The closure of one random n x n matrix under isa and under the portable
 * kernels: the same cycle verdict, the same bytes (distances, successors). */
static void check_closure(gsp__cpu_isa_t isa, gsp_type t, gsp_semiring s, int64_t n, bool paths, double pz, bool neg,
                          bool extremes, int *cycles) {
  const size_t es = type_size(t), nn = (size_t)(n * n);
  unsigned char *d0 = malloc(nn * es + 1), *d1 = malloc(nn * es + 1);
  int64_t *s0 = paths ? malloc(nn * sizeof *s0) : NULL, *s1 = paths ? malloc(nn * sizeof *s1) : NULL;
  cr_assert(d0 && d1 && (!paths || (s0 && s1)));
  for (size_t q = 0; q < nn; q++) rand_value(d0 + q * es, t, s, pz, neg, extremes);
  memcpy(d1, d0, nn * es);
  const bool refl = (rnd() & 1) != 0;
  bool c0 = false, c1 = false;
  force(GSP_CPU_PORTABLE);
  cr_assert_eq(gsp__closure_cpu_dense(d0, s0, n, t, s, refl, &c0, NULL), GSP_SUCCESS);
  force(isa);
  cr_assert_eq(gsp__closure_cpu_dense(d1, s1, n, t, s, refl, &c1, NULL), GSP_SUCCESS);
  cr_assert_eq(c0, c1, "%s %s type %d sr %d n %lld: cycle %d against portable %d", gsp__cpu_isa_name(isa),
               paths ? "paths" : "dist", (int)t, (int)s, (long long)n, c1, c0);
  *cycles += c0;
  if (!c0) { /* after a cycle the arrays hold the state of the stopped run */
    size_t q = 0;
    while (q < nn * es && d0[q] == d1[q]) q++;
    cr_assert_eq(q, nn * es, "%s %s type %d sr %d n %lld: byte %zu (entry %zu) differs from portable",
                 gsp__cpu_isa_name(isa), paths ? "paths" : "dist", (int)t, (int)s, (long long)n, q, q / es);
    if (paths)
      cr_assert_eq(memcmp(s0, s1, nn * sizeof *s0), 0, "%s successors type %d sr %d n %lld differ",
                   gsp__cpu_isa_name(isa), (int)t, (int)s, (long long)n);
  }
  free(d0), free(d1), free(s0), free(s1);
}

static void sweep(gsp__cpu_isa_t isa) {
  if (!isa_here(isa)) return;
  rng_state = 1000u + (uint64_t)isa;
  int cycles = 0, runs = 0;
  static const int64_t larger[] = {191, 200, 256, 257, 300};
  for (size_t ti = 0; ti < 4; ti++)
    for (size_t si = 0; si < 4; si++) {
      const gsp_type t = num_types[ti];
      const gsp_semiring s = num_srs[si];
      for (int64_t n = 1; n <= 130; n++, runs++) {
        /* alternate: absent-heavy, dense with negative weights, extremes */
        const int v = (int)(n % 3);
        check_closure(isa, t, s, n, false, v == 0 ? 0.8 : 0.2, v != 0, v == 2, &cycles);
      }
      for (size_t q = 0; q < sizeof larger / sizeof larger[0]; q++, runs++)
        check_closure(isa, t, s, larger[q], false, q % 2 ? 0.5 : 0.97, q % 2 == 0, false, &cycles);
    }
  /* the MIN_PLUS / MAX_PLUS runs with negative weights must include cycles
   * and the sparse ones closures without: both verdicts are compared */
  cr_assert_gt(cycles, 0);
  cr_assert_lt(cycles, runs);
  restore();
}

static void sweep_paths(gsp__cpu_isa_t isa) {
  if (!isa_here(isa)) return;
  rng_state = 2000u + (uint64_t)isa;
  int cycles = 0;
  for (size_t ti = 0; ti < 4; ti++)
    for (size_t si = 0; si < 4; si++)
      for (int64_t n = 1; n <= 130; n += 7)
        check_closure(isa, num_types[ti], num_srs[si], n, true, 0.6, n % 2 == 0, n % 3 == 0, &cycles);
  for (int64_t n = 1; n <= 130; n += 13) check_closure(isa, GSP_BOOL, GSP_OR_AND, n, true, 0.7, false, false, &cycles);
  restore();
}

Test(closure_isa, avx2_matches_portable, .timeout = 600) {
  sweep(GSP_CPU_AVX2);
}
Test(closure_isa, avx512_matches_portable, .timeout = 600) {
  sweep(GSP_CPU_AVX512);
}
Test(closure_isa, avx2_paths_match_portable, .timeout = 600) {
  sweep_paths(GSP_CPU_AVX2);
}
Test(closure_isa, avx512_paths_match_portable, .timeout = 600) {
  sweep_paths(GSP_CPU_AVX512);
}

/* The phase-3 tile product alone on tiles full of extremes (every a and b
 * class: zero, both infinities or integer ends, values next to them, signed
 * zeros), where the saturating integer multiply and the float NaN of
 * inf + -inf decide: update (the portable loop) and product of every set
 * give the same bytes. */
static void check_product(gsp__cpu_isa_t isa) {
  if (!isa_here(isa)) return;
  rng_state = 3000u + (uint64_t)isa;
  const int64_t tb = GSP_FW_TILE, ld = tb + 3; /* a row stride that is no multiple of the vector */
  for (size_t ti = 0; ti < 4; ti++)
    for (size_t si = 0; si < 4; si++)
      for (int rep = 0; rep < 6; rep++) {
        const gsp_type t = num_types[ti];
        const gsp_semiring s = num_srs[si];
        const size_t es = type_size(t), cells = (size_t)(tb * ld);
        unsigned char *A = malloc(cells * es), *B = malloc(cells * es), *C0 = malloc(cells * es),
                      *C1 = malloc(cells * es);
        cr_assert(A && B && C0 && C1);
        /* rep 0: no negative a (the packed fast form); others mixed */
        for (size_t q = 0; q < cells; q++) {
          rand_value(A + q * es, t, s, 0.1, rep > 0, rep > 1);
          rand_value(B + q * es, t, s, 0.1, true, rep > 0);
          rand_value(C0 + q * es, t, s, 0.3, true, rep > 0);
        }
        memcpy(C1, C0, cells * es);
        gsp__fw_tiles k0, k1;
        force(GSP_CPU_PORTABLE);
        cr_assert_eq(gsp__fw_tiles_get(&k0, t, s), GSP_SUCCESS);
        force(isa);
        cr_assert_eq(gsp__fw_tiles_get(&k1, t, s), GSP_SUCCESS);
        k0.update(C0, A, B, ld);
        k1.product(C1, A, B, ld);
        size_t q = 0;
        while (q < cells * es && C0[q] == C1[q]) q++;
        cr_assert_eq(q, cells * es, "%s product type %d sr %d rep %d: entry %zu differs", gsp__cpu_isa_name(isa),
                     (int)t, (int)s, rep, q / es);
        free(A), free(B), free(C0), free(C1);
      }
  restore();
}

Test(closure_isa, avx2_product_matches_update) {
  check_product(GSP_CPU_AVX2);
}
Test(closure_isa, avx512_product_matches_update) {
  check_product(GSP_CPU_AVX512);
}
Test(closure_isa, portable_product_matches_update) {
  check_product(GSP_CPU_PORTABLE);
}

/* NaN is refused under every set, and M is left as it was. */
Test(closure_isa, nan_refused_under_every_set) {
  for (int isa = 0; isa < GSP_CPU_ISA_COUNT; isa++) {
    if (!gsp__cpu_isa_supported((gsp__cpu_isa_t)isa)) continue;
    force((gsp__cpu_isa_t)isa);
    gsp_matrix M = NULL;
    cr_assert_eq(gsp_matrix_new(&M, GSP_FP32, 3, 3), GSP_SUCCESS);
    cr_assert_eq(gsp_matrix_set_element(M, 0, 1, &(float){1.0f}), GSP_SUCCESS);
    cr_assert_eq(gsp_matrix_set_element(M, 1, 2, &(float){NAN}), GSP_SUCCESS);
    gsp_closure_opts o = {.backend = GSP_BACKEND_CPU};
    cr_assert_eq(gsp_closure_ext(M, NULL, GSP_MIN_PLUS, &o), GSP_INVALID_VALUE);
    gsp_index nv = 0;
    cr_assert_eq(gsp_matrix_nvals(&nv, M), GSP_SUCCESS);
    cr_assert_eq(nv, 2);
    gsp_matrix_free(&M);
  }
  restore();
}

/* The automatic choice: a supported set, the best one this processor has
 * unless GSP_CPU_ISA caps it; an unsupported or unknown set is refused. */
Test(closure_isa, automatic_choice_is_supported) {
  restore();
  const gsp__cpu_isa_t now = gsp__cpu_isa();
  cr_assert(gsp__cpu_isa_supported(now));
  if (!getenv("GSP_CPU_ISA"))
    for (int isa = now + 1; isa < GSP_CPU_ISA_COUNT; isa++) cr_assert(!gsp__cpu_isa_supported((gsp__cpu_isa_t)isa));
  cr_assert_eq(gsp__cpu_isa_force((gsp__cpu_isa_t)7), GSP_INVALID_VALUE);
  cr_assert_eq(gsp__cpu_isa(), now);
}
