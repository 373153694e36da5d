/* The backend decision shared by every operation (see ops_backend.h). */
#include "ops_backend.h"

#include "gsp_cuda_plugin.h"

gsp_info gsp__backend_pick(gsp__backend_choice *c, gsp_backend requested, bool auto_gpu, const char *fn) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  c->gpu = c->required = false;
  GSP_CHECK(requested == GSP_BACKEND_AUTO || requested == GSP_BACKEND_CPU || requested == GSP_BACKEND_CUDA,
            GSP_INVALID_VALUE, "%s: invalid backend %d", fn, (int)requested);
  const gsp_backend b = gsp__backend_for(requested);
  c->required = b == GSP_BACKEND_CUDA;
  if (b == GSP_BACKEND_CPU || (!c->required && !auto_gpu)) {
    gsp__burble("%s: runs on the CPU (%s)", fn, b == GSP_BACKEND_CPU ? "CPU backend" : "AUTO: too small for the GPU");
    return info;
  }
  /* the loader answers from its cache after the first question */
  char desc[256] = "";
  GSP_TRY(gsp_cuda_available(&c->gpu, desc, sizeof desc));
  GSP_CHECK(c->gpu || !c->required, GSP_NO_DEVICE, "%s: CUDA backend requested but unusable: %s", fn, desc);
  if (c->gpu) gsp__device_decline_clear();
  if (c->gpu) gsp__burble("%s: offered to the GPU (%s)", fn, c->required ? "CUDA backend" : "AUTO");
  else gsp__burble("%s: runs on the CPU (AUTO: no usable GPU)", fn);
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp__backend_declined(const gsp__backend_choice *c, const char *fn) {
  if (!c->required) {
    gsp__burble("%s: runs on the CPU (the GPU declined)", fn);
    gsp__device_decline_clear();
    return GSP_SUCCESS;
  }
  return gsp__device_declined(fn);
}
