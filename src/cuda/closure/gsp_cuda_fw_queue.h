/*
 * Blocked Floyd-Warshall as one queue of tile items with dependency
 * counters, for a persistent kernel (k_fw_queue, gsp_cuda_fw.cuh) whose
 * blocks take the items in queue order and wait, item by item, for what
 * each one reads or overwrites: round r + 1's tiles start while round r's
 * last ones still run, so no round ends on a partly filled wave of blocks.
 * Plain C++: the CPU model of tests/test_fw_queue_sim.cpp checks the same
 * tables.
 *
 * Items of round r (K = block r; nb x nb blocks of FWB x FWB):
 *   DIAG(r)       close D[r][r] in place; store it transposed into X(r);
 *   ROW(r, j)     D[r][j] ⊕= Diag ⊗ D[r][j]   (A' = X(r), B = D[r][j])
 *   COL(r, i)     D[i][r] ⊕= D[i][r] ⊗ Diag   (A' = X(r), B = D[r][r]);
 *                 store it transposed into T(r);
 *   REST(r, i, j) D[i][j] ⊕= D[i][r] ⊗ D[r][j] (A' = T(r), B = D[r][j]).
 * An item that leaves block (i, r + 1), i != r + 1, stores it transposed
 * into X(r + 1) too (the A' of round r + 1's column panel; writes_x). X(s) and T(s) share a buffer
 * with X(s - 2) and T(s - 2) (FwWork).
 *
 * Counters (all start at 0; an item adds 1 to each of its signals when its
 * stores are visible):
 *   tile(i, j)    rounds applied to block (i, j);
 *   col(r, j)     REST(r, ., j) done: they read D[r][j], which round r + 1
 *                 overwrites;
 *   row(r, i)     REST(r, i, .) done: they read T(r)'s rows of block i,
 *                 which COL(r + 2, i) overwrites;
 *   pan(r)        ROW(r, .) and COL(r, .) done: they read X(r), whose
 *                 buffer round r + 1 overwrites (X(r + 2)).
 * Every wait is on items earlier in the queue, so with all blocks resident
 * the earliest unfinished item can always run: no deadlock.
 *
 * Queue order: DIAG(0), round 0's panels; then for each r, round r's tiles
 * of stripe r + 1 (block row and column r + 1, D[r + 1][r + 1] first),
 * DIAG(r + 1), `lag` more of round r's tiles, round r + 1's panels, and the
 * rest of round r's tiles, block row r - 1 last (it waits for col(r - 1, .)).
 * lag gives the diagonal block's closure time to finish before the panel
 * items are taken (a block that takes one waits for it).
 */
#ifndef GSP_CUDA_FW_QUEUE_H
#define GSP_CUDA_FW_QUEUE_H

#include <stdint.h>

#if defined(__CUDACC__)
#define FWQ_HD __host__ __device__
#else
#define FWQ_HD
#endif

namespace fwq {

enum Kind { DIAG = 0, ROW = 1, COL = 2, REST = 3 };

struct Item {
  int kind, r, i, j; /* block (i, j) of round r */
};

/* 2 bits kind, 10 bits each r, i, j: nb <= 1024 */
FWQ_HD inline uint32_t encode(Item t) {
  return (uint32_t)t.kind << 30 | (uint32_t)t.r << 20 | (uint32_t)t.i << 10 | (uint32_t)t.j;
}
FWQ_HD inline Item decode(uint32_t w) {
  return Item{(int)(w >> 30), (int)(w >> 20 & 1023), (int)(w >> 10 & 1023), (int)(w & 1023)};
}
constexpr int MAX_NB = 1024;

/* Counter indices in one int array of counters(nb) entries. */
FWQ_HD inline int c_tile(int nb, int i, int j) {
  return i * nb + j;
}
FWQ_HD inline int c_col(int nb, int r, int j) {
  return nb * nb + r * nb + j;
}
FWQ_HD inline int c_row(int nb, int r, int i) {
  return 2 * nb * nb + r * nb + i;
}
FWQ_HD inline int c_pan(int nb, int r) {
  return 3 * nb * nb + r;
}
FWQ_HD inline int counters(int nb) {
  return 3 * nb * nb + nb;
}

/* The round s of the X(s) that item t writes, -1 none: DIAG(r) its rows of
 * block r of X(r); an item leaving block (i, r + 1), i != r + 1, its rows of
 * block i of X(r + 1) (block (r + 1, r + 1) is DIAG(r + 1)'s). */
FWQ_HD inline int writes_x(Item t) {
  if (t.kind == DIAG) return t.r;
  return t.j == t.r + 1 && t.i != t.r + 1 ? t.r + 1 : -1;
}

struct Wait {
  int c, target; /* until counter c >= target */
};
constexpr int MAX_WAITS = 5, MAX_SIGNALS = 3;

/* What item t waits for (into w; the count returned). */
FWQ_HD inline int waits(Item t, int nb, Wait *w) {
  int n = 0;
  const int r = t.r, i = t.i, j = t.j;
  w[n++] = Wait{c_tile(nb, i, j), r}; /* the block's earlier rounds */
  if (t.kind == ROW || t.kind == COL) w[n++] = Wait{c_tile(nb, r, r), r + 1};
  if (t.kind == REST) {
    w[n++] = Wait{c_tile(nb, r, j), r + 1}; /* its row panel block */
    w[n++] = Wait{c_tile(nb, i, r), r + 1}; /* its column panel block */
  }
  /* it overwrites D[r - 1][j], which round r - 1's REST read as B. (COL(r -
   * 1, .) read D[r - 1][r - 1]: REST(r, r - 1, r - 1) comes after them
   * through COL(r, r - 1), which waits for col(r - 1, r).) */
  if (r >= 1 && i == r - 1 && j != r - 1) w[n++] = Wait{c_col(nb, r - 1, j), nb - 1};
  /* it writes X(s), which round s - 2's panels read (the same buffer) */
  const int xs = writes_x(t);
  if (xs >= 2) w[n++] = Wait{c_pan(nb, xs - 2), 2 * (nb - 1)};
  /* COL(r, i) writes T(r)'s rows of block i, which REST(r - 2, i, .) read */
  if (t.kind == COL && r >= 2 && i != r - 2) w[n++] = Wait{c_row(nb, r - 2, i), nb - 1};
  return n;
}

/* The counters item t adds 1 to when done (into s; the count returned). */
FWQ_HD inline int signals(Item t, int nb, int *s) {
  int n = 0;
  s[n++] = c_tile(nb, t.i, t.j);
  if (t.kind == ROW || t.kind == COL) s[n++] = c_pan(nb, t.r);
  if (t.kind == REST) {
    s[n++] = c_col(nb, t.r, t.j);
    s[n++] = c_row(nb, t.r, t.i);
  }
  return n;
}

/* The whole queue, nb^3 items, into q (room for nb^3); lag as above. */
inline int64_t build(int nb, int lag, uint32_t *q) {
  int64_t n = 0;
  auto put = [&](int kind, int r, int i, int j) { q[n++] = encode(Item{kind, r, i, j}); };
  auto panels = [&](int r) {
    for (int j = 0; j < nb; j++)
      if (j != r) put(ROW, r, r, j);
    for (int i = 0; i < nb; i++)
      if (i != r) put(COL, r, i, r);
  };
  put(DIAG, 0, 0, 0);
  panels(0);
  for (int r = 0; r < nb; r++) {
    const int s = r + 1; /* the next round's stripe */
    if (s < nb) {
      put(REST, r, s, s);
      for (int j = 0; j < nb; j++)
        if (j != r && j != s) put(REST, r, s, j);
      for (int i = 0; i < nb; i++)
        if (i != r && i != s) put(REST, r, i, s);
      put(DIAG, s, s, s);
    }
    /* the other blocks, rows from r + 1 round to r - 1 */
    int taken = 0;
    for (int o = 1; o < nb; o++) {
      const int i = (r + o) % nb;
      if (i == r || i == s) continue;
      for (int j = 0; j < nb; j++) {
        if (j == r || j == s) continue;
        if (s < nb && taken++ == lag) panels(s);
        put(REST, r, i, j);
      }
    }
    if (s < nb && taken <= lag) panels(s);
  }
  return n;
}

} /* namespace fwq */

#endif /* GSP_CUDA_FW_QUEUE_H */
