/* Allocation wrappers (one place to count and fail allocations) and the
 * registry of live handles. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "gsp_internal.h"
#include "gsp_cuda_plugin.h" /* the test entry */

bool gsp__mul_size(size_t *out, size_t a, size_t b) {
  if (a != 0 && b > SIZE_MAX / a) return false;
  *out = a * b;
  return true;
}

/* Failure injection for tests: when armed, the allocation that brings the
 * countdown to zero and every later one fail. -1 = disarmed. */
static _Atomic long long fail_countdown = -1;

void gsp__debug_fail_after(long long k) {
  atomic_store(&fail_countdown, k);
}

static bool injected_failure(void) {
  long long c = atomic_load_explicit(&fail_countdown, memory_order_relaxed);
  while (c > 0)
    if (atomic_compare_exchange_weak(&fail_countdown, &c, c - 1)) return false;
  return c == 0;
}

/* Device-fault injection and the forced SpGEMM algorithm live in the CUDA
 * plugin, beside the code that reads them, set through its test entry
 * (gsp__cuda_plugin_testing): no production call asks the core for them.
 * Without a plugin no CUDA call is made, so an armed fault stays armed. */
static _Atomic long long device_unfired = -1;

void gsp__debug_device_fault_after(long long k, gsp_fault kind) {
  const gsp__cuda_testing *t = gsp__cuda_plugin_testing();
  if (t) {
    t->device_fault_after(k, kind);
    return;
  }
  (void)kind;
  atomic_store(&device_unfired, k);
}

long long gsp__debug_device_fault_disarm(void) {
  const gsp__cuda_testing *t = gsp__cuda_plugin_testing();
  if (t) return t->device_fault_disarm();
  return atomic_exchange(&device_unfired, -1);
}

void gsp__debug_sssp_stage_bytes(size_t bytes) {
  const gsp__cuda_testing *t = gsp__cuda_plugin_testing();
  if (t) t->sssp_stage_bytes(bytes);
}

void gsp__debug_spgemm_alg(int alg) {
  const gsp__cuda_testing *t = gsp__cuda_plugin_testing();
  if (t) t->spgemm_alg(alg);
}

void *gsp__malloc(size_t size) {
  if (injected_failure()) return NULL;
  return malloc(size ? size : 1);
}

void *gsp__malloc_array(size_t count, size_t size) {
  size_t total;
  if (!gsp__mul_size(&total, count, size)) return NULL;
  return gsp__malloc(total);
}

void *gsp__calloc(size_t count, size_t size) {
  size_t total;
  if (!gsp__mul_size(&total, count, size) || injected_failure()) return NULL;
  return calloc(total ? count : 1, total ? size : 1);
}

void *gsp__realloc_array(void *p, size_t count, size_t size) {
  size_t total;
  if (!gsp__mul_size(&total, count, size) || injected_failure()) return NULL;
  return realloc(p, total ? total : 1);
}

void gsp__free(void *p) {
  free(p);
}

gsp_info gsp__check_outputs(const char *fn, const gsp__output *out, int k) {
  for (int a = 0; a < k; a++)
    for (int b = a + 1; b < k; b++) {
      if (!out[a].at || !out[b].at || !out[a].bytes || !out[b].bytes) continue;
      const uintptr_t pa = (uintptr_t)out[a].at, pb = (uintptr_t)out[b].at;
      /* [pa, pa + na) and [pb, pb + nb) meet; sizes saturate instead of wrapping */
      const uintptr_t ea = out[a].bytes > UINTPTR_MAX - pa ? UINTPTR_MAX : pa + out[a].bytes;
      const uintptr_t eb = out[b].bytes > UINTPTR_MAX - pb ? UINTPTR_MAX : pb + out[b].bytes;
      if (pa < eb && pb < ea)
        return GSP_ERROR(GSP_INVALID_VALUE, "%s: outputs %s and %s alias each other", fn, out[a].name, out[b].name);
    }
  return GSP_SUCCESS;
}

/* Open-addressing hash set of live object addresses. Looking a handle up
 * here before dereferencing it turns use-after-free of a handle into
 * GSP_INVALID_OBJECT instead of undefined behaviour. */
static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static uintptr_t *reg_slots;
static size_t reg_cap, reg_count, reg_dead; /* dead = tombstones */
#define REG_TOMB ((uintptr_t)1)

static size_t reg_hash(uintptr_t p) {
  uint64_t h = (uint64_t)p;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  return (size_t)h;
}

/* Find the slot of p, or the first free slot where it would go. */
static size_t reg_find(uintptr_t p, bool *found) {
  size_t mask = reg_cap - 1, i = reg_hash(p) & mask, tomb = SIZE_MAX;
  for (;;) {
    uintptr_t s = reg_slots[i];
    if (s == p) {
      *found = true;
      return i;
    }
    if (s == 0) {
      *found = false;
      return tomb != SIZE_MAX ? tomb : i;
    }
    if (s == REG_TOMB && tomb == SIZE_MAX) tomb = i;
    i = (i + 1) & mask;
  }
}

static bool reg_grow(void) {
  size_t ncap = reg_cap ? reg_cap * 2 : 256;
  uintptr_t *old = reg_slots;
  size_t ocap = reg_cap;
  uintptr_t *slots = gsp__calloc(ncap, sizeof *slots);
  if (!slots) return false;
  reg_slots = slots;
  reg_cap = ncap;
  reg_count = reg_dead = 0;
  for (size_t k = 0; k < ocap; k++) {
    if (old[k] > REG_TOMB) {
      bool f;
      reg_slots[reg_find(old[k], &f)] = old[k];
      reg_count++;
    }
  }
  gsp__free(old);
  return true;
}

gsp_info gsp__register(void *obj) {
  gsp_info info = GSP_SUCCESS;
  pthread_mutex_lock(&reg_lock);
  if ((reg_count + reg_dead + 1) * 2 > reg_cap && !reg_grow()) {
    pthread_mutex_unlock(&reg_lock);
    return GSP_ERROR(GSP_OUT_OF_MEMORY, "cannot grow the handle registry");
  }
  bool found;
  size_t i = reg_find((uintptr_t)obj, &found);
  if (!found) {
    if (reg_slots[i] == REG_TOMB) reg_dead--;
    reg_slots[i] = (uintptr_t)obj;
    reg_count++;
  }
  pthread_mutex_unlock(&reg_lock);
  return info;
}

/* Remove obj (reg_lock held). */
static void reg_remove(void *obj) {
  if (!reg_cap) return;
  bool found;
  size_t i = reg_find((uintptr_t)obj, &found);
  if (found) {
    reg_slots[i] = REG_TOMB;
    reg_count--;
    reg_dead++;
  }
}

void gsp__unregister(void *obj) {
  pthread_mutex_lock(&reg_lock);
  reg_remove(obj);
  pthread_mutex_unlock(&reg_lock);
}

bool gsp__hold(void *obj, int *busy, int delta) {
  pthread_mutex_lock(&reg_lock);
  bool found = false;
  if (reg_cap) reg_find((uintptr_t)obj, &found);
  if (found) *busy += delta;
  pthread_mutex_unlock(&reg_lock);
  return found;
}

bool gsp__unregister_idle(void *obj, const int *busy) {
  pthread_mutex_lock(&reg_lock);
  const bool idle = *busy == 0;
  if (idle) reg_remove(obj);
  pthread_mutex_unlock(&reg_lock);
  return idle;
}

size_t gsp__live_handles(const void **out, size_t cap) {
  size_t n = 0;
  pthread_mutex_lock(&reg_lock);
  for (size_t k = 0; k < reg_cap; k++)
    if (reg_slots[k] > REG_TOMB) {
      if (out && n < cap) out[n] = (const void *)reg_slots[k];
      n++;
    }
  pthread_mutex_unlock(&reg_lock);
  return n;
}

bool gsp__is_live(const void *obj) {
  bool found = false;
  pthread_mutex_lock(&reg_lock);
  if (reg_cap) reg_find((uintptr_t)obj, &found);
  pthread_mutex_unlock(&reg_lock);
  return found;
}
