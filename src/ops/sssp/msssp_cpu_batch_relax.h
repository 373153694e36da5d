/*
 * The relaxation loop of the batched kernel, included once per instruction
 * set by msssp_cpu_batch_body.h with MB_RELAX (the function's name) and
 * MB_ATTR (its target attribute), MB_V and MB_M (a GCC vector extension
 * type of the instruction set's register width, and its mask type) defined,
 * and MB_ANY(mask) (whether a lane is set) where the instruction set tests
 * it in one step; undefines them. A vertex's lanes are VPV vectors.
 *
 * D: n vertices x MB_LANES distances, unreached = over, the least value
 * above the limit, so that s < D[v] alone keeps s within it; queue (a ring
 * of n + 1 slots, each
 * vertex in it at most once, inq[v] marks it) holds the qn seeded vertices.
 * Stops once more than budget arcs were scanned (the rows are then
 * unfinished); returns the arcs scanned.
 * Integer sums saturate as SSSP_ADD does: a + min(w, INF - a) never
 * overflows for a, w >= 0, and is above the limit exactly when SSSP_ADD's
 * is.
 */
static MB_ATTR int64_t MB_RELAX(SSSP_T *restrict D, int32_t *restrict queue, uint8_t *restrict inq,
                                const gsp__sssp_graph *g, int64_t qn, int64_t budget) {
  typedef MB_V V;
  typedef MB_M M;
  enum { VPV = MB_BYTES / sizeof(V) }; /* vectors per vertex */
  const int64_t ring = g->n + 1;
  const gsp_index *p = g->p, *jx = g->j;
  const SSSP_T *w = (const SSSP_T *)g->w;
  const bool integer = (SSSP_T)0.5 == 0;
  /* -0 (0 for integers) + x is x exactly, so splats cost no addition */
  const V nz = -(V){0}, inf = nz + SSSP_INF;
  int64_t head = 0, tail = qn, work = 0;
  while (qn > 0 && work <= budget) {
    const int32_t u = queue[head];
    head = head + 1 == ring ? 0 : head + 1;
    qn--;
    inq[u] = 0;
    V du[VPV], room[VPV];
    for (int h = 0; h < VPV; h++) {
      du[h] = ((const V *)(D + (size_t)u * MB_LANES))[h];
      room[h] = inf - du[h]; /* integers only: INF - a >= 0 */
    }
    /* prefetch the next vertex's lanes and the heads of its first arcs
     * while u's arcs run: the lanes of a large batch live in L3, and this
     * took a fifth off the time (random n = 20000, m = 100000, fp64) */
    if (qn > 0) {
      const int32_t x = queue[head];
      const gsp_index a = p[x], b = p[x + 1] < a + 8 ? p[x + 1] : a + 8;
      for (int h = 0; h < VPV; h++) __builtin_prefetch((const V *)(D + (size_t)x * MB_LANES) + h);
      for (gsp_index e = a; e < b; e++)
        for (int h = 0; h < VPV; h++) __builtin_prefetch((const V *)(D + (size_t)jx[e] * MB_LANES) + h, 1);
    }
    const gsp_index e1 = p[u + 1];
    work += (int64_t)(e1 - p[u]);
    for (gsp_index e = p[u]; e < e1; e++) {
      const int32_t v = (int32_t)jx[e];
      const V wv = nz + w[e];
      V *dv = (V *)(D + (size_t)v * MB_LANES);
      M changed;
      for (int h = 0; h < VPV; h++) {
        V s;
        if (integer) {
          const M small = wv < room[h];
          s = du[h] + (V)(((M)wv & small) | ((M)room[h] & ~small));
        } else {
          s = du[h] + wv;
        }
        const V old = dv[h];
        const M better = s < old;
        dv[h] = (V)(((M)s & better) | ((M)old & ~better));
        changed = h == 0 ? better : changed | better;
      }
#ifdef MB_ANY
      const bool any = MB_ANY(changed);
#else
      __typeof__(changed[0]) any = 0;
      for (int i = 0; i < (int)(sizeof(M) / sizeof any); i++) any |= changed[i];
#endif
      /* queued without a branch (which would mispredict half the time):
       * the slot at tail is always free, as the ring holds n + 1 */
      const int add = (any != 0) & !inq[v];
      inq[v] |= (uint8_t)add;
      queue[tail] = v;
      tail += add;
      tail = tail == ring ? 0 : tail;
      qn += add;
    }
  }
  return work;
}

#undef MB_RELAX
#undef MB_ATTR
#undef MB_V
#undef MB_M
#undef MB_ANY
