/*
 * Bit-packed OR_AND closure: rows of 64-bit words, bit j of word j/64 is
 * entry (i, j). Same rounds as the numeric closure (gsp_cuda_fw.cuh) with
 * three bool-specific kernels: the diagonal tile, the column panel (2 words
 * wide, too narrow for a product tile) and the A-operand masks.
 */
#include "gsp_cuda_fw.cuh"

namespace gspcu {

/* Phase 1: KB rows x KB/64 words, thread (row, word). Bit k of a row only
 * goes 0 -> 1, and only by the thread of that row that saw it set, so the
 * concurrent reads of bit k at step k agree. */
template <int KB>
__global__ void __launch_bounds__(KB * KB / 64) k_diag_bits(uint64_t *D, int64_t ldw, int64_t k0) {
  constexpr int W = KB / 64;
  __shared__ uint64_t t[KB][W];
  const int row = threadIdx.x / W, w = threadIdx.x % W;
  const int64_t kw = k0 / 64;
  t[row][w] = D[(size_t)(k0 + row) * ldw + kw + w];
  __syncthreads();
#pragma unroll 4
  for (int k = 0; k < KB; k++) {
    const uint64_t rk = t[k][w];
    const uint64_t m = 0 - ((t[row][k >> 6] >> (k & 63)) & 1);
    const uint64_t v = t[row][w];
    __syncthreads();
    t[row][w] = gsp_or_and_fma_w64(v, m, rk);
    __syncthreads();
  }
  D[(size_t)(k0 + row) * ldw + kw + w] = t[row][w];
}

/* Phase 2, column panel: D[i, K] |= D[i, K] ⊗ Diag for every row i outside
 * K; one thread a row (it reads its KB/64 words before writing them). */
template <int KB>
__global__ void __launch_bounds__(256) k_colpanel_bits(uint64_t *D, int64_t ldw, int64_t k0, int64_t np) {
  constexpr int W = KB / 64;
  __shared__ uint64_t g[KB][W];
  const int64_t kw = k0 / 64;
  for (int e = threadIdx.x; e < KB * W; e += blockDim.x)
    g[e / W][e % W] = D[(size_t)(k0 + e / W) * ldw + kw + e % W];
  __syncthreads();
  const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i >= np || (i >= k0 && i < k0 + KB)) return;
  uint64_t r[W], nw[W];
#pragma unroll
  for (int w = 0; w < W; w++) nw[w] = r[w] = D[(size_t)i * ldw + kw + w];
#pragma unroll
  for (int q = 0; q < W; q++)
#pragma unroll 8
    for (int k = 0; k < 64; k++) {
      const uint64_t m = 0 - ((r[q] >> k) & 1);
#pragma unroll
      for (int w = 0; w < W; w++) nw[w] = gsp_or_and_fma_w64(nw[w], m, g[q * 64 + k][w]);
    }
#pragma unroll
  for (int w = 0; w < W; w++) D[(size_t)i * ldw + kw + w] = nw[w];
}

/* A operand of the products: M[k][i] = bit (i, k0+k) ? ~0 : 0, for all rows. */
__global__ void __launch_bounds__(256) k_masks(const uint64_t *D, int64_t ldw, int64_t k0, int64_t np, uint32_t *M) {
  const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i >= np) return;
  const int64_t kw = k0 / 64;
  const uint64_t w0 = D[(size_t)i * ldw + kw], w1 = D[(size_t)i * ldw + kw + 1];
#pragma unroll 8
  for (int k = 0; k < 64; k++) M[(size_t)k * np + i] = 0u - (uint32_t)((w0 >> k) & 1);
#pragma unroll 8
  for (int k = 0; k < 64; k++) M[(size_t)(64 + k) * np + i] = 0u - (uint32_t)((w1 >> k) & 1);
}

__global__ void k_set_diag_bits(uint64_t *D, int64_t ldw, int64_t n) {
  const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n) D[(size_t)i * ldw + i / 64] |= 1ull << (i % 64);
}

__global__ void k_count_bits(const uint64_t *D, int64_t ldw, int64_t n, unsigned long long *count) {
  unsigned long long c = 0;
  for (int64_t i = blockIdx.y; i < n; i += gridDim.y)
    for (int64_t w = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; w < ldw; w += (int64_t)gridDim.x * blockDim.x)
      c += __popcll(D[(size_t)i * ldw + w]); /* columns >= n are zero padding */
  for (int o = 16; o > 0; o /= 2) c += __shfl_down_sync(0xffffffffu, c, o);
  if ((threadIdx.x & 31) == 0 && c) atomicAdd(count, c);
}

/* ---- binary tensor cores: mma.sync m16n8k256 b1 AND-POPC ---- */

constexpr int TKB = 256; /* k-depth of a tensor-core round, in bits */

/* A operand snapshot: AP[i][w] = D[i][k0/64 + w] (w < 4) for every row, so
 * the products may rewrite the column-panel words while others read them. */
__global__ void k_copy_ap(const uint64_t *D, int64_t ldw, int64_t k0, int64_t np, uint64_t *AP) {
  const int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (e < np * 4) AP[e] = D[(size_t)(e / 4) * ldw + k0 / 64 + e % 4];
}

/* B operand, the row panel transposed: column j has 8 32-bit words, word q
 * holding the bits (k0 + 32q + b, j), b < 32 (AP's packing), stored at
 * position (q % 4) * 2 + q / 4 so that the two words one lane feeds an MMA
 * (q = t and t + 4) are adjacent. One warp a 32 x 32 bit block, transposed
 * by 32 ballots. */
__global__ void __launch_bounds__(256) k_bt(const uint64_t *D, int64_t ldw, int64_t k0, uint32_t *BT) {
  const uint32_t *D32 = reinterpret_cast<const uint32_t *>(D);
  const int lane = threadIdx.x & 31, q = threadIdx.x >> 5; /* q: 32-row group */
  const int64_t jw = blockIdx.x;                         /* 32-column group */
  const uint32_t word = D32[(size_t)(k0 + q * 32 + lane) * (ldw * 2) + jw];
  uint32_t mine = 0;
#pragma unroll
  for (int b = 0; b < 32; b++) {
    const uint32_t v = __ballot_sync(0xffffffffu, (word >> b) & 1);
    if (lane == b) mine = v;
  }
  BT[(size_t)(jw * 32 + lane) * 8 + (q % 4) * 2 + q / 4] = mine;
}

__device__ __forceinline__ void bmma_and_popc(int (&c)[4], uint32_t a0, uint32_t a1, uint32_t a2,
                                              uint32_t a3, uint32_t b0, uint32_t b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc "
      "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
      : "+r"(c[0]), "+r"(c[1]), "+r"(c[2]), "+r"(c[3])
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}

/* Bit pairs 2t, 2t+1 of p (t < 8) to bits 8t, 8t+1. */
__device__ __forceinline__ uint64_t spread_pairs(uint32_t p) {
  uint64_t x = (uint64_t)(p & 0xFFu) | ((uint64_t)(p & 0xFF00u) << 24);
  x = (x & 0x0000000F0000000FULL) | ((x & 0x000000F0000000F0ULL) << 12);
  x = (x & 0x0003000300030003ULL) | ((x & 0x000C000C000C000CULL) << 6);
  return x;
}

/*
 * D[i, :] |= A[i, K] ⊗ B[K, :] over a 256-bit k-depth with binary tensor
 * cores: popc(a & b) counts the paths through K, a count > 0 sets the bit.
 * A block owns 128 rows x 8 words; a warp 64 rows (four 16-row MMA tiles,
 * A fragments kept in registers) x 2 words, so each B fragment loaded feeds
 * four MMAs. Lane (g, t) of the accumulator layout holds rows g and g + 8,
 * columns 2t and 2t + 1 of each 8-column tile: it collects those bits for a
 * word, spreads them to their columns, and the four lanes of a group OR the
 * word together. Rows in [skip_lo, skip_hi) are skipped.
 */
__global__ void __launch_bounds__(256) k_bmma(uint64_t *D, int64_t ldw, const uint32_t *__restrict__ AP,
                                              const uint32_t *__restrict__ BT, int64_t rbeg,
                                              int64_t skip_lo, int64_t skip_hi) {
  constexpr int RT = 4, WW = 2; /* row tiles, words a warp */
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, g = lane >> 2, t4 = lane & 3;
  const int64_t r = rbeg + (int64_t)blockIdx.y * 128 + (warp / 4) * 64;
  if (r >= skip_lo && r < skip_hi) return;
  const int64_t wbase = (int64_t)blockIdx.x * 8 + (warp % 4) * WW;
  uint32_t a[RT][4];
#pragma unroll
  for (int rt = 0; rt < RT; rt++) {
    const size_t r0 = (size_t)(r + rt * 16 + g) * 8, r8 = r0 + 64;
    a[rt][0] = AP[r0 + t4];
    a[rt][1] = AP[r8 + t4];
    a[rt][2] = AP[r0 + t4 + 4];
    a[rt][3] = AP[r8 + t4 + 4];
  }
  const uint2 *bt = reinterpret_cast<const uint2 *>(BT) + t4;
  uint64_t lo[RT][WW], hi[RT][WW];
#pragma unroll
  for (int w = 0; w < WW; w++) {
    uint32_t plo[RT] = {}, phi[RT] = {};
#pragma unroll
    for (int t = 0; t < 8; t++) {
      const uint2 b = bt[((size_t)(wbase + w) * 64 + t * 8 + g) * 4];
#pragma unroll
      for (int rt = 0; rt < RT; rt++) {
        int c[4] = {0, 0, 0, 0};
        bmma_and_popc(c, a[rt][0], a[rt][1], a[rt][2], a[rt][3], b.x, b.y);
        /* counts are >= 0: min(c, 1) is the bit; disjoint bits add as or */
        plo[rt] += ((uint32_t)min(c[0], 1) + 2u * (uint32_t)min(c[1], 1)) << (2 * t);
        phi[rt] += ((uint32_t)min(c[2], 1) + 2u * (uint32_t)min(c[3], 1)) << (2 * t);
      }
    }
#pragma unroll
    for (int rt = 0; rt < RT; rt++) {
      uint64_t vlo = spread_pairs(plo[rt]) << (2 * t4), vhi = spread_pairs(phi[rt]) << (2 * t4);
      vlo |= __shfl_xor_sync(0xffffffffu, vlo, 1);
      vlo |= __shfl_xor_sync(0xffffffffu, vlo, 2);
      vhi |= __shfl_xor_sync(0xffffffffu, vhi, 1);
      vhi |= __shfl_xor_sync(0xffffffffu, vhi, 2);
      lo[rt][w] = vlo;
      hi[rt][w] = vhi;
    }
  }
  /* every lane of a group holds the words: lane t4 < 2 writes row g's word
   * t4, lane t4 >= 2 row g + 8's word t4 - 2 */
#pragma unroll
  for (int rt = 0; rt < RT; rt++)
#pragma unroll
    for (int w = 0; w < WW; w++) {
      if (t4 == w) D[(size_t)(r + rt * 16 + g) * ldw + wbase + w] |= lo[rt][w];
      if (t4 == w + 2) D[(size_t)(r + rt * 16 + g + 8) * ldw + wbase + w] |= hi[rt][w];
    }
}

} /* namespace gspcu */

using namespace gspcu;

/* OR_AND closure with LOP3 products: 128-vertex rounds, A as 0/~0 masks. */
gsp_info gsp__cuda_fw_bits(uint64_t *d, int64_t n, int64_t np, bool reflexive) {
  typedef Shape<PolBits> Sh;
  gsp_info info = GSP_SUCCESS;
  uint32_t *ws = NULL;
#define GSP_FREE_ALL cudaFree(ws)
  const int64_t ldw = np / 64;
  GSP_CUDA_TRY(cudaMalloc((void **)&ws, (size_t)FWB * np * sizeof(uint32_t)));
  const size_t gsm = Sh::smem();
  GSP_CUDA_TRY(cudaFuncSetAttribute(k_gemm<PolBits>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)gsm));
  if (reflexive && n > 0) {
    k_set_diag_bits<<<(unsigned)((n + 255) / 256), 256>>>(d, ldw, n);
    GSP_CUDA_LAUNCHED();
  }
  const int64_t nb = np / FWB;
  for (int64_t kb = 0; kb < nb; kb++) {
    const int64_t k0 = kb * FWB;
    k_diag_bits<FWB><<<1, FWB * FWB / 64>>>(d, ldw, k0);
    GSP_CUDA_LAUNCHED();
    k_colpanel_bits<FWB><<<(unsigned)(np / 256), 256>>>(d, ldw, k0, np);
    GSP_CUDA_LAUNCHED();
    k_masks<<<(unsigned)(np / 256), 256>>>(d, ldw, k0, np, ws);
    GSP_CUDA_LAUNCHED();
    const uint64_t *Brow = d + (size_t)k0 * ldw;
    /* row panel (rows K, all words; the diagonal words are unchanged) */
    k_gemm<PolBits><<<dim3((unsigned)(ldw / Sh::BN), 1), GT, gsm>>>(
        d, ldw, ws, np, Brow, ldw, NULL, NULL, 0, k0, 0, -1, 0, 0);
    GSP_CUDA_LAUNCHED();
    /* all other rows, all words (the column-panel words are already closed
     * and recomputing them changes nothing) */
    k_gemm<PolBits><<<dim3((unsigned)(ldw / Sh::BN), (unsigned)(np / Sh::BM)), GT, gsm>>>(
        d, ldw, ws, np, Brow, ldw, NULL, NULL, 0, 0, 0, k0, 0, 0);
    GSP_CUDA_LAUNCHED();
  }
  GSP_CUDA_TRY(cudaDeviceSynchronize());
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

/* OR_AND closure with binary tensor cores: 256-vertex rounds; the diagonal
 * and column panel as in the LOP3 closure, the row panel and all other
 * tiles by k_bmma with A and B from snapshots (AP, BT). */
gsp_info gsp__cuda_fw_bits_tc(uint64_t *d, int64_t n, int64_t np, bool reflexive) {
  gsp_info info = GSP_SUCCESS;
  uint64_t *ap = NULL;
  uint32_t *bt = NULL;
#define GSP_FREE_ALL (cudaFree(ap), cudaFree(bt))
  const int64_t ldw = np / 64;
  GSP_CUDA_TRY(cudaMalloc((void **)&ap, (size_t)np * 4 * sizeof(uint64_t)));
  GSP_CUDA_TRY(cudaMalloc((void **)&bt, (size_t)np * 8 * sizeof(uint32_t)));
  if (reflexive && n > 0) {
    k_set_diag_bits<<<(unsigned)((n + 255) / 256), 256>>>(d, ldw, n);
    GSP_CUDA_LAUNCHED();
  }
  for (int64_t k0 = 0; k0 < np; k0 += TKB) {
    k_diag_bits<TKB><<<1, TKB * TKB / 64>>>(d, ldw, k0);
    GSP_CUDA_LAUNCHED();
    k_colpanel_bits<TKB><<<(unsigned)(np / 256), 256>>>(d, ldw, k0, np);
    GSP_CUDA_LAUNCHED();
    k_copy_ap<<<(unsigned)(np * 4 / 256), 256>>>(d, ldw, k0, np, ap);
    GSP_CUDA_LAUNCHED();
    k_bt<<<(unsigned)(np / 32), 256>>>(d, ldw, k0, bt);
    GSP_CUDA_LAUNCHED();
    /* row panel: rows K, every word (the diagonal words do not change) */
    k_bmma<<<dim3((unsigned)(ldw / 8), TKB / 128), 256>>>(d, ldw, (const uint32_t *)ap, bt, k0, 0, 0);
    GSP_CUDA_LAUNCHED();
    k_bt<<<(unsigned)(np / 32), 256>>>(d, ldw, k0, bt);
    GSP_CUDA_LAUNCHED();
    k_bmma<<<dim3((unsigned)(ldw / 8), (unsigned)(np / 128)), 256>>>(d, ldw, (const uint32_t *)ap, bt, 0, k0,
                                                                   k0 + TKB);
    GSP_CUDA_LAUNCHED();
  }
  GSP_CUDA_TRY(cudaDeviceSynchronize());
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp__cuda_count_bits(int64_t *count, const uint64_t *d, int64_t n, int64_t np) {
  gsp_info info = GSP_SUCCESS;
  unsigned long long *dc = NULL, h = 0;
#define GSP_FREE_ALL cudaFree(dc)
  GSP_CUDA_TRY(cudaMalloc((void **)&dc, sizeof *dc));
  GSP_CUDA_TRY(cudaMemset(dc, 0, sizeof *dc));
  if (n > 0) {
    k_count_bits<<<dim3(1, (unsigned)(n < 65535 ? n : 65535)), 256>>>(d, np / 64, n, dc);
    GSP_CUDA_LAUNCHED();
  }
  GSP_CUDA_TRY(cudaMemcpy(&h, dc, sizeof h, cudaMemcpyDeviceToHost));
  *count = (int64_t)h;
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}
