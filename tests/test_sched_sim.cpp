/*
 * The out-of-core and multi-GPU schedules of src/cuda/closure/gsp_cuda_sched.hpp
 * run on the CPU through a simulating executor, so that their index
 * arithmetic and their stream/event ordering are checked where there is no
 * GPU:
 *   - every queued operation (copy, kernel, broadcast) becomes a node whose
 *     edges are the CUDA ordering rules: its queue's previous operation,
 *     the events it waits for (the record as of the wait), and for a
 *     broadcast group every member queue (a communicator completes only
 *     when all its ranks have arrived);
 *   - any two operations with no path between them that touch overlapping
 *     memory, one of them writing, are a data race and fail the test;
 *   - every access must lie inside one allocation (device buffers, the host
 *     matrix), new device memory holds garbage, and inside one product
 *     launch no tile may read what another tile writes;
 *   - the nodes then run in a random order that respects the edges, and the
 *     result must equal a textbook Floyd-Warshall of the same input exactly
 *     (integer-valued weights).
 * The kernels are modelled by what they compute (gsp_cuda_fw.cuh): k_diag a
 * sequential in-place FW of one tile, k_gemm C ⊕= A ⊗ B per 128 x 128 tile
 * from values read before the tile is written.
 */
#include <criterion/criterion.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "gsp_cuda_sched.hpp"
#include "gsp_semiring.h"

using namespace gspsched;

/* The largest cases (n^3 ~ 7e9 in the model and again in the reference)
 * run in the optimised build only; sanitizer builds keep the rest. */
#if defined(__SANITIZE_ADDRESS__)
static const bool large = false;
#else
static const bool large = true;
#endif

/* ---- semiring operations on the host ---- */

template <gsp_semiring S, class T> struct Ops;
#define SIM_OPS_(SR, sr, ct, sfx)        \
  template <> struct Ops<SR, ct> {       \
    static ct add(ct a, ct b) {          \
      return gsp_##sr##_add_##sfx(a, b); \
    }                                    \
    static ct mul(ct a, ct b) {          \
      return gsp_##sr##_mul_##sfx(a, b); \
    }                                    \
    static ct zero() {                   \
      return gsp_##sr##_zero_##sfx();    \
    }                                    \
    static ct one() {                    \
      return gsp_##sr##_one_##sfx();     \
    }                                    \
  };
#define SIM_OPS_T_(SR, sr)       \
  SIM_OPS_(SR, sr, int32_t, i32) \
  SIM_OPS_(SR, sr, int64_t, i64) SIM_OPS_(SR, sr, float, f32) SIM_OPS_(SR, sr, double, f64)
SIM_OPS_T_(GSP_MIN_PLUS, min_plus)
SIM_OPS_T_(GSP_MAX_PLUS, max_plus)
SIM_OPS_T_(GSP_MAX_MIN, max_min)
SIM_OPS_T_(GSP_MIN_MAX, min_max)

/* ---- the simulating executor ---- */

struct Rect { /* rows x cols elements, leading dimension ld, at byte address base */
  uintptr_t base;
  int64_t ld, rows, cols;
  size_t es;
  bool write;
};

struct Node {
  std::string what;
  int epoch = 0; /* host syncs before it was queued */
  std::vector<int> deps;
  std::vector<Rect> mem;
  std::function<void()> run;
  bool done = false;
};

template <gsp_semiring S, class T_> struct Sim {
  typedef T_ T;
  typedef int Q;
  typedef int E;
  typedef Ops<S, T> O;

  struct Alloc {
    uintptr_t base;
    size_t bytes;
    int dev;
    std::vector<T> *store;
  };
  std::map<uintptr_t, Alloc> allocs;
  std::vector<std::vector<T> *> owned;
  std::vector<Node> nodes;
  std::vector<int> qdev, qlast;
  std::vector<std::vector<int>> qwait;
  std::vector<int> ev; /* node of the last record, -1 none */
  std::vector<int> evdev;
  std::vector<std::string> errors;
  int Pr = 1, Pc = 1; /* grid, for the broadcast communicators */
  uint64_t seed;
  int64_t launches = 0;
  int epoch = 0; /* a host sync runs everything queued: later nodes follow it */

  explicit Sim(uint64_t seed) : seed(seed) {}
  ~Sim() {
    for (auto *v : owned) delete v;
  }

  void fail(const std::string &m) {
    if (errors.size() < 20) errors.push_back(m);
  }

  void add_host(T *p, size_t elems) {
    allocs[(uintptr_t)p] = {(uintptr_t)p, elems * sizeof(T), -1, nullptr};
  }

  /* the allocation holding [a, a + bytes), or nullptr */
  const Alloc *find(uintptr_t a, size_t bytes) const {
    auto it = allocs.upper_bound(a);
    if (it == allocs.begin()) return nullptr;
    --it;
    const Alloc &al = it->second;
    return a >= al.base && a + bytes <= al.base + al.bytes ? &al : nullptr;
  }
  Rect rect(const T *p, int64_t ld, int64_t rows, int64_t cols, bool write, const char *what, int dev) {
    Rect r{(uintptr_t)p, ld, rows, cols, sizeof(T), write};
    if (rows > 0 && cols > 0) {
      const size_t span = ((size_t)(rows - 1) * ld + cols) * sizeof(T);
      const Alloc *al = find(r.base, span);
      if (!al) fail(std::string(what) + ": access outside every allocation");
      else if (al->dev != dev)
        fail(std::string(what) + (dev < 0       ? ": host access to device memory"
                                  : al->dev < 0 ? ": device access to host memory"
                                                : ": memory of another device"));
      if (cols > ld && rows > 1) fail(std::string(what) + ": cols > ld");
    }
    return r;
  }

  int node(int q, const std::string &what, std::vector<Rect> mem, std::function<void()> fn) {
    Node nd;
    nd.what = what;
    nd.epoch = epoch;
    if (qlast[q] >= 0) nd.deps.push_back(qlast[q]);
    for (int w : qwait[q]) nd.deps.push_back(w);
    qwait[q].clear();
    nd.mem = std::move(mem);
    nd.run = std::move(fn);
    nodes.push_back(std::move(nd));
    qlast[q] = (int)nodes.size() - 1;
    return qlast[q];
  }
  void check_q(int dev, int q, const char *what) {
    if (q < 0 || q >= (int)qdev.size()) fail(std::string(what) + ": bad queue");
    else if (qdev[q] != dev) fail(std::string(what) + ": queue of another device");
  }

  /* ---- executor interface ---- */
  gsp_info alloc(int dev, T **p, size_t elems) {
    auto *v = new std::vector<T>(elems ? elems : 1);
    /* garbage that corrupts any result it leaks into */
    std::mt19937_64 g(seed ^ (uint64_t)elems);
    for (auto &x : *v) x = (T)(int)(g() % 7) - (T)3;
    owned.push_back(v);
    *p = v->data();
    allocs[(uintptr_t)*p] = {(uintptr_t)*p, v->size() * sizeof(T), dev, v};
    return GSP_SUCCESS;
  }
  void release(int, T *p) {
    allocs.erase((uintptr_t)p); /* storage kept: late readers would be a bug */
  }
  gsp_info queue(int dev, Q *q) {
    *q = (int)qdev.size();
    qdev.push_back(dev);
    qlast.push_back(-1);
    qwait.emplace_back();
    return GSP_SUCCESS;
  }
  void queue_release(int, Q) {}
  gsp_info event(int dev, E *e) {
    *e = (int)ev.size();
    ev.push_back(-1);
    evdev.push_back(dev);
    return GSP_SUCCESS;
  }
  void event_release(int, E) {}
  gsp_info record(int dev, E e, Q q) {
    check_q(dev, q, "record");
    /* what the queue holds so far, including waits not yet attached */
    if (!qwait[q].empty()) node(q, "record-join", {}, [] {});
    ev[e] = qlast[q];
    return GSP_SUCCESS;
  }
  gsp_info wait(int dev, Q q, E e) {
    check_q(dev, q, "wait");
    if (ev[e] >= 0) qwait[q].push_back(ev[e]);
    return GSP_SUCCESS;
  }
  gsp_info sync(int dev, Q q) {
    check_q(dev, q, "sync");
    execute();
    return GSP_SUCCESS;
  }
  gsp_info fill(int dev, T *p, int64_t rows, int64_t cols, int64_t ld, Q q) {
    check_q(dev, q, "fill");
    node(q, "fill", {rect(p, ld, rows, cols, true, "fill", dev)}, [=] {
      for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < cols; j++) p[i * ld + j] = O::zero();
    });
    return GSP_SUCCESS;
  }
  /* copies: a host rect passes dev -1 */
  gsp_info h2d(int dev, T *d, int64_t dld, const T *s, int64_t sld, int64_t r, int64_t c, Q q) {
    check_q(dev, q, "h2d");
    node(q, "h2d", {rect(s, sld, r, c, false, "h2d src", -1), rect(d, dld, r, c, true, "h2d dst", dev)}, [=] {
      for (int64_t i = 0; i < r; i++)
        for (int64_t j = 0; j < c; j++) d[i * dld + j] = s[i * sld + j];
    });
    return GSP_SUCCESS;
  }
  gsp_info d2h(int dev, T *d, int64_t dld, const T *s, int64_t sld, int64_t r, int64_t c, Q q) {
    check_q(dev, q, "d2h");
    node(q, "d2h", {rect(s, sld, r, c, false, "d2h src", dev), rect(d, dld, r, c, true, "d2h dst", -1)}, [=] {
      for (int64_t i = 0; i < r; i++)
        for (int64_t j = 0; j < c; j++) d[i * dld + j] = s[i * sld + j];
    });
    return GSP_SUCCESS;
  }
  gsp_info d2d(int dev, T *d, int64_t dld, const T *s, int64_t sld, int64_t r, int64_t c, Q q) {
    check_q(dev, q, "d2d");
    node(q, "d2d", {rect(s, sld, r, c, false, "d2d src", dev), rect(d, dld, r, c, true, "d2d dst", dev)}, [=] {
      for (int64_t i = 0; i < r; i++)
        for (int64_t j = 0; j < c; j++) d[i * dld + j] = s[i * sld + j];
    });
    return GSP_SUCCESS;
  }
  gsp_info diag(int dev, T *D, int64_t ld, Q q) {
    check_q(dev, q, "diag");
    node(q, "diag", {rect(D, ld, TB, TB, true, "diag", dev)}, [=] {
      for (int64_t k = 0; k < TB; k++)
        for (int64_t i = 0; i < TB; i++)
          for (int64_t j = 0; j < TB; j++) D[i * ld + j] = O::add(D[i * ld + j], O::mul(D[i * ld + k], D[k * ld + j]));
    });
    return GSP_SUCCESS;
  }
  gsp_info tr(int dev, T *dst, int64_t ldd, const T *src, int64_t lds, int64_t rows, int64_t cols, Q q) {
    check_q(dev, q, "tr");
    if (rows % 32 || cols % 32) fail("tr: extents not multiples of 32");
    node(q, "tr", {rect(src, lds, rows, cols, false, "tr src", dev), rect(dst, ldd, cols, rows, true, "tr dst", dev)},
         [=] {
           for (int64_t i = 0; i < rows; i++)
             for (int64_t k = 0; k < cols; k++) dst[k * ldd + i] = src[i * lds + k];
         });
    return GSP_SUCCESS;
  }
  gsp_info gemm(int dev, T *C, int64_t ldc, const T *At, int64_t lda, const T *B, int64_t ldb, int64_t rows,
                int64_t cols, int64_t skip_r, int64_t skip_c, Q q) {
    check_q(dev, q, "gemm");
    if (rows % TB || cols % TB) fail("gemm: extents not multiples of the tile");
    if ((uintptr_t)C % 16 || (uintptr_t)At % 16 || (uintptr_t)B % 16 || lda % 4 || ldb % 4 || ldc % 4)
      fail("gemm: operands not 16-byte aligned");
    const int64_t id = ++launches;
    node(q, "gemm",
         {rect(C, ldc, rows, cols, true, "gemm C", dev), rect(At, lda, TB, rows, false, "gemm A", dev),
          rect(B, ldb, TB, cols, false, "gemm B", dev)},
         [=] { run_gemm(id, C, ldc, At, lda, B, ldb, rows, cols, skip_r, skip_c); });
    return GSP_SUCCESS;
  }
  gsp_info bcast(const Bcast<T> *ops, int nops) {
    /* communicator instances of this group */
    std::map<std::pair<int, int>, std::vector<const Bcast<T> *>> inst;
    for (int k = 0; k < nops; k++) {
      const Bcast<T> &o = ops[k];
      const int id = o.comm == COMM_WORLD ? 0 : o.comm == COMM_ROW ? o.gpu / Pc : o.gpu % Pc;
      inst[{o.comm, id}].push_back(&o);
    }
    std::map<int, std::vector<int>> joins; /* gpu -> instance nodes */
    std::map<int, std::vector<int>> tails; /* gpu -> its queue state */
    for (auto &kv : inst) {
      const int kind = kv.first.first;
      auto &members = kv.second;
      const size_t want = kind == COMM_WORLD ? (size_t)(Pr * Pc) : kind == COMM_ROW ? (size_t)Pc : (size_t)Pr;
      if (members.size() != want) fail("bcast: a communicator is missing ranks (NCCL would hang)");
      const Bcast<T> *root = nullptr;
      for (auto *o : members) {
        const int rank = kind == COMM_WORLD ? o->gpu : kind == COMM_ROW ? o->gpu % Pc : o->gpu / Pc;
        if (o->root != members[0]->root || o->elems != members[0]->elems) fail("bcast: ranks disagree");
        if (rank == o->root) root = o;
      }
      if (!root) {
        fail("bcast: no root rank");
        continue;
      }
      Node nd;
      nd.what = "bcast";
      nd.epoch = epoch;
      std::vector<Rect> mem;
      mem.push_back(rect(root->send, (int64_t)root->elems, 1, (int64_t)root->elems, false, "bcast send", root->gpu));
      for (auto *o : members) {
        const int q = o->gpu; /* queue k belongs to GPU k in the multi-GPU test */
        if (qlast[q] >= 0) nd.deps.push_back(qlast[q]);
        for (int w : qwait[q]) nd.deps.push_back(w);
        if (o->recv != root->send)
          mem.push_back(rect(o->recv, (int64_t)o->elems, 1, (int64_t)o->elems, true, "bcast recv", o->gpu));
      }
      nd.mem = mem;
      std::vector<std::pair<T *, size_t>> dst;
      for (auto *o : members) dst.push_back({o->recv, o->elems});
      const T *src = root->send;
      nd.run = [=] {
        std::vector<T> tmp(src, src + dst[0].second);
        for (auto &d : dst) std::copy(tmp.begin(), tmp.end(), d.first);
      };
      nodes.push_back(std::move(nd));
      for (auto *o : members) joins[o->gpu].push_back((int)nodes.size() - 1);
    }
    for (auto &kv : joins) {
      const int q = kv.first;
      qwait[q].clear();
      Node nd;
      nd.what = "bcast-join";
      nd.epoch = epoch;
      nd.deps = kv.second;
      nd.run = [] {};
      nodes.push_back(std::move(nd));
      qlast[q] = (int)nodes.size() - 1;
    }
    return GSP_SUCCESS;
  }

  /* ---- kernel model ---- */
  void run_gemm(int64_t id, T *C, int64_t ldc, const T *At, int64_t lda, const T *B, int64_t ldb, int64_t rows,
                int64_t cols, int64_t skip_r, int64_t skip_c) {
    (void)id;
    struct Tile {
      int64_t r0, c0;
      std::vector<T> v;
    };
    std::vector<Tile> tiles;
    for (int64_t r0 = 0; r0 < rows; r0 += TB)
      for (int64_t c0 = 0; c0 < cols; c0 += TB)
        if (r0 != skip_r && c0 != skip_c) tiles.push_back({r0, c0, {}});
    /* Intra-launch hazard (operands inside C's span): which tile writes each
     * element of C's span, then no tile may read another's. */
    const size_t span = (size_t)(rows - 1) * ldc + cols;
    auto inside = [&](const T *p) { return p >= C && p < C + span; };
    if (inside(B) || inside(B + (TB - 1) * ldb + cols - 1) || inside(At) || inside(At + (TB - 1) * lda + rows - 1) ||
        (B < C && B + (TB - 1) * ldb + cols > C) || (At < C && At + (TB - 1) * lda + rows > C)) {
      std::vector<int> mark(span, -1);
      for (size_t t = 0; t < tiles.size(); t++)
        for (int64_t i = 0; i < TB; i++)
          for (int64_t j = 0; j < TB; j++) mark[(size_t)(tiles[t].r0 + i) * ldc + tiles[t].c0 + j] = (int)t;
      auto probe = [&](const T *p, size_t t, const char *m) {
        if (!inside(p)) return;
        const int w = mark[(size_t)(p - C)];
        if (w >= 0 && w != (int)t) fail(m);
      };
      for (size_t t = 0; t < tiles.size(); t++)
        for (int64_t k = 0; k < TB; k++) {
          for (int64_t i = 0; i < TB; i++)
            probe(At + k * lda + tiles[t].r0 + i, t, "gemm: a tile reads A that another tile writes");
          for (int64_t j = 0; j < TB; j++)
            probe(B + k * ldb + tiles[t].c0 + j, t, "gemm: a tile reads B that another tile writes");
        }
    }
    for (auto &t : tiles) {
      t.v.resize(TB * TB);
      for (int64_t i = 0; i < TB; i++)
        for (int64_t j = 0; j < TB; j++) {
          T c = C[(t.r0 + i) * ldc + t.c0 + j];
          for (int64_t k = 0; k < TB; k++) c = O::add(c, O::mul(At[k * lda + t.r0 + i], B[k * ldb + t.c0 + j]));
          t.v[i * TB + j] = c;
        }
    }
    for (auto &t : tiles)
      for (int64_t i = 0; i < TB; i++)
        for (int64_t j = 0; j < TB; j++) C[(t.r0 + i) * ldc + t.c0 + j] = t.v[i * TB + j];
  }

  /* ---- analysis and execution ---- */
  static bool overlap(const Rect &a, const Rect &b) {
    if (a.rows <= 0 || a.cols <= 0 || b.rows <= 0 || b.cols <= 0) return false;
    const uintptr_t ae = a.base + ((size_t)(a.rows - 1) * a.ld + a.cols) * a.es;
    const uintptr_t be = b.base + ((size_t)(b.rows - 1) * b.ld + b.cols) * b.es;
    if (ae <= b.base || be <= a.base) return false;
    /* exact: rows of a against b's element set */
    for (int64_t r = 0; r < a.rows; r++) {
      const uintptr_t lo = a.base + (size_t)r * a.ld * a.es, hi = lo + (size_t)a.cols * a.es;
      if (hi <= b.base || lo >= be) continue;
      const int64_t rs = lo > b.base ? (int64_t)((lo - b.base) / (b.ld * b.es)) : 0;
      for (int64_t br = std::max<int64_t>(0, rs - 1); br < b.rows; br++) {
        const uintptr_t blo = b.base + (size_t)br * b.ld * b.es, bhi = blo + (size_t)b.cols * b.es;
        if (blo >= hi) break;
        if (lo < bhi && blo < hi) return true;
      }
    }
    return false;
  }

  size_t checked = 0;
  void analyse() {
    const size_t N = nodes.size();
    const size_t W = (N + 63) / 64;
    std::vector<uint64_t> anc(N * W, 0);
    for (size_t i = 0; i < N; i++)
      for (int d : nodes[i].deps) {
        if (d < 0 || (size_t)d >= i) {
          fail("node depends on a later node");
          continue;
        }
        for (size_t w = 0; w < W; w++) anc[i * W + w] |= anc[(size_t)d * W + w];
        anc[i * W + d / 64] |= 1ull << (d % 64);
      }
    for (size_t j = checked; j < N; j++)
      for (size_t i = 0; i < j; i++) {
        if (nodes[i].epoch != nodes[j].epoch) continue; /* a host sync lies between */
        if (anc[j * W + i / 64] >> (i % 64) & 1) continue;
        for (const Rect &a : nodes[i].mem)
          for (const Rect &b : nodes[j].mem)
            if ((a.write || b.write) && overlap(a, b)) {
              char m[256];
              snprintf(m, sizeof m, "race: node %zu (%s) and node %zu (%s) are unordered and overlap", i,
                       nodes[i].what.c_str(), j, nodes[j].what.c_str());
              fail(m);
            }
      }
    checked = N;
  }

  /* Run every queued node in a random order that respects the edges. */
  void execute() {
    if (checked < nodes.size()) analyse();
    std::mt19937_64 g(seed + (uint64_t)epoch * 7919);
    const size_t N = nodes.size();
    std::vector<int> indeg(N, 0);
    std::vector<std::vector<int>> succ(N);
    std::vector<int> ready;
    for (size_t i = 0; i < N; i++) {
      if (nodes[i].done) continue;
      for (int d : nodes[i].deps)
        if (!nodes[d].done) {
          indeg[i]++;
          succ[d].push_back((int)i);
        }
      if (indeg[i] == 0) ready.push_back((int)i);
    }
    while (!ready.empty()) {
      const size_t k = g() % ready.size();
      const int i = ready[k];
      ready[k] = ready.back();
      ready.pop_back();
      nodes[i].run();
      nodes[i].done = true;
      for (int s2 : succ[i])
        if (--indeg[s2] == 0) ready.push_back(s2);
    }
    for (auto &nd : nodes)
      if (!nd.done) fail("a node never became ready");
    epoch++;
  }
};

/* ---- inputs and the reference ---- */

template <gsp_semiring S, class T> std::vector<T> make_input(int64_t n, uint64_t seed, double density) {
  typedef Ops<S, T> O;
  std::mt19937_64 g(seed);
  std::vector<T> H((size_t)(n * n), O::zero());
  auto pot = [](int64_t v) { return (int64_t)((uint64_t)v * 0x9E3779B97F4A7C15ULL >> 40) % 21; };
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < n; j++) {
      if ((double)(g() % 1000000) / 1e6 >= density) continue;
      const int64_t base = (int64_t)(g() % 10);
      int64_t w;
      if (S == GSP_MIN_PLUS) w = base + pot(i) - pot(j); /* negative weights, no negative cycle */
      else if (S == GSP_MAX_PLUS) w = -base + pot(i) - pot(j);
      else w = (int64_t)(g() % 19) - 9;
      H[(size_t)(i * n + j)] = (T)w;
    }
  for (int64_t i = 0; i < n; i++) H[(size_t)(i * n + i)] = O::add(H[(size_t)(i * n + i)], O::one()); /* M* */
  return H;
}

template <gsp_semiring S, class T> void reference(std::vector<T> &D, int64_t n) {
  typedef Ops<S, T> O;
  for (int64_t k = 0; k < n; k++)
    for (int64_t i = 0; i < n; i++) {
      const T a = D[(size_t)(i * n + k)];
      for (int64_t j = 0; j < n; j++)
        D[(size_t)(i * n + j)] = O::add(D[(size_t)(i * n + j)], O::mul(a, D[(size_t)(k * n + j)]));
    }
}

template <class T> void expect_same(const std::vector<T> &got, const std::vector<T> &want, const char *ctx) {
  size_t bad = 0, first = 0;
  for (size_t k = 0; k < got.size(); k++)
    if (!(got[k] == want[k])) {
      if (!bad) first = k;
      bad++;
    }
  cr_expect_eq(bad, 0u, "%s: %zu entries differ (first at %zu: %g vs %g)", ctx, bad, first,
               bad ? (double)got[first] : 0.0, bad ? (double)want[first] : 0.0);
}

template <class X> void expect_clean(X &x, const char *ctx) {
  for (auto &e : x.errors) cr_expect(false, "%s: %s", ctx, e.c_str());
}

template <gsp_semiring S, class T> void ooc_case(int64_t n, int64_t B, int slots, uint64_t seed) {
  char ctx[128];
  snprintf(ctx, sizeof ctx, "ooc n=%lld B=%lld slots=%d sr=%d size=%zu seed=%llu", (long long)n, (long long)B, slots,
           (int)S, sizeof(T), (unsigned long long)seed);
  const int64_t np = (n + TB - 1) / TB * TB;
  std::vector<T> H = make_input<S, T>(n, seed, n < 200 ? 0.2 : 0.03), want = H;
  reference<S, T>(want, n);
  Sim<S, T> x(seed);
  x.add_host(H.data(), H.size());
  OocShape sh{n, np, B, (np + B - 1) / B, slots};
  OocStats st;
  gsp_info info = ooc_run(x, H.data(), sh, &st);
  cr_assert_eq(info, GSP_SUCCESS, "%s: %s", ctx, gsp_last_error());
  expect_clean(x, ctx);
  expect_same(H, want, ctx);
  /* every page is loaded and stored at least once; steady state reuses */
  cr_expect_geq(st.loads, sh.pages, "%s", ctx);
  cr_expect_geq(st.stores, sh.pages, "%s", ctx);
  if (slots >= 3 && sh.pages > 3) cr_expect_gt(st.pivot_hits, 0, "%s: the next pivot was never kept", ctx);
}

Test(sched_sim, ooc_page_counts_and_slots) {
  uint64_t seed = 1;
  /* 4, 9, 16 and more pages; 2..5 slots; n not a multiple of the tile */
  ooc_case<GSP_MIN_PLUS, int32_t>(1000, 256, 2, seed++);
  ooc_case<GSP_MIN_PLUS, int32_t>(1000, 256, 3, seed++);
  ooc_case<GSP_MIN_PLUS, float>(1100, 128, 4, seed++); /* 9 pages */
  ooc_case<GSP_MIN_PLUS, float>(1100, 128, 5, seed++);
  if (large) ooc_case<GSP_MIN_PLUS, int32_t>(1930, 128, 3, seed++); /* 16 pages */
  ooc_case<GSP_MIN_PLUS, double>(1100, 128, 5, seed++);
}

Test(sched_sim, ooc_uneven_last_page) {
  uint64_t seed = 100;
  ooc_case<GSP_MIN_PLUS, float>(700, 384, 3, seed++); /* np 768: pages 384 + 384 */
  ooc_case<GSP_MIN_PLUS, float>(900, 384, 3, seed++); /* np 1024: 384, 384, 256 */
  ooc_case<GSP_MIN_PLUS, int32_t>(900, 384, 2, seed++);
  ooc_case<GSP_MIN_PLUS, int32_t>(900, 256, 5, seed++);
  ooc_case<GSP_MIN_PLUS, int32_t>(129, 128, 2, seed++); /* 2 pages, 1 valid row in the last */
  ooc_case<GSP_MIN_PLUS, int32_t>(100, 128, 2, seed++); /* one page */
}

Test(sched_sim, ooc_semirings) {
  uint64_t seed = 200;
  ooc_case<GSP_MAX_PLUS, int64_t>(600, 128, 3, seed++);
  ooc_case<GSP_MAX_MIN, float>(600, 256, 4, seed++);
  ooc_case<GSP_MIN_MAX, double>(600, 128, 5, seed++);
  ooc_case<GSP_MIN_MAX, int32_t>(300, 128, 2, seed++);
}

Test(sched_sim, ooc_many_seeds) {
  /* the random execution order differs per seed */
  for (uint64_t seed = 300; seed < 306; seed++) ooc_case<GSP_MIN_PLUS, int32_t>(650, 128, 2 + (int)(seed % 4), seed);
}

template <gsp_semiring S, class T> void mgpu_case(int64_t n, int G, uint64_t seed) {
  char ctx[128];
  snprintf(ctx, sizeof ctx, "mgpu n=%lld G=%d sr=%d size=%zu seed=%llu", (long long)n, G, (int)S, sizeof(T),
           (unsigned long long)seed);
  const int64_t np = (n + TB - 1) / TB * TB;
  Grid g;
  cr_assert(make_grid(&g, G, n, np), "%s: grid", ctx);
  std::vector<T> H = make_input<S, T>(n, seed, n < 200 ? 0.2 : 0.03), want = H;
  reference<S, T>(want, n);
  Sim<S, T> x(seed);
  x.Pr = g.Pr;
  x.Pc = g.Pc;
  x.add_host(H.data(), H.size());
  std::vector<MgpuBufs<T>> b((size_t)G);
  std::vector<int> q((size_t)G);
  for (int d = 0; d < G; d++) {
    const int r = d / g.Pc, c = d % g.Pc;
    x.queue(d, &q[d]); /* queue d is GPU d's */
    x.alloc(d, &b[d].D, (size_t)(g.rows(r) * g.cols(c)));
    x.alloc(d, &b[d].DG, (size_t)(TB * TB));
    x.alloc(d, &b[d].DGT, (size_t)(TB * TB));
    x.alloc(d, &b[d].W, (size_t)(TB * g.rows(r)));
    x.alloc(d, &b[d].RP, (size_t)(TB * g.cols(c)));
    x.fill(d, b[d].D, g.rows(r), g.cols(c), g.cols(c), q[d]);
    const int64_t vr = std::min(g.rb[r + 1], n) - g.rb[r], vc = std::min(g.cb[c + 1], n) - g.cb[c];
    if (vr > 0 && vc > 0) x.h2d(d, b[d].D, g.cols(c), H.data() + g.rb[r] * n + g.cb[c], n, vr, vc, q[d]);
  }
  gsp_info info = mgpu_run(x, g, b, q);
  cr_assert_eq(info, GSP_SUCCESS, "%s: %s", ctx, gsp_last_error());
  for (int d = 0; d < G; d++) {
    const int r = d / g.Pc, c = d % g.Pc;
    const int64_t vr = std::min(g.rb[r + 1], n) - g.rb[r], vc = std::min(g.cb[c + 1], n) - g.cb[c];
    if (vr > 0 && vc > 0) x.d2h(d, H.data() + g.rb[r] * n + g.cb[c], n, b[d].D, g.cols(c), vr, vc, q[d]);
  }
  for (int d = 0; d < G; d++) x.sync(d, q[d]);
  expect_clean(x, ctx);
  expect_same(H, want, ctx);
}

Test(sched_sim, mgpu_grids) {
  uint64_t seed = 400;
  mgpu_case<GSP_MIN_PLUS, int32_t>(300, 1, seed++);
  mgpu_case<GSP_MIN_PLUS, int32_t>(300, 2, seed++);               /* 1 x 2 */
  mgpu_case<GSP_MIN_PLUS, float>(500, 3, seed++);                 /* 1 x 3 */
  mgpu_case<GSP_MIN_PLUS, float>(500, 4, seed++);                 /* 2 x 2 */
  mgpu_case<GSP_MIN_PLUS, int64_t>(700, 6, seed++);               /* 2 x 3 */
  mgpu_case<GSP_MIN_PLUS, double>(large ? 1000 : 600, 8, seed++); /* 2 x 4 */
}

Test(sched_sim, mgpu_semirings_uneven) {
  uint64_t seed = 500;
  mgpu_case<GSP_MAX_PLUS, int32_t>(389, 4, seed++); /* np 512: 2 tile rows of 2 */
  mgpu_case<GSP_MAX_MIN, float>(257, 2, seed++);    /* np 384: tiles 1 + 2 */
  mgpu_case<GSP_MIN_MAX, int64_t>(640, 4, seed++);
  mgpu_case<GSP_MIN_PLUS, int32_t>(129, 2, seed++); /* the last tile holds one vertex */
}

Test(sched_sim, plan) {
  /* the planner's choices for a few budgets (bytes of 4-byte elements) */
  gspsched::OocShape s{1000, 1024, 256, 4, 2};
  cr_expect_eq(ooc_rows(s, 3), 256);
  cr_expect_eq(ooc_valid(s, 3), 1000 - 768);
}
