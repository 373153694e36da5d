/*
 * The device CSR cache of a matrix (A->dev: csr, csrT), shared by the
 * sparse products (graphblas/) and the shortest-path kernels (sssp/), which
 * both include this; defined in graphblas/gsp_cuda_ops_mem.cu. Only .cu
 * files include this.
 */
#ifndef GSP_CUDA_CSR_CACHE_CUH
#define GSP_CUDA_CSR_CACHE_CUH

#include "gsp_cuda_internal.cuh"

/* CSR on the device: the one device copy of a matrix's CSR (and, as a
 * second one, of its transpose) that every sparse GPU call shares, kept in
 * A->dev (csr, csrT). Indices are 32-bit (what cuSPARSE's generic API and
 * csr2csc take); row offsets exist in both widths: 32-bit for cuSPARSE and
 * the product kernels, 64-bit for the shortest-path kernels (whose graphs
 * may exceed 2^31 arcs: then p is NULL and the products decline). */
struct gsp_dev_csr {
  int32_t nrows, ncols;
  int64_t nnz;
  int32_t *p;   /* nrows + 1 offsets; NULL when nnz > GSP_CU_OPS_MAX */
  int64_t *p64; /* the same offsets, 64-bit */
  int32_t *j;
  void *x; /* nnz values of the matrix type (bool: one byte) */
};

/* Largest row, column or entry count the products take. */
#define GSP_CU_OPS_MAX ((int64_t)INT32_MAX - 1)

/* The device CSR of A (transposed: of A'), uploaded from A's host CSR or
 * built from the other one by cuSPARSE csr2csc (by a host counting sort
 * past GSP_CU_OPS_MAX entries), and cached in A->dev: the shared cache of
 * the products and the shortest-path calls. A is host CSR (the operation
 * made it so; GSP_PANIC otherwise) and stays unchanged. */
gsp_info gsp__cu_matrix_csr(const struct gsp_dev_csr **out, const gsp_cuda_arrays *A, bool transposed, const char *fn);
/* A' of host CSR A as new host CSR arrays (rp[ncols+1], rj, rx; rx NULL
 * when A->x is), in-arcs of each column in increasing row order. */
gsp_info gsp__csr_transpose_host(gsp_index **rp, gsp_index **rj, void **rx, const gsp_cuda_arrays *A, const char *fn);

#endif /* GSP_CUDA_CSR_CACHE_CUH */
