/*
 * The persistent closure's queue (src/cuda/closure/gsp_cuda_fw_queue.h)
 * checked on the CPU, where there is no GPU:
 *   - the queue holds every item of every round once;
 *   - each wait names counters whose signalling items are known (a block's
 *     rounds in order; every item of a per-round counter), and every one of
 *     them comes earlier in the queue: blocks taking items in queue order
 *     never wait for an item nobody has taken (no deadlock);
 *   - any two items that touch the same block of D, X or T, one writing,
 *     are ordered by the waits (no data race);
 *   - the items run in a random order the waits allow, each computing what
 *     the kernel computes from the operands the kernel reads, and the result
 *     equals a textbook Floyd-Warshall exactly (integer weights).
 */
#include <criterion/criterion.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include "gsp_cuda_fw_queue.h"

using namespace fwq;

namespace {

enum Buf { BUF_D, BUF_X, BUF_T };
struct Access {
  int buf, a, b; /* D: block (a, b); X, T: buffer a (round % 2), rows of block b */
  bool write;
};

/* What item t reads and writes: the operands of k_fw_queue. */
std::vector<Access> accesses(Item t) {
  const int r = t.r, p = r % 2;
  std::vector<Access> acc;
  switch (t.kind) {
  case DIAG:
    acc.push_back({BUF_D, r, r, true});
    acc.push_back({BUF_X, p, r, true});
    break;
  case ROW:
    acc.push_back({BUF_X, p, r, false});
    acc.push_back({BUF_D, r, t.j, true});
    break;
  case COL:
    acc.push_back({BUF_X, p, t.i, false});
    acc.push_back({BUF_D, r, r, false});
    acc.push_back({BUF_D, t.i, r, true});
    acc.push_back({BUF_T, p, t.i, true});
    break;
  default:
    acc.push_back({BUF_T, p, t.i, false});
    acc.push_back({BUF_D, r, t.j, false});
    acc.push_back({BUF_D, t.i, t.j, true});
  }
  if (t.kind != DIAG && writes_x(t) >= 0) acc.push_back({BUF_X, writes_x(t) % 2, t.i, true});
  return acc;
}

struct Graph {
  int nb;
  std::vector<Item> items;
  std::vector<std::vector<int>> preds; /* by queue position */
};

/* The queue and the order its waits impose. */
Graph graph_of(int nb, int lag) {
  Graph g{nb, {}, {}};
  std::vector<uint32_t> q((size_t)nb * nb * nb + 1, 0);
  const int64_t n = build(nb, lag, q.data());
  cr_assert_eq(n, (int64_t)nb * nb * nb, "nb %d: %lld items", nb, (long long)n);
  std::map<uint32_t, int> seen;
  for (int64_t k = 0; k < n; k++) {
    const Item t = decode(q[k]);
    cr_assert(t.r >= 0 && t.r < nb && t.i >= 0 && t.i < nb && t.j >= 0 && t.j < nb);
    const bool ok = t.kind == DIAG  ? t.i == t.r && t.j == t.r
                    : t.kind == ROW ? t.i == t.r && t.j != t.r
                    : t.kind == COL ? t.j == t.r && t.i != t.r
                                    : t.i != t.r && t.j != t.r;
    cr_assert(ok, "item %lld: kind %d round %d block (%d, %d)", (long long)k, t.kind, t.r, t.i, t.j);
    cr_assert(seen.emplace(q[k], (int)k).second, "item %lld twice", (long long)k);
    g.items.push_back(t);
  }
  /* who signals each counter, in queue order */
  std::vector<std::vector<int>> signallers((size_t)counters(nb));
  for (int k = 0; k < (int)n; k++) {
    int s[MAX_SIGNALS];
    const int ns = signals(g.items[k], nb, s);
    for (int e = 0; e < ns; e++) signallers[s[e]].push_back(k);
  }
  g.preds.resize(n);
  for (int k = 0; k < (int)n; k++) {
    Wait w[MAX_WAITS];
    const int nw = waits(g.items[k], nb, w);
    for (int e = 0; e < nw; e++) {
      const auto &sig = signallers[w[e].c];
      if (w[e].target == 0) continue;
      std::vector<int> need;
      if (w[e].c < nb * nb) {
        /* a block's counter: its rounds run one after another (each waits
         * for the one before), so >= target means rounds 0 .. target - 1 */
        for (int x : sig)
          if (g.items[x].r == w[e].target - 1) need.push_back(x);
        cr_assert_eq(need.size(), 1u, "item %d: no single round %d of block counter %d", k, w[e].target - 1, w[e].c);
      } else {
        cr_assert_eq((int)sig.size(), w[e].target, "item %d: counter %d has %zu signallers, waits for %d", k, w[e].c,
                     sig.size(), w[e].target);
        need = sig;
      }
      for (int x : need) {
        cr_assert(x < k, "item %d (round %d kind %d) waits for a later item %d", k, g.items[k].r, g.items[k].kind, x);
        g.preds[k].push_back(x);
      }
    }
  }
  return g;
}

/* Every pair of conflicting accesses ordered by the waits. */
void check_races(const Graph &g) {
  const int n = (int)g.items.size(), words = (n + 63) / 64;
  std::vector<uint64_t> reach((size_t)n * words, 0); /* reach[k]: items ordered before k */
  for (int k = 0; k < n; k++)
    for (int p : g.preds[k]) {
      for (int w = 0; w < words; w++) reach[(size_t)k * words + w] |= reach[(size_t)p * words + w];
      reach[(size_t)k * words + p / 64] |= 1ull << (p % 64);
    }
  auto before = [&](int a, int b) { return (reach[(size_t)b * words + a / 64] >> (a % 64)) & 1; };
  std::map<std::tuple<int, int, int>, std::vector<std::pair<int, bool>>> at;
  for (int k = 0; k < n; k++)
    for (const Access &a : accesses(g.items[k])) at[{a.buf, a.a, a.b}].push_back({k, a.write});
  for (const auto &loc : at) {
    const auto &v = loc.second;
    for (size_t x = 0; x < v.size(); x++)
      for (size_t y = x + 1; y < v.size(); y++) {
        if (v[x].first == v[y].first || !(v[x].second || v[y].second)) continue;
        const int a = v[x].first, b = v[y].first;
        cr_assert(before(a, b) || before(b, a),
                  "nb %d: items %d (kind %d round %d (%d, %d)) and %d (kind %d round %d (%d, %d)) race on %s %d %d",
                  g.nb, a, g.items[a].kind, g.items[a].r, g.items[a].i, g.items[a].j, b, g.items[b].kind, g.items[b].r,
                  g.items[b].i, g.items[b].j,
                  std::get<0>(loc.first) == BUF_D   ? "D"
                  : std::get<0>(loc.first) == BUF_X ? "X"
                                                    : "T",
                  std::get<1>(loc.first), std::get<2>(loc.first));
      }
  }
}

constexpr int64_t INF = INT64_MAX / 4;

/* The items' arithmetic on blocks of B vertices, in a random order the
 * waits allow, against textbook Floyd-Warshall. */
void check_result(const Graph &g, int B, uint64_t seed) {
  const int nb = g.nb, np = nb * B;
  std::mt19937_64 rng(seed);
  std::vector<int64_t> D((size_t)np * np), ref;
  for (auto &x : D) x = rng() % 3 == 0 ? (int64_t)(rng() % 50) : INF;
  for (int i = 0; i < np; i++) D[(size_t)i * np + i] = std::min<int64_t>(D[(size_t)i * np + i], 0);
  ref = D;
  for (int k = 0; k < np; k++)
    for (int i = 0; i < np; i++)
      for (int j = 0; j < np; j++)
        ref[(size_t)i * np + j] = std::min(ref[(size_t)i * np + j], ref[(size_t)i * np + k] + ref[(size_t)k * np + j]);
  /* workspaces: W[k * np + row] = D[row][block column k] */
  std::vector<int64_t> X[2], T[2];
  for (int p = 0; p < 2; p++) X[p].assign((size_t)B * np, -7), T[p].assign((size_t)B * np, -7);
  for (int k = 0; k < B; k++)
    for (int i = 0; i < np; i++) X[0][(size_t)k * np + i] = D[(size_t)i * np + k]; /* the pre-pass */
  auto product = [&](int bi, int bj, const std::vector<int64_t> &At, int r, std::vector<int64_t> *Xt) {
    std::vector<int64_t> C((size_t)B * B);
    for (int ii = 0; ii < B; ii++)
      for (int jj = 0; jj < B; jj++) {
        int64_t c = D[(size_t)(bi * B + ii) * np + bj * B + jj];
        for (int k = 0; k < B; k++)
          c = std::min(c, At[(size_t)k * np + bi * B + ii] + D[(size_t)(r * B + k) * np + bj * B + jj]);
        C[(size_t)ii * B + jj] = c;
      }
    for (int ii = 0; ii < B; ii++)
      for (int jj = 0; jj < B; jj++) {
        D[(size_t)(bi * B + ii) * np + bj * B + jj] = C[(size_t)ii * B + jj];
        if (Xt) (*Xt)[(size_t)jj * np + bi * B + ii] = C[(size_t)ii * B + jj];
      }
  };
  /* a random order the waits allow */
  const int n = (int)g.items.size();
  std::vector<int> missing(n), ready;
  std::vector<std::vector<int>> succ(n);
  for (int k = 0; k < n; k++) {
    std::vector<int> p = g.preds[k];
    std::sort(p.begin(), p.end());
    p.erase(std::unique(p.begin(), p.end()), p.end());
    missing[k] = (int)p.size();
    for (int x : p) succ[x].push_back(k);
    if (!missing[k]) ready.push_back(k);
  }
  int done = 0;
  while (!ready.empty()) {
    const size_t pick = rng() % ready.size();
    const int k = ready[pick];
    ready[pick] = ready.back(), ready.pop_back();
    const Item t = g.items[k];
    const int r = t.r, p = r % 2, x = writes_x(t);
    std::vector<int64_t> *xt = x >= 0 ? &X[x % 2] : nullptr;
    if (t.kind == DIAG) {
      for (int k2 = r * B; k2 < r * B + B; k2++)
        for (int i = r * B; i < r * B + B; i++)
          for (int j = r * B; j < r * B + B; j++)
            D[(size_t)i * np + j] = std::min(D[(size_t)i * np + j], D[(size_t)i * np + k2] + D[(size_t)k2 * np + j]);
      for (int kk = 0; kk < B; kk++)
        for (int ii = 0; ii < B; ii++) X[p][(size_t)kk * np + r * B + ii] = D[(size_t)(r * B + ii) * np + r * B + kk];
    } else if (t.kind == ROW) {
      product(r, t.j, X[p], r, xt);
    } else if (t.kind == COL) {
      product(t.i, r, X[p], r, &T[p]);
    } else {
      product(t.i, t.j, T[p], r, xt);
    }
    done++;
    for (int s : succ[k])
      if (--missing[s] == 0) ready.push_back(s);
  }
  cr_assert_eq(done, n, "the waits leave %d items that can never run", n - done);
  for (size_t e = 0; e < D.size(); e++)
    cr_assert_eq(D[e], ref[e], "nb %d B %d seed %llu: D[%zu][%zu] = %lld, Floyd-Warshall %lld", nb, B,
                 (unsigned long long)seed, e / np, e % np, (long long)D[e], (long long)ref[e]);
}

} /* namespace */

Test(fw_queue, waits_order_every_conflict) {
  for (int nb = 1; nb <= 9; nb++)
    for (int lag : {0, 1, 3, 1000}) check_races(graph_of(nb, lag));
}

Test(fw_queue, random_orders_give_floyd_warshall) {
  for (int nb = 1; nb <= 8; nb++)
    for (int lag : {0, 2, 1000}) {
      const Graph g = graph_of(nb, lag);
      for (uint64_t seed = 1; seed <= 4; seed++) check_result(g, 3, seed * 100 + nb);
    }
}
