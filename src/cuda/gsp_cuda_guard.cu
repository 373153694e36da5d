/* The stripes of gsp__cu_guard (gsp_cuda_guard.cuh). */
#include <pthread.h>
#include <stdint.h>

#include "gsp_cuda_guard.cuh"

namespace {

constexpr int STRIPES = 64;
pthread_mutex_t stripe_lock[STRIPES];
pthread_once_t stripe_once = PTHREAD_ONCE_INIT;

void stripes_init() {
  for (int k = 0; k < STRIPES; k++) pthread_mutex_init(&stripe_lock[k], nullptr);
}

int stripe(const void *obj) {
  return obj ? (int)(((uintptr_t)obj >> 6) % STRIPES) : -1;
}

} // namespace

gsp__cu_guard::gsp__cu_guard(const void *x, const void *y) {
  pthread_once(&stripe_once, stripes_init);
  int a = stripe(x), b = stripe(y);
  if (a == b) b = -1;
  if (a < 0 || (b >= 0 && b < a)) {
    const int t = a;
    a = b;
    b = t;
  }
  k_[0] = a;
  k_[1] = b;
  if (a >= 0) pthread_mutex_lock(&stripe_lock[a]);
  if (b >= 0) pthread_mutex_lock(&stripe_lock[b]);
}

gsp__cu_guard::~gsp__cu_guard() {
  if (k_[1] >= 0) pthread_mutex_unlock(&stripe_lock[k_[1]]);
  if (k_[0] >= 0) pthread_mutex_unlock(&stripe_lock[k_[0]]);
}
