/* The default CPU thread count: OpenMP's, capped by the CPUs the process
 * may run on now. libgomp sizes its default team from the affinity mask
 * once, when it loads; a process that narrows its mask afterwards (taskset
 * on a running pid, os.sched_setaffinity, a joblib or multiprocessing
 * worker pinned to a core) would otherwise run more threads than it has
 * CPUs, and every barrier of a kernel then waits for a thread that is not
 * running. */
#define _GNU_SOURCE
#include <omp.h>
#if defined(__linux__)
#include <sched.h>
#endif

#include "gsp_internal.h"

int gsp__default_threads(void) {
  int t = omp_get_max_threads();
#if defined(__linux__)
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    const int cpus = CPU_COUNT(&set);
    if (cpus > 0 && cpus < t) t = cpus;
  }
#endif
  return t > 0 ? t : 1;
}
