/*
 * Blocked Floyd-Warshall kernels (Katz & Kider's three phases), templated on
 * a (semiring, type) policy from gsp_cuda_internal.cuh. Included by one .cu
 * per element type so the instances compile in parallel.
 *
 * Round r (K = the FWB vertices from k0 = r*FWB) closes the diagonal tile
 * D[K, K], updates the row and column panels D[K, :] and D[:, K] with it,
 * then every other tile: D[i, j] ⊕= D[i, K] ⊗ D[K, j]. Two streams, one
 * round of lookahead:
 *   S(r) (side stream, high priority; S(0) on the main stream first):
 *     k_panels    (as a stripe) stripe r's update by round r - 1,
 *     k_diag      close D[K, K] (one block; fp64, int64 and saturating
 *                 int32 up to n = 2048 a cluster of four:
 *                 gsp_cuda_fw_diag.cuh, diag_on_cluster below),
 *     k_panels    row panel D[K, j] ⊕= Diag ⊗ D[K, j] and column panel
 *                 D[i, K] ⊕= D[i, K] ⊗ Diag;
 *   R(r) (main stream): k_rest, every tile outside stripes r and r + 1;
 *     where those take more than a wave, first S(r + 1)'s stripe update
 *     too, whose blocks k_diag then waits for on a counter
 *     (stripe_in_rest); from two waves, for the kernels whose diagonal
 *     closure fits a product block, all of S(r + 1) (side_in_rest), and
 *     then R(r + 1) starts as R(r)'s blocks finish: each of its blocks
 *     waits only for the tiles and panels of R(r) it needs (flow_wait).
 * The products take their A operand, the column panel, transposed from a
 * workspace (FwWork: W[k][i] = D[i][k0 + k]) so that it loads with 16-byte
 * cp.async; the kernels that write a column panel also store it there.
 * S(r + 1) runs beside R(r): it needs S(r) and R(r - 1) (stripe r + 1's
 * tiles and the workspaces were last touched there), R(r + 1) needs S(r + 1)
 * and R(r). So the diagonal tile and the panels (a few dozen blocks) leave
 * the critical path once R(r) is the longer of the two (on an H100 from
 * n = 4096; docs/performance.md). Below, where S sets the pace, R(r) goes
 * two tiles to a block (k_rest_pairs, rest_in_pairs), which leaves SMs
 * free for S, and S's stripe update is split: the diagonal tile's before
 * its closure, the rest beside the closure (split_beside). S's kernels
 * after the first launch as programmatic dependents (gsp_cuda_fw_pdl.cuh).
 * Where R(r) fits in half a wave, each tile goes as two half-width blocks
 * (rest_halves). Because the diagonal tile is closed (Diag = Diag ⊕
 * Diag⊗Diag), the panel updates are plain products, and since the algebra
 * is idempotent the order of the k terms does not matter: every phase is a
 * register-tiled semiring product. A block reads all of its B rows
 * before writing C, and no other block of the same launch touches those
 * columns, so the in-place row panel product is race-free. Bool
 * (bit-packed, gsp_cuda_fw_bits.cu) has its own diagonal and column-panel
 * kernels and k_masks for A' (0/~0 masks, one 32-bit word per bit).
 */
#ifndef GSP_CUDA_FW_CUH
#define GSP_CUDA_FW_CUH

#include <string.h>

#include <algorithm>
#include <type_traits>

#include "gsp_cuda_internal.cuh"
#include "gsp_cuda_fw_diag.cuh"
#include "gsp_cuda_fw_flow.h"
#include "gsp_cuda_fw_pdl.cuh"
#include "gsp_cuda_fw_succ.cuh"
#include "gsp_cuda_fw_vec.cuh"

namespace gspcu {

constexpr int GT = 256; /* threads of a product block: 16 x 16 */

__device__ __forceinline__ void cp_async16(void *smem, const void *gmem) {
  unsigned s = (unsigned)__cvta_generic_to_shared(smem);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(gmem));
}
/* KS rows of W elements, G (row stride ld) into S (row stride W), in
 * 16-byte cp.async copies spread over the GT threads of the block. */
template <int KS, int W, class E> __device__ __forceinline__ void cp_slice(E *S, const E *G, int64_t ld, int tid) {
  constexpr int EV = 16 / sizeof(E), R = W / EV;
  static_assert((KS * R) % GT == 0, "whole slice per pass");
#pragma unroll
  for (int it = 0; it < KS * R / GT; it++) {
    const int idx = tid + it * GT;
    const int kk = idx / R, q = idx % R;
    cp_async16(S + kk * W + q * EV, G + (size_t)kk * ld + q * EV);
  }
}
__device__ __forceinline__ void cp_async_commit() {
  asm volatile("cp.async.commit_group;\n" ::);
}
template <int N> __device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

/* Shapes of the product kernel for a policy; NARROW halves the columns of
 * a block (the panels of a small matrix: twice the blocks, each half the
 * chain). */
template <class P, int NARROW = 1> struct Shape {
  typedef typename P::TC TC;
  typedef typename P::TA TA;
  static constexpr int TM = 8;                                  /* rows per thread */
  static constexpr int TN = (sizeof(TC) == 4 ? 8 : 4) / NARROW; /* columns per thread */
  static constexpr int BM = 16 * TM;                            /* 128 = FWB */
  static constexpr int BN = 16 * TN;
  static constexpr int KS = sizeof(TA) == 4 ? 32 : 16; /* k-slice per stage */
  static constexpr int ST = 3;                         /* stages in flight */
  static constexpr size_t smem() {
    return ST * ((size_t)KS * BM * sizeof(TA) + (size_t)KS * BN * sizeof(TC));
  }
};

/*
 * C[r0:r0+BM, c0:c0+BN] ⊕= A ⊗ B over the FWB-deep k range, A given
 * transposed (At[k*lda + i]), B[k*ldb + j] (B points at row k0). Each thread
 * keeps TM x TN accumulators in registers; A and B k-slices are staged in
 * shared memory by cp.async, ST stages deep: the next ST - 1 slices load
 * while this one is computed, and one barrier a slice both publishes slice
 * s and frees the buffer of slice s - 1 for slice s + ST - 1. Blocks whose
 * row start is skip_r or whose column start lies in [skip_c0, skip_c1) do
 * nothing.
 */
template <class P, class Sh = Shape<P>, int PART = -1, bool SIDE = false>
__device__ __forceinline__ void gemm_tile(typename P::TC *__restrict__ C, int64_t ldc,
                                          const typename P::TA *__restrict__ At, int64_t lda,
                                          const typename P::TC *__restrict__ B, int64_t ldb, int64_t r0, int64_t c0,
                                          typename P::TA *__restrict__ Xt = nullptr, int64_t xc0 = 0) {
  typedef typename P::TC TC;
  typedef typename P::TA TA;
  constexpr int TM = Sh::TM, TN = Sh::TN, BM = Sh::BM, BN = Sh::BN, KS = Sh::KS, ST = Sh::ST;
  constexpr int NS = FWB / KS;
  static_assert(NS >= ST - 1, "the prologue's slices exist");

  extern __shared__ __align__(16) unsigned char smem_raw[];
  TA *As = reinterpret_cast<TA *>(smem_raw + (PART < 0 ? 0 : PART * Sh::smem())); /* [ST][KS][BM] */
  TC *Bs = reinterpret_cast<TC *>(As + ST * KS * BM);                             /* [ST][KS][BN] */
  /* the block's barrier, or named barrier 1 + PART of the GT threads of
   * part PART of the block (k_rest_pairs: a block of two products) */
  auto sync = [] {
    if constexpr (PART < 0) __syncthreads();
    else asm volatile("bar.sync %0, %1;" ::"n"(1 + PART), "n"(GT) : "memory");
  };

  const int tid = PART < 0 ? threadIdx.x : threadIdx.x - PART * GT, ty = tid / 16, tx = tid % 16;

  /* one commit group a slice; past the last, an empty group keeps the
   * count that cp_async_wait<ST - 2> relies on */
  auto load_slice = [&](int s) {
    if (s < NS) {
      const int ks = s * KS, buf = s % ST;
      cp_slice<KS, BM>(As + buf * KS * BM, At + (size_t)ks * lda + r0, lda, tid);
      cp_slice<KS, BN>(Bs + buf * KS * BN, B + (size_t)ks * ldb + c0, ldb, tid);
    }
    cp_async_commit();
  };

#pragma unroll
  for (int s = 0; s < ST - 1; s++) load_slice(s);

  /* Accumulators: rows ty*TM/2 + r and BM/2 + ty*TM/2 + r, columns likewise
   * with tx, so the shared-memory reads are 16-byte vectors without bank
   * conflicts (A: broadcast; B: 16 consecutive vectors). */
  TC c[TM][TN];
#pragma unroll
  for (int r = 0; r < TM; r++) {
    const int64_t row = r0 + (r < TM / 2 ? ty * (TM / 2) + r : BM / 2 + ty * (TM / 2) + r - TM / 2);
    const TC *src = C + (size_t)row * ldc + c0;
    ldv<TN / 2, 0>(c[r], src + tx * (TN / 2));
    ldv<TN / 2, TN / 2>(c[r], src + BN / 2 + tx * (TN / 2));
  }

#pragma unroll 1
  for (int s = 0; s < NS; s++) {
    cp_async_wait<ST - 2>(); /* this thread's part of slice s has landed */
    sync();                  /* everyone's has, and slice s - 1 is read */
    load_slice(s + ST - 1);
    const TA *as = As + s % ST * KS * BM;
    const TC *bs = Bs + s % ST * KS * BN;
#pragma unroll 4
    for (int k = 0; k < KS; k++) {
      TA a[TM];
      TC b[TN];
      ldv<TM / 2, 0>(a, as + k * BM + ty * (TM / 2));
      ldv<TM / 2, TM / 2>(a, as + k * BM + BM / 2 + ty * (TM / 2));
      ldv<TN / 2, 0>(b, bs + k * BN + tx * (TN / 2));
      ldv<TN / 2, TN / 2>(b, bs + k * BN + BN / 2 + tx * (TN / 2));
#pragma unroll
      for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++) c[i][j] = P::fma(c[i][j], a[i], b[j]);
    }
  }

  if constexpr (SIDE) pdl_trigger(); /* a programmatic dependent may launch: the side chain's next kernel */
#pragma unroll
  for (int r = 0; r < TM; r++) {
    const int64_t row = r0 + (r < TM / 2 ? ty * (TM / 2) + r : BM / 2 + ty * (TM / 2) + r - TM / 2);
    TC *dst = C + (size_t)row * ldc + c0;
    stv<TN / 2, 0>(dst + tx * (TN / 2), c[r]);
    stv<TN / 2, TN / 2>(dst + BN / 2 + tx * (TN / 2), c[r]);
  }
  if constexpr (SIDE)
    if (Xt) { /* Xt[c - xc0][row] = C[row][c]: columns of the column panel, transposed (k_panels) */
#pragma unroll
      for (int j = 0; j < TN; j++) {
        const int64_t col = c0 + (j < TN / 2 ? tx * (TN / 2) + j : BN / 2 + tx * (TN / 2) + j - TN / 2);
        TA *dst = Xt + (size_t)(col - xc0) * ldc + r0 + ty * (TM / 2);
        TA v[TM];
#pragma unroll
        for (int r = 0; r < TM; r++) v[r] = c[r][j];
        stv<TM / 2, 0>(dst, v);
        stv<TM / 2, TM / 2>(dst + BM / 2, v);
      }
    }
}

template <class P>
__global__ void __launch_bounds__(GT, 2)
    k_gemm(typename P::TC *__restrict__ C, int64_t ldc, const typename P::TA *__restrict__ At, int64_t lda,
           const typename P::TC *__restrict__ B, int64_t ldb, int64_t rbeg, int64_t cbeg, int64_t skip_r,
           int64_t skip_c0, int64_t skip_c1) {
  const int64_t r0 = rbeg + (int64_t)blockIdx.y * Shape<P>::BM;
  const int64_t c0 = cbeg + (int64_t)blockIdx.x * Shape<P>::BN;
  if (r0 == skip_r || (c0 >= skip_c0 && c0 < skip_c1)) return;
  gemm_tile<P>(C, ldc, At, lda, B, ldb, r0, c0);
}

/* Which tiles of the stripe: all of them, only the diagonal tile D[ks, ks]
 * (grid FWB / BN: the next round's diagonal tile, which its closure needs
 * first), or all but that one. */
enum PanelPart { PANELS_ALL, PANELS_DIAG, PANELS_OFF_DIAG };

/* One stripe in one grid (np / BN row tiles, then FWB / BN column tiles to a
 * row block): C = D, A' = W (the column panel of K = kb.. transposed), B =
 * D[K, :]; the row tiles of block row ks but those of block column kb, the
 * column tiles of block column ks but those of block rows kb and ks.
 * ks = kb: the two panels of round kb (D[K, K] closed); ks = the next
 * round's block: its stripe's update by round kb. The column tiles are also
 * stored transposed into Xcol (Xcol[k][i] = D[i][ks + k]), and the row tile
 * of block column kb + 1 into Xrow (Xrow[k][i] = D[i][kb + FWB + k]; none
 * where null): the workspaces of the products that read this column panel
 * next (run_fw). */
template <class Sh> constexpr unsigned panel_blocks(int64_t np, PanelPart part) {
  return part == PANELS_DIAG ? FWB / Sh::BN : (unsigned)(np / Sh::BN + FWB / Sh::BN * (np / Sh::BM));
}
/* Block b of a stripe's grid (k_panels; k_rest's lead and tail blocks);
 * before(r0, c0), where it updates the tile at (r0, c0), first. */
struct NoWait {
  __device__ void operator()(int64_t, int64_t) const {}
};
template <class P, class Sh, class Before = NoWait>
__device__ __forceinline__ void
panel_block(typename P::TC *__restrict__ D, int64_t ld, const typename P::TA *__restrict__ W, int64_t kb, int64_t ks,
            PanelPart part, typename P::TA *Xcol, typename P::TA *Xrow, int64_t b, Before before = Before()) {
  constexpr int BM = Sh::BM, BN = Sh::BN, CB = FWB / BN;
  static_assert(BM == FWB, "a row panel block holds all FWB rows it reads (in place)");
  const int64_t nrow = ld / BN;
  int64_t r0, c0, xc0 = ks;
  bool skip = false;
  typename P::TA *xt = Xcol;
  if (part == PANELS_DIAG) {
    r0 = ks, c0 = ks + b * BN, xt = nullptr;
  } else if (b < nrow) {
    r0 = ks, c0 = b * BN;
    skip = (c0 >= kb && c0 < kb + FWB) || (part == PANELS_OFF_DIAG && c0 >= ks && c0 < ks + FWB);
    xc0 = kb + FWB, xt = c0 >= xc0 && c0 < xc0 + FWB ? Xrow : nullptr;
  } else {
    r0 = (b - nrow) / CB * BM, c0 = ks + (b - nrow) % CB * BN;
    skip = r0 == kb || r0 == ks;
  }
  if (skip) return;
  before(r0, c0);
  gemm_tile<P, Sh, -1, true>(D, ld, W, ld, D + (size_t)kb * ld, ld, r0, c0, xt, xc0);
}
template <class P, class Sh>
__global__ void __launch_bounds__(GT, 2)
    k_panels(typename P::TC *__restrict__ D, int64_t ld, const typename P::TA *__restrict__ W, int64_t kb, int64_t ks,
             PanelPart part, typename P::TA *Xcol, typename P::TA *Xrow) {
  /* PANELS_OFF_DIAG runs beside the diagonal tile's closure, the kernel
   * before it (prepare_round): it waits for it only at the end, so that the
   * panels after it also wait for the closure */
  if (part != PANELS_OFF_DIAG) pdl_wait();
  panel_block<P, Sh>(D, ld, W, kb, ks, part, Xcol, Xrow, blockIdx.x);
  if (part == PANELS_OFF_DIAG) pdl_wait();
}

/* The number of a round's other tiles, with ne block rows and columns
 * left out (those of the round, and of the next one when there is one). */
template <class P> __host__ __device__ constexpr int64_t rest_tiles(int64_t np, int64_t ne) {
  return (np / FWB - ne) * (np / Shape<P>::BN - ne * (FWB / Shape<P>::BN));
}
/* Where tile t of round k0's m x mc other tiles (block rows and column
 * tiles but those of k0 and kn; kn < 0: none) starts, row-major. */
template <class P>
__device__ __forceinline__ void rest_origin(int64_t ld, int64_t k0, int64_t kn, int64_t t, int64_t *r0, int64_t *c0) {
  constexpr int BN = Shape<P>::BN, CB = FWB / BN;
  const int64_t ne = kn >= 0 ? 2 : 1, b0 = k0 / FWB; /* excluded: block rows / columns b0 .. b0 + ne - 1 */
  const int64_t mc = ld / BN - ne * CB, rb = t / mc, cb = t % mc;
  *r0 = (rb < b0 ? rb : rb + ne) * FWB, *c0 = (cb < b0 * CB ? cb : cb + ne * CB) * BN;
}

/* Whether k_rest's blocks can close a diagonal tile (side_in_rest): one
 * of k_diag's blocks is a product block's threads, in its registers. */
template <class P> constexpr bool closure_in_rest() {
  return diag_threads<diag_tq<P>()>() == GT && diag_min_blocks<P, diag_tq<P>()>() == 2;
}

/* What round k0's k_rest does besides its other tiles. stripe_in_rest:
 * `lead` blocks first, stripe kn's update by this round (the k_panels
 * grid, column panel into xcol), each adding one to count[0] once stored.
 * side_in_rest, all of S(kn) too: after them one block closes the
 * diagonal tile once count[0] >= want (transposed into xcol) and adds one
 * to count[1]; after `mid` tiles, `tail` blocks, S(kn)'s panels (column
 * panel into tn, block row kn's tile after the diagonal into xn), wait
 * for count[1] >= closed and add one each to count[2]; each tile block
 * sets its tile's flag (flags, nb x nb) to r + 1 once stored. flow: the
 * round before was such a round too, and instead of waiting for all of
 * it, each block waits for what it needs of it (flow_wait), count[2] >=
 * tails (its panels) among them. A block waits only for blocks of the
 * grid before, all of which run by then, or of its own grid, which are
 * fewer than the slots (side_in_rest): those run, whatever the launch
 * order. */
template <class TA> struct RestFold {
  unsigned lead = 0, close = 0, tail = 0, mid = 0;
  TA *xcol = nullptr, *tn = nullptr, *xn = nullptr;
  int *count = nullptr, *flags = nullptr;
  int want = 0, closed = 0, tails = 0;
  bool flow = false;
};

/* A block of a flowing round r before it updates tile (i, j) (all: any
 * tile): what it needs of round r - 1, its panel blocks (count[2]) and
 * the tiles of gspflow::FlowWait. */
template <class TA>
__device__ __forceinline__ void flow_wait(const RestFold<TA> &f, int64_t nb, int64_t r, int64_t i, int64_t j,
                                          bool all) {
  const gspflow::FlowWait w(nb, r, i, j, all);
  for (int64_t e = threadIdx.x; e < w.count(); e += blockDim.x) {
    int64_t a, c;
    if (w.flag(e, &a, &c)) spin_until(f.flags + a * nb + c, (int)r);
  }
  if (threadIdx.x == 0) spin_until(f.count + 2, f.tails);
  __syncthreads();
}

/* k_rest's lead blocks (stripe_in_rest), not inlined: their register
 * allocation (the transposed stores) stays out of the other tiles' loop. */
template <class P>
__device__ __noinline__ void rest_lead(typename P::TC *__restrict__ D, int64_t ld, const typename P::TA *__restrict__ W,
                                       int64_t k0, int64_t kn, typename P::TA *Xcol, int *ready) {
  panel_block<P, Shape<P>>(D, ld, W, k0, kn, PANELS_ALL, Xcol, nullptr, blockIdx.x);
  signal_done(ready);
}

/* Block b of f's blocks with side_in_rest, not inlined either. */
template <class P>
__device__ __noinline__ void rest_side(typename P::TC *__restrict__ D, int64_t ld, const typename P::TA *__restrict__ W,
                                       int64_t k0, int64_t kn, const RestFold<typename P::TA> f, unsigned b) {
  typedef typename P::TC TC;
  static_assert(closure_in_rest<P>(), "a product block can close the tile");
  const int64_t nb = ld / FWB, r = k0 / FWB;
  if (b < f.lead) {
    panel_block<P, Shape<P>>(D, ld, W, k0, kn, PANELS_ALL, f.xcol, nullptr, b, [&](int64_t r0, int64_t c0) {
      if (f.flow) flow_wait(f, nb, r, r0 / FWB, c0 / FWB, false);
    });
    signal_done(f.count);
  } else if (b < f.lead + f.close) {
    constexpr int TQ = diag_tq<P>(), S = FWB / TQ;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    TC(*rows)[FWB] = reinterpret_cast<TC(*)[FWB]>(smem_raw); /* rowk [2], colk [2] */
    wait_count(f.count, f.want);
    const DiagBlock<P, TQ, FWB> db{0, (int)threadIdx.x / S, (int)threadIdx.x % S, rows, rows + 2, nullptr};
    diag_close<P, TQ>(db, D + (size_t)kn * ld + kn, ld, kn, f.xcol, true);
    signal_done(f.count + 1);
  } else {
    wait_count(f.count + 1, f.closed);
    if (f.flow) flow_wait(f, nb, r, 0, 0, true);
    panel_block<P, Shape<P>>(D, ld, f.xcol, kn, kn, PANELS_ALL, f.tn, f.xn, b - f.lead - f.close);
    signal_done(f.count + 2);
  }
}

/* Round k0's other tiles, NARROW blocks to a tile (Shape<P, NARROW>, a
 * 1 / NARROW of its columns each; rest_halves), and with NARROW 1 f's
 * lead blocks first. CLOSE (side_in_rest): all of f's blocks around them,
 * the tiles in gspflow::rest_shell's order; launched as a programmatic
 * dependent of the round before, it lets the next round launch as soon as
 * all of its blocks run, and waits for the round before, all of it or
 * (f.flow) what each block needs (flow_wait), so that the next round's
 * blocks take the SMs as this round's finish. An instance of its own: the closure's code
 * beside the product loop changes ptxas's schedule of that loop (fp32 n =
 * 16384 1.3 % slower). */
template <class P, int NARROW = 1, bool CLOSE = false>
__global__ void __launch_bounds__(GT, 2)
    k_rest(typename P::TC *__restrict__ D, int64_t ld, const typename P::TA *__restrict__ W, int64_t k0, int64_t kn,
           const RestFold<typename P::TA> f) {
  typedef Shape<P, NARROW> Sh;
  const unsigned first = f.lead;
  if constexpr (CLOSE) {
    static_assert(NARROW == 1 && Sh::BN == FWB, "whole tiles beside f's blocks, one a block");
    pdl_trigger();
    if (!f.flow) pdl_wait();
    const unsigned tile0 = first + f.close, tail0 = tile0 + f.mid, b = blockIdx.x;
    if (b < tile0 || (b >= tail0 && b < tail0 + f.tail))
      return rest_side<P>(D, ld, W, k0, kn, f, b < tile0 ? b : b - f.mid);
    const int64_t nb = ld / FWB, r = k0 / FWB;
    int64_t i, j;
    gspflow::rest_shell(nb, r, b - tile0 - (b < tail0 ? 0 : f.tail), &i, &j);
    if (f.flow) flow_wait(f, nb, r, i, j, false);
    gemm_tile<P>(D, ld, W, ld, D + (size_t)k0 * ld, ld, i * FWB, j * FWB);
    /* the tile again, from a fresh read of the block index: with i and j
     * kept across the product loop, ptxas schedules fp32 min-plus's loop
     * with 937 cycles of stalls instead of 722 (8 % slower at n = 8192) */
    unsigned b2;
    asm volatile("mov.u32 %0, %%ctaid.x;" : "=r"(b2));
    gspflow::rest_shell(nb, r, b2 - tile0 - (b2 < tail0 ? 0 : f.tail), &i, &j);
    signal_round(f.flags + i * nb + j, (int)r + 1);
    return;
  }
  if constexpr (NARROW == 1)
    if (blockIdx.x < first) return rest_lead<P>(D, ld, W, k0, kn, f.xcol, f.count);
  const int64_t b = blockIdx.x - first;
  int64_t r0, c0;
  rest_origin<P>(ld, k0, kn, b / NARROW, &r0, &c0);
  gemm_tile<P, Sh>(D, ld, W, ld, D + (size_t)k0 * ld, ld, r0, c0 + b % NARROW * Sh::BN);
}

/* k_rest with two tiles to a block of 2 GT threads, for the sizes where
 * the other tiles take one wave (rest_in_pairs): a block then fills an SM's
 * registers, so the SMs it leaves free run the side chain alone, where
 * k_rest's blocks would share theirs with it. Tile t is part t % 2 of
 * block t / 2. */
template <class P>
__global__ void __launch_bounds__(2 * GT, 1)
    k_rest_pairs(typename P::TC *__restrict__ D, int64_t ld, const typename P::TA *__restrict__ W, int64_t k0,
                 int64_t kn) {
  const int part = (int)threadIdx.x / GT;
  const int64_t t = (int64_t)blockIdx.x * 2 + part;
  if (t >= rest_tiles<P>(ld, kn >= 0 ? 2 : 1)) return;
  int64_t r0, c0;
  rest_origin<P>(ld, k0, kn, t, &r0, &c0);
  if (part == 0) gemm_tile<P, Shape<P>, 0>(D, ld, W, ld, D + (size_t)k0 * ld, ld, r0, c0);
  else gemm_tile<P, Shape<P>, 1>(D, ld, W, ld, D + (size_t)k0 * ld, ld, r0, c0);
}

/* W[k][i] = D[i][k0+k] for every row i < np: 32 x 32 tiles through shared
 * memory so both sides are coalesced. */
template <class T> __global__ void k_transpose(const T *__restrict__ D, int64_t ld, int64_t k0, T *__restrict__ W) {
  __shared__ T tile[32][33];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t kt = (int64_t)blockIdx.x * 32, it = (int64_t)blockIdx.y * 32;
  pdl_wait();
#pragma unroll
  for (int y = 0; y < 32; y += 8) tile[ty + y][tx] = D[(size_t)(it + ty + y) * ld + k0 + kt + tx];
  pdl_trigger();
  __syncthreads();
#pragma unroll
  for (int y = 0; y < 32; y += 8) W[(size_t)(kt + ty + y) * ld + it + tx] = tile[tx][ty + y];
}

template <class T> __global__ void k_fill(T *d, size_t count, T v) {
  for (size_t e = blockIdx.x * (size_t)blockDim.x + threadIdx.x; e < count; e += (size_t)gridDim.x * blockDim.x)
    d[e] = v;
}

/* M* = I ⊕ M+: the empty path on the diagonal of the n real vertices. */
template <class P> __global__ void k_set_diag(typename P::TC *D, int64_t ld, int64_t n) {
  const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n) D[i * ld + i] = P::add(D[i * ld + i], P::one());
}

/* MIN_PLUS: some D[i][i] < 0; MAX_PLUS: > 0 (add(d, one) != one). */
template <class P> __global__ void k_cycle(const typename P::TC *D, int64_t ld, int64_t n, int *flag) {
  const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n && P::add(D[i * ld + i], P::one()) != P::one()) *flag = 1;
}

template <class P> __global__ void k_count(const typename P::TC *D, int64_t np, int64_t n, unsigned long long *count) {
  unsigned long long c = 0;
  for (int64_t i = blockIdx.y; i < n; i += gridDim.y)
    for (int64_t j = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; j < n; j += (int64_t)gridDim.x * blockDim.x)
      c += D[(size_t)i * np + j] != P::zero();
  for (int o = 16; o > 0; o /= 2) c += __shfl_down_sync(0xffffffffu, c, o);
  if ((threadIdx.x & 31) == 0 && c) atomicAdd(count, c);
}

/* ---- bit-packed OR_AND ---- */

/* ---- host drivers ---- */

/* Bench-only overrides of run_fw's choices, for comparisons (-1: the
 * library's): diag of diag_on_cluster (0 one block, 1 a cluster, in every
 * round), pairs of rest_in_pairs, pdl 0: no programmatic dependent launch,
 * split 0: the stripe update in one piece where the other tiles go in pairs
 * (prepare_round), beside of split_beside, halves 0: the other tiles
 * never in half-width blocks (rest_halves), fold 0: the next stripe's
 * update never in the other tiles' grid (stripe_in_rest), side 0: the
 * next diagonal tile and panels never there (side_in_rest), flow 0: such
 * a round waits for all of the round before (RestFold::flow). From
 * gsp_cuda_fw_phases' variant: -1 none, else bit 0 diag, bit 1 pairs,
 * bit 2 no pdl, bit 3 no split, bit 4 beside 0, bit 5 beside 1, bit 6 no
 * halves, bit 7 no fold, bit 8 no side, bit 9 no flow. */
struct FwForce {
  int diag = -1, pairs = -1, pdl = 1, split = 1, beside = -1, halves = -1, fold = -1, side = -1, flow = -1;
  static FwForce of(int variant) {
    FwForce f;
    if (variant >= 0) {
      f.diag = variant & 1, f.pairs = variant >> 1 & 1, f.pdl = !(variant >> 2 & 1), f.split = !(variant >> 3 & 1);
      f.beside = variant >> 4 & 1 ? 0 : variant >> 5 & 1 ? 1 : -1;
      f.halves = variant >> 6 & 1 ? 0 : -1;
      f.fold = variant >> 7 & 1 ? 0 : -1;
      f.side = variant >> 8 & 1 ? 0 : -1;
      f.flow = variant >> 9 & 1 ? 0 : -1;
    }
    return f;
  }
};

/* Bench-only: CUDA events on the main stream of run_fw, four a round (mark
 * q = 0..3); sum() adds up, in ms, the intervals 0-1 (round 0: its diagonal
 * tile and panels, S(0)), 1-2 (R(r), the other tiles) and 2-3 (the wait for
 * S(r + 1) that R(r) did not hide). */
struct PhaseClock {
  cudaEvent_t *ev = nullptr;
  int64_t nb = 0;
  FwForce force;
  bool record = true; /* false: no events, the forced choices only */
  cudaError_t start(int64_t rounds) {
    if (!record) return cudaSuccess;
    nb = rounds;
    ev = new cudaEvent_t[4 * rounds]();
    for (int64_t e = 0; e < 4 * rounds; e++) {
      cudaError_t r = cudaEventCreate(&ev[e]);
      if (r != cudaSuccess) return r;
    }
    return cudaSuccess;
  }
  cudaError_t mark(int64_t kb, int q) {
    return ev ? cudaEventRecord(ev[4 * kb + q]) : cudaSuccess;
  }
  cudaError_t sum(float ms[3]) {
    ms[0] = ms[1] = ms[2] = 0;
    for (int64_t kb = 0; kb < nb; kb++)
      for (int q = 0; q < 3; q++) {
        float t = 0;
        cudaError_t r = cudaEventElapsedTime(&t, ev[4 * kb + q], ev[4 * kb + q + 1]);
        if (r != cudaSuccess) return r;
        ms[q] += t;
      }
    return cudaSuccess;
  }
  ~PhaseClock() {
    if (ev)
      for (int64_t e = 0; e < 4 * nb; e++)
        if (ev[e]) cudaEventDestroy(ev[e]);
    delete[] ev;
  }
};

/* The side streams of run_fw (q; q2 for the split stripe update,
 * prepare_round) and their events. */
struct SideStream {
  cudaStream_t q = nullptr, q2 = nullptr;
  cudaEvent_t main = nullptr, side = nullptr, rest = nullptr;
  cudaError_t create() {
    int least = 0, greatest = 0;
    cudaError_t e = cudaDeviceGetStreamPriorityRange(&least, &greatest);
    if (e == cudaSuccess) e = cudaStreamCreateWithPriority(&q, cudaStreamNonBlocking, greatest);
    if (e == cudaSuccess) e = cudaStreamCreateWithPriority(&q2, cudaStreamNonBlocking, greatest);
    if (e == cudaSuccess) e = cudaEventCreateWithFlags(&main, cudaEventDisableTiming);
    if (e == cudaSuccess) e = cudaEventCreateWithFlags(&side, cudaEventDisableTiming);
    if (e == cudaSuccess) e = cudaEventCreateWithFlags(&rest, cudaEventDisableTiming);
    return e;
  }
  int release() {
    if (rest) cudaEventDestroy(rest);
    if (side) cudaEventDestroy(side);
    if (main) cudaEventDestroy(main);
    if (q2) cudaStreamDestroy(q2);
    if (q) cudaStreamDestroy(q);
    q = q2 = nullptr, main = side = rest = nullptr;
    return 0;
  }
};

/* run_fw's workspaces, FWB x np each, column panels transposed (W[k][i] =
 * D[i][k0 + k]), so that the A operand of the products loads with 16-byte
 * cp.async: T(r) round r's as its panels left it (A' of R(r) and of stripe
 * r + 1's update), X(r) round r's before its panels (their A'), written by
 * the kernels that produce its parts: round r - 1's row panel (block row
 * r - 1), stripe r's update (the other rows), the diagonal tile; in round 0
 * by k_transpose. Two of each: S(r + 1) writes T(r + 1) and X(r + 2) while
 * R(r) reads T(r). */
template <class TA> struct FwWork {
  TA *ws;
  int64_t np;
  TA *T(int64_t r) const {
    return ws + (size_t)(r % 2) * FWB * np;
  }
  TA *X(int64_t r) const {
    return ws + (size_t)(2 + r % 2) * FWB * np;
  }
  /* after the four: RestFold::count (3 ints, padded to 4), then its flags */
  int *count() const {
    return (int *)(ws + 4 * (size_t)FWB * np);
  }
  int *flags() const {
    return count() + 4;
  }
  static constexpr size_t bytes(int64_t np) {
    return 4 * (size_t)FWB * np * sizeof(TA) + (4 + (size_t)(np / FWB) * (np / FWB)) * sizeof(int);
  }
};

/* run_fw's scratch: the workspaces (FwWork), the cycle flag and the side
 * streams. Up to FW_SCRATCH_KEEP bytes of workspace (np = 4096 in any
 * type) they stay allocated between
 * calls (gsp_cuda_fw.cu; one call at a time, a concurrent call makes its
 * own): allocated and freed each call (cudaFree waits for the device),
 * an fp32 closure at n = 2048 took 1.55-1.62 ms on an H100, kept
 * 1.33-1.36 ms. */
constexpr size_t FW_SCRATCH_KEEP = FwWork<double>::bytes(4096);
struct FwScratch {
  void *ws = nullptr;
  size_t cap = 0; /* bytes of ws */
  int *flag = nullptr;
  SideStream side;
  int slot = -1; /* the cache entry it came from, -1: the call's own */
};
/* s with at least ws_bytes of workspace; fw_scratch_put(s, ok) after it, also on
 * failure (ok false: nothing is kept). */
gsp_info fw_scratch_get(FwScratch *s, size_t ws_bytes);
void fw_scratch_put(FwScratch *s, bool ok);

/* Up to this size the panels run on narrow blocks (Shape<P, 2>): there
 * they are on the critical path (the side stream's chain: stripe update,
 * diagonal, panels) with fewer blocks than SMs, and twice the blocks of
 * half the columns shorten it (fp32 n = 2048 on an H100: 1.6 ms against
 * 1.9). At 4096 they measured no faster (6.5 ms against 6.3: the other
 * tiles set the pace there), and above they hide behind the other tiles. */
constexpr int64_t NARROW_PANELS_NP = 2048;
template <class P> using PanelShape = Shape<P, 2>;

/* k_panels on stream q with the shape for np; pdl as for launch_pdl. */
template <class P>
cudaError_t launch_panels(typename P::TC *d, int64_t np, const typename P::TA *W, int64_t kb, int64_t ks,
                          PanelPart part, typename P::TA *Xcol, typename P::TA *Xrow, cudaStream_t q, bool pdl) {
  if (np <= NARROW_PANELS_NP) {
    typedef PanelShape<P> Sh;
    return launch_pdl(k_panels<P, Sh>, dim3(panel_blocks<Sh>(np, part)), dim3(GT), Sh::smem(), q, pdl, d, np, W, kb, ks,
                      part, Xcol, Xrow);
  }
  typedef Shape<P> Sh;
  return launch_pdl(k_panels<P, Sh>, dim3(panel_blocks<Sh>(np, part)), dim3(GT), Sh::smem(), q, pdl, d, np, W, kb, ks,
                    part, Xcol, Xrow);
}

/* Whether the diagonal on a cluster (k_diag_cluster) beats one block
 * (k_diag) for a policy. bench_closure_gpu --diag on an H100, the diagonal
 * forced onto either in every round, n = 1024 / 2048: yes where a task is
 * several instructions or runs at the fp64 rate (fp64 +9 / +6 %, int64
 * +12 / +10 %, saturating int32 min-plus +24 / +18 %), no where it is one or
 * two fp32 / int32 instructions, whose steps wait on the barrier and the
 * shared memory, and the cluster's chain has twice the steps (fp32 min-plus
 * -4 / -3 %, DPX int32 -5 / -4 %, fp32 max-min +1 / 0 %). */
template <class P> constexpr bool diag_cluster_pays() {
  return sizeof(typename P::TC) == 8 || diag_multi_instruction<P>();
}
/* The diagonal tile of round r on a cluster, where it pays: in round 0,
 * which runs alone, and in every round up to DIAG_CLUSTER_NP, where the
 * round's other tiles take one wave of blocks and the side chain, the
 * diagonal its longest link, sets the pace. Above, the other tiles hide the
 * chain, and a cluster, which needs DC SMs of one GPC free at once, waits
 * behind their queued blocks where one block takes the first free slot
 * (fp32 n = 4096 with the cluster in every round: 9 % slower). clusters:
 * the device launches them; force (FwForce::diag) >= 0 overrides. */
constexpr int64_t DIAG_CLUSTER_NP = 2048;
inline bool diag_on_cluster(bool clusters, bool pays, int64_t np, int64_t r, int force) {
  if (!clusters) return false;
  return force >= 0 ? force != 0 : pays && (r == 0 || np <= DIAG_CLUSTER_NP);
}

/* The other tiles of a round in pairs (k_rest_pairs) where one to a block
 * would put two on some SMs (more tiles than SMs), and their pairs, one to
 * an SM, leave at least a quarter of the SMs to the side chain. Where
 * fewer, pairs would halve the SMs they use (fp32 n = 1024 on an H100: 3 %
 * slower); where more, they leave none. force (FwForce::pairs) >= 0
 * overrides. */
template <class P> bool rest_in_pairs(int64_t np, int sms, int force) {
  if (force >= 0) return force != 0;
  const int64_t tiles = rest_tiles<P>(np, 2);
  return tiles > sms && 4 * ((tiles + 1) / 2) <= 3 * (int64_t)sms;
}

/* Whether k_rest runs a round's `tiles` other tiles as two half-width
 * blocks each: where the halves fit in one wave on `slots` resident
 * blocks, they finish in about half the time. H100, bench_closure_gpu
 * --halves, n = 256 / 512 / 1024: fp32 min-plus +7 / +4 / +5 %, the other
 * kernels +5 to +15 / +1 to +6 / +2 to +3 %. Not where the tiles take more
 * than a wave: halving only the last wave's tiles cost fp32 n = 4096 2 %
 * and int64 n = 2048 8 % (the next round's diagonal tile and panels
 * already fill that wave). force (FwForce::halves) 0: never. */
inline bool rest_halves(int64_t tiles, int64_t slots, int force) {
  return force != 0 && 2 * tiles <= slots;
}

/* Whether R(r) also updates stripe r + 1, as its first blocks (k_rest's
 * lead), rather than S(r + 1) on the side stream: where the other tiles
 * take more than a wave (`tiles` > `slots`) the side stream's first kernel
 * becomes ready as R(r) takes every slot and waits a block's time for one
 * (fp32 n = 4096 on an H200, traced: 28 us into each 182 us round). H200,
 * bench_closure_gpu --fold: n = 2560 fp32 min-plus 20 % faster, max-min
 * 13 %, the other kernels 2-5 %; from 4096, where four tile-times a round
 * hide the chain either way, a tie. Not with the next diagonal tile on a
 * cluster (cluster_next), which would wait on the counter with DC blocks.
 * force (FwForce::fold) 0: never. */
inline bool stripe_in_rest(int64_t tiles, int64_t slots, bool cluster_next, int force) {
  return force != 0 && tiles > slots && !cluster_next;
}
/* Whether, with stripe_in_rest, R(r) holds all of S(r + 1): its closure
 * as the block after the stripe's and its panels as `tail` blocks two
 * waves in (RestFold). Nothing then runs on the side stream, R(r + 1)
 * launches as R(r)'s programmatic dependent once all of R(r)'s blocks run,
 * and its blocks wait only for what they need of R(r) (RestFold::flow),
 * so they take the SMs as R(r)'s blocks finish (a round waiting for all
 * of the one before kept 0.91 of the slots busy: fp32 n = 4096, traced).
 * H200, bench_closure_gpu --fold, against the stripe alone: n = 4096 fp32
 * min-plus, max-min and DPX int32 +6.8 / +4.8 / +8.3 % (each round
 * waiting for all of the one before: -0.6 / 0 / 0 %), n = 8192 +0.6 /
 * +0.7 / +1.0 %; at 2560 (1.2 waves), without the flow, max-min +7 % and
 * DPX +10 % but fp32 min-plus -15 %, so only from two waves. Only where a
 * product block can close the tile (closure_in_rest, run_fw), and where
 * the blocks that wait for blocks of their own grid take at most half the
 * slots, so that those they wait for run even beside other work on the
 * device. (A k_diag on the side stream cannot be waited for so: fp64 at
 * 2560 with the panels in R(r), it never got an SM.) force
 * (FwForce::side) 0: never. */
inline bool side_in_rest(int64_t tiles, unsigned tail, int64_t slots, int force) {
  return force != 0 && tiles >= 2 * slots && 1 + (int64_t)tail <= slots / 2;
}

/* Where the split stripe update's rest goes (prepare_round): beside the
 * diagonal tile's closure on its stream, or on a stream of its own. On an
 * H100 at n = 2048 (bench_closure_gpu --diag), beside where the closure is
 * short: fp32 min-plus +5 %, DPX int32 +4 %; not where it is long: fp32
 * max-min (45 us a tile) -5 %, saturating int32 (a cluster, 85 us) -1 %.
 * Only with programmatic dependent launch (run_fw): without, the rest
 * would wait for the closure. force (FwForce::beside) >= 0 overrides. */
template <class P> bool split_beside(int force) {
  if (force >= 0) return force != 0;
  return !diag_multi_instruction<P>() && (P::sr == GSP_MIN_PLUS || P::sr == GSP_MAX_PLUS);
}

/* S(r) of the header on stream q (pdl: the device has programmatic
 * dependent launch). split (where the other tiles go in pairs: the side
 * chain sets the pace): stripe r's update in two, the diagonal tile's
 * before its closure, the rest beside it, either on stream q2 (already
 * ordered after what q waits for), recorded in event rest that the panels
 * wait for, or (q2 null: split_beside, and pdl) on q after the closure,
 * as its programmatic dependent, which the closure lets start at once
 * (launch_diag's early) and which waits for it only at its end (k_panels),
 * so the panels after it, its programmatic dependent, wait for both.
 * ready (stripe_in_rest): stripe r's update is R(r - 1)'s lead blocks
 * instead, and the closure waits until `want` of them are done. */
template <class P>
cudaError_t prepare_round(typename P::TC *d, int64_t np, int64_t r, const FwWork<typename P::TA> &w, bool cluster,
                          bool pdl, cudaStream_t q, bool split, cudaStream_t q2, cudaEvent_t rest,
                          const int *ready = nullptr, int want = 0) {
  typedef typename P::TC TC;
  const int64_t k0 = r * FWB;
  const bool own = split && r > 0 && q2, beside = split && r > 0 && !q2; /* where the stripe's rest goes */
  cudaError_t e = cudaSuccess;
  if (own) {
    e = launch_panels<P>(d, np, w.T(r - 1), k0 - FWB, k0, PANELS_OFF_DIAG, w.X(r), nullptr, q2, false);
    if (e == cudaSuccess) e = cudaEventRecord(rest, q2);
  }
  if (e == cudaSuccess && r > 0 && !ready)
    e = launch_panels<P>(d, np, w.T(r - 1), k0 - FWB, k0, own || beside ? PANELS_DIAG : PANELS_ALL,
                         own || beside ? nullptr : w.X(r), nullptr, q, false);
  /* round 0: k_transpose below writes all of X(0); with ready the closure
   * is q's first kernel since its wait for R(r - 1), launched plainly */
  if (e == cudaSuccess)
    e = launch_diag<P>(d, np, k0, r > 0 ? w.X(r) : nullptr, q, cluster, pdl && r > 0 && !ready, beside, ready, want);
  if (e == cudaSuccess && beside)
    e = launch_panels<P>(d, np, w.T(r - 1), k0 - FWB, k0, PANELS_OFF_DIAG, w.X(r), nullptr, q, pdl);
  if (np > FWB) {
    if (e == cudaSuccess && own) e = cudaStreamWaitEvent(q, rest, 0);
    if (e == cudaSuccess && r == 0)
      e = launch_pdl(k_transpose<TC>, dim3(FWB / 32, (unsigned)(np / 32)), dim3(32, 8), 0, q, pdl, (const TC *)d, np,
                     k0, w.X(0));
    typename P::TA *xn = k0 + FWB < np ? w.X(r + 1) : nullptr; /* block row r's tile (r, r + 1) */
    if (e == cudaSuccess) e = launch_panels<P>(d, np, w.X(r), k0, k0, PANELS_ALL, w.T(r), xn, q, pdl && !own);
  }
  return e;
}

/* What run_fw's rounds share: the matrix and workspaces, the choices taken
 * once a call from the device's facts (fw_plan), and what RestFold carries
 * from round to round. */
template <class P> struct FwRun {
  typename P::TC *d;
  int64_t np, nb, slots; /* slots: blocks of k_rest resident at once */
  FwWork<typename P::TA> w;
  SideStream *side;
  PhaseClock *clock;
  FwForce force;
  size_t gsm; /* dynamic shared memory of k_rest (Shape<P>) */
  int clusters;
  bool pdl, pairs, split, beside;
  int folded = 0, closed = 0; /* RestFold::want and ::closed so far */
  int tails = 0;              /* panel blocks in the grids so far (RestFold::tails) */
  bool flow = false;          /* whether the round before was a side_in_rest round */
};

/* The shared memory run_fw's product kernels may take (set before the
 * occupancy query of fw_plan, which depends on it). */
template <class P> gsp_info fw_kernel_smem() {
  typedef Shape<P> Sh;
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL ((void)0)
  const size_t gsm = Sh::smem();
  GSP_CUDA_TRY(cudaFuncSetAttribute(k_panels<P, Sh>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)gsm));
  GSP_CUDA_TRY(cudaFuncSetAttribute(k_panels<P, PanelShape<P>>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    (int)PanelShape<P>::smem()));
  GSP_CUDA_TRY(cudaFuncSetAttribute(k_rest<P>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)gsm));
  if constexpr (closure_in_rest<P>())
    GSP_CUDA_TRY(cudaFuncSetAttribute(k_rest<P, 1, true>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)gsm));
  GSP_CUDA_TRY(
      cudaFuncSetAttribute(k_rest<P, 2>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)Shape<P, 2>::smem()));
  GSP_CUDA_TRY(cudaFuncSetAttribute(k_rest_pairs<P>, cudaFuncAttributeMaxDynamicSharedMemorySize, 2 * (int)gsm));
#undef GSP_FREE_ALL
  return info;
}

/* s's per-call choices from the device's facts (clusters, SMs, k_rest's
 * occupancy) and the bench's overrides (s.clock->force). */
template <class P> gsp_info fw_plan(FwRun<P> &s) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL ((void)0)
  s.gsm = Shape<P>::smem();
  int dev = 0, clusters = 0, sms = 0, rest_per_sm = 0;
  GSP_CUDA_TRY(cudaGetDevice(&dev));
  GSP_CUDA_TRY(cudaDeviceGetAttribute(&clusters, cudaDevAttrClusterLaunch, dev));
  GSP_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  GSP_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&rest_per_sm, k_rest<P>, GT, s.gsm));
  if (clusters) GSP_CUDA_TRY(diag_cluster_prepare<P>());
  s.clusters = clusters;
  s.force = s.clock ? s.clock->force : FwForce();
  s.pdl = clusters && s.force.pdl != 0, s.pairs = rest_in_pairs<P>(s.np, sms, s.force.pairs);
  s.split = s.pairs && s.force.split != 0, s.beside = s.pdl && split_beside<P>(s.force.beside);
  s.nb = s.np / FWB, s.slots = (int64_t)sms * rest_per_sm;
#undef GSP_FREE_ALL
  return info;
}

/* Round r as one grid (side_in_rest): R(r) with S(r + 1) in it, f's lead
 * and panels already set; nothing on the side stream. */
template <class P>
gsp_info fw_round_whole(FwRun<P> &s, int64_t r, int64_t k0, int64_t kn, int64_t tiles, RestFold<typename P::TA> f) {
  typedef typename P::TA TA;
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL ((void)0)
  const FwWork<TA> &w = s.w;
  f.close = 1, f.tail = f.lead, f.closed = ++s.closed;
  f.tn = w.T(r + 1), f.xn = kn + FWB < s.np ? w.X(r + 2) : nullptr;
  /* the panels two waves in, where the closure has had time for the
   * lead and itself, and the next round's first blocks have them
   * (H200, n = 4096 and 8192: 1.25 to 3 waves within 1.5 %) */
  f.mid = (unsigned)std::min(tiles, std::max<int64_t>(0, 2 * s.slots - f.lead - f.close));
  f.flags = w.flags(), f.tails = s.tails, f.flow = s.flow && s.force.flow != 0;
  s.tails += (int)f.tail, s.flow = true;
  GSP_CUDA_TRY(launch_pdl(k_rest<P, 1, true>, dim3(f.lead + f.close + (unsigned)tiles + f.tail), dim3(GT), s.gsm, 0,
                          s.pdl, s.d, s.np, (const TA *)w.T(r), k0, kn, f));
  if (s.clock) GSP_CUDA_TRY(s.clock->mark(r, 2));
  if (s.clock) GSP_CUDA_TRY(s.clock->mark(r, 3));
#undef GSP_FREE_ALL
  return info;
}

/* Round r: R(r) on the main stream, S(r + 1) on the side stream, or both
 * in one grid (fw_round_whole). */
template <class P> gsp_info fw_round(FwRun<P> &s, int64_t r) {
  typedef typename P::TA TA;
  typedef Shape<P> Sh;
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL ((void)0)
  constexpr bool pays = diag_cluster_pays<P>();
  typename P::TC *const d = s.d;
  const int64_t np = s.np;
  const FwWork<TA> &w = s.w;
  SideStream &side = *s.side;
  const FwForce &force = s.force;
  const int64_t k0 = r * FWB, kn = r + 1 < s.nb ? k0 + FWB : -1;
  const int64_t tiles = rest_tiles<P>(np, kn >= 0 ? 2 : 1);
  const bool cluster_next = diag_on_cluster(s.clusters, pays, np, r + 1, force.diag);
  const bool fold = kn >= 0 && !s.pairs && stripe_in_rest(tiles, s.slots, cluster_next, force.fold);
  RestFold<TA> f;
  f.lead = fold ? panel_blocks<Sh>(np, PANELS_ALL) : 0;
  f.xcol = w.X(r + 1), f.count = w.count(), f.want = s.folded += (int)f.lead;
  if (s.clock) {
    if (r > 0) GSP_CUDA_TRY(s.clock->mark(r, 0));
    GSP_CUDA_TRY(s.clock->mark(r, 1));
  }
  if constexpr (closure_in_rest<P>())
    if (fold && side_in_rest(tiles, f.lead, s.slots, force.side)) return fw_round_whole<P>(s, r, k0, kn, tiles, f);
  s.flow = false;
  /* S(r + 1) after S(r) and R(r - 1) (side.main) */
  auto side_round = [&]() -> cudaError_t {
    cudaError_t e = cudaStreamWaitEvent(side.q, side.main, 0);
    if (e == cudaSuccess && s.split && !s.beside) e = cudaStreamWaitEvent(side.q2, side.main, 0);
    if (e == cudaSuccess)
      e = prepare_round<P>(d, np, r + 1, w, cluster_next, s.pdl, side.q, s.split, s.beside ? nullptr : side.q2,
                           side.rest, fold ? w.count() : nullptr, f.want);
    return e == cudaSuccess ? cudaEventRecord(side.side, side.q) : e;
  };
  auto rest_round = [&]() -> cudaError_t {
    TA *W = w.T(r);
    const size_t gsm = s.gsm;
    if (s.pairs) k_rest_pairs<P><<<(unsigned)((tiles + 1) / 2), 2 * GT, 2 * gsm>>>(d, np, W, k0, kn);
    else if (rest_halves(tiles, s.slots, force.halves))
      k_rest<P, 2><<<(unsigned)(2 * tiles), GT, Shape<P, 2>::smem()>>>(d, np, W, k0, kn, RestFold<TA>());
    else k_rest<P><<<(unsigned)(f.lead + tiles), GT, gsm>>>(d, np, W, k0, kn, f);
    return cudaGetLastError();
  };
  if (kn >= 0) GSP_CUDA_TRY(cudaEventRecord(side.main, 0));
  /* S(r + 1) is queued first, but with the fold R(r) is: S(r + 1)'s
   * closure waits for R(r)'s lead blocks, for ever had R(r) failed to
   * launch */
  if (fold) GSP_CUDA_TRY(rest_round());
  if (kn >= 0) GSP_CUDA_TRY(side_round());
  if (!fold && tiles > 0) GSP_CUDA_TRY(rest_round());
  if (s.clock) GSP_CUDA_TRY(s.clock->mark(r, 2));
  if (kn >= 0) GSP_CUDA_TRY(cudaStreamWaitEvent(0, side.side, 0));
  if (s.clock) GSP_CUDA_TRY(s.clock->mark(r, 3));
#undef GSP_FREE_ALL
  return info;
}

/* After the rounds: the negative-cycle check of the semirings that add
 * (its read back waits for the closure), else a wait for the device. */
template <class P> gsp_info fw_finish(bool *cycle, typename P::TC *d, int64_t n, int64_t np, int *dflag) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL ((void)0)
  if (P::sr == GSP_MIN_PLUS || P::sr == GSP_MAX_PLUS) {
    int h = 0;
    GSP_CUDA_TRY(cudaMemset(dflag, 0, sizeof(int)));
    if (n > 0) {
      k_cycle<P><<<(unsigned)((n + 255) / 256), 256>>>(d, np, n, dflag);
      GSP_CUDA_LAUNCHED();
    }
    GSP_CUDA_TRY(cudaMemcpy(&h, dflag, sizeof(int), cudaMemcpyDeviceToHost));
    *cycle = h != 0;
  } else {
    GSP_CUDA_TRY(cudaDeviceSynchronize());
  }
#undef GSP_FREE_ALL
  return info;
}

/* The closure of d (np x np, n of it the matrix) in place: S(0), then
 * round by round R(r) beside S(r + 1) (fw_round), then fw_finish. */
template <class P>
gsp_info run_fw(typename P::TC *d, int64_t n, int64_t np, bool reflexive, bool *cycle,
                const gsp__progress *progress = nullptr, PhaseClock *clock = nullptr) {
  typedef typename P::TA TA;
  gsp_info info = GSP_SUCCESS;
  FwScratch sc;
#define GSP_FREE_ALL fw_scratch_put(&sc, false)
  *cycle = false;
  GSP_TRY(fw_scratch_get(&sc, FwWork<TA>::bytes(np)));
  FwRun<P> s;
  s.d = d, s.np = np, s.w = FwWork<TA>{(TA *)sc.ws, np}, s.side = &sc.side, s.clock = clock;
  GSP_TRY(fw_kernel_smem<P>());
  GSP_TRY(fw_plan<P>(s));
  if (reflexive && n > 0) {
    k_set_diag<P><<<(unsigned)((n + 255) / 256), 256>>>(d, np, n);
    GSP_CUDA_LAUNCHED();
  }
  const int64_t nb = s.nb;
  GSP_CUDA_TRY(cudaMemsetAsync(s.w.count(), 0, (4 + (size_t)nb * nb) * sizeof(int), 0)); /* RestFold's */
  if (clock) GSP_CUDA_TRY(clock->start(nb));
  if (clock) GSP_CUDA_TRY(clock->mark(0, 0));
  GSP_CUDA_TRY(prepare_round<P>(d, np, 0, s.w, diag_on_cluster(s.clusters, diag_cluster_pays<P>(), np, 0, s.force.diag),
                                s.pdl, 0, false, nullptr, nullptr));
  for (int64_t r = 0; r < nb; r++) {
    /* the caller's progress: rounds 0 .. r - 1 are queued, every kernel
     * they wait for too; the drain costs a round's ramp, <= 16 times */
    if (r > 0 && gsp__progress_due(progress, r - 1, nb)) {
      GSP_CUDA_TRY(cudaStreamSynchronize(0));
      gsp__progress_report(progress, (double)r / (double)nb);
    }
    GSP_TRY(fw_round<P>(s, r));
  }
  GSP_TRY(fw_finish<P>(cycle, d, n, np, sc.flag));
  fw_scratch_put(&sc, true);
#undef GSP_FREE_ALL
  return info;
}

/* *count = what launch(dc) adds into the zeroed device counter dc (no
 * launch when n == 0). */
template <class Launch> gsp_info count_on_device(int64_t *count, int64_t n, Launch launch) {
  gsp_info info = GSP_SUCCESS;
  unsigned long long *dc = NULL, h = 0;
#define GSP_FREE_ALL cudaFree(dc)
  GSP_CUDA_TRY(cudaMalloc((void **)&dc, sizeof *dc));
  GSP_CUDA_TRY(cudaMemset(dc, 0, sizeof *dc));
  if (n > 0) {
    launch(dc);
    GSP_CUDA_LAUNCHED();
  }
  GSP_CUDA_TRY(cudaMemcpy(&h, dc, sizeof h, cudaMemcpyDeviceToHost));
  *count = (int64_t)h;
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

template <class P> gsp_info count_present(int64_t *count, const typename P::TC *d, int64_t n, int64_t np) {
  return count_on_device(count, n, [&](unsigned long long *dc) {
    k_count<P><<<dim3((unsigned)((n + 255) / 256 < 8 ? (n + 255) / 256 : 8), (unsigned)(n < 65535 ? n : 65535)), 256>>>(
        d, np, n, dc);
  });
}

template <class T> gsp_info fill(T *d, size_t count, T v) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL ((void)0)
  k_fill<T><<<1024, 256>>>(d, count, v);
  GSP_CUDA_LAUNCHED();
#undef GSP_FREE_ALL
  return info;
}

/* f(PolTag<PolNum<S, T>>()) for the numeric path semirings S (the
 * path_encoding column of GSP_SEMIRING_FACTS); GSP_PANIC naming `what` for
 * the rest. */
template <class P> struct PolTag { typedef P type; };
template <class T, class F> gsp_info by_numeric_semiring(gsp_semiring s, const char *what, const F &f) {
#define GSP_NUM_POLICY_CASE_(SR, closure, sign, enc)            \
  case GSP_##SR:                                                \
    if constexpr (enc) return f(PolTag<PolNum<GSP_##SR, T>>()); \
    break;
  switch (s) {
    GSP_SEMIRING_FACTS(GSP_NUM_POLICY_CASE_)
  default:
    break;
  }
#undef GSP_NUM_POLICY_CASE_
  return GSP_ERROR(GSP_PANIC, "%s: semiring %d has no numeric kernel", what, (int)s);
}

/* One type: dispatch on the semiring; successors (MIN_PLUS and MAX_PLUS
 * only, see gsp_cuda_fw_succ.cuh) around the plain closure. */
template <class T>
gsp_info run_numeric(T *d, int32_t *succ, int64_t n, int64_t np, gsp_semiring s, bool reflexive, bool *cycle,
                     const gsp__progress *progress = nullptr, PhaseClock *clock = nullptr) {
  if (succ && s != GSP_MIN_PLUS && s != GSP_MAX_PLUS)
    return GSP_ERROR(GSP_PANIC, "gsp_cuda_fw: no successors for semiring %d", (int)s);
  return by_numeric_semiring<T>(s, "gsp_cuda_fw", [&](auto pol) {
    typedef typename decltype(pol)::type P;
    if constexpr (P::sr == GSP_MIN_PLUS || P::sr == GSP_MAX_PLUS)
      if (succ)
        return closure_with_successors<P::sr, T>(d, succ, n, np, reflexive, cycle,
                                                 [&] { return run_fw<P>(d, n, np, reflexive, cycle, progress); });
    return run_fw<P>(d, n, np, reflexive, cycle, progress, clock);
  });
}

/* Bench-only (gsp_cuda_fw_phases): the reflexive closure with its phase
 * times; run() is the closure given the clock. */
template <class Run> gsp_info timed_closure(int variant, float ms[3], Run run) {
  gsp_info info = GSP_SUCCESS;
  PhaseClock clock;
  clock.force = FwForce::of(variant);
  clock.record = ms != nullptr;
#define GSP_FREE_ALL ((void)0)
  bool cycle = false;
  if ((info = run(&clock, &cycle)) != GSP_SUCCESS) return info;
  if (ms) GSP_CUDA_TRY(clock.sum(ms));
#undef GSP_FREE_ALL
  return info;
}

template <class T> gsp_info count_numeric(int64_t *count, const T *d, int64_t n, int64_t np, gsp_semiring s) {
  return by_numeric_semiring<T>(s, "gsp_cuda_fw",
                                [&](auto pol) { return count_present<typename decltype(pol)::type>(count, d, n, np); });
}

template <class T> T zero_of(gsp_semiring s) {
  switch (s) {
  case GSP_MIN_PLUS:
    return Sr<GSP_MIN_PLUS, T>::zero();
  case GSP_MAX_PLUS:
    return Sr<GSP_MAX_PLUS, T>::zero();
  case GSP_MAX_MIN:
    return Sr<GSP_MAX_MIN, T>::zero();
  default:
    return Sr<GSP_MIN_MAX, T>::zero();
  }
}

} /* namespace gspcu */

/* Per-type entry points, defined in gsp_cuda_fw_<type>.cu. */
#define GSP_CU_DECL_(sfx, ct)                                                                              \
  gsp_info gsp__cuda_fw_##sfx(ct *d, int32_t *succ, int64_t n, int64_t np, gsp_semiring s, bool reflexive, \
                              const gsp__progress *progress, bool *cycle);                                 \
  gsp_info gsp__cuda_count_##sfx(int64_t *count, const ct *d, int64_t n, int64_t np, gsp_semiring s);      \
  gsp_info gsp__cuda_fill_##sfx(ct *d, int64_t np, gsp_semiring s);                                        \
  gsp_info gsp__cuda_fw_phases_##sfx(ct *d, int64_t n, int64_t np, gsp_semiring s, int variant, float ms[3]);
GSP_CU_DECL_(i32, int32_t)
GSP_CU_DECL_(i64, int64_t)
GSP_CU_DECL_(f32, float)
GSP_CU_DECL_(f64, double)
#undef GSP_CU_DECL_
gsp_info gsp__cuda_fw_i32_dpx(int32_t *d, int32_t *succ, int64_t n, int64_t np, bool reflexive,
                              const gsp__progress *progress, bool *cycle);
gsp_info gsp__cuda_fw_phases_i32_dpx(int32_t *d, int64_t n, int64_t np, int variant, float ms[3]);
gsp_info gsp__cuda_fw_bits(uint64_t *d, int64_t n, int64_t np, bool reflexive);
/* depth: bits of k per round, 256 or 512 */
gsp_info gsp__cuda_fw_bits_tc(uint64_t *d, int64_t n, int64_t np, bool reflexive, int depth,
                              const gsp__progress *progress);
gsp_info gsp__cuda_count_bits(int64_t *count, const uint64_t *d, int64_t n, int64_t np);

#define GSP_CU_DEFINE_TYPE_(sfx, ct)                                                                           \
  gsp_info gsp__cuda_fw_##sfx(ct *d, int32_t *succ, int64_t n, int64_t np, gsp_semiring s, bool reflexive,     \
                              const gsp__progress *progress, bool *cycle) {                                    \
    return gspcu::run_numeric<ct>(d, succ, n, np, s, reflexive, cycle, progress);                              \
  }                                                                                                            \
  gsp_info gsp__cuda_count_##sfx(int64_t *count, const ct *d, int64_t n, int64_t np, gsp_semiring s) {         \
    return gspcu::count_numeric<ct>(count, d, n, np, s);                                                       \
  }                                                                                                            \
  gsp_info gsp__cuda_fill_##sfx(ct *d, int64_t np, gsp_semiring s) {                                           \
    return gspcu::fill<ct>(d, (size_t)np * (size_t)np, gspcu::zero_of<ct>(s));                                 \
  }                                                                                                            \
  gsp_info gsp__cuda_fw_phases_##sfx(ct *d, int64_t n, int64_t np, gsp_semiring s, int variant, float ms[3]) { \
    return gspcu::timed_closure(variant, ms, [&](gspcu::PhaseClock *c, bool *cycle) {                          \
      return gspcu::run_numeric<ct>(d, NULL, n, np, s, true, cycle, nullptr, c);                               \
    });                                                                                                        \
  }

#endif /* GSP_CUDA_FW_CUH */
