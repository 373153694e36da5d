/*
 * Internal to the shortest-path kernels (gsp_cuda_sssp*.cu,
 * gsp_cuda_msssp.cu): the device CSR, distance keys, and small device
 * helpers. Only .cu files include this.
 *
 * Distances live on the device as integer keys so that every type has a
 * native atomicMin: integers as they are, floats by the order-preserving
 * map (non-negative bit patterns as they are, negative ones with the
 * magnitude bits flipped), under which integer order is float order. The
 * arithmetic itself is done on values with the MIN_PLUS operators of
 * gsp_semiring.h, exactly as on the CPU, so both backends reach the same
 * fixpoint bit for bit.
 */
#ifndef GSP_CUDA_SSSP_CUH
#define GSP_CUDA_SSSP_CUH

#include <cooperative_groups.h>
#include <string.h>

#include <type_traits>

#include "gsp_cuda_internal.cuh"
#include "gsp_cuda_keys.cuh"
#include "gsp_cuda_stage.h" /* gsp__pinned_alloc */
#include "sssp_gather.h"

/* The staging slot the tests force (gsp_cuda_testing.c), 0: the default. */
extern "C" size_t gsp__cuda_sssp_stage_bytes(void);

namespace gsp_sssp_cu {

namespace cg = cooperative_groups;

/* Device CSR of A: out-arcs, and (when built) in-arcs for pull kernels.
 * Column indices are int32 (the gateway declines n >= 2^31). */
struct DevGraph {
  int32_t n;
  int64_t m;
  int64_t *off;
  int32_t *col;
  void *w;
  int64_t *roff; /* reverse: arcs into v are roff[v]..roff[v+1] */
  int32_t *rcol; /* their tails */
  void *rw;
};

/* Upload A (host CSR, weights type t) and, when reverse, its transpose. */
gsp_info graph_upload(DevGraph *g, const gsp_cuda_arrays *A, bool reverse);
void graph_free(DevGraph *g);

/* A view of A's device CSR cache (A->dev, shared with the sparse products
 * and freed by any change of A; the view and a workspace that grows to the
 * largest request are kept in A->dev->graph). The first call pays the
 * upload; later calls on the same A find it. */
gsp_info graph_get(const DevGraph **g, const gsp_cuda_arrays *A, bool reverse);
gsp_info graph_workspace(void **ws, const gsp_cuda_arrays *A, size_t bytes);
/* Bytes graph_get would still allocate for A (0 when kept already). */
size_t graph_missing_bytes(const gsp_cuda_arrays *A, bool reverse);
/* Bytes of workspace A already holds. */
size_t graph_workspace_bytes(const gsp_cuda_arrays *A);
/* The gateways' common prologue. graph_taken: whether the kernels take A
 * (int32 vertex ids, host CSR, numeric weights). device_fits: whether
 * `need` device bytes fit in 90% of the free memory (false when the query
 * fails: the CPU takes the call). distinct_sources: src[0..nsrc) without
 * repeats, in order of first appearance, as int32 (*S from gsp__malloc,
 * *ns of them). */
bool graph_taken(const gsp_cuda_arrays *A);
bool device_fits(size_t need);
gsp_info distinct_sources(int32_t **S, int32_t *ns, const int64_t *src, int64_t nsrc, int64_t n);
/* return f.run<T>() for A's weight type T (f's first template argument). */
template <class F> gsp_info by_type(gsp_type t, const F &f) {
  switch (t) {
  case GSP_INT32:
    return f.template run<int32_t>();
  case GSP_INT64:
    return f.template run<int64_t>();
  case GSP_FP32:
    return f.template run<float>();
  case GSP_FP64:
    return f.template run<double>();
  default:
    return GSP_ERROR(GSP_PANIC, "shortest paths (CUDA): type %d", (int)t);
  }
}
/* Pinned host staging kept with the device graph dg (grown to `bytes`,
 * freed with it); *p = NULL, and success, when the host cannot pin that
 * much (the caller stages through pageable memory). */
gsp_info graph_staging(void **p, struct gsp_dev_graph *dg, size_t bytes);
/* The stream the results are copied on, kept with dg: non-blocking, so
 * the copies run beside work queued on the legacy stream. */
gsp_info graph_copy_stream(cudaStream_t *s, struct gsp_dev_graph *dg);
/* Multiprocessors of device 0 (cached). */
int sm_count();
/* Bytes the graph takes on the device. */
size_t graph_bytes(const gsp_cuda_arrays *A, bool reverse);

/* ---- keys ---- */

/* The library type of a value type. */
template <class T> constexpr gsp_type type_of();
template <> constexpr gsp_type type_of<int32_t>() {
  return GSP_INT32;
}
template <> constexpr gsp_type type_of<int64_t>() {
  return GSP_INT64;
}
template <> constexpr gsp_type type_of<float>() {
  return GSP_FP32;
}
template <> constexpr gsp_type type_of<double>() {
  return GSP_FP64;
}

/* One gateway call's record, passed down its drivers: the staging slot the
 * tests force, and its phase times as the drivers fill them (gsp_cuda_sssp and
 * gsp_cuda_msssp hand them to the caller's stats). */
struct CallRecord {
  gsp_cuda_sssp_stats stats;
  size_t stage_bytes; /* gsp__cuda_sssp_stage_bytes(), 0: the default */
  double t_entry;     /* host clock at the gateway's entry */
};

/* Distance keys (gsp_cuda_keys.cuh). */
using gsp_keys::Key;

/* ---- device helpers ---- */

template <int G> __device__ __forceinline__ int64_t group_id() {
  return (blockIdx.x * (int64_t)blockDim.x + threadIdx.x) / G;
}
template <int G> __device__ __forceinline__ int64_t group_stride() {
  return (int64_t)gridDim.x * blockDim.x / G;
}

/* Append v to q (count at *cnt) with one atomic per group of active
 * threads (warp-aggregated). */
__device__ __forceinline__ void qpush(int32_t *q, int32_t *cnt, int32_t v) {
  cg::coalesced_group g = cg::coalesced_threads();
  int base = 0;
  if (g.thread_rank() == 0) base = atomicAdd(cnt, (int)g.size());
  base = g.shfl(base, 0);
  q[base + (int)g.thread_rank()] = v;
}

/* Set a 0/1 flag; true when this call set it. */
__device__ __forceinline__ bool claim(uint8_t *flags, int32_t v) {
  unsigned *word = (unsigned *)(flags + (v & ~3));
  const unsigned bit = 1u << (8 * (v & 3));
  return (atomicOr(word, bit) & bit) == 0;
}

/* The out-arcs of the frontier F, a group of G threads per vertex:
 * body(u, du, e) for each arc e of u = F[k], du its distance in d. */
template <class T, int G, class Body>
__device__ __forceinline__ void frontier_arcs(const DevGraph &g, const typename Key<T>::K *d, const int32_t *F,
                                              int32_t nf, Body body) {
  const int lane = threadIdx.x % G;
  for (int64_t k = group_id<G>(); k < nf; k += group_stride<G>()) {
    const int32_t u = F[k];
    const T du = Key<T>::dec(d[u]);
    for (int64_t e = g.off[u] + lane; e < g.off[u + 1]; e += G) body(u, du, e);
  }
}

/* Push (Harish, Bellman-Ford): the frontier F (groups of G threads per
 * vertex) relaxes into U, d read-only this round; the first improver of v
 * queues it, and resets cand[v] when cand is given (Bellman-Ford's
 * predecessor candidates). */
template <class T, int G>
__global__ void push_relax(const DevGraph g, const typename Key<T>::K *d, typename Key<T>::K *U, const int32_t *F,
                           int32_t nf, uint8_t *touched, int32_t *cand, int32_t *Tq, int32_t *tcnt, T lim) {
  typedef Key<T> KT;
  const T *w = (const T *)g.w;
  frontier_arcs<T, G>(g, d, F, nf, [&](int32_t u, T du, int64_t e) {
    (void)u;
    const T nd = KT::add(du, w[e]);
    if (!(nd <= lim)) return;
    const int32_t v = g.col[e];
    const typename KT::K key = KT::enc(nd);
    if (key < atomicMin(&U[v], key) && claim(touched, v)) {
      if (cand) cand[v] = INT32_MAX;
      qpush(Tq, tcnt, v);
    }
  });
}

template <class X> __global__ void fill_kernel(X *a, int64_t n, X v) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
    a[i] = v;
}

/* Blocks for a grid-stride loop over `items` threads. */
static inline unsigned blocks_for(int64_t items, int threads = 256) {
  const int64_t b = (items + threads - 1) / threads, cap = (int64_t)sm_count() * 32;
  return (unsigned)(b < 1 ? 1 : b > cap ? cap : b);
}

template <class X> static gsp_info fill(X *a, int64_t n, X v) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL ((void)0)
  if (n <= 0) return info;
  fill_kernel<X><<<blocks_for(n), 256>>>(a, n, v);
  GSP_CUDA_LAUNCHED();
#undef GSP_FREE_ALL
  return info;
}

/* Device int32 read back to the host (synchronises). */
static inline gsp_info read_count(int32_t *host, const int32_t *dev) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL ((void)0)
  GSP_CUDA_TRY(cudaMemcpy(host, dev, sizeof *host, cudaMemcpyDeviceToHost));
#undef GSP_FREE_ALL
  return info;
}

/* Device scratch of the tree pass: level and order of n entries, one
 * counter. */
struct TreeWs {
  int32_t *level, *order, *cnt;
};

/* par (device, n) = the parents of the single/nearest-source tree from the
 * final device distances d (-1 where unreached): strict, the rule of
 * non-negative weights, else the tight-arc BFS from the sources
 * (Bellman-Ford); both as gsp__sssp_cpu_tree gives them. src: the distinct
 * sources (host). In two calls on the legacy stream: tree_start queues the
 * work that needs no answer from the device (for the strict rule, the
 * whole arc pass), so the host is free until tree_end, which reads the
 * counts, runs the BFS where needed and returns with par complete.
 * GSP_PANIC when a reached vertex has no tight path. Explicitly
 * instantiated for the four types. */
template <class T>
gsp_info tree_start(int32_t *par, const typename Key<T>::K *d, const DevGraph &g, const int32_t *src, int32_t nsrc,
                    T lim, bool strict, TreeWs ws);
template <class T>
gsp_info tree_end(int32_t *par, const typename Key<T>::K *d, const DevGraph &g, int32_t nsrc, T lim, bool strict,
                  TreeWs ws, CallRecord &rec);

/* The drivers' common end: dist[n] (host) from the final device keys d,
 * then, when parent != NULL, the tree of tree_start and tree_end. */
template <class T>
gsp_info finish(T *dist, int64_t *parent, const typename Key<T>::K *d, const DevGraph &g, const int32_t *src,
                int32_t nsrc, T lim, bool strict, CallRecord &rec);

/* Near-far delta-stepping in one persistent cooperative kernel
 * (gsp_cuda_sssp_nf.cu). out (host arrays, see gsp_cuda_sssp) gets the
 * distances, the presence and, when out->parent is set, the tree of
 * tree_start and tree_end (strict rule); *nvals the vertices
 * reached; plan gives delta, the chain rounds and the blocks. ws holds nf_workspace_bytes(n, m); the results come back through
 * dg's pinned staging. Returns GSP_NO_VALUE, touching nothing, when the
 * device cannot launch cooperative kernels (the caller then uses the
 * multi-kernel driver). */
size_t nf_workspace_bytes(int64_t n, int64_t m);
template <class T>
gsp_info nearfar(const gsp__sssp_sink *out, int64_t *nvals, const DevGraph &g, struct gsp_dev_graph *dg, void *ws,
                 const int32_t *src, int32_t nsrc, T lim, const gsp_cuda_sssp_plan &plan, CallRecord &rec);

/* Seconds on the host clock (steady). */
double host_seconds();

/* cudaMalloc of count x size bytes (plus slack, so byte flags can be
 * claimed a 32-bit word at a time) through GSP_CUDA_TRY. */
#define GSP_CU_MALLOC(ptr, count, size) GSP_CUDA_TRY(cudaMalloc((void **)&(ptr), (size_t)(count) * (size_t)(size) + 16))

} // namespace gsp_sssp_cu

/* What A->dev->graph points at: derived from the cache's CSR copies. */
struct gsp_dev_graph {
  gsp_sssp_cu::DevGraph g; /* view: out-arcs (csr); in-arcs (csrT) once asked */
  double wsum;             /* sum of the finite weights (default delta) */
  void *ws;                /* workspace of the single-source kernels */
  size_t ws_bytes;
  void *pin; /* pinned host staging of their results */
  size_t pin_bytes;
  cudaStream_t copy; /* their copy stream (non-blocking), or NULL */
};

#endif /* GSP_CUDA_SSSP_CUH */
