/*
 * The distributed form: layouts, index maps, local blocks, and
 * gsp_mpi_closure_dist, where each rank brings and keeps only its blocks.
 */
#include "mpi_internal.h"

gsp_info gsp_mpi_layout_get(gsp_mpi_layout *L, gsp_index n, MPI_Comm comm, const gsp_mpi_opts *opts) {
  gsp_info info = GSP_SUCCESS;
  const char *fn = "gsp_mpi_layout_get";
#define GSP_FREE_ALL
  GSP_CHECK(L != NULL, GSP_NULL_POINTER, "%s: L is NULL", fn);
  GSP_CHECK(n <= GSP_INDEX_MAX, GSP_TOO_LARGE, "%s: n = %llu exceeds GSP_INDEX_MAX", fn, (unsigned long long)n);
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const int pr = mpi_grid_rows(size, opts);
  GSP_CHECK(pr > 0, GSP_INVALID_VALUE, "%s: nprow %d does not divide the %d ranks", fn, opts ? opts->nprow : 0, size);
  const int pc = size / pr, myr = rank / pc, myc = rank % pc;
  const int64_t nb = ((int64_t)n + TB - 1) / TB, pad = nb * TB - (int64_t)n;
  const int64_t lr = mpi_tiles_of(nb, pr, myr), lc = mpi_tiles_of(nb, pc, myc);
  /* only the last tile row (column) is partial */
  const bool lastr = nb > 0 && (nb - 1) % pr == myr, lastc = nb > 0 && (nb - 1) % pc == myc;
  *L = (gsp_mpi_layout){.n = n,
                        .nprow = pr,
                        .npcol = pc,
                        .myrow = myr,
                        .mycol = myc,
                        .local_nrows = (gsp_index)(lr * TB - (lastr ? pad : 0)),
                        .local_ncols = (gsp_index)(lc * TB - (lastc ? pad : 0))};
  return info;
}

gsp_info gsp_mpi_local_to_global(gsp_index *i, gsp_index *j, const gsp_mpi_layout *L, gsp_index li, gsp_index lj) {
  gsp_info info = GSP_SUCCESS;
  const char *fn = "gsp_mpi_local_to_global";
  GSP_CHECK(L != NULL, GSP_NULL_POINTER, "%s: L is NULL", fn);
  GSP_CHECK(li < L->local_nrows && lj < L->local_ncols, GSP_INVALID_INDEX,
            "%s: local (%llu, %llu) outside the %llu x %llu local matrix", fn, (unsigned long long)li,
            (unsigned long long)lj, (unsigned long long)L->local_nrows, (unsigned long long)L->local_ncols);
  if (i) *i = (li / TB * (gsp_index)L->nprow + (gsp_index)L->myrow) * TB + li % TB;
  if (j) *j = (lj / TB * (gsp_index)L->npcol + (gsp_index)L->mycol) * TB + lj % TB;
  return info;
}

gsp_info gsp_mpi_global_to_local(int *rank, gsp_index *li, gsp_index *lj, const gsp_mpi_layout *L, gsp_index i,
                                 gsp_index j) {
  gsp_info info = GSP_SUCCESS;
  const char *fn = "gsp_mpi_global_to_local";
  GSP_CHECK(L != NULL, GSP_NULL_POINTER, "%s: L is NULL", fn);
  GSP_CHECK(i < L->n && j < L->n, GSP_INVALID_INDEX, "%s: (%llu, %llu) outside %llu x %llu", fn, (unsigned long long)i,
            (unsigned long long)j, (unsigned long long)L->n, (unsigned long long)L->n);
  const gsp_index I = i / TB, J = j / TB;
  if (rank) *rank = (int)(I % (gsp_index)L->nprow) * L->npcol + (int)(J % (gsp_index)L->npcol);
  if (li) *li = I / (gsp_index)L->nprow * TB + i % TB;
  if (lj) *lj = J / (gsp_index)L->npcol * TB + j % TB;
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp_mpi_local_block(gsp_matrix *local, const gsp_matrix A, const gsp_mpi_layout *L) {
  gsp_info info = GSP_SUCCESS;
  const char *fn = "gsp_mpi_local_block";
  gsp_index *I = NULL, *J = NULL;
  unsigned char *X = NULL;
  gsp_matrix B = NULL;
#define GSP_FREE_ALL (gsp__free(I), gsp__free(J), gsp__free(X), gsp_matrix_free(&B))
  GSP_CHECK(local != NULL && L != NULL, GSP_NULL_POINTER, "%s: local or L is NULL", fn);
  GSP_TRY(gsp__check_matrix(A, fn, "A"));
  gsp_type t;
  gsp_index nr, nc, nv;
  gsp_matrix_type(&t, A);
  gsp_matrix_nrows(&nr, A);
  gsp_matrix_ncols(&nc, A);
  GSP_CHECK(nr == L->n && nc == L->n, GSP_DIMENSION_MISMATCH, "%s: A is %llu x %llu, the layout is for %llu x %llu", fn,
            (unsigned long long)nr, (unsigned long long)nc, (unsigned long long)L->n, (unsigned long long)L->n);
  GSP_TRY(gsp_matrix_nvals(&nv, A));
  const size_t es = gsp_type_size(t);
  GSP_ALLOC(I, nv ? nv : 1, sizeof *I);
  GSP_ALLOC(J, nv ? nv : 1, sizeof *J);
  GSP_ALLOC(X, nv ? nv : 1, es);
  gsp_index cnt = nv;
  GSP_TRY(gsp_matrix_extract_tuples(I, J, X, &cnt, A));
  gsp_index kept = 0;
  for (gsp_index e = 0; e < cnt; e++) {
    int owner;
    gsp_index li, lj;
    gsp_mpi_global_to_local(&owner, &li, &lj, L, I[e], J[e]);
    if (owner != L->myrow * L->npcol + L->mycol) continue;
    I[kept] = li;
    J[kept] = lj;
    memmove(X + kept * es, X + e * es, es);
    kept++;
  }
  GSP_TRY(gsp_matrix_new(&B, t, L->local_nrows, L->local_ncols));
  GSP_TRY(gsp_matrix_build(B, I, J, X, kept, GSP_DUP_ERROR));
  *local = B;
  B = NULL;
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

static const char fn[] = "gsp_mpi_closure_dist";

/* This rank's own checks: handles, the layout against comm, the local
 * dimensions, the semiring. */
static gsp_info check_local(gsp_matrix local, const gsp_mpi_layout *L, gsp_semiring s, const gsp_mpi_opts *opts,
                            MPI_Comm comm) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  GSP_CHECK(L != NULL, GSP_NULL_POINTER, "%s: L is NULL", fn);
  GSP_TRY(gsp__check_matrix(local, fn, "local"));
  gsp_mpi_layout want;
  GSP_TRY(gsp_mpi_layout_get(&want, L->n, comm, opts));
  GSP_CHECK(memcmp(&want, L, sizeof want) == 0, GSP_INVALID_VALUE,
            "%s: the layout is not this rank's layout of %llu x %llu over this communicator "
            "with these options",
            fn, (unsigned long long)L->n, (unsigned long long)L->n);
  gsp_type t;
  gsp_index nr, nc;
  gsp_matrix_type(&t, local);
  gsp_matrix_nrows(&nr, local);
  gsp_matrix_ncols(&nc, local);
  GSP_CHECK(nr == L->local_nrows && nc == L->local_ncols, GSP_DIMENSION_MISMATCH,
            "%s: local is %llu x %llu, the layout says %llu x %llu", fn, (unsigned long long)nr, (unsigned long long)nc,
            (unsigned long long)L->local_nrows, (unsigned long long)L->local_ncols);
  GSP_TRY(mpi_check_semiring(s, t, fn));
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp_mpi_closure_dist(gsp_matrix local, const gsp_mpi_layout *L, gsp_semiring s, MPI_Comm comm,
                              const gsp_mpi_opts *opts) {
  gsp_info info = GSP_SUCCESS;
  unsigned char *X = NULL;
  gsp_matrix R = NULL;
  mpi_grid g = {.comm = MPI_COMM_NULL, .row = MPI_COMM_NULL, .col = MPI_COMM_NULL};
#define GSP_FREE_ALL (gsp__free(X), gsp_matrix_free(&R), mpi_grid_close(&g))
  GSP_TRY(mpi_agree(check_local(local, L, s, opts, comm), comm, fn));

  /* the ranks must describe one problem */
  gsp_type t;
  gsp_matrix_type(&t, local);
  const int reflexive = !(opts && opts->non_reflexive);
  int64_t mine[5] = {(int64_t)L->n, (int64_t)t, (int64_t)s, reflexive, L->nprow}, lo[5], hi[5];
  MPI_Allreduce(mine, lo, 5, MPI_INT64_T, MPI_MIN, comm);
  MPI_Allreduce(mine, hi, 5, MPI_INT64_T, MPI_MAX, comm);
  GSP_CHECK(memcmp(lo, hi, sizeof lo) == 0, GSP_INVALID_VALUE,
            "%s: the ranks disagree on n, the type, the semiring or the options", fn);

  /* the local block densely, absent = the semiring zero */
  gsp__fw_tiles k;
  GSP_TRY(gsp__fw_tiles_get(&k, t, s));
  const int64_t nr = (int64_t)L->local_nrows, nc = (int64_t)L->local_ncols;
  X = gsp__malloc_array((size_t)(nr * nc > 0 ? nr * nc : 1), k.esize);
  if (!X)
    info = GSP_ERROR(GSP_OUT_OF_MEMORY, "%s: cannot allocate the %lld x %lld local block", fn, (long long)nr,
                     (long long)nc);
  if (info == GSP_SUCCESS) info = gsp_matrix_export_dense(X, k.zero, local);
  if (info == GSP_SUCCESS && mpi_has_nan(X, (size_t)(nr * nc), t))
    info = GSP_ERROR(GSP_INVALID_VALUE, "%s: local holds a NaN weight", fn);
  GSP_TRY(mpi_agree(info, comm, fn));

  mpi_grid_open(&g, comm, (int64_t)L->n, L->nprow, t, &k);
  g.loc = gsp__malloc_array((size_t)(g.lr * g.lc > 0 ? g.lr * g.lc : 1), g.tbytes);
  if (!g.loc) info = GSP_ERROR(GSP_OUT_OF_MEMORY, "%s: cannot allocate %lld local tiles", fn, (long long)(g.lr * g.lc));
  GSP_TRY(mpi_agree(info, g.comm, fn));
  /* local tile (li, lj) is rows li*TB.. and columns lj*TB.. of the block */
#pragma omp parallel for collapse(2) schedule(static)
  for (int64_t li = 0; li < g.lr; li++)
    for (int64_t lj = 0; lj < g.lc; lj++)
      mpi_tile_in(g.loc + (size_t)(li * g.lc + lj) * g.tbytes, X + (size_t)(li * TB * nc + lj * TB) * k.esize, nc,
                  nr - li * TB < TB ? nr - li * TB : TB, nc - lj * TB < TB ? nc - lj * TB : TB, &k);

  bool cycle = false;
  GSP_TRY(mpi_fw_run(&g, reflexive, &cycle, fn));
  GSP_CHECK(!cycle, GSP_NEGATIVE_CYCLE, "%s: the graph has a %s cycle (blocks unchanged)", fn,
            s == GSP_MAX_PLUS ? "positive" : "negative");
#pragma omp parallel for collapse(2) schedule(static)
  for (int64_t li = 0; li < g.lr; li++)
    for (int64_t lj = 0; lj < g.lc; lj++)
      mpi_tile_out(X + (size_t)(li * TB * nc + lj * TB) * k.esize, nc, g.loc + (size_t)(li * g.lc + lj) * g.tbytes,
                   nr - li * TB < TB ? nr - li * TB : TB, nc - lj * TB < TB ? nc - lj * TB : TB, k.esize);
  info = gsp_matrix_pack_dense(&R, t, (gsp_index)nr, (gsp_index)nc, (void **)&X, k.zero);
  GSP_TRY(mpi_agree(info, g.comm, fn));
  gsp__unregister(R); /* nothing can fail past this point */
  gsp__matrix_swap_in(local, R);
  R = NULL;
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}
