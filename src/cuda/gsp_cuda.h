/*
 * The C gateway to the CUDA backend: the only header outside src/cuda that
 * names anything of it. No CUDA types appear here. Every function exists
 * only when the library is built with CUDA (GSP_HAVE_CUDA); callers guard
 * their use with #ifdef GSP_HAVE_CUDA.
 */
#ifndef GSP_CUDA_H
#define GSP_CUDA_H

#include <stdbool.h>
#include <stddef.h>

#include "gsp_internal.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef GSP_HAVE_CUDA

/* Whether a device is usable; fills desc (device name, or why not). Never
 * creates a context in a way that breaks a later fork: callers only ask when
 * they are about to use the GPU. */
bool gsp_cuda_usable(char *desc, size_t len);

/*
 * Closure on the GPU. Sets *taken = false and returns GSP_SUCCESS when the
 * gateway declines the call (no device, a type without a kernel, matrix over
 * the memory cap...), leaving everything unchanged; the caller then runs the
 * CPU kernel. When *taken is true the return code is the result: on success
 * M holds M* (its valid copy may stay on the device, M->dev_only) and, when
 * succ != NULL, *succ is a new INT64 successor matrix; on error M and *succ
 * are unchanged.
 */
gsp_info gsp_cuda_closure(struct gsp_matrix_s *M, struct gsp_matrix_s **succ,
                          gsp_semiring s, bool non_reflexive,
                          size_t device_memory_cap, int gpus, bool *taken);
/* Out of core and several GPUs (gsp_cuda_closure picks them): when n x n does
 * not fit the device memory or device_memory_cap, the closure streams pages
 * of the host matrix through one GPU; gpus > 1 (or automatic, see
 * gsp_closure_opts) spreads it over several GPUs with NCCL. The result is
 * then on the host. */

/* Number of usable devices (Hopper); the multi-GPU closure uses the first
 * N of them. */
int gsp_cuda_usable_count(void);

/*
 * Shortest paths on the GPU (src/cuda/gsp_cuda_sssp*.cu). A is host CSR
 * with checked non-negative weights; lim points at one value of A's type
 * (distances above it are dropped: the cutoff). Declines (*taken = false,
 * GSP_SUCCESS, nothing written) when the graph is too large for int32
 * vertex ids or for the free device memory.
 *
 * gsp_cuda_sssp: dist[n] (A's type) gets the distances from the nearest of
 * src[0..nsrc) (+inf where unreached); parent[n] (may be NULL) and root[n]
 * (may be NULL, only with parent) follow the rule of gsp__sssp_cpu_tree,
 * -1 where unreached. algo GSP_SSSP_AUTO picks for the GPU.
 *
 * gsp_cuda_msssp: Okuyama's batched kernel; dist[k*n + v] (A's type) is the
 * distance from src[k] (+inf where unreached), parent (may be NULL) the same
 * layout. batch: sources per pass (rounded up to 32), 0 automatic.
 */
gsp_info gsp_cuda_sssp(void *dist, int64_t *parent, int64_t *root, const struct gsp_matrix_s *A,
                       const int64_t *src, int64_t nsrc, gsp_sssp_algo algo, const void *lim,
                       double delta, bool *taken);
gsp_info gsp_cuda_msssp(void *dist, int64_t *parent, const struct gsp_matrix_s *A,
                        const int64_t *src, int64_t nsrc, const void *lim, int64_t batch,
                        bool *taken);

/* Contract: only gsp_cuda_closure leaves a matrix device-only, and its
 * content is then free of NaN (its input was checked). gsp_closure relies on
 * that to skip the NaN scan of device-resident input; a new producer of
 * device-only results must keep it true or extend that check. */

/* Make the host copy of A valid (download when A->dev_only). */
gsp_info gsp_cuda_matrix_download(struct gsp_matrix_s *A);

/* Release A's device copy, if any (A->dev == NULL afterwards). */
void gsp_cuda_matrix_release(struct gsp_matrix_s *A);

#endif /* GSP_HAVE_CUDA */

#ifdef __cplusplus
}
#endif
#endif /* GSP_CUDA_H */
