/*
 * gsp_mxv / gsp_vxm on the GPU: w<mask> = accum(w, op(A) (+.*) u).
 *
 * t = op(A) u is computed in one of three ways:
 *   push  each present u(i) scatters along row i of op(A)' (= A when op(A)
 *         = A', else the cached transpose) with one atomic per arc: atomicMin
 *         / atomicMax on order-preserving integer keys (Key<T>,
 *         gsp_cuda_keys.cuh; exact), atomicAdd for PLUS (integers wrap as
 *         on the CPU; float sums depend on the order), a plain store of
 *         true for OR.
 *         Work is proportional to the arcs leaving the frontier.
 *   pull  every output entry the mask allows gathers over its row of op(A)
 *         with a group of G lanes and a shuffle reduction: no atomics, and
 *         rows the mask excludes (with a complemented mask: settled vertices,
 *         Martin's relax_U) cost one byte read. Work is proportional to the
 *         arcs into allowed rows.
 *   cuSPARSE  PLUS_TIMES on FP32/FP64 with a full u (no presence to track):
 *         cusparseSpMV (CSR_ALG2, deterministic); entry i is present iff row
 *         i of op(A) is nonempty.
 * AUTO picks push when nvals(u) * 20 < size(u) (the frontier holds < 5% of
 * the vertices), else pull (or cuSPARSE where it applies); gsp_desc's
 * direction forces push or pull (our kernels). One template per (semiring,
 * type), instantiated from the semiring table, with the operators of
 * gsp_semiring.h (Sr<S, T>).
 *
 * The write-back C<M,replace> = accum(C, T) runs on the device with the
 * rules of gsp__ops_vector_writeback (element-wise, accumulators from
 * gsp_semiring.h), so the result never leaves the device: w becomes
 * device-only with its entry count read back (the one synchronisation).
 */
#include "gsp_cuda_keys.cuh"
#include "gsp_cuda_ops.cuh"

using gsp_keys::Key;

namespace {

/* ---- the add monoid as an atomic, per semiring ---- */

enum AddKind { K_MIN, K_MAX, K_PLUS, K_OR };
template <gsp_semiring S> struct KindOf;
template <> struct KindOf<GSP_MIN_PLUS> { static const int k = K_MIN; };
template <> struct KindOf<GSP_MIN_MAX> { static const int k = K_MIN; };
template <> struct KindOf<GSP_MAX_PLUS> { static const int k = K_MAX; };
template <> struct KindOf<GSP_MAX_MIN> { static const int k = K_MAX; };
template <> struct KindOf<GSP_PLUS_TIMES> { static const int k = K_PLUS; };
template <> struct KindOf<GSP_OR_AND> { static const int k = K_OR; };

/* Store: what the accumulator array holds during a push; init/combine/fin
 * map the semiring add onto an atomic. */
template <int K, class T> struct Atom { /* K_MIN and K_MAX: on the keys of T */
  typedef typename Key<T>::K Store;
  static __host__ __device__ Store init(T zero) {
    return Key<T>::enc(zero);
  }
  static __device__ __forceinline__ void combine(Store *p, T v) {
    if constexpr (K == K_MIN) atomicMin(p, Key<T>::enc(v));
    else atomicMax(p, Key<T>::enc(v));
  }
  static __device__ __forceinline__ T fin(Store s) {
    return Key<T>::dec(s);
  }
};
/* Integer PLUS through unsigned atomics: two's complement wraps exactly as
 * gsp_plus_i32 / gsp_plus_i64. */
template <class T> struct Atom<K_PLUS, T> {
  typedef T Store;
  static __host__ __device__ Store init(T zero) {
    return zero;
  }
  static __device__ __forceinline__ void combine(T *p, T v);
  static __device__ __forceinline__ T fin(Store s) {
    return s;
  }
};
template <> __device__ __forceinline__ void Atom<K_PLUS, int32_t>::combine(int32_t *p, int32_t v) {
  atomicAdd((unsigned *)p, (unsigned)v);
}
template <> __device__ __forceinline__ void Atom<K_PLUS, int64_t>::combine(int64_t *p, int64_t v) {
  atomicAdd((unsigned long long *)p, (unsigned long long)v);
}
template <> __device__ __forceinline__ void Atom<K_PLUS, float>::combine(float *p, float v) {
  atomicAdd(p, v);
}
template <> __device__ __forceinline__ void Atom<K_PLUS, double>::combine(double *p, double v) {
  atomicAdd(p, v);
}
template <> struct Atom<K_OR, bool> {
  typedef bool Store;
  static __host__ __device__ Store init(bool zero) {
    return zero;
  }
  /* every writer stores the same true: no atomic needed */
  static __device__ __forceinline__ void combine(bool *p, bool v) {
    if (v) *(volatile bool *)p = true;
  }
  static __device__ __forceinline__ bool fin(bool s) {
    return s;
  }
};

/* Shuffle any value type (bool through int). */
template <class T> __device__ __forceinline__ T shfl_xor(unsigned mask, T v, int off, int width) {
  return __shfl_xor_sync(mask, v, off, width);
}
template <> __device__ __forceinline__ bool shfl_xor<bool>(unsigned mask, bool v, int off, int width) {
  return __shfl_xor_sync(mask, (int)v, off, width) != 0;
}

/* Mask of the G-lane group of this thread within its warp. */
template <int G> __device__ __forceinline__ unsigned group_mask() {
  if (G == 32) return 0xffffffffu;
  const unsigned lane = threadIdx.x & 31;
  return ((1u << (G % 32)) - 1) << (lane & ~(unsigned)(G - 1));
}

/* ---- kernels ---- */

/* Pull: t(i) = (+)_k P(i,k) (x) u(k) over present u(k), for rows i the mask
 * allows; G lanes per row. Writes tx and tb of every row. */
template <gsp_semiring S, class T, int G>
__global__ void __launch_bounds__(256)
    pull_kernel(int32_t nrows, const int32_t *__restrict__ rp, const int32_t *__restrict__ ci, const T *__restrict__ av,
                const T *__restrict__ ux, const uint8_t *__restrict__ ub, const uint8_t *__restrict__ allow,
                T *__restrict__ tx, uint8_t *__restrict__ tb) {
  typedef Sr<S, T> R;
  const int64_t gt = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  const int64_t row = gt / G;
  const int lane = (int)(gt % G);
  if (row >= nrows) return; /* the whole group leaves together */
  if (allow && !allow[row]) {
    if (lane == 0) tb[row] = 0;
    return;
  }
  T acc = R::zero();
  int any = 0;
  const int32_t e = rp[row + 1];
  for (int32_t p = rp[row] + lane; p < e; p += G) {
    const int32_t k = ci[p];
    if (ub[k]) {
      acc = R::add(acc, R::mul(av[p], ux[k]));
      any = 1;
    }
  }
  const unsigned m = group_mask<G>();
#pragma unroll
  for (int off = G / 2; off > 0; off /= 2) {
    acc = R::add(acc, shfl_xor<T>(m, acc, off, G));
    any |= __shfl_xor_sync(m, any, off, G);
  }
  if (lane == 0) {
    tx[row] = acc;
    tb[row] = (uint8_t)any;
  }
}

/* Push: for each frontier entry i (front[f]), acc(j) (+)= u(i) (x) S(i,j)
 * over row i of S, for columns j the mask allows; G lanes per entry. */
template <gsp_semiring S, class T, int G>
__global__ void __launch_bounds__(256)
    push_kernel(int32_t nf, const int32_t *__restrict__ front, const int32_t *__restrict__ rp,
                const int32_t *__restrict__ ci, const T *__restrict__ av, const T *__restrict__ ux,
                const uint8_t *__restrict__ allow, typename Atom<KindOf<S>::k, T>::Store *acc, uint8_t *tb) {
  typedef Sr<S, T> R;
  typedef Atom<KindOf<S>::k, T> At;
  const int64_t gt = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  const int64_t f = gt / G;
  const int lane = (int)(gt % G);
  if (f >= nf) return;
  const int32_t i = front[f];
  const T ui = ux[i];
  const int32_t e = rp[i + 1];
  for (int32_t p = rp[i] + lane; p < e; p += G) {
    const int32_t j = ci[p];
    if (allow && !allow[j]) continue;
    At::combine(&acc[j], R::mul(ui, av[p]));
    if (!tb[j]) tb[j] = 1;
  }
}

template <class X> __global__ void fill_kernel(X *a, int64_t n, X v) {
  const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n) a[i] = v;
}

/* Keys back to values, in place (same width). */
template <int K, class T> __global__ void decode_kernel(void *a, int64_t n) {
  typedef Atom<K, T> At;
  const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n) {
    const typename At::Store s = ((const typename At::Store *)a)[i];
    ((T *)a)[i] = At::fin(s);
  }
}

/* tb(i) = row i of the CSR is nonempty (and allowed): the structure of
 * A u for a full u. */
__global__ void rows_kernel(uint8_t *tb, const int32_t *rp, int32_t nrows, const uint8_t *allow) {
  const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < nrows) tb[i] = rp[i + 1] > rp[i] && (!allow || allow[i]);
}

/* allow(i) = the mask holds at i: present and (structural or nonzero),
 * negated by comp (gsp__ops_truthy: x != 0). */
template <class M>
__global__ void allow_kernel(uint8_t *allow, const M *mx, const uint8_t *mb, int64_t n, bool structural, bool comp) {
  const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n) allow[i] = (uint8_t)((mb[i] && (structural || mx[i] != (M)0)) != comp);
}

/* The accumulators of gsp_semiring.h, per type. */
template <class T> struct Bin;
#define GSP_CU_BIN_(ct, sfx)                                         \
  template <> struct Bin<ct> {                                       \
    static __device__ __forceinline__ ct apply(int op, ct a, ct b) { \
      switch (op) {                                                  \
      case GSP_MIN:                                                  \
        return gsp_min_##sfx(a, b);                                  \
      case GSP_MAX:                                                  \
        return gsp_max_##sfx(a, b);                                  \
      case GSP_PLUS:                                                 \
        return gsp_plus_##sfx(a, b);                                 \
      case GSP_TIMES:                                                \
        return gsp_times_##sfx(a, b);                                \
      case GSP_LOR:                                                  \
        return gsp_lor_##sfx(a, b);                                  \
      case GSP_LAND:                                                 \
        return gsp_land_##sfx(a, b);                                 \
      case GSP_FIRST:                                                \
        return gsp_first_##sfx(a, b);                                \
      case GSP_SECOND:                                               \
        return gsp_second_##sfx(a, b);                               \
      default:                                                       \
        return gsp_minus_##sfx(a, b);                                \
      }                                                              \
    }                                                                \
  };
GSP_CU_BIN_(bool, b)
GSP_CU_BIN_(int32_t, i32)
GSP_CU_BIN_(int64_t, i64)
GSP_CU_BIN_(float, f32)
GSP_CU_BIN_(double, f64)
#undef GSP_CU_BIN_

/* Warp-aggregated count of flags into *cnt. */
__device__ __forceinline__ void count_flag(unsigned long long *cnt, bool on) {
  const unsigned ballot = __ballot_sync(0xffffffffu, on);
  if ((threadIdx.x & 31) == 0 && ballot) atomicAdd(cnt, (unsigned long long)__popc(ballot));
}

/* C<M,replace> = accum(C, T), element-wise, as gsp__ops_vector_writeback:
 * m = allow(i) (all1: no mask). accum < 0: none. */
template <class T>
__global__ void writeback_kernel(int64_t n, const T *cx, const uint8_t *cb, const T *tx, const uint8_t *tb,
                                 const uint8_t *allow, int all1, int accum, bool replace, T *rx, uint8_t *rb,
                                 unsigned long long *cnt) {
  const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  bool on = false;
  if (i < n) {
    const bool m = allow ? allow[i] != 0 : all1 != 0;
    const bool has_c = cb && cb[i], has_t = tb[i] != 0;
    T r = T();
    if (m) {
      if (has_t && has_c && accum >= 0) r = Bin<T>::apply(accum, cx[i], tx[i]), on = true;
      else if (has_t) r = tx[i], on = true;
      else if (has_c && accum >= 0) r = cx[i], on = true;
    } else if (has_c && !replace) {
      r = cx[i], on = true;
    }
    rx[i] = r;
    rb[i] = on;
  }
  count_flag(cnt, on);
}

__global__ void count_kernel(const uint8_t *b, int64_t n, unsigned long long *cnt) {
  const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  count_flag(cnt, i < n && b[i]);
}

/* ---- host side ---- */

struct Ctx {
  const char *fn;
  gsp_semiring s;
  gsp_type t;
  bool push, library;
  const gsp_dev_csr *P; /* pull / cuSPARSE: rows of op(A); push: rows of op(A)' */
  gsp_dev_vector *u;    /* device copy of u */
  const int32_t *front; /* push: present indices of u */
  int64_t nfront;
  const uint8_t *allow; /* NULL: every output entry allowed */
  int64_t nt;           /* length of t */
  void *tx;             /* t values (push: the atomic store, decoded after) */
  uint8_t *tb;
};

/* Lanes per row / frontier entry: a warp for long rows, 4 lanes for short. */
static int group_for(const gsp_dev_csr *c) {
  return c->nrows > 0 && (int64_t)c->nnz > 12 * (int64_t)c->nrows ? 32 : 4;
}

template <gsp_semiring S, class T> static gsp_info compute(const Ctx &c) {
  gsp_info info = GSP_SUCCESS;
  const char *fn = c.fn;
#define GSP_FREE_ALL ((void)0)
  typedef Atom<KindOf<S>::k, T> At;
  typedef typename At::Store St;
  const gsp_dev_csr *P = c.P;
  const int G = group_for(P);
  if (c.push) {
    if (c.nt > 0) {
      fill_kernel<St><<<gsp__cu_blocks(c.nt), 256>>>((St *)c.tx, c.nt, At::init(Sr<S, T>::zero()));
      GSP_CU_LAUNCHED();
      GSP_CU_TRY(cudaMemsetAsync(c.tb, 0, (size_t)c.nt, 0));
    }
    if (c.nfront > 0) {
      const int64_t threads = c.nfront * G;
      if (G == 32)
        push_kernel<S, T, 32><<<gsp__cu_blocks(threads), 256>>>((int32_t)c.nfront, c.front, P->p, P->j, (const T *)P->x,
                                                                (const T *)c.u->x, c.allow, (St *)c.tx, c.tb);
      else
        push_kernel<S, T, 4><<<gsp__cu_blocks(threads), 256>>>((int32_t)c.nfront, c.front, P->p, P->j, (const T *)P->x,
                                                               (const T *)c.u->x, c.allow, (St *)c.tx, c.tb);
      GSP_CU_LAUNCHED();
    }
    if ((KindOf<S>::k == K_MIN || KindOf<S>::k == K_MAX) && c.nt > 0) {
      decode_kernel<KindOf<S>::k, T><<<gsp__cu_blocks(c.nt), 256>>>(c.tx, c.nt);
      GSP_CU_LAUNCHED();
    }
  } else if (c.nt > 0) {
    const int64_t threads = c.nt * G;
    if (G == 32)
      pull_kernel<S, T, 32><<<gsp__cu_blocks(threads), 256>>>((int32_t)c.nt, P->p, P->j, (const T *)P->x,
                                                              (const T *)c.u->x, c.u->b, c.allow, (T *)c.tx, c.tb);
    else
      pull_kernel<S, T, 4><<<gsp__cu_blocks(threads), 256>>>((int32_t)c.nt, P->p, P->j, (const T *)P->x,
                                                             (const T *)c.u->x, c.u->b, c.allow, (T *)c.tx, c.tb);
    GSP_CU_LAUNCHED();
  }
#undef GSP_FREE_ALL
  return info;
}

/* PLUS_TIMES on FP32/FP64 with a full u: cusparseSpMV, structure from the
 * row pointers. */
static gsp_info spmv_library(const Ctx &c) {
  gsp_info info = GSP_SUCCESS;
  const char *fn = c.fn;
  cusparseSpMatDescr_t mat = NULL;
  cusparseDnVecDescr_t vx = NULL, vy = NULL;
  void *buf = NULL;
#define GSP_FREE_ALL                                                                               \
  (mat ? (void)cusparseDestroySpMat(mat) : (void)0, vx ? (void)cusparseDestroyDnVec(vx) : (void)0, \
   vy ? (void)cusparseDestroyDnVec(vy) : (void)0, gsp__cu_free(buf))
  const gsp_dev_csr *P = c.P;
  if (c.nt == 0) return info;
  rows_kernel<<<gsp__cu_blocks(c.nt), 256>>>(c.tb, P->p, P->nrows, c.allow);
  GSP_CU_LAUNCHED();
  if (P->nnz == 0 || P->ncols == 0) return info; /* every row is empty: t has no entry */
  gsp_cu_plus k;
  GSP_TRY(gsp__cu_plus_begin(&k, c.t, fn));
  GSP_TRY(gsp__cu_csr_descr(&mat, P, k.dt, fn));
  GSP_CUSPARSE_TRY(cusparseCreateDnVec(&vx, P->ncols, c.u->x, k.dt));
  GSP_CUSPARSE_TRY(cusparseCreateDnVec(&vy, P->nrows, c.tx, k.dt));
  size_t bytes = 0;
  GSP_CUSPARSE_TRY(cusparseSpMV_bufferSize(k.h, CUSPARSE_OPERATION_NON_TRANSPOSE, k.one, mat, vx, k.zero, vy, k.dt,
                                           CUSPARSE_SPMV_CSR_ALG2, &bytes));
  GSP_CU_DALLOC(buf, bytes);
  GSP_CUSPARSE_TRY(cusparseSpMV(k.h, CUSPARSE_OPERATION_NON_TRANSPOSE, k.one, mat, vx, k.zero, vy, k.dt,
                                CUSPARSE_SPMV_CSR_ALG2, buf));
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

struct Compute {
  const Ctx &c;
  template <gsp_semiring S, class T> gsp_info run() const {
    return compute<S, T>(c);
  }
};

static gsp_info compute_any(const Ctx &c) {
  if (c.library) return spmv_library(c);
  return gsp__cu_sr_dispatch(c.s, c.t, c.fn, Compute{c});
}

static gsp_info launch_allow(uint8_t *allow, const gsp_dev_vector *m, gsp_type mt, int64_t n, bool structural,
                             bool comp, const char *fn) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL ((void)0)
  if (n == 0) return info;
  const unsigned nb = gsp__cu_blocks(n);
  switch (mt) {
  case GSP_BOOL:
    allow_kernel<bool><<<nb, 256>>>(allow, (const bool *)m->x, m->b, n, structural, comp);
    break;
  case GSP_INT32:
    allow_kernel<int32_t><<<nb, 256>>>(allow, (const int32_t *)m->x, m->b, n, structural, comp);
    break;
  case GSP_INT64:
    allow_kernel<int64_t><<<nb, 256>>>(allow, (const int64_t *)m->x, m->b, n, structural, comp);
    break;
  case GSP_FP32:
    allow_kernel<float><<<nb, 256>>>(allow, (const float *)m->x, m->b, n, structural, comp);
    break;
  case GSP_FP64:
    allow_kernel<double><<<nb, 256>>>(allow, (const double *)m->x, m->b, n, structural, comp);
    break;
  }
  GSP_CU_LAUNCHED();
#undef GSP_FREE_ALL
  return info;
}

static gsp_info launch_writeback(gsp_type t, int64_t n, const gsp_dev_vector *c, const void *tx, const uint8_t *tb,
                                 const uint8_t *allow, int all1, int accum, bool replace, void *rx, uint8_t *rb,
                                 unsigned long long *cnt, const char *fn) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL ((void)0)
  if (n == 0) return info;
  const unsigned nb = gsp__cu_blocks(n);
  const uint8_t *cb = c ? c->b : NULL;
#define GSP_CU_WB_(ct)                                                                                          \
  writeback_kernel<ct><<<nb, 256>>>(n, c ? (const ct *)c->x : NULL, cb, (const ct *)tx, tb, allow, all1, accum, \
                                    replace, (ct *)rx, rb, cnt)
  switch (t) {
  case GSP_BOOL:
    GSP_CU_WB_(bool);
    break;
  case GSP_INT32:
    GSP_CU_WB_(int32_t);
    break;
  case GSP_INT64:
    GSP_CU_WB_(int64_t);
    break;
  case GSP_FP32:
    GSP_CU_WB_(float);
    break;
  case GSP_FP64:
    GSP_CU_WB_(double);
    break;
  }
#undef GSP_CU_WB_
  GSP_CU_LAUNCHED();
#undef GSP_FREE_ALL
  return info;
}

} // namespace

gsp_info gsp_cuda_mxv(int64_t *w_nvals, const gsp_cuda_vec *w, const gsp_cuda_vec *mask, gsp_binop accum,
                      gsp_semiring s, const gsp_cuda_arrays *A, const gsp_cuda_vec *u, const gsp_desc *desc, bool tr,
                      const char *fn, bool *taken) {
  gsp_info info = GSP_SUCCESS;
  void *tx = NULL, *rx = NULL;
  uint8_t *tb = NULL, *rb = NULL, *allow = NULL;
  unsigned long long *dcnt = NULL;
  struct gsp_dev_vector *spare = NULL;
#define GSP_FREE_ALL                                                                                                \
  (gsp__cu_free(tx), gsp__cu_free(rx), gsp__cu_free(tb), gsp__cu_free(rb), gsp__cu_free(allow), gsp__cu_free(dcnt), \
   gsp__cu_vector_spare_free(spare))
  *taken = false;
  const gsp_desc d = desc ? *desc : gsp_desc{};
  if (A->nrows > GSP_CU_OPS_MAX || A->ncols > GSP_CU_OPS_MAX || A->nvals > GSP_CU_OPS_MAX) {
    gsp__device_decline(GSP_TOO_LARGE, "the GPU product takes at most 2^31 - 2 rows, columns and entries");
    return info;
  }
  *taken = true;
  const gsp__cu_guard guard(A->dev, u->dev);
  const gsp_type t = w->type;
  const size_t ts = gsp_type_size(t);
  const int64_t nt = w->n;

  Ctx c = {};
  c.fn = fn;
  c.s = s;
  c.t = t;
  c.nt = nt;
  const bool full_u = u->nvals == u->n;
  c.library = d.direction == GSP_DIRECTION_AUTO && s == GSP_PLUS_TIMES && (t == GSP_FP32 || t == GSP_FP64) && full_u;
  /* AUTO pushes from an input holding fewer than 1/20 of its entries:
   * below that the atomic scatter touches fewer rows than a full pull */
  c.push =
      !c.library && (d.direction == GSP_DIRECTION_PUSH || (d.direction == GSP_DIRECTION_AUTO && u->nvals * 20 < u->n));
  /* no mask and a complement: the mask holds nowhere, T is never read */
  const bool nowhere = !mask && d.mask_complement;
  const bool plain = !mask && !d.mask_complement && accum == GSP_NOOP;

  /* operands on the device (uploads happen only for missing copies) */
  GSP_TRY(gsp__cu_vector_dev(&c.u, u, fn));
  if (!nowhere) {
    /* pull and cuSPARSE read rows of op(A); push scatters rows of op(A)' */
    GSP_TRY(gsp__cu_matrix_csr(&c.P, A, c.push ? !tr : tr, fn));
    if (c.push) {
      GSP_TRY(gsp__cu_vector_index(&c.front, u, fn));
      c.nfront = u->nvals;
    }
  }
  gsp_dev_vector *dm = NULL, *dw = NULL;
  if (mask) GSP_TRY(gsp__cu_vector_dev(&dm, mask, fn));
  if (!plain) GSP_TRY(gsp__cu_vector_dev(&dw, w, fn));
  if (!*w->dev) GSP_TRY(gsp__cu_vector_spare(&spare, fn));

  if (mask) {
    GSP_CU_DALLOC(allow, (size_t)nt);
    GSP_TRY(launch_allow(allow, dm, mask->type, nt, d.mask_structure, d.mask_complement, fn));
  }
  c.allow = allow;
  GSP_CU_DALLOC(tx, (size_t)nt * ts);
  GSP_CU_DALLOC(tb, (size_t)nt);
  if (nowhere) {
    if (nt) GSP_CU_TRY(cudaMemsetAsync(tb, 0, (size_t)nt, 0));
  } else {
    c.tx = tx;
    c.tb = tb;
    GSP_TRY(compute_any(c));
  }

  GSP_CU_DALLOC(dcnt, sizeof *dcnt);
  GSP_CU_TRY(cudaMemsetAsync(dcnt, 0, sizeof *dcnt, 0));
  if (plain) {
    /* T replaces w: adopt its arrays */
    if (nt) {
      count_kernel<<<gsp__cu_blocks(nt), 256>>>(tb, nt, dcnt);
      GSP_CU_LAUNCHED();
    }
    rx = tx, rb = tb;
    tx = NULL, tb = NULL;
  } else {
    GSP_CU_DALLOC(rx, (size_t)nt * ts);
    GSP_CU_DALLOC(rb, (size_t)nt);
    GSP_TRY(launch_writeback(t, nt, dw, tx, tb, allow, mask ? 1 : !d.mask_complement,
                             accum == GSP_NOOP ? -1 : (int)accum, d.replace, rx, rb, dcnt, fn));
  }
  unsigned long long cnt = 0;
  GSP_CU_TRY(cudaMemcpy(&cnt, dcnt, sizeof cnt, cudaMemcpyDeviceToHost));

  /* commit: nothing fails past here */
  gsp__cu_vector_commit(w, rx, rb, &spare);
  *w_nvals = (int64_t)cnt;
  rx = NULL, rb = NULL;
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}
