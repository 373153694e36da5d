/*
 * Bit-packed OR_AND closure: rows of 64-bit words, bit j of word j/64 is
 * entry (i, j). Two products: LOP3 on words (gsp__cuda_fw_bits, 128-vertex
 * rounds as the numeric closure, A operand as 0/~0 masks) and binary tensor
 * cores (gsp__cuda_fw_bits_tc, 256- or 512-vertex rounds, the default).
 * Both share the diagonal-tile and column-panel kernels (the column panel
 * is a few words wide, too narrow for a product tile).
 */
#include "gsp_cuda_fw.cuh"

namespace gspcu {

/* Phase 1: KB rows x KB/64 words, thread (row, word). Bit k of a row only
 * goes 0 -> 1, and only by the thread of that row that saw it set, so the
 * concurrent reads of bit k at step k agree. */
template <int KB>
__global__ void __launch_bounds__(KB *KB / 64 < 1024 ? KB * KB / 64 : 1024)
    k_diag_bits(uint64_t *D, int64_t ldw, int64_t k0) {
  constexpr int W = KB / 64, NT = KB * W < 1024 ? KB * W : 1024, PER = KB * W / NT;
  __shared__ uint64_t t[KB][W];
  const int64_t kw = k0 / 64;
#pragma unroll
  for (int e = 0; e < PER; e++) {
    const int x = threadIdx.x + e * NT;
    t[x / W][x % W] = D[(size_t)(k0 + x / W) * ldw + kw + x % W];
  }
  __syncthreads();
#pragma unroll 2
  for (int k = 0; k < KB; k++) {
    uint64_t v[PER];
#pragma unroll
    for (int e = 0; e < PER; e++) {
      const int x = threadIdx.x + e * NT, row = x / W, w = x % W;
      const uint64_t m = 0 - ((t[row][k >> 6] >> (k & 63)) & 1);
      v[e] = gsp_or_and_fma_w64(t[row][w], m, t[k][w]);
    }
    __syncthreads();
#pragma unroll
    for (int e = 0; e < PER; e++) {
      const int x = threadIdx.x + e * NT;
      t[x / W][x % W] = v[e];
    }
    __syncthreads();
  }
#pragma unroll
  for (int e = 0; e < PER; e++) {
    const int x = threadIdx.x + e * NT;
    D[(size_t)(k0 + x / W) * ldw + kw + x % W] = t[x / W][x % W];
  }
}

/* Phase 2, column panel: D[i, K] |= D[i, K] ⊗ Diag for every row i outside
 * K; one thread a row (it reads its KB/64 words before writing them). */
template <int KB>
__global__ void __launch_bounds__(256) k_colpanel_bits(uint64_t *D, int64_t ldw, int64_t k0, int64_t np) {
  constexpr int W = KB / 64;
  __shared__ uint64_t g[KB][W];
  const int64_t kw = k0 / 64;
  for (int e = threadIdx.x; e < KB * W; e += blockDim.x) g[e / W][e % W] = D[(size_t)(k0 + e / W) * ldw + kw + e % W];
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

/* A operand snapshot: AP[i][w] = D[i][k0/64 + w] (w < KB/64) for every row,
 * so the products may rewrite the column-panel words while others read. */
template <int KB> __global__ void k_copy_ap(const uint64_t *D, int64_t ldw, int64_t k0, int64_t np, uint64_t *AP) {
  constexpr int W = KB / 64;
  const int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (e < np * W) AP[e] = D[(size_t)(e / W) * ldw + k0 / 64 + e % W];
}

/* Position of 32-bit word q (bits k0 + 32q ..) in a column of BT: in each
 * k256 half h = q / 8 the two words one lane feeds an MMA (t and t + 4)
 * are adjacent. */
__host__ __device__ constexpr int bt_pos(int q) {
  return (q / 8) * 8 + (q % 4) * 2 + (q % 8) / 4;
}

/* B operand, the row panel transposed: column j has KB/32 32-bit words,
 * word q holding the bits (k0 + 32q + b, j), b < 32 (AP's packing), at
 * bt_pos(q). One warp a 32 x 32 bit block, transposed by 32 ballots. */
template <int KB> __global__ void __launch_bounds__(KB) k_bt(const uint64_t *D, int64_t ldw, int64_t k0, uint32_t *BT) {
  const uint32_t *D32 = reinterpret_cast<const uint32_t *>(D);
  const int lane = threadIdx.x & 31, q = threadIdx.x >> 5; /* q: 32-row group */
  const int64_t jw = blockIdx.x;                           /* 32-column group */
  const uint32_t word = D32[(size_t)(k0 + q * 32 + lane) * (ldw * 2) + jw];
  uint32_t mine = 0;
#pragma unroll
  for (int b = 0; b < 32; b++) {
    const uint32_t v = __ballot_sync(0xffffffffu, (word >> b) & 1);
    if (lane == b) mine = v;
  }
  BT[(size_t)(jw * 32 + lane) * (KB / 32) + bt_pos(q)] = mine;
}

__device__ __forceinline__ void bmma_and_popc(int (&c)[4], uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3,
                                              uint32_t b0, uint32_t b1) {
  asm volatile("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc "
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
 * D[i, :] |= A[i, K] ⊗ B[K, :] over a KB-bit k-depth with binary tensor
 * cores: popc(a & b) summed over the KB/256 MMAs of a tile counts the paths
 * through K, a count > 0 sets the bit. A block owns 128 rows x 8 words; a
 * warp 64 rows (four 16-row MMA tiles, A fragments kept in registers) x 2
 * words, so each B fragment loaded feeds four MMAs. Lane (g, t) of the
 * accumulator layout holds rows g and g + 8, columns 2t and 2t + 1 of each
 * 8-column tile: it collects those bits for a word, spreads them to their
 * columns, and the four lanes of a group OR the word together. Everything a
 * warp loads is issued up front (the old C words it will rewrite, all B
 * fragments) so the latencies overlap. A warp owns 64 rows x 2 words: it
 * returns when its rows fall in rows.skip or its words outside [words.beg,
 * words.end) or in words.skip (the look-ahead schedule splits a round's
 * update into regions).
 */
struct Span { /* [beg, end) from beg in blocks of the grid, minus [skip_lo, skip_hi) */
  int64_t beg, end, skip_lo, skip_hi;
  __device__ bool out(int64_t x) const {
    return x >= end || (x >= skip_lo && x < skip_hi);
  }
};
template <int KB>
__global__ void __launch_bounds__(256) k_bmma(uint64_t *D, int64_t ldw, const uint32_t *__restrict__ AP,
                                              const uint32_t *__restrict__ BT, Span rows, Span words) {
  constexpr int RT = 4, WW = 2, H = KB / 256, QW = KB / 32; /* QW: 32-bit words a row */
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, g = lane >> 2, t4 = lane & 3;
  const int64_t r = rows.beg + (int64_t)blockIdx.y * 128 + (warp / 4) * 64;
  const int64_t wbase = words.beg + (int64_t)blockIdx.x * 8 + (warp % 4) * WW;
  if (rows.out(r) || words.out(wbase)) return;
  /* lane t4 < 2 owns row g's word t4 of each row tile, t4 >= 2 row g + 8's */
  const int64_t crow = r + g + (t4 >= 2 ? 8 : 0), cword = wbase + (t4 & 1);
  uint64_t cold[RT];
#pragma unroll
  for (int rt = 0; rt < RT; rt++) cold[rt] = D[(size_t)(crow + rt * 16) * ldw + cword];
  uint32_t a[RT][H][4];
#pragma unroll
  for (int rt = 0; rt < RT; rt++)
#pragma unroll
    for (int h = 0; h < H; h++) {
      const size_t r0 = (size_t)(r + rt * 16 + g) * QW + h * 8, r8 = r0 + 8 * QW;
      a[rt][h][0] = AP[r0 + t4];
      a[rt][h][1] = AP[r8 + t4];
      a[rt][h][2] = AP[r0 + t4 + 4];
      a[rt][h][3] = AP[r8 + t4 + 4];
    }
  const uint2 *bt = reinterpret_cast<const uint2 *>(BT) + t4;
  uint2 b[WW][8][H];
#pragma unroll
  for (int w = 0; w < WW; w++)
#pragma unroll
    for (int t = 0; t < 8; t++)
#pragma unroll
      for (int h = 0; h < H; h++) b[w][t][h] = bt[((size_t)(wbase + w) * 64 + t * 8 + g) * (QW / 2) + h * 4];
  uint64_t mine[RT] = {};
#pragma unroll
  for (int w = 0; w < WW; w++) {
    uint32_t plo[RT] = {}, phi[RT] = {};
#pragma unroll
    for (int t = 0; t < 8; t++)
#pragma unroll
      for (int rt = 0; rt < RT; rt++) {
        int c[4] = {0, 0, 0, 0};
#pragma unroll
        for (int h = 0; h < H; h++)
          bmma_and_popc(c, a[rt][h][0], a[rt][h][1], a[rt][h][2], a[rt][h][3], b[w][t][h].x, b[w][t][h].y);
        /* counts are >= 0: min(c, 1) is the bit; disjoint bits add as or */
        plo[rt] += ((uint32_t)min(c[0], 1) + 2u * (uint32_t)min(c[1], 1)) << (2 * t);
        phi[rt] += ((uint32_t)min(c[2], 1) + 2u * (uint32_t)min(c[3], 1)) << (2 * t);
      }
#pragma unroll
    for (int rt = 0; rt < RT; rt++) {
      uint64_t vlo = spread_pairs(plo[rt]) << (2 * t4), vhi = spread_pairs(phi[rt]) << (2 * t4);
      vlo |= __shfl_xor_sync(0xffffffffu, vlo, 1);
      vlo |= __shfl_xor_sync(0xffffffffu, vlo, 2);
      vhi |= __shfl_xor_sync(0xffffffffu, vhi, 1);
      vhi |= __shfl_xor_sync(0xffffffffu, vhi, 2);
      if (w == (t4 & 1)) mine[rt] = t4 >= 2 ? vhi : vlo;
    }
  }
#pragma unroll
  for (int rt = 0; rt < RT; rt++) D[(size_t)(crow + rt * 16) * ldw + cword] = cold[rt] | mine[rt];
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
    k_diag_bits<FWB><<<1, FWB * FWB / 64>>>(d, ldw, k0); /* 256 threads */
    GSP_CUDA_LAUNCHED();
    k_colpanel_bits<FWB><<<(unsigned)(np / 256), 256>>>(d, ldw, k0, np);
    GSP_CUDA_LAUNCHED();
    k_masks<<<(unsigned)(np / 256), 256>>>(d, ldw, k0, np, ws);
    GSP_CUDA_LAUNCHED();
    const uint64_t *Brow = d + (size_t)k0 * ldw;
    /* row panel (rows K, all words; the diagonal words are unchanged) */
    k_gemm<PolBits><<<dim3((unsigned)(ldw / Sh::BN), 1), GT, gsm>>>(d, ldw, ws, np, Brow, ldw, k0, 0, -1, 0, 0);
    GSP_CUDA_LAUNCHED();
    /* all other rows, all words (the column-panel words are already closed
     * and recomputing them changes nothing) */
    k_gemm<PolBits><<<dim3((unsigned)(ldw / Sh::BN), (unsigned)(np / Sh::BM)), GT, gsm>>>(d, ldw, ws, np, Brow, ldw, 0,
                                                                                          0, k0, 0, 0);
    GSP_CUDA_LAUNCHED();
  }
  GSP_CUDA_TRY(cudaDeviceSynchronize());
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

/* OR_AND closure with binary tensor cores: KB-vertex rounds (256 or 512);
 * the diagonal and column panel as in the LOP3 closure, the row panel and
 * all other tiles by k_bmma with A and B from snapshots (AP, BT).
 *
 * Look-ahead: round r first updates what round r+1's fixed kernels read
 * (the rows and the words of block r+1), then the rest of its update runs
 * on the main stream while round r+1's diagonal, panels and snapshots run
 * beside it on a high-priority stream. The two touch disjoint words: the
 * rest skips block r+1's rows and words, round r+1's preparation touches
 * only those, and the snapshots alternate between two buffers. This hides
 * the one-block diagonal and the thin panels behind the big product. */
template <int KB>
static gsp_info fw_bits_tc(uint64_t *d, int64_t n, int64_t np, bool reflexive, const gsp__progress *progress) {
  constexpr int W = KB / 64;
  gsp_info info = GSP_SUCCESS;
  uint64_t *ap[2] = {NULL, NULL};
  uint32_t *bt[2] = {NULL, NULL};
  cudaStream_t work = NULL, side = NULL;
  cudaEvent_t ahead = NULL, ready = NULL;
#define GSP_FREE_ALL                                                                                                 \
  (cudaFree(ap[0]), cudaFree(ap[1]), cudaFree(bt[0]), cudaFree(bt[1]), work ? cudaStreamDestroy(work) : cudaSuccess, \
   side ? cudaStreamDestroy(side) : cudaSuccess, ahead ? cudaEventDestroy(ahead) : cudaSuccess,                      \
   ready ? cudaEventDestroy(ready) : cudaSuccess)
  const int64_t ldw = np / 64, nr = np / KB;
  for (int i = 0; i < 2; i++) {
    GSP_CUDA_TRY(cudaMalloc((void **)&ap[i], (size_t)np * W * sizeof(uint64_t)));
    GSP_CUDA_TRY(cudaMalloc((void **)&bt[i], (size_t)np * W * sizeof(uint64_t)));
  }
  int lo_prio = 0, hi_prio = 0;
  GSP_CUDA_TRY(cudaDeviceGetStreamPriorityRange(&lo_prio, &hi_prio));
  GSP_CUDA_TRY(cudaStreamCreateWithPriority(&work, cudaStreamNonBlocking, lo_prio));
  GSP_CUDA_TRY(cudaStreamCreateWithPriority(&side, cudaStreamNonBlocking, hi_prio));
  GSP_CUDA_TRY(cudaEventCreateWithFlags(&ahead, cudaEventDisableTiming));
  GSP_CUDA_TRY(cudaEventCreateWithFlags(&ready, cudaEventDisableTiming));
  /* the non-blocking streams do not wait for the legacy stream's uploads */
  GSP_CUDA_TRY(cudaDeviceSynchronize());
  if (reflexive && n > 0) {
    k_set_diag_bits<<<(unsigned)((n + 255) / 256), 256, 0, work>>>(d, ldw, n);
    GSP_CUDA_LAUNCHED();
  }
  const Span all_words = {0, ldw, 0, 0};
  /* round r's diagonal, column panel, snapshots and row panel on stream st */
  auto prepare = [&](int64_t r, cudaStream_t st) -> cudaError_t {
    const int64_t k0 = r * KB;
    uint64_t *a = ap[r & 1];
    uint32_t *b = bt[r & 1];
    const int diag_threads = KB * W < 1024 ? KB * W : 1024;
    k_diag_bits<KB><<<1, diag_threads, 0, st>>>(d, ldw, k0);
    k_colpanel_bits<KB><<<(unsigned)(np / 256), 256, 0, st>>>(d, ldw, k0, np);
    k_copy_ap<KB><<<(unsigned)(np * W / 256), 256, 0, st>>>(d, ldw, k0, np, a);
    k_bt<KB><<<(unsigned)(np / 32), KB, 0, st>>>(d, ldw, k0, b);
    /* row panel: rows K, every word (the diagonal words do not change) */
    k_bmma<KB><<<dim3((unsigned)(ldw / 8), KB / 128), 256, 0, st>>>(d, ldw, (const uint32_t *)a, b, Span{k0, np, 0, 0},
                                                                    all_words);
    k_bt<KB><<<(unsigned)(np / 32), KB, 0, st>>>(d, ldw, k0, b);
    return cudaGetLastError(); /* launch errors stick until read */
  };
  GSP_CUDA_TRY(prepare(0, work));
  for (int64_t r = 0; r < nr; r++) {
    const int64_t k0 = r * KB, k1 = k0 + KB, w1 = k1 / 64;
    const uint32_t *a = (const uint32_t *)ap[r & 1], *b = bt[r & 1];
    const unsigned gw = (unsigned)(ldw / 8), gr = (unsigned)(np / 128);
    if (r + 1 == nr) { /* last round: every row outside K */
      k_bmma<KB><<<dim3(gw, gr), 256, 0, work>>>(d, ldw, a, b, Span{0, np, k0, k1}, all_words);
      GSP_CUDA_LAUNCHED();
      break;
    }
    /* what round r+1 prepares from: block r+1's rows, then its words */
    k_bmma<KB><<<dim3(gw, KB / 128), 256, 0, work>>>(d, ldw, a, b, Span{k1, np, 0, 0}, all_words);
    GSP_CUDA_LAUNCHED();
    k_bmma<KB><<<dim3(1, gr), 256, 0, work>>>(d, ldw, a, b, Span{0, np, k0, k1 + KB}, Span{w1, w1 + W, 0, 0});
    GSP_CUDA_LAUNCHED();
    GSP_CUDA_TRY(cudaEventRecord(ahead, work));
    GSP_CUDA_TRY(cudaStreamWaitEvent(side, ahead, 0));
    GSP_CUDA_TRY(prepare(r + 1, side));
    GSP_CUDA_TRY(cudaEventRecord(ready, side));
    /* the rest of round r, beside round r+1's preparation */
    k_bmma<KB><<<dim3(gw, gr), 256, 0, work>>>(d, ldw, a, b, Span{0, np, k0, k1 + KB}, Span{0, ldw, w1, w1 + W});
    GSP_CUDA_LAUNCHED();
    GSP_CUDA_TRY(cudaStreamWaitEvent(work, ready, 0));
    if (gsp__progress_due(progress, r, nr)) { /* the caller's, the work stream drained */
      GSP_CUDA_TRY(cudaStreamSynchronize(work));
      gsp__progress_report(progress, (double)(r + 1) / (double)nr);
    }
  }
  GSP_CUDA_TRY(cudaDeviceSynchronize());
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp__cuda_fw_bits_tc(uint64_t *d, int64_t n, int64_t np, bool reflexive, int depth,
                              const gsp__progress *progress) {
  return depth == 256 ? fw_bits_tc<256>(d, n, np, reflexive, progress) : fw_bits_tc<512>(d, n, np, reflexive, progress);
}

gsp_info gsp__cuda_count_bits(int64_t *count, const uint64_t *d, int64_t n, int64_t np) {
  return count_on_device(count, n, [&](unsigned long long *dc) {
    k_count_bits<<<dim3(1, (unsigned)(n < 65535 ? n : 65535)), 256>>>(d, np / 64, n, dc);
  });
}
