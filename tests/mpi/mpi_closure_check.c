/*
 * libgsp_mpi against single-process gsp_closure (CPU backend), bit for bit.
 * Run under mpirun with any rank count (ctest: 1, 2, 3, 4). A plain MPI
 * program rather than a Criterion suite: Criterion forks each test, which
 * MPI does not survive. Every rank generates the same inputs from the same
 * seeds and computes the reference itself, so each can check its own part.
 * Exit status 0 on every rank when all checks passed, 1 on every rank when
 * any check failed on any rank.
 *
 * Covered: every closure (semiring, type) pair, M* and M+, n = 0, 1, 2, 3,
 * 31, 64, 100, 257 (below, at and past multiples of the 64 block, smaller
 * than the process grid), negative weights without negative cycles
 * (fractional ones, where the order of additions shows in the last bit),
 * negative and positive cycles (M unchanged everywhere), the collective
 * form with another root and forced grid shapes, the distributed form, the
 * layout maps, and error agreement: bad arguments and NaN on one rank,
 * ranks that disagree, and an allocation failure injected on one rank at
 * every allocation of the call in turn.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gsp_internal.h" /* gsp__debug_fail_after */
#include "gsp_mpi.h"

static int rank, size;
static long failures, checks;

#define CHECK(cond, ...)                                             \
  do {                                                               \
    checks++;                                                        \
    if (!(cond)) {                                                   \
      failures++;                                                    \
      fprintf(stderr, "rank %d: %s:%d: ", rank, __FILE__, __LINE__); \
      fprintf(stderr, __VA_ARGS__);                                  \
      fprintf(stderr, " [%s]\n", gsp_last_error());                  \
    }                                                                \
  } while (0)

/* ---- deterministic inputs ---- */

static uint64_t next(uint64_t *s) { /* splitmix64 */
  uint64_t z = (*s += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}
static double uniform(uint64_t *s) {
  return (double)(next(s) >> 11) * 0x1p-53;
}

static void put(void *x, gsp_type t, double v) {
  switch (t) {
  case GSP_BOOL:
    *(bool *)x = v != 0;
    break;
  case GSP_INT32:
    *(int32_t *)x = (int32_t)v;
    break;
  case GSP_INT64:
    *(int64_t *)x = (int64_t)v;
    break;
  case GSP_FP32:
    *(float *)x = (float)v;
    break;
  case GSP_FP64:
    *(double *)x = v;
    break;
  }
}

/*
 * Random n x n input for semiring s, about density*n^2 entries plus a ring
 * so that long paths exist. MIN_PLUS weights are c(i,j) + p(i) - p(j) with
 * c >= 0: negative weights but no negative cycle (Johnson's reweighting run
 * backwards); MAX_PLUS gets their negation. Float weights are fractional so
 * that the association of sums shows in the last bits.
 */
static gsp_matrix make_input(gsp_type t, gsp_semiring s, int64_t n, double density, uint64_t seed) {
  uint64_t st = seed * 7919 + (uint64_t)n * 131 + (uint64_t)t * 17 + (uint64_t)s;
  bool frac = t == GSP_FP32 || t == GSP_FP64;
  double *p = malloc((size_t)(n > 0 ? n : 1) * sizeof *p);
  for (int64_t i = 0; i < n; i++) p[i] = frac ? uniform(&st) * 30 : (double)(next(&st) % 30);
  size_t cap = (size_t)(density * (double)n * (double)n) + (size_t)n + 8;
  gsp_index *I = malloc(cap * sizeof *I), *J = malloc(cap * sizeof *J);
  double *W = malloc(cap * sizeof *W);
  size_t m = 0;
  for (int64_t i = 0; i < n; i++) {
    for (int64_t j = 0; j < n; j++) {
      bool ring = n > 1 && j == (i + 1) % n;
      if (!ring && uniform(&st) >= density) continue;
      if (m == cap) break;
      double c = frac ? uniform(&st) * 20 + 0.1 : (double)(next(&st) % 20);
      double w;
      switch (s) {
      case GSP_MIN_PLUS:
        w = c + p[i] - p[j];
        break;
      case GSP_MAX_PLUS:
        w = -(c + p[i] - p[j]);
        break;
      default:
        w = frac ? uniform(&st) * 200 - 100 : (double)(next(&st) % 200) - 100;
      }
      I[m] = (gsp_index)i, J[m] = (gsp_index)j, W[m] = w, m++;
    }
  }
  size_t es = gsp_type_size(t);
  unsigned char *X = malloc(m * es + 1);
  for (size_t e = 0; e < m; e++) put(X + e * es, t, W[e]);
  gsp_matrix A = NULL;
  gsp_matrix_new(&A, t, (gsp_index)n, (gsp_index)n);
  gsp_matrix_build(A, I, J, t == GSP_BOOL ? NULL : X, m, GSP_DUP_ERROR);
  free(p), free(I), free(J), free(W), free(X);
  return A;
}

/* Dense copy of A (absent = 0xA5 bytes, never a result value here) and its
 * presence, for bitwise comparison. */
static unsigned char *dense(gsp_matrix A, uint8_t **present) {
  gsp_type t;
  gsp_index nr, nc;
  gsp_matrix_type(&t, A);
  gsp_matrix_nrows(&nr, A);
  gsp_matrix_ncols(&nc, A);
  size_t es = gsp_type_size(t), nn = (size_t)(nr * nc);
  unsigned char *x = malloc(nn * es + 1), absent[16];
  memset(absent, 0xA5, sizeof absent);
  gsp_matrix_export_dense(x, absent, A);
  *present = calloc(nn + 1, 1);
  gsp_index cnt = nn;
  gsp_index *I = malloc((nn + 1) * sizeof *I), *J = malloc((nn + 1) * sizeof *J);
  gsp_matrix_extract_tuples(I, J, NULL, &cnt, A);
  for (gsp_index e = 0; e < cnt; e++) (*present)[I[e] * nc + J[e]] = 1;
  free(I), free(J);
  return x;
}

/* Whether A and B hold the same entries with the same bits. */
static bool same(gsp_matrix A, gsp_matrix B) {
  gsp_type ta, tb;
  gsp_index ra, ca, rb, cb, va, vb;
  gsp_matrix_type(&ta, A), gsp_matrix_type(&tb, B);
  gsp_matrix_nrows(&ra, A), gsp_matrix_nrows(&rb, B);
  gsp_matrix_ncols(&ca, A), gsp_matrix_ncols(&cb, B);
  gsp_matrix_nvals(&va, A), gsp_matrix_nvals(&vb, B);
  if (ta != tb || ra != rb || ca != cb || va != vb) return false;
  uint8_t *pa, *pb;
  unsigned char *xa = dense(A, &pa), *xb = dense(B, &pb);
  size_t nn = (size_t)(ra * ca), es = gsp_type_size(ta);
  bool eq = memcmp(pa, pb, nn) == 0;
  for (size_t k = 0; eq && k < nn; k++) eq = !pa[k] || memcmp(xa + k * es, xb + k * es, es) == 0;
  free(pa), free(pb), free(xa), free(xb);
  return eq;
}

/* Whether this rank's local block equals the entries of the whole matrix
 * F that the layout gives it, bit for bit and in presence. */
static bool same_block(gsp_matrix local, gsp_matrix F, const gsp_mpi_layout *L) {
  gsp_type t;
  gsp_matrix_type(&t, F);
  uint8_t *pl, *pf;
  unsigned char *xl = dense(local, &pl), *xf = dense(F, &pf);
  size_t es = gsp_type_size(t);
  bool eq = true;
  for (gsp_index li = 0; eq && li < L->local_nrows; li++) {
    for (gsp_index lj = 0; eq && lj < L->local_ncols; lj++) {
      gsp_index i, j;
      gsp_mpi_local_to_global(&i, &j, L, li, lj);
      size_t kl = li * L->local_ncols + lj, kf = i * L->n + j;
      eq = pl[kl] == pf[kf] && (!pl[kl] || memcmp(xl + kl * es, xf + kf * es, es) == 0);
    }
  }
  free(pl), free(pf), free(xl), free(xf);
  return eq;
}

/* The same info on every rank. */
static bool agreed(gsp_info info) {
  int v = (int)info, lo, hi;
  MPI_Allreduce(&v, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&v, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return lo == hi;
}

/* ---- the comparisons ---- */

/* Collective and distributed closure of make_input(...) against
 * gsp_closure_ext on the CPU backend. */
static void compare(gsp_type t, gsp_semiring s, int64_t n, double density, bool plus, const gsp_mpi_opts *base) {
  gsp_mpi_opts o = base ? *base : (gsp_mpi_opts){0};
  o.non_reflexive = plus;
  gsp_matrix ref = make_input(t, s, n, density, 1);
  gsp_closure_opts co = {.non_reflexive = plus, .backend = GSP_BACKEND_CPU};
  gsp_info want = gsp_closure_ext(ref, NULL, s, &co);
  const char *what = gsp__semiring_name(s);

  /* collective: the input on the root only */
  gsp_matrix M = rank == o.root ? make_input(t, s, n, density, 1) : NULL;
  gsp_info got = gsp_mpi_closure(M, s, MPI_COMM_WORLD, &o);
  CHECK(agreed(got), "%s %s n=%lld: ranks disagree", what, gsp__type_name(t), (long long)n);
  CHECK(got == want, "%s %s n=%lld %s: collective gave %d, gsp_closure %d", what, gsp__type_name(t), (long long)n,
        plus ? "M+" : "M*", (int)got, (int)want);
  if (rank == o.root && got == GSP_SUCCESS)
    CHECK(same(M, ref), "%s %s n=%lld %s nprow=%d: collective result differs", what, gsp__type_name(t), (long long)n,
          plus ? "M+" : "M*", o.nprow);
  gsp_matrix_free(&M);

  /* distributed: each rank builds and keeps its block */
  gsp_mpi_layout L;
  gsp_matrix A = make_input(t, s, n, density, 1), local = NULL;
  CHECK(gsp_mpi_layout_get(&L, (gsp_index)n, MPI_COMM_WORLD, &o) == GSP_SUCCESS, "layout");
  CHECK(gsp_mpi_local_block(&local, A, &L) == GSP_SUCCESS, "local block");
  got = gsp_mpi_closure_dist(local, &L, s, MPI_COMM_WORLD, &o);
  CHECK(agreed(got), "%s %s n=%lld dist: ranks disagree", what, gsp__type_name(t), (long long)n);
  CHECK(got == want, "%s %s n=%lld %s: dist gave %d, gsp_closure %d", what, gsp__type_name(t), (long long)n,
        plus ? "M+" : "M*", (int)got, (int)want);
  if (got == GSP_SUCCESS)
    CHECK(same_block(local, ref, &L), "%s %s n=%lld %s: dist block differs", what, gsp__type_name(t), (long long)n,
          plus ? "M+" : "M*");
  gsp_matrix_free(&local);
  gsp_matrix_free(&A);
  gsp_matrix_free(&ref);
}

static const struct {
  gsp_semiring s;
  gsp_type t;
} pairs[] = {
    {GSP_MIN_PLUS, GSP_INT32}, {GSP_MIN_PLUS, GSP_INT64}, {GSP_MIN_PLUS, GSP_FP32}, {GSP_MIN_PLUS, GSP_FP64},
    {GSP_MAX_PLUS, GSP_INT32}, {GSP_MAX_PLUS, GSP_INT64}, {GSP_MAX_PLUS, GSP_FP32}, {GSP_MAX_PLUS, GSP_FP64},
    {GSP_MAX_MIN, GSP_INT32},  {GSP_MAX_MIN, GSP_INT64},  {GSP_MAX_MIN, GSP_FP32},  {GSP_MAX_MIN, GSP_FP64},
    {GSP_MIN_MAX, GSP_INT32},  {GSP_MIN_MAX, GSP_INT64},  {GSP_MIN_MAX, GSP_FP32},  {GSP_MIN_MAX, GSP_FP64},
    {GSP_OR_AND, GSP_BOOL},
};
#define NPAIRS (sizeof pairs / sizeof *pairs)

static void every_pair(void) {
  static const int64_t sizes[] = {0, 1, 2, 3, 31, 100, 257};
  for (size_t p = 0; p < NPAIRS; p++)
    for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++)
      for (int plus = 0; plus < 2; plus++) {
        /* M* and M+ alternate over the sizes (both at n = 100), to keep
         * the run short on CI's two cores */
        if (sizes[z] != 100 && plus != (int)((z + p) % 2)) continue;
        /* sparse enough that paths are long, dense enough for many ties */
        double density = sizes[z] <= 3 ? 0.6 : 8.0 / (double)sizes[z];
        compare(pairs[p].t, pairs[p].s, sizes[z], density, plus, NULL);
      }
}

/* Other roots and forced grid shapes (1 x P and P x 1). */
static void grids(void) {
  gsp_mpi_opts o = {.root = size - 1};
  compare(GSP_FP64, GSP_MIN_PLUS, 130, 0.05, false, &o);
  o = (gsp_mpi_opts){.nprow = 1};
  compare(GSP_FP32, GSP_MIN_PLUS, 200, 0.04, false, &o);
  o = (gsp_mpi_opts){.nprow = size};
  compare(GSP_INT32, GSP_MAX_MIN, 200, 0.04, true, &o);
  compare(GSP_FP64, GSP_MIN_PLUS, 64, 0.1, false, &o);
}

/* A negative (MIN_PLUS) or positive (MAX_PLUS) cycle: GSP_NEGATIVE_CYCLE
 * everywhere, and M / the blocks unchanged. */
static void cycles(void) {
  for (int c = 0; c < 4; c++) {
    gsp_semiring s = c < 2 ? GSP_MIN_PLUS : GSP_MAX_PLUS;
    gsp_type t = c % 2 ? GSP_INT32 : GSP_FP64;
    int64_t n = 150;
    double w = s == GSP_MIN_PLUS ? -1 : 1; /* around the cycle 70 -> ... -> 80 -> 70 */
    unsigned char wb[8];
    put(wb, t, w * 200);
    gsp_matrix M = NULL, orig = NULL, local = NULL, A = NULL;
    if (rank == 0) {
      M = make_input(t, s, n, 0.03, 2);
      gsp_matrix_set_element(M, 80, 70, wb);
      gsp_matrix_dup(&orig, M);
    }
    gsp_info got = gsp_mpi_closure(M, s, MPI_COMM_WORLD, NULL);
    CHECK(agreed(got) && got == GSP_NEGATIVE_CYCLE, "cycle %d: collective gave %d", c, (int)got);
    if (rank == 0) CHECK(same(M, orig), "cycle %d: M changed", c);
    A = make_input(t, s, n, 0.03, 2);
    gsp_matrix_set_element(A, 80, 70, wb);
    gsp_mpi_layout L;
    gsp_mpi_layout_get(&L, (gsp_index)n, MPI_COMM_WORLD, NULL);
    gsp_mpi_local_block(&local, A, &L);
    got = gsp_mpi_closure_dist(local, &L, s, MPI_COMM_WORLD, NULL);
    CHECK(agreed(got) && got == GSP_NEGATIVE_CYCLE, "cycle %d: dist gave %d", c, (int)got);
    CHECK(same_block(local, A, &L), "cycle %d: a block changed", c);
    gsp_matrix_free(&M), gsp_matrix_free(&orig), gsp_matrix_free(&local), gsp_matrix_free(&A);
  }
}

/* The layout maps: every global entry has exactly one owner, and the maps
 * are inverse to each other. */
static void layouts(void) {
  static const int64_t sizes[] = {0, 1, 63, 64, 65, 200, 1000};
  for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
    gsp_mpi_layout L;
    gsp_index n = (gsp_index)sizes[z];
    CHECK(gsp_mpi_layout_get(&L, n, MPI_COMM_WORLD, NULL) == GSP_SUCCESS, "layout n=%llu", (unsigned long long)n);
    CHECK(L.nprow * L.npcol == size && L.nprow <= L.npcol, "grid %d x %d for %d ranks", L.nprow, L.npcol, size);
    long long mine = (long long)(L.local_nrows * L.local_ncols), total;
    MPI_Allreduce(&mine, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    CHECK(total == (long long)(n * n), "n=%llu: local sizes sum to %lld", (unsigned long long)n, total);
    bool ok = true;
    for (gsp_index li = 0; li < L.local_nrows; li++)
      for (gsp_index lj = 0; lj < L.local_ncols; lj += 7) {
        gsp_index i, j, li2, lj2;
        int owner;
        ok &= gsp_mpi_local_to_global(&i, &j, &L, li, lj) == GSP_SUCCESS &&
              gsp_mpi_global_to_local(&owner, &li2, &lj2, &L, i, j) == GSP_SUCCESS && owner == rank && li2 == li &&
              lj2 == lj && i < n && j < n;
      }
    CHECK(ok, "n=%llu: local <-> global maps disagree", (unsigned long long)n);
    CHECK(gsp_mpi_local_to_global(NULL, NULL, &L, L.local_nrows, 0) == GSP_INVALID_INDEX,
          "local index past the block accepted");
    CHECK(gsp_mpi_global_to_local(NULL, NULL, NULL, &L, n, 0) == GSP_INVALID_INDEX, "global index past n accepted");
  }
  gsp_mpi_layout L;
  gsp_mpi_opts bad = {.nprow = size + 1};
  CHECK(gsp_mpi_layout_get(&L, 10, MPI_COMM_WORLD, &bad) == GSP_INVALID_VALUE, "nprow %d accepted for %d ranks",
        size + 1, size);
}

/* Arguments of the functions that are not collective: NULL, a freed
 * handle, a matrix of the wrong size; outputs untouched. */
static void guards(void) {
  gsp_mpi_layout L;
  const gsp_index n = 70;
  CHECK(gsp_mpi_layout_get(NULL, n, MPI_COMM_WORLD, NULL) == GSP_NULL_POINTER, "layout_get(NULL L)");
  gsp_mpi_layout_get(&L, n, MPI_COMM_WORLD, NULL);
  gsp_index i = 77, j = 77, li = 77, lj = 77;
  int owner = -7;
  CHECK(gsp_mpi_local_to_global(&i, &j, NULL, 0, 0) == GSP_NULL_POINTER, "local_to_global(NULL L)");
  CHECK(gsp_mpi_global_to_local(&owner, &li, &lj, NULL, 0, 0) == GSP_NULL_POINTER, "global_to_local(NULL L)");
  CHECK(gsp_mpi_global_to_local(&owner, &li, &lj, &L, 0, n) == GSP_INVALID_INDEX, "global_to_local(j = n)");
  CHECK(i == 77 && j == 77 && li == 77 && lj == 77 && owner == -7, "an output was written on error");
  gsp_matrix A = make_input(GSP_FP32, GSP_MIN_PLUS, (int64_t)n, 0.1, 8),
             B = make_input(GSP_FP32, GSP_MIN_PLUS, 71, 0.1, 9);
  gsp_matrix out = (gsp_matrix)&out, dead = NULL;
  gsp_matrix_dup(&dead, A);
  gsp_matrix stale = dead;
  gsp_matrix_free(&dead);
  CHECK(gsp_mpi_local_block(NULL, A, &L) == GSP_NULL_POINTER, "local_block(NULL local)");
  CHECK(gsp_mpi_local_block(&out, A, NULL) == GSP_NULL_POINTER, "local_block(NULL L)");
  CHECK(gsp_mpi_local_block(&out, NULL, &L) == GSP_NULL_POINTER, "local_block(NULL A)");
  CHECK(gsp_mpi_local_block(&out, stale, &L) == GSP_INVALID_OBJECT, "local_block(freed A)");
  CHECK(gsp_mpi_local_block(&out, B, &L) == GSP_DIMENSION_MISMATCH, "local_block(71 x 71 A, n = 70)");
  CHECK(strstr(gsp_last_error(), "gsp_mpi_local_block") != NULL, "message names the function");
  CHECK(out == (gsp_matrix)&out, "local_block wrote its output on error");
  gsp_matrix_free(&A), gsp_matrix_free(&B);
}

/* Errors: the same code on every rank, the others naming the failing rank,
 * nothing changed. */
static void errors(void) {
  /* on the root: NULL, NaN, PLUS_TIMES, not square, bad type, bad nprow */
  gsp_matrix M = NULL, orig = NULL;
  gsp_info got = gsp_mpi_closure(NULL, GSP_MIN_PLUS, MPI_COMM_WORLD, NULL);
  CHECK(agreed(got) && got == GSP_NULL_POINTER, "NULL M gave %d", (int)got);
  if (rank > 0) CHECK(strstr(gsp_last_error(), "rank 0 failed") != NULL, "message names rank 0");
  if (rank == 0) {
    M = make_input(GSP_FP64, GSP_MIN_PLUS, 100, 0.05, 3);
    double nan = NAN;
    gsp_matrix_set_element(M, 5, 7, &nan);
    gsp_matrix_dup(&orig, M);
  }
  got = gsp_mpi_closure(M, GSP_MIN_PLUS, MPI_COMM_WORLD, NULL);
  CHECK(agreed(got) && got == GSP_INVALID_VALUE, "NaN gave %d", (int)got);
  if (rank == 0) CHECK(gsp_matrix_nvals(&(gsp_index){0}, M) == GSP_SUCCESS, "M still valid");
  got = gsp_mpi_closure(M, GSP_PLUS_TIMES, MPI_COMM_WORLD, NULL);
  CHECK(agreed(got) && got == GSP_DOMAIN_MISMATCH, "PLUS_TIMES gave %d", (int)got);
  got = gsp_mpi_closure(M, GSP_OR_AND, MPI_COMM_WORLD, NULL);
  CHECK(agreed(got) && got == GSP_DOMAIN_MISMATCH, "OR_AND on FP64 gave %d", (int)got);
  gsp_matrix_free(&M), gsp_matrix_free(&orig);
  if (rank == 0) gsp_matrix_new(&M, GSP_INT32, 3, 4);
  got = gsp_mpi_closure(M, GSP_MIN_PLUS, MPI_COMM_WORLD, NULL);
  CHECK(agreed(got) && got == GSP_DIMENSION_MISMATCH, "3 x 4 gave %d", (int)got);
  gsp_matrix_free(&M);
  if (rank == 0) gsp_matrix_new(&M, GSP_INT32, 4, 4);
  gsp_mpi_opts bad = {.nprow = size + 1};
  got = gsp_mpi_closure(M, GSP_MIN_PLUS, MPI_COMM_WORLD, &bad);
  CHECK(agreed(got) && got == GSP_INVALID_VALUE, "bad nprow gave %d", (int)got);
  gsp_matrix_free(&M);

  /* distributed: a NaN on the last rank only, ranks that disagree */
  int64_t n = 150;
  gsp_mpi_layout L;
  gsp_mpi_layout_get(&L, (gsp_index)n, MPI_COMM_WORLD, NULL);
  gsp_matrix A = make_input(GSP_FP32, GSP_MIN_PLUS, n, 0.05, 4), local = NULL, keep = NULL;
  gsp_mpi_local_block(&local, A, &L);
  if (rank == size - 1 && L.local_nrows > 0 && L.local_ncols > 0) {
    float nan = NAN;
    gsp_matrix_set_element(local, 0, 0, &nan);
  }
  gsp_matrix_dup(&keep, local);
  got = gsp_mpi_closure_dist(local, &L, GSP_MIN_PLUS, MPI_COMM_WORLD, NULL);
  CHECK(agreed(got) && got == GSP_INVALID_VALUE, "NaN on rank %d gave %d", size - 1, (int)got);
  CHECK(same(local, keep), "a block changed after a NaN elsewhere");
  if (size > 1 && rank < size - 1) CHECK(strstr(gsp_last_error(), "failed") != NULL, "message names the failing rank");
  gsp_matrix_free(&local), gsp_matrix_free(&keep);
  gsp_mpi_local_block(&local, A, &L);
  gsp_matrix_dup(&keep, local);
  if (size > 1) {
    gsp_semiring s = rank == 0 ? GSP_MIN_MAX : GSP_MIN_PLUS;
    got = gsp_mpi_closure_dist(local, &L, s, MPI_COMM_WORLD, NULL);
    CHECK(agreed(got) && got == GSP_INVALID_VALUE, "disagreeing semirings gave %d", (int)got);
    gsp_mpi_opts o = {.non_reflexive = rank == 1};
    got = gsp_mpi_closure_dist(local, &L, GSP_MIN_PLUS, MPI_COMM_WORLD, &o);
    CHECK(agreed(got) && got == GSP_INVALID_VALUE, "disagreeing options gave %d", (int)got);
    CHECK(same(local, keep), "a block changed after a disagreement");
  }
  got = gsp_mpi_closure_dist(rank == 0 ? NULL : local, &L, GSP_MIN_PLUS, MPI_COMM_WORLD, NULL);
  CHECK(agreed(got) && got == GSP_NULL_POINTER, "NULL local on rank 0 gave %d", (int)got);
  gsp_mpi_layout other;
  gsp_mpi_layout_get(&other, (gsp_index)n + 1, MPI_COMM_WORLD, NULL);
  got = gsp_mpi_closure_dist(local, &other, GSP_MIN_PLUS, MPI_COMM_WORLD, NULL);
  CHECK(agreed(got) && got == GSP_DIMENSION_MISMATCH, "block of the wrong size gave %d", (int)got);
  CHECK(same(local, keep), "a block changed after an argument error");
  gsp_matrix_free(&local), gsp_matrix_free(&keep), gsp_matrix_free(&A);
}

/* An allocation failure on one rank at the k-th allocation of the call,
 * for k = 0, 1, ... until the call gets through: every rank returns
 * GSP_OUT_OF_MEMORY with nothing changed, then the result is right. */
static void allocation_failures(void) {
  const int64_t n = 100;
  const gsp_semiring s = GSP_MIN_PLUS;
  gsp_matrix ref = make_input(GSP_FP64, s, n, 0.05, 5);
  gsp_closure(ref, s);
  for (int form = 0; form < 2; form++) {
    for (int victim = 0; victim < size; victim++) {
      bool done = false;
      for (long long k = 0; k < 64 && !done; k++) {
        gsp_matrix M = NULL, keep = NULL, A = NULL;
        gsp_mpi_layout L;
        gsp_mpi_layout_get(&L, (gsp_index)n, MPI_COMM_WORLD, NULL);
        if (form == 0) {
          if (rank == 0) M = make_input(GSP_FP64, s, n, 0.05, 5);
        } else {
          A = make_input(GSP_FP64, s, n, 0.05, 5);
          gsp_mpi_local_block(&M, A, &L);
        }
        if (M) gsp_matrix_dup(&keep, M);
        if (rank == victim) gsp__debug_fail_after(k);
        gsp_info got = form == 0 ? gsp_mpi_closure(M, s, MPI_COMM_WORLD, NULL)
                                 : gsp_mpi_closure_dist(M, &L, s, MPI_COMM_WORLD, NULL);
        gsp__debug_fail_after(-1);
        CHECK(agreed(got), "form %d, failure at allocation %lld of rank %d: ranks disagree", form, k, victim);
        CHECK(got == GSP_SUCCESS || got == GSP_OUT_OF_MEMORY, "form %d, failure at allocation %lld of rank %d gave %d",
              form, k, victim, (int)got);
        if (got == GSP_OUT_OF_MEMORY && M) CHECK(same(M, keep), "form %d k %lld: changed", form, k);
        int ok = got == GSP_SUCCESS, all;
        MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        if (all) {
          done = true;
          if (form == 0 && rank == 0) CHECK(same(M, ref), "result after failures differs");
          if (form == 1) CHECK(same_block(M, ref, &L), "block after failures differs");
        }
        gsp_matrix_free(&M), gsp_matrix_free(&keep), gsp_matrix_free(&A);
      }
      CHECK(done, "form %d: never succeeded with failures on rank %d", form, victim);
    }
  }
  gsp_matrix_free(&ref);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  gsp_set_backend(GSP_BACKEND_CPU);
  const char *only = argc > 1 ? argv[1] : "";
  if (!*only || strstr(only, "pairs")) every_pair();
  if (!*only || strstr(only, "grids")) grids();
  if (!*only || strstr(only, "cycles")) cycles();
  if (!*only || strstr(only, "layouts")) layouts();
  if (!*only || strstr(only, "errors")) errors();
  if (!*only || strstr(only, "guards")) guards();
  if (!*only || strstr(only, "alloc")) allocation_failures();
  long all_failures, all_checks;
  MPI_Allreduce(&failures, &all_failures, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&checks, &all_checks, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("mpi_closure_check: %d ranks, %ld checks, %ld failed\n", size, all_checks, all_failures);
  MPI_Finalize();
  return all_failures ? 1 : 0;
}
