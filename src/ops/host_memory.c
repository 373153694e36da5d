/* The memory a process may still take, from the system's count of available
 * memory and the resource limits (see host_memory.h). Linux's /proc files
 * where present; elsewhere only the limits count. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "gsp_internal.h"
#include "host_memory.h"

/* MemAvailable of /proc/meminfo in bytes, or SIZE_MAX. */
static size_t system_available(void) {
  FILE *f = fopen("/proc/meminfo", "r");
  if (!f) return SIZE_MAX;
  char line[256];
  size_t out = SIZE_MAX;
  unsigned long long kb;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) {
      out = kb > SIZE_MAX / 1024 ? SIZE_MAX : (size_t)kb * 1024;
      break;
    }
  fclose(f);
  return out;
}

/* Virtual and data sizes of this process in bytes (0 when unknown). */
static void mapped(size_t *vm, size_t *data) {
  *vm = *data = 0;
  FILE *f = fopen("/proc/self/statm", "r");
  if (!f) return;
  unsigned long long size, res, shared, text, lib, dat;
  if (fscanf(f, "%llu %llu %llu %llu %llu %llu", &size, &res, &shared, &text, &lib, &dat) == 6) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    *vm = (size_t)size * page;
    *data = (size_t)dat * page;
  }
  fclose(f);
}

static size_t headroom(int resource, size_t used) {
  struct rlimit rl;
  if (getrlimit(resource, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) return SIZE_MAX;
  size_t lim = rl.rlim_cur > SIZE_MAX ? SIZE_MAX : (size_t)rl.rlim_cur;
  return lim > used ? lim - used : 0;
}

size_t gsp__host_memory_available(void) {
  size_t vm, data;
  mapped(&vm, &data);
  size_t best = system_available(), h = headroom(RLIMIT_AS, vm);
  if (h < best) best = h;
  h = headroom(RLIMIT_DATA, data);
  if (h < best) best = h;
  return best;
}

gsp_info gsp_host_memory_available(size_t *bytes) {
  if (!bytes) return GSP_ERROR(GSP_NULL_POINTER, "gsp_host_memory_available: bytes is NULL");
  *bytes = gsp__host_memory_available();
  return GSP_SUCCESS;
}
