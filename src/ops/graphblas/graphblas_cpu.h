/*
 * The CPU kernels of the GraphBLAS products (mxm_cpu.c, mxv_cpu.c): each
 * computes the product T alone; its entry point (gsp_mxm.c, gsp_mxv.c)
 * checks the arguments, decides the backend and writes T back into the
 * caller's output.
 */
#ifndef GRAPHBLAS_CPU_H
#define GRAPHBLAS_CPU_H

#include "gsp_ops.h"

/* *T = a (+.*) b by semiring s in a's type: a (m x k) and b (k x n) host
 * CSR, the operands as multiplied (any transpose already applied). With
 * mask (host CSR, m x n) T holds only the entries where the mask holds (any
 * entry if structural, else a nonzero value). *T is a new m x n CSR matrix.
 * Errors: GSP_OUT_OF_MEMORY. */
gsp_info gsp__mxm_cpu(struct gsp_matrix_s **T, gsp_semiring s, const struct gsp_matrix_s *a,
                      const struct gsp_matrix_s *b, const struct gsp_matrix_s *mask, bool structural, const char *fn);

/* *T = A (+.*) u by semiring s in A's type, a new vector: pull (A used as
 * given: A is m x k, u has k entries, T has m) or push (u scattered along
 * A's rows: A is k x m). A is an input, never converted (its CSR view is
 * read); u is on the host. Errors: GSP_OUT_OF_MEMORY. */
gsp_info gsp__mxv_cpu(struct gsp_vector_s **T, gsp_semiring s, struct gsp_matrix_s *A, const struct gsp_vector_s *u,
                      bool push, const char *fn);

#endif /* GRAPHBLAS_CPU_H */
