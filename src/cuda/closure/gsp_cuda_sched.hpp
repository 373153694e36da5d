/*
 * Schedules of the closures that outgrow one GPU's memory or use several
 * GPUs, written once over an executor X so that the same code drives the
 * CUDA kernels (gsp_cuda_scale.cuh) and the CPU simulator of
 * tests/test_sched_sim.cpp, which runs them on host arrays and checks every
 * pair of operations that no queue order or event orders for a data race.
 * Plain C++: no CUDA here.
 *
 * Out of core (ooc_run): the np x np matrix (np = n padded to TB) lives in
 * host memory H (n x n, leading dimension n). It is split into pages of B
 * rows (block rows; the last one may be shorter). Round r of blocked
 * Floyd-Warshall takes the B vertices of page r as its k-block:
 *   1. pivot: page r runs the TB-deep rounds of in-core FW restricted to
 *      its own rows and k in page r (diagonal tile, row panel, column panel,
 *      rest of the stripe), which closes D[K,K] and makes D[K,:] final for
 *      the round;
 *   2. every other page q: D[q,:] ⊕= D_old[q,K] ⊗ D[K,:], depth B as B/TB
 *      products. D_old[q,K] is snapshotted (transposed into W) first, so the
 *      product also performs the column-panel update D[q,K] ⊕= D[q,K] ⊗ Diag
 *      (Diag = D[K,K] closed, so D_old ⊗ Diag* ⊗ D_orig = D_new ⊗ D[K,:]).
 * Pages stream through S device slots on three queues: loads, compute,
 * stores. Slot reuse: page r+1 (the next pivot) is processed first in round
 * r and stays resident (S >= 3), the old pivot and whatever else is still
 * resident are processed next, and the non-resident pages in an order that
 * ends with page r+2, so the next round starts on resident pages.
 *
 * Several GPUs (mgpu_run): a Pr x Pc grid, GPU (r, c) owns rows
 * [rb[r], rb[r+1]) x columns [cb[c], cb[c+1]) (tile multiples). Per TB round
 * the owner of the diagonal tile closes it and broadcasts it; the grid row
 * that owns rows K updates its row panel pieces, the grid column that owns
 * columns K its column panel pieces (transposed into W); W is broadcast along
 * grid rows, the row panel along grid columns; every GPU then updates its
 * block locally.
 *
 * Executor X (element type T, queue Q, event E):
 *   alloc(dev, &p, elems) / release(dev, p)          device memory
 *   queue(dev, &q) / queue_release(dev, q), event(dev, &e) / event_release(dev, e)
 *   record(dev, e, q)  wait(dev, q, e)  sync(dev, q)   (as CUDA events)
 *   fill(dev, p, rows, cols, ld, q)                   semiring zero
 *   h2d / d2h / d2d(dev, dst, dld, src, sld, rows, cols, q)
 *   diag(dev, D, ld, q)          close the TB x TB tile at D
 *   tr(dev, dst, ldd, src, lds, rows, cols, q)       dst[k*ldd+i] = src[i*lds+k]
 *   gemm(dev, C, ldc, At, lda, B, ldb, rows, cols, skip_r, skip_c, q)
 *       C[i][j] ⊕= ⊕_{k<TB} At[k][i] ⊗ B[k][j] for i < rows, j < cols (TB
 *       multiples), except the TB-row tile block at skip_r and the TB-column
 *       block at skip_c (-1: none); each tile reads its A and B before
 *       writing C (a row-panel update in place is race-free).
 *   bcast(ops, count)   one group of broadcasts (several communicators)
 * Every call returns gsp_info; a failing call has recorded its message.
 */
#ifndef GSP_CUDA_SCHED_HPP
#define GSP_CUDA_SCHED_HPP

#include <stddef.h>
#include <stdint.h>

#include <algorithm>
#include <vector>

#include "gsp_host.h"
#include "gsp_progress.h"

namespace gspsched {

constexpr int64_t TB = 128; /* the FW tile (GSP_CUDA_FW_BLOCK) */

/* ------------------------------------------------------------------------ */
/* Out of core                                                               */
/* ------------------------------------------------------------------------ */

struct OocShape {
  int64_t n, np; /* vertices, padded */
  int64_t B;     /* page rows (multiple of TB) */
  int64_t pages; /* ceil(np / B) */
  int slots;     /* device page buffers, >= 2 */
  /* the caller's progress: every few rounds, the compute queue drained */
  const gsp__progress *progress = nullptr;
};

inline int64_t ooc_rows(const OocShape &s, int64_t q) {
  return std::min(s.B, s.np - q * s.B);
}
/* rows of page q that are real vertices (>= 1: np - n < TB <= page start gap) */
inline int64_t ooc_valid(const OocShape &s, int64_t q) {
  return std::min(ooc_rows(s, q), s.n - q * s.B);
}

/* Counters of one run (for the benchmark and the tests). */
struct OocStats {
  int64_t loads = 0, stores = 0, pivot_hits = 0;
};

template <class X> class Ooc {
  typedef typename X::T T;
  typedef typename X::Q Q;
  typedef typename X::E E;

public:
  Ooc(X &x, T *H, const OocShape &sh) : x(x), H(H), sh(sh) {}

  gsp_info run(OocStats *st) {
    gsp_info info = setup();
    if (info == GSP_SUCCESS) info = rounds();
    if (info == GSP_SUCCESS)
      for (int s = 0; s < sh.slots && info == GSP_SUCCESS; s++)
        if (slot_page[s] >= 0 && dirty[s]) info = store(s);
    /* drain every queue before anything is freed, on error too */
    gsp_info fin = GSP_SUCCESS;
    if (have_queues) {
      for (Q q : {ls, ss, cs}) {
        gsp_info e = x.sync(0, q);
        if (fin == GSP_SUCCESS) fin = e;
      }
    }
    teardown();
    if (st) *st = stats;
    return info != GSP_SUCCESS ? info : fin;
  }

private:
  X &x;
  T *H;
  OocShape sh;
  OocStats stats;
  std::vector<T *> slot;
  T *W = nullptr;
  Q cs{}, ls{}, ss{};
  bool have_queues = false;
  std::vector<E> ev_loaded, ev_computed, ev_slotfree, ev_pstored;
  std::vector<E *> all_events;
  E ev_ready{};
  std::vector<int64_t> slot_page, page_slot, seq;
  std::vector<char> dirty, pinned;
  int64_t counter = 0;

  gsp_info setup() {
    gsp_info info;
    const int S = sh.slots;
    slot.assign(S, nullptr);
    slot_page.assign(S, -1);
    seq.assign(S, -1);
    dirty.assign(S, 0);
    pinned.assign(S, 0);
    page_slot.assign(sh.pages, -1);
    for (int s = 0; s < S; s++)
      if ((info = x.alloc(0, &slot[s], (size_t)sh.B * sh.np)) != GSP_SUCCESS) return info;
    if ((info = x.alloc(0, &W, (size_t)sh.B * sh.B)) != GSP_SUCCESS) return info;
    if ((info = x.queue(0, &cs)) != GSP_SUCCESS) return info;
    if ((info = x.queue(0, &ls)) != GSP_SUCCESS) {
      x.queue_release(0, cs);
      return info;
    }
    if ((info = x.queue(0, &ss)) != GSP_SUCCESS) {
      x.queue_release(0, cs);
      x.queue_release(0, ls);
      return info;
    }
    have_queues = true;
    ev_loaded.resize(S);
    ev_computed.resize(S);
    ev_slotfree.resize(S);
    ev_pstored.resize(sh.pages);
    for (int s = 0; s < S; s++)
      for (E *e : {&ev_loaded[s], &ev_computed[s], &ev_slotfree[s]}) {
        if ((info = x.event(0, e)) != GSP_SUCCESS) return info;
        all_events.push_back(e);
      }
    for (int64_t q = 0; q < sh.pages; q++) {
      if ((info = x.event(0, &ev_pstored[q])) != GSP_SUCCESS) return info;
      all_events.push_back(&ev_pstored[q]);
    }
    if ((info = x.event(0, &ev_ready)) != GSP_SUCCESS) return info;
    all_events.push_back(&ev_ready);
    /* Padding columns (>= n) of every slot hold the semiring zero for good:
     * loads write columns < n only and the closure keeps "no edge" rows and
     * columns at zero. Padding rows are refilled by the load of the last
     * page. */
    for (int s = 0; s < S; s++)
      if ((info = x.fill(0, slot[s], sh.B, sh.np, sh.np, cs)) != GSP_SUCCESS) return info;
    if ((info = x.record(0, ev_ready, cs)) != GSP_SUCCESS) return info;
    if ((info = x.wait(0, ls, ev_ready)) != GSP_SUCCESS) return info;
    return x.wait(0, ss, ev_ready);
  }

  void teardown() {
    for (E *e : all_events) x.event_release(0, *e);
    all_events.clear();
    if (have_queues) {
      x.queue_release(0, cs);
      x.queue_release(0, ls);
      x.queue_release(0, ss);
      have_queues = false;
    }
    for (T *p : slot)
      if (p) x.release(0, p);
    slot.clear();
    if (W) x.release(0, W);
    W = nullptr;
  }

  /* host rows of page q */
  T *host_page(int64_t q) const {
    return H + (size_t)(q * sh.B) * (size_t)sh.n;
  }

  gsp_info store(int s) {
    gsp_info info;
    const int64_t q = slot_page[s];
    if ((info = x.wait(0, ss, ev_computed[s])) != GSP_SUCCESS) return info;
    if ((info = x.d2h(0, host_page(q), sh.n, slot[s], sh.np, ooc_valid(sh, q), sh.n, ss)) != GSP_SUCCESS) return info;
    if ((info = x.record(0, ev_pstored[q], ss)) != GSP_SUCCESS) return info;
    if ((info = x.record(0, ev_slotfree[s], ss)) != GSP_SUCCESS) return info;
    dirty[s] = 0;
    stats.stores++;
    return GSP_SUCCESS;
  }

  gsp_info load(int64_t q, int s) {
    gsp_info info;
    /* the slot's last compute use, its last store, and the last store of
     * this page's host rows all precede the copy */
    if ((info = x.wait(0, ls, ev_computed[s])) != GSP_SUCCESS) return info;
    if ((info = x.wait(0, ls, ev_slotfree[s])) != GSP_SUCCESS) return info;
    if ((info = x.wait(0, ls, ev_pstored[q])) != GSP_SUCCESS) return info;
    const int64_t h = ooc_rows(sh, q), v = ooc_valid(sh, q);
    if (v < h && (info = x.fill(0, slot[s] + (size_t)v * sh.np, h - v, sh.np, sh.np, ls)) != GSP_SUCCESS) return info;
    if ((info = x.h2d(0, slot[s], sh.np, host_page(q), sh.n, v, sh.n, ls)) != GSP_SUCCESS) return info;
    if ((info = x.record(0, ev_loaded[s], ls)) != GSP_SUCCESS) return info;
    slot_page[s] = q;
    page_slot[q] = s;
    dirty[s] = 0;
    stats.loads++;
    return GSP_SUCCESS;
  }

  /* A slot for a page about to be loaded: an empty one, else the unpinned
   * one processed longest ago, preferring pages already done this round. */
  int victim(int64_t round_start) const {
    int best = -1;
    for (int s = 0; s < sh.slots; s++) {
      if (pinned[s]) continue;
      if (slot_page[s] < 0) return s;
      const bool done = seq[s] >= round_start;
      if (best < 0) {
        best = s;
        continue;
      }
      const bool bdone = seq[best] >= round_start;
      if (done != bdone ? done : seq[s] < seq[best]) best = s;
    }
    return best;
  }

  gsp_info resident(int64_t q, int64_t round_start) {
    if (page_slot[q] >= 0) return GSP_SUCCESS;
    const int s = victim(round_start);
    if (s < 0) return GSP_ERROR(GSP_PANIC, "out-of-core closure: no free page slot");
    gsp_info info;
    if (slot_page[s] >= 0) {
      if (dirty[s] && (info = store(s)) != GSP_SUCCESS) return info;
      page_slot[slot_page[s]] = -1;
      slot_page[s] = -1;
    }
    return load(q, s);
  }

  /* Step 1 on the pivot stripe P (w rows, pivot columns K0 .. K0+w). */
  gsp_info pivot(int s, int64_t r) {
    gsp_info info;
    const int64_t np = sh.np, w = ooc_rows(sh, r), K0 = r * sh.B;
    T *P = slot[s];
    if ((info = x.wait(0, cs, ev_loaded[s])) != GSP_SUCCESS) return info;
    for (int64_t k0l = 0; k0l < w; k0l += TB) {
      const int64_t k0g = K0 + k0l;
      T *Prow = P + (size_t)k0l * np;
      if ((info = x.diag(0, Prow + k0g, np, cs)) != GSP_SUCCESS) return info;
      if (np == TB) continue;
      /* W[k][i] = P[i][k0g + k]: the column panel of the stripe, transposed */
      if ((info = x.tr(0, W, w, P + k0g, np, w, TB, cs)) != GSP_SUCCESS) return info;
      /* row panel: D[K, j] ⊕= Diag ⊗ D[K, j] over the whole width */
      if ((info = x.gemm(0, Prow, np, W + k0l, w, Prow, np, TB, np, -1, k0g, cs)) != GSP_SUCCESS) return info;
      if (w == TB) continue;
      /* column panel of the stripe: D[i, K] ⊕= D[i, K] ⊗ Diag (A: snapshot) */
      if ((info = x.gemm(0, P + k0g, np, W, w, Prow + k0g, np, w, TB, k0l, -1, cs)) != GSP_SUCCESS) return info;
      if ((info = x.tr(0, W, w, P + k0g, np, w, TB, cs)) != GSP_SUCCESS) return info;
      /* the rest of the stripe */
      if ((info = x.gemm(0, P, np, W, w, Prow, np, w, np, k0l, k0g, cs)) != GSP_SUCCESS) return info;
    }
    dirty[s] = 1;
    return GSP_SUCCESS;
  }

  /* Step 2 on page q (slot s) with the pivot stripe in slot ps. */
  gsp_info page(int s, int64_t q, int ps, int64_t r) {
    gsp_info info;
    const int64_t np = sh.np, hq = ooc_rows(sh, q), w = ooc_rows(sh, r), K0 = r * sh.B;
    T *C = slot[s];
    if ((info = x.wait(0, cs, ev_loaded[s])) != GSP_SUCCESS) return info;
    if ((info = x.tr(0, W, hq, C + K0, np, hq, w, cs)) != GSP_SUCCESS) return info;
    for (int64_t kk = 0; kk < w; kk += TB)
      if ((info = x.gemm(0, C, np, W + (size_t)kk * hq, hq, slot[ps] + (size_t)kk * np, np, hq, np, -1, -1, cs)) !=
          GSP_SUCCESS)
        return info;
    if ((info = x.record(0, ev_computed[s], cs)) != GSP_SUCCESS) return info;
    dirty[s] = 1;
    seq[s] = ++counter;
    return GSP_SUCCESS;
  }

  gsp_info rounds() {
    gsp_info info;
    const int64_t p = sh.pages;
    const bool keep_next = sh.slots >= 3;
    for (int64_t r = 0; r < p; r++) {
      const int64_t round_start = counter + 1;
      if (page_slot[r] >= 0) stats.pivot_hits++;
      if ((info = resident(r, round_start)) != GSP_SUCCESS) return info;
      const int ps = (int)page_slot[r];
      pinned[ps] = 1;
      if ((info = pivot(ps, r)) != GSP_SUCCESS) return info;
      seq[ps] = ++counter;

      /* order: next pivot, resident pages, the rest, page r+2 (S < 3: the
       * next pivot last instead, so it is still resident) */
      const int64_t first = keep_next && r + 1 < p ? r + 1 : -1;
      const int64_t last = keep_next ? (r + 2 < p ? r + 2 : -1) : (r + 1 < p ? r + 1 : -1);
      std::vector<int64_t> order;
      if (first >= 0) order.push_back(first);
      std::vector<int> res;
      for (int s = 0; s < sh.slots; s++) {
        const int64_t q = slot_page[s];
        if (q >= 0 && q != r && q != first && q != last) res.push_back(s);
      }
      std::sort(res.begin(), res.end(), [&](int a, int b) { return seq[a] < seq[b]; });
      for (int s : res) order.push_back(slot_page[s]);
      for (int64_t d = 1; d < p; d++) {
        const int64_t q = (r + d) % p;
        if (q == first || q == last || page_slot[q] >= 0) continue;
        order.push_back(q);
      }
      if (last >= 0) order.push_back(last);

      for (int64_t q : order) {
        if ((info = resident(q, round_start)) != GSP_SUCCESS) return info;
        const int s = (int)page_slot[q];
        if ((info = page(s, q, ps, r)) != GSP_SUCCESS) return info;
        if (q == first) pinned[s] = 1;
      }
      /* every compute use of the pivot stripe (operand B above) is done
       * before the slot may be reloaded */
      if ((info = x.record(0, ev_computed[ps], cs)) != GSP_SUCCESS) return info;
      pinned[ps] = 0;
      if (gsp__progress_due(sh.progress, r, p)) {
        if ((info = x.sync(0, cs)) != GSP_SUCCESS) return info;
        gsp__progress_report(sh.progress, (double)(r + 1) / (double)p);
      }
    }
    return GSP_SUCCESS;
  }
};

template <class X> gsp_info ooc_run(X &x, typename X::T *H, const OocShape &sh, OocStats *st) {
  Ooc<X> o(x, H, sh);
  return o.run(st);
}

/* ------------------------------------------------------------------------ */
/* Several GPUs                                                              */
/* ------------------------------------------------------------------------ */

/* Pr x Pc process grid and block bounds (multiples of TB). */
struct Grid {
  int G = 0, Pr = 0, Pc = 0;
  int64_t n = 0, np = 0;
  std::vector<int64_t> rb, cb;
  int gpu(int r, int c) const {
    return r * Pc + c;
  }
  int64_t rows(int r) const {
    return rb[r + 1] - rb[r];
  }
  int64_t cols(int c) const {
    return cb[c + 1] - cb[c];
  }
};

/* The most square Pr x Pc = G with Pr <= Pc; tiles split evenly. Returns
 * false when np / TB < Pc (fewer tile columns than GPUs in a row). */
inline bool make_grid(Grid *g, int G, int64_t n, int64_t np) {
  int pr = 1;
  for (int d = 1; (int64_t)d * d <= G; d++)
    if (G % d == 0) pr = d;
  g->G = G;
  g->Pr = pr;
  g->Pc = G / pr;
  g->n = n;
  g->np = np;
  const int64_t nb = np / TB;
  if (nb < g->Pc || nb < g->Pr) return false;
  g->rb.resize(g->Pr + 1);
  g->cb.resize(g->Pc + 1);
  for (int r = 0; r <= g->Pr; r++) g->rb[r] = nb * r / g->Pr * TB;
  for (int c = 0; c <= g->Pc; c++) g->cb[c] = nb * c / g->Pc * TB;
  return true;
}

/* Communicators of a broadcast: all GPUs, one grid row, one grid column. */
enum BcastComm { COMM_WORLD = 0, COMM_ROW = 1, COMM_COL = 2 };

template <class T> struct Bcast {
  int comm;      /* BcastComm */
  int gpu;       /* the rank's GPU (grid index) */
  const T *send; /* used on the root only */
  T *recv;
  size_t elems;
  int root; /* root's rank in that communicator: WORLD gpu, ROW column, COL row */
};

/* Device buffers of one GPU: D its block (rows x cols, ld cols), DG the
 * diagonal tile, DGT its transpose, W the column panel transposed (TB x
 * rows), RP the row panel (TB x cols). */
template <class T> struct MgpuBufs { T *D = nullptr, *DG = nullptr, *DGT = nullptr, *W = nullptr, *RP = nullptr; };

template <class X>
gsp_info mgpu_round(X &x, const Grid &g, std::vector<MgpuBufs<typename X::T>> &b, const std::vector<typename X::Q> &q,
                    int64_t k0) {
  typedef typename X::T T;
  gsp_info info;
  int prK = 0, pcK = 0;
  while (g.rb[prK + 1] <= k0) prK++;
  while (g.cb[pcK + 1] <= k0) pcK++;
  const int64_t kl = k0 - g.rb[prK], kc = k0 - g.cb[pcK];
  const int g0 = g.gpu(prK, pcK);

  /* 1. the diagonal tile, closed by its owner and copied out */
  {
    const int64_t ld = g.cols(pcK);
    T *tile = b[g0].D + (size_t)kl * ld + kc;
    if ((info = x.diag(g0, tile, ld, q[g0])) != GSP_SUCCESS) return info;
    if ((info = x.d2d(g0, b[g0].DG, TB, tile, ld, TB, TB, q[g0])) != GSP_SUCCESS) return info;
  }
  if (g.G > 1) {
    std::vector<Bcast<T>> ops;
    for (int d = 0; d < g.G; d++) ops.push_back({COMM_WORLD, d, b[d].DG, b[d].DG, (size_t)(TB * TB), g0});
    if ((info = x.bcast(ops.data(), (int)ops.size())) != GSP_SUCCESS) return info;
  }
  /* 2. row panel pieces on grid row prK */
  for (int c = 0; c < g.Pc; c++) {
    const int d = g.gpu(prK, c);
    const int64_t ld = g.cols(c);
    T *rows = b[d].D + (size_t)kl * ld;
    if ((info = x.tr(d, b[d].DGT, TB, b[d].DG, TB, TB, TB, q[d])) != GSP_SUCCESS) return info;
    if ((info = x.gemm(d, rows, ld, b[d].DGT, TB, rows, ld, TB, ld, -1, c == pcK ? kc : -1, q[d])) != GSP_SUCCESS)
      return info;
  }
  /* 3. column panel pieces on grid column pcK, left transposed in W */
  for (int r = 0; r < g.Pr; r++) {
    const int d = g.gpu(r, pcK);
    const int64_t ld = g.cols(pcK), R = g.rows(r);
    T *cols = b[d].D + kc;
    if ((info = x.tr(d, b[d].W, R, cols, ld, R, TB, q[d])) != GSP_SUCCESS) return info;
    if ((info = x.gemm(d, cols, ld, b[d].W, R, b[d].DG, TB, R, TB, r == prK ? kl : -1, -1, q[d])) != GSP_SUCCESS)
      return info;
    if ((info = x.tr(d, b[d].W, R, cols, ld, R, TB, q[d])) != GSP_SUCCESS) return info;
  }
  /* 4. W along grid rows, the row panel along grid columns */
  if (g.G > 1) {
    std::vector<Bcast<T>> ops;
    for (int r = 0; r < g.Pr; r++)
      for (int c = 0; c < g.Pc; c++) {
        const int d = g.gpu(r, c);
        if (g.Pc > 1) ops.push_back({COMM_ROW, d, b[d].W, b[d].W, (size_t)(TB * g.rows(r)), pcK});
        if (g.Pr > 1) {
          T *own = b[d].D + (size_t)kl * g.cols(c);
          ops.push_back({COMM_COL, d, own, r == prK ? own : b[d].RP, (size_t)(TB * g.cols(c)), prK});
        }
      }
    if (!ops.empty() && (info = x.bcast(ops.data(), (int)ops.size())) != GSP_SUCCESS) return info;
  }
  /* 5. every block */
  for (int r = 0; r < g.Pr; r++)
    for (int c = 0; c < g.Pc; c++) {
      const int d = g.gpu(r, c);
      const int64_t ld = g.cols(c);
      const T *Bop = r == prK ? b[d].D + (size_t)kl * ld : b[d].RP;
      if ((info = x.gemm(d, b[d].D, ld, b[d].W, g.rows(r), Bop, ld, g.rows(r), ld, r == prK ? kl : -1,
                         c == pcK ? kc : -1, q[d])) != GSP_SUCCESS)
        return info;
    }
  return GSP_SUCCESS;
}

/* All rounds (the blocks already hold the input, padding = zero); the
 * caller's progress every few rounds, every GPU drained first. */
template <class X>
gsp_info mgpu_run(X &x, const Grid &g, std::vector<MgpuBufs<typename X::T>> &b, const std::vector<typename X::Q> &q,
                  const gsp__progress *progress = nullptr) {
  const int64_t rounds = g.np / TB;
  for (int64_t k0 = 0; k0 < g.np; k0 += TB) {
    gsp_info info = mgpu_round(x, g, b, q, k0);
    if (info != GSP_SUCCESS) return info;
    if (gsp__progress_due(progress, k0 / TB, rounds)) {
      for (int d = 0; d < g.G; d++)
        if ((info = x.sync(d, q[d])) != GSP_SUCCESS) return info;
      gsp__progress_report(progress, (double)(k0 / TB + 1) / (double)rounds);
    }
  }
  return GSP_SUCCESS;
}

} /* namespace gspsched */

#endif /* GSP_CUDA_SCHED_HPP */
