/*
 * The public questions about the GPU (gsp.h): whether one is usable, how
 * many, and starting its context early. One file, so that what a program
 * can learn about the device is answered in one place, through the
 * plugin's loader (cuda_loader.c); without the CUDA backend the answers say
 * so.
 */
#include <stdio.h>

#include "gsp_internal.h"
#include "gsp_cuda_plugin.h"

gsp_info gsp_cuda_warm_up(void) {
  const gsp__cuda_api *cu = gsp__cuda_plugin(NULL, 0);
  if (cu) cu->start();
  return GSP_SUCCESS;
}

gsp_info gsp_cuda_available(bool *available, char *desc, size_t len) {
  if (!available) return GSP_ERROR(GSP_NULL_POINTER, "gsp_cuda_available: available is NULL");
  const gsp__output out[] = {{available, sizeof *available, "available"}, {desc, len, "desc"}};
  gsp_info info = gsp__check_outputs("gsp_cuda_available", out, 2);
  if (info < 0) return info;
  char buf[256] = "";
  const gsp__cuda_api *cu = gsp__cuda_plugin(buf, sizeof buf);
  *available = cu && cu->usable(buf, sizeof buf);
  if (desc && len > 0) snprintf(desc, len, "%s", buf);
  return GSP_SUCCESS;
}

gsp_info gsp_cuda_device_count(int *count) {
  if (!count) return GSP_ERROR(GSP_NULL_POINTER, "gsp_cuda_device_count: count is NULL");
  const gsp__cuda_api *cu = gsp__cuda_plugin(NULL, 0);
  *count = cu ? cu->usable_count() : 0;
  return GSP_SUCCESS;
}
