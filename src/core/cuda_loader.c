/*
 * The loader of the CUDA backend (src/cuda/include/gsp_cuda_plugin.h): libgsp never
 * links the CUDA libraries; the first question about the GPU opens
 * libgsp_cuda.so, which brings the CUDA runtime, cuBLAS and cuSPARSE with
 * it. Where the plugin, the driver or a GPU is missing the answer says why
 * and AUTO runs on the CPU; a process that never asks maps nothing of CUDA
 * (so `gsp` starts under a small address-space limit).
 *
 * The plugin is looked for, in order: at $GSP_CUDA_PLUGIN (only there, when
 * set), beside the object that holds this code (libgsp.so, or the program
 * linked with the static library), beside the program and in its
 * ../<libdir>, in the build tree it was built in (a build with CUDA), in
 * the install libdir. The loader needs no CUDA to build: a library built
 * without it finds a plugin installed beside it later.
 */

#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gsp_cuda_plugin.h"
#include "gsp_internal.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static _Atomic(const gsp__cuda_api *) loaded_api; /* set once, by load() */
static gsp__cuda_api api;
static const gsp__cuda_testing *testing; /* the test entry's table, or NULL */
static gsp__cuda_host host;
static char why_not[512];

/* The host table's functions: the core's own, in the table's shapes. */
static void *host_alloc(size_t count, size_t size, bool zero) {
  return zero ? gsp__calloc(count, size) : gsp__malloc_array(count, size);
}

static gsp_info host_log(gsp__cuda_log_kind kind, gsp_info code, const char *file, int line, const char *msg) {
  switch (kind) {
  case GSP__CUDA_LOG_ERROR:
    return gsp__error(code, file, line, "%s", msg);
  case GSP__CUDA_LOG_DECLINE:
    gsp__device_decline(code, "%s", msg);
    return code;
  case GSP__CUDA_LOG_BURBLE:
    if (msg) gsp__burble("%s", msg);
    return gsp__burble_on();
  }
  return code;
}

static int host_team(int nthreads, void (*body)(void *ctx, int t, int nt), void *ctx) {
  if (!body) return gsp__threads();
  gsp__team(nthreads, body, ctx);
  return nthreads > 0 ? nthreads : 1;
}

static void fill_host(void) {
  host = (gsp__cuda_host){.abi = GSP_CUDA_PLUGIN_ABI,
                          .size = sizeof host,
                          .alloc = host_alloc,
                          .free = gsp__free,
                          .log = host_log,
                          .team = host_team};
}

static bool is_file(const char *path) {
  return access(path, R_OK) == 0;
}

/* dir/name into buf (false when it does not fit or dir is empty). */
static bool join(char *buf, size_t len, const char *dir, const char *name) {
  if (!dir || !*dir) return false;
  int k = snprintf(buf, len, "%s/%s", dir, name);
  return k > 0 && (size_t)k < len;
}

/* The directory part of path into buf ("" when there is none). */
static void dir_of(char *buf, size_t len, const char *path) {
  snprintf(buf, len, "%s", path);
  char *slash = strrchr(buf, '/');
  if (slash) *slash = '\0';
  else buf[0] = '\0';
}

/* The plugin's path into path[len]; false when it is nowhere. */
static bool find_plugin(char *path, size_t len) {
  const char *env = gsp__setting_cuda_plugin();
  if (env) {
    snprintf(path, len, "%s", env);
    return is_file(path);
  }
  char dir[PATH_MAX], buf[PATH_MAX];
  Dl_info self;
  if (dladdr((void *)&find_plugin, &self) && self.dli_fname && strchr(self.dli_fname, '/')) {
    dir_of(dir, sizeof dir, self.dli_fname);
    if (join(path, len, dir, GSP_CUDA_PLUGIN_FILE) && is_file(path)) return true;
  }
  ssize_t k = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (k > 0) {
    buf[k] = '\0';
    dir_of(dir, sizeof dir, buf);
    if (join(path, len, dir, GSP_CUDA_PLUGIN_FILE) && is_file(path)) return true;
    /* an installed program: <prefix>/bin/gsp and <prefix>/<libdir>/ */
    char up[PATH_MAX];
    int n = snprintf(up, sizeof up, "%s/../%s", dir, GSP_CUDA_PLUGIN_LIBDIR);
    if (n > 0 && (size_t)n < sizeof up && join(path, len, up, GSP_CUDA_PLUGIN_FILE) && is_file(path)) return true;
  }
#ifdef GSP_CUDA_PLUGIN_BUILD_PATH /* a build with CUDA: the plugin it made */
  snprintf(path, len, "%s", GSP_CUDA_PLUGIN_BUILD_PATH);
  if (is_file(path)) return true;
#endif
  return join(path, len, GSP_CUDA_PLUGIN_INSTALL_DIR, GSP_CUDA_PLUGIN_FILE) && is_file(path);
}

static void load(void) {
  char path[PATH_MAX];
  if (!find_plugin(path, sizeof path)) {
    const char *env = gsp__setting_cuda_plugin();
    if (env)
      snprintf(why_not, sizeof why_not,
               "the CUDA backend is not installed: GSP_CUDA_PLUGIN=%.300s is not a readable file", env);
    else snprintf(why_not, sizeof why_not, "the CUDA backend (%s) is not installed", GSP_CUDA_PLUGIN_FILE);
    return;
  }
  /* The driver comes with a GPU: without it, loading the plugin (and the
   * CUDA libraries behind it, a large part of an address space) is in vain. */
  if (!dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL)) {
    snprintf(why_not, sizeof why_not, "no GPU found: no CUDA driver (libcuda.so.1)");
    return;
  }
  void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *e = dlerror();
    snprintf(why_not, sizeof why_not, "the CUDA backend %.300s could not be loaded: %.150s", path,
             e ? e : "unknown error");
    return;
  }
  gsp__cuda_plugin_open_fn open_fn;
  *(void **)&open_fn = dlsym(lib, GSP_CUDA_PLUGIN_SYMBOL);
  char why[256] = "";
  fill_host();
  memset(&api, 0, sizeof api);
  if (!open_fn) {
    snprintf(why_not, sizeof why_not, "the CUDA backend %.300s has no entry point %s", path, GSP_CUDA_PLUGIN_SYMBOL);
  } else if (!open_fn(&host, &api, why, sizeof why)) {
    snprintf(why_not, sizeof why_not, "the CUDA backend %.300s refused to start: %.150s", path, why);
  } else if (api.abi != GSP_CUDA_PLUGIN_ABI || api.size != sizeof api) {
    snprintf(why_not, sizeof why_not, "the CUDA backend %.300s is from another build of gsp", path);
  } else {
    gsp__cuda_plugin_testing_fn testing_fn;
    *(void **)&testing_fn = dlsym(lib, GSP_CUDA_PLUGIN_TESTING_SYMBOL);
    const gsp__cuda_testing *t = testing_fn ? testing_fn() : NULL;
    if (t && t->abi == GSP_CUDA_PLUGIN_ABI && t->size == sizeof *t) testing = t;
    atomic_store_explicit(&loaded_api, &api, memory_order_release);
    return;
  }
  dlclose(lib);
}

const gsp__cuda_api *gsp__cuda_plugin(char *why, size_t len) {
  pthread_once(&once, load);
  const gsp__cuda_api *a = atomic_load_explicit(&loaded_api, memory_order_acquire);
  if (!a && why && len > 0) snprintf(why, len, "%s", why_not);
  return a;
}

gsp_info gsp__cuda_get(const gsp__cuda_api **api, const char *fn) {
  char why[512] = "";
  *api = gsp__cuda_plugin(why, sizeof why);
  return *api ? GSP_SUCCESS : GSP_ERROR(GSP_NO_DEVICE, "%s: %s", fn, why);
}

const gsp__cuda_api *gsp__cuda_plugin_loaded(void) {
  return atomic_load_explicit(&loaded_api, memory_order_acquire);
}

const gsp__cuda_testing *gsp__cuda_plugin_testing(void) {
  return gsp__cuda_plugin(NULL, 0) ? testing : NULL;
}
