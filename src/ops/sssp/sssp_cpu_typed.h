/*
 * Typed atomics for the CPU kernels, stamped per type by sssp_cpu_stamp.h
 * (no include guard on purpose). GCC's generic __atomic builtins work on
 * float and double through their bit patterns, which is all a CAS loop
 * needs: the comparison itself is done on the values.
 */

/* Atomic d = min(d, v); true when this call lowered d. */
static inline bool SSSP_FN(amin)(SSSP_T *a, SSSP_T v) {
  SSSP_T cur;
  __atomic_load(a, &cur, __ATOMIC_RELAXED);
  while (v < cur)
    if (__atomic_compare_exchange(a, &cur, &v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return true;
  return false;
}

/* A distance that another thread may be lowering. */
static inline SSSP_T SSSP_FN(aload)(const SSSP_T *a) {
  SSSP_T cur;
  __atomic_load((SSSP_T *)a, &cur, __ATOMIC_RELAXED);
  return cur;
}
