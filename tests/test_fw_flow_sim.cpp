/*
 * The closure's flowing rounds (side_in_rest with RestFold::flow,
 * src/cuda/closure/gsp_cuda_fw.cuh) modelled on the CPU, where there is no
 * GPU, with the kernel's own bookkeeping (gsp_cuda_fw_flow.h):
 *   - a round's tile order (rest_shell) holds each of its tiles once;
 *   - every block a wait names exists (no wait for ever) and comes from the
 *     round before or earlier in its own grid (no cycle);
 *   - any two blocks that touch the same tile of D or the same rows of a
 *     workspace, one writing, are ordered by the waits, in the order a
 *     sequential blocked Floyd-Warshall takes them (no data race);
 *   - the blocks run in random orders that the waits allow, each computing
 *     what the kernel computes from the operands the kernel reads (one
 *     vertex a block: a tile is one entry), and the result equals a
 *     textbook Floyd-Warshall exactly (integer weights).
 * Round r (r < nb - 1) is one grid: `lead` blocks update stripe r + 1 by
 * round r (into X(r + 1)), one closes D[r + 1][r + 1], the panel blocks
 * update stripe r + 1 by round r + 1 (into T(r + 1), X(r + 2)), the tile
 * blocks every tile outside stripes r and r + 1. Round 0 waits for round
 * 0's own panels (S(0), on the stream before it) and the last round, a
 * plain kernel, for all of round nb - 2 (stream order).
 */
#include <criterion/criterion.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "gsp_cuda_fw_flow.h"

using namespace gspflow;

namespace {

enum Kind { S0, LEAD, CLOSE, PANEL, TILE };
enum Buf { BUF_D, BUF_T, BUF_X };
struct Access {
  int buf, a, b; /* D: tile (a, b); T, X: buffer a (round % 2), rows of block b */
  bool write;
};
struct Block {
  Kind kind;
  int r, i, j; /* round; the tile it updates (CLOSE: r + 1, r + 1) */
  std::vector<int> waits;
  std::vector<Access> acc;
};

/* What a block reads and writes: the operands of k_rest's blocks
 * (panel_block, diag_close, gemm_tile). */
std::vector<Access> accesses(const Block &b, int nb) {
  const int r = b.r, i = b.i, j = b.j;
  std::vector<Access> acc;
  switch (b.kind) {
  case S0: /* round 0's diagonal tile and panels: every tile of stripe 0, T(0), X(0), X(1)'s row 0 */
    for (int x = 0; x < nb; x++) {
      acc.push_back({BUF_D, 0, x, true});
      acc.push_back({BUF_D, x, 0, true});
      acc.push_back({BUF_T, 0, x, true});
      acc.push_back({BUF_X, 0, x, true});
    }
    if (nb > 1) acc.push_back({BUF_X, 1, 0, true});
    break;
  case LEAD: /* stripe r + 1 by round r: A' = T(r), B = D[r][j] */
    acc.push_back({BUF_T, r % 2, i, false});
    acc.push_back({BUF_D, r, j, false});
    acc.push_back({BUF_D, i, j, true});
    if (j == r + 1 && i != r + 1) acc.push_back({BUF_X, (r + 1) % 2, i, true}); /* a column tile */
    break;
  case CLOSE:
    acc.push_back({BUF_D, r + 1, r + 1, true});
    acc.push_back({BUF_X, (r + 1) % 2, r + 1, true});
    break;
  case PANEL: /* round r + 1's panels: A' = X(r + 1), B = D[r + 1][j] */
    acc.push_back({BUF_X, (r + 1) % 2, i, false});
    acc.push_back({BUF_D, r + 1, j, false});
    acc.push_back({BUF_D, i, j, true});
    if (j == r + 1) acc.push_back({BUF_T, (r + 1) % 2, i, true});
    if (i == r + 1 && j == r + 2) acc.push_back({BUF_X, (r + 2) % 2, i, true});
    break;
  case TILE: /* A' = T(r), B = D[r][j] */
    acc.push_back({BUF_T, r % 2, i, false});
    acc.push_back({BUF_D, r, j, false});
    acc.push_back({BUF_D, i, j, true});
    break;
  }
  return acc;
}

/* The blocks of a closure over nb x nb tiles, in launch order, with the
 * waits of k_rest (RestFold): every wait names an earlier block. */
std::vector<Block> build(int nb) {
  std::vector<Block> bl;
  bl.push_back({S0, 0, 0, 0, {}, {}});
  std::vector<int> prev_grid{0}, prev_panels, prev_tiles(nb * nb, -1);
  for (int r = 0; r < nb; r++) {
    const bool last = r == nb - 1, flow = r > 0 && !last;
    std::vector<int> grid, leads, panels, tiles(nb * nb, -1);
    auto add = [&](Block b) {
      if (r == 0 || last) /* pdl_wait (round 0) or a plain launch: all of the grid before */
        b.waits.insert(b.waits.end(), prev_grid.begin(), prev_grid.end());
      bl.push_back(b);
      grid.push_back((int)bl.size() - 1);
      return (int)bl.size() - 1;
    };
    /* flow_wait: the round before's panels, and the tile flags of FlowWait */
    auto flow_waits = [&](Block &b, bool all) {
      if (!flow) return;
      b.waits.insert(b.waits.end(), prev_panels.begin(), prev_panels.end());
      const FlowWait w(nb, r, b.i, b.j, all);
      for (int64_t e = 0; e < w.count(); e++) {
        int64_t a, c;
        if (!w.flag(e, &a, &c)) continue;
        const int t = prev_tiles[a * nb + c];
        cr_assert(t >= 0, "nb %d round %d: waits for tile (%lld, %lld), which round %d did not update", nb, r,
                  (long long)a, (long long)c, r - 1);
        b.waits.push_back(t);
      }
    };
    if (!last) {
      const int s = r + 1;
      for (int x = 0; x < nb; x++) /* panel_block's lead: row tiles but block column r, column tiles but rows r, s */
        for (int y = 0; y < 2; y++) {
          Block b{LEAD, r, y ? x : s, y ? s : x, {}, {}};
          if ((y == 0 && x == r) || (y == 1 && (x == r || x == s))) continue;
          flow_waits(b, false);
          leads.push_back(add(b));
        }
      add({CLOSE, r, s, s, leads, {}});
      const int closure = grid.back();
      for (int x = 0; x < nb; x++) /* the panels of round s: row tiles but the diagonal, column tiles likewise */
        for (int y = 0; y < 2; y++) {
          if (x == s) continue;
          Block b{PANEL, r, y ? x : s, y ? s : x, {closure}, {}};
          flow_waits(b, true);
          panels.push_back(add(b));
        }
      const int64_t m = (int64_t)(nb - 2) * (nb - 2);
      for (int64_t t = 0; t < m; t++) {
        int64_t i, j;
        rest_shell(nb, r, t, &i, &j);
        cr_assert(i != r && i != s && j != r && j != s, "nb %d round %d: tile %lld is (%lld, %lld)", nb, r,
                  (long long)t, (long long)i, (long long)j);
        cr_assert(tiles[i * nb + j] < 0, "nb %d round %d: tile (%lld, %lld) twice", nb, r, (long long)i, (long long)j);
        Block b{TILE, r, (int)i, (int)j, {}, {}};
        flow_waits(b, false);
        tiles[i * nb + j] = add(b);
      }
    } else {
      for (int i = 0; i < nb - 1; i++)
        for (int j = 0; j < nb - 1; j++) tiles[i * nb + j] = add({TILE, r, i, j, {}, {}});
    }
    prev_grid = grid, prev_panels = panels, prev_tiles = tiles;
  }
  for (Block &b : bl) b.acc = accesses(b, nb);
  return bl;
}

/* Where a block stands in a sequential blocked Floyd-Warshall: round r's
 * stripe update, closure and panels in that order, its tiles unordered
 * against them (they touch nothing in common). */
int64_t seq(const Block &b) {
  return b.kind == S0 ? -1 : (int64_t)b.r * 4 + (b.kind == LEAD ? 0 : b.kind == CLOSE ? 1 : b.kind == PANEL ? 2 : 3);
}

} /* namespace */

Test(fw_flow, tile_order_is_a_permutation_by_shells) {
  for (int nb = 3; nb <= 40; nb++)
    for (int r = 0; r + 1 < nb; r++) {
      std::vector<int> seen(nb * nb, 0);
      int64_t last_shell = 2;
      for (int64_t t = 0; t < (int64_t)(nb - 2) * (nb - 2); t++) {
        int64_t i, j;
        rest_shell(nb, r, t, &i, &j);
        cr_assert(i >= 0 && i < nb && j >= 0 && j < nb && i != r && i != r + 1 && j != r && j != r + 1);
        cr_assert(!seen[i * nb + j]++, "nb %d r %d: (%lld, %lld) twice", nb, r, (long long)i, (long long)j);
        const int64_t shell = std::min((i - r + nb) % nb, (j - r + nb) % nb);
        cr_assert(shell >= last_shell, "nb %d r %d: shells out of order at %lld", nb, r, (long long)t);
        last_shell = shell;
      }
    }
}

Test(fw_flow, waits_order_every_conflict) {
  for (int nb = 2; nb <= 11; nb++) {
    const std::vector<Block> bl = build(nb);
    const size_t n = bl.size(), words = (n + 63) / 64;
    std::vector<uint64_t> before(n * words, 0); /* before[v]: the blocks that happen before v */
    for (size_t v = 0; v < n; v++)
      for (int u : bl[v].waits) {
        cr_assert(u >= 0 && (size_t)u < v, "nb %d: block %zu waits for a later block %d", nb, v, u);
        for (size_t w = 0; w < words; w++) before[v * words + w] |= before[u * words + w];
        before[v * words + u / 64] |= 1ull << (u % 64);
      }
    auto hb = [&](size_t u, size_t v) { return (before[v * words + u / 64] >> (u % 64) & 1) != 0; };
    for (size_t u = 0; u < n; u++)
      for (size_t v = u + 1; v < n; v++)
        for (const Access &x : bl[u].acc)
          for (const Access &y : bl[v].acc) {
            if (x.buf != y.buf || x.a != y.a || x.b != y.b || !(x.write || y.write)) continue;
            const bool first_u = seq(bl[u]) < seq(bl[v]);
            cr_assert(seq(bl[u]) != seq(bl[v]), "nb %d: blocks %zu and %zu of one phase touch buffer %d (%d, %d)", nb,
                      u, v, x.buf, x.a, x.b);
            cr_assert(first_u ? hb(u, v) : hb(v, u),
                      "nb %d: race on buffer %d (%d, %d) between block %zu (kind %d, round %d) and %zu (kind %d, "
                      "round %d)",
                      nb, x.buf, x.a, x.b, u, (int)bl[u].kind, bl[u].r, v, (int)bl[v].kind, bl[v].r);
          }
  }
}

Test(fw_flow, any_order_the_waits_allow_is_floyd_warshall) {
  const int64_t INF = (int64_t)1 << 40;
  std::mt19937_64 rng(20261128);
  for (int nb = 2; nb <= 9; nb++)
    for (int rep = 0; rep < 20; rep++) {
      /* a random digraph, weights 0..9 where present */
      std::vector<int64_t> d0(nb * nb);
      for (int i = 0; i < nb; i++)
        for (int j = 0; j < nb; j++) d0[i * nb + j] = i == j ? 0 : rng() % 3 ? (int64_t)(rng() % 10) : INF;
      std::vector<int64_t> ref = d0;
      for (int k = 0; k < nb; k++)
        for (int i = 0; i < nb; i++)
          for (int j = 0; j < nb; j++) ref[i * nb + j] = std::min(ref[i * nb + j], ref[i * nb + k] + ref[k * nb + j]);

      const std::vector<Block> bl = build(nb);
      std::vector<int64_t> D = d0, T[2], X[2];
      for (int p = 0; p < 2; p++) T[p].assign(nb, -7), X[p].assign(nb, -7); /* garbage */
      auto at = [&](int i, int j) -> int64_t & { return D[i * nb + j]; };
      auto run = [&](const Block &b) {
        const int r = b.r, i = b.i, j = b.j;
        switch (b.kind) {
        case S0: /* closure of D[0][0] (a no-op for one vertex and weights >= 0), its panels */
          for (int x = 1; x < nb; x++) at(0, x) = std::min(at(0, x), at(0, 0) + at(0, x));
          for (int x = 1; x < nb; x++) at(x, 0) = std::min(at(x, 0), at(x, 0) + at(0, 0));
          for (int x = 0; x < nb; x++) T[0][x] = at(x, 0), X[0][x] = at(x, 0);
          if (nb > 1) X[1][0] = at(0, 1);
          break;
        case LEAD:
          at(i, j) = std::min(at(i, j), T[r % 2][i] + at(r, j));
          if (j == r + 1 && i != r + 1) X[(r + 1) % 2][i] = at(i, j);
          break;
        case CLOSE:
          at(i, i) = std::min(at(i, i), at(i, i) + at(i, i));
          X[i % 2][i] = at(i, i);
          break;
        case PANEL:
          at(i, j) = std::min(at(i, j), X[(r + 1) % 2][i] + at(r + 1, j));
          if (j == r + 1) T[(r + 1) % 2][i] = at(i, j);
          if (i == r + 1 && j == r + 2) X[(r + 2) % 2][i] = at(i, j);
          break;
        case TILE:
          at(i, j) = std::min(at(i, j), T[r % 2][i] + at(r, j));
          break;
        }
      };
      /* a random order the waits allow: any ready block next */
      std::vector<int> left(bl.size());
      std::vector<std::vector<int>> after(bl.size());
      for (size_t v = 0; v < bl.size(); v++) {
        left[v] = (int)bl[v].waits.size();
        for (int u : bl[v].waits) after[u].push_back((int)v);
      }
      std::vector<int> ready;
      for (size_t v = 0; v < bl.size(); v++)
        if (!left[v]) ready.push_back((int)v);
      size_t done = 0;
      while (!ready.empty()) {
        const size_t k = rng() % ready.size();
        const int v = ready[k];
        ready[k] = ready.back(), ready.pop_back();
        run(bl[v]), done++;
        for (int w : after[v])
          if (!--left[w]) ready.push_back(w);
      }
      cr_assert_eq(done, bl.size(), "nb %d: %zu of %zu blocks ran", nb, done, bl.size());
      for (int e = 0; e < nb * nb; e++)
        cr_assert_eq(D[e], ref[e], "nb %d rep %d: D[%d][%d] = %lld, Floyd-Warshall %lld", nb, rep, e / nb, e % nb,
                     (long long)D[e], (long long)ref[e]);
    }
}
