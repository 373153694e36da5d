/*
 * libgsp_cuda.so's one exported symbol (gsp_cuda_plugin.map): the core's
 * loader (src/core/cuda_loader.c) hands it the core's table and gets the
 * gateway's back (gsp_cuda_plugin.h).
 */
#include <stdio.h>

#include "gsp_cuda_plugin.h"

/* The core's functions, for the shims (gsp_cuda_host_shims.c). */
const gsp__cuda_host *gsp__cuda_host_table;

__attribute__((visibility("default"))) bool gsp_cuda_plugin_open(const gsp__cuda_host *host, gsp__cuda_api *api,
                                                                 char *why, size_t len);

bool gsp_cuda_plugin_open(const gsp__cuda_host *host, gsp__cuda_api *api, char *why, size_t len) {
  if (!host || !api || host->abi != GSP_CUDA_PLUGIN_ABI || host->size != sizeof *host) {
    if (why && len > 0) snprintf(why, len, "the plugin and the library are from different builds of gsp");
    return false;
  }
  gsp__cuda_host_table = host;
  *api = (gsp__cuda_api){
      .abi = GSP_CUDA_PLUGIN_ABI,
      .size = sizeof *api,
      .usable = gsp_cuda_usable,
      .start = gsp_cuda_start,
      .usable_count = gsp_cuda_usable_count,
      .closure_resident = gsp_cuda_closure_resident,
      .dense_state = gsp_cuda_dense_state,
      .sssp = gsp_cuda_sssp,
      .msssp = gsp_cuda_msssp,
      .weights_checked = gsp_cuda_weights_checked,
      .memory = gsp_cuda_memory,
      .msssp_bytes = gsp_cuda_msssp_bytes,
      .bf = gsp_cuda_bf,
      .dense_download = gsp_cuda_dense_download,
      .dense_export = gsp_cuda_dense_export,
      .dev_free = gsp_cuda_dev_free,
      .dense_view = gsp_cuda_dense_view,
      .mxv = gsp_cuda_mxv,
      .mxm = gsp_cuda_mxm,
      .vec_download = gsp_cuda_vec_download,
      .vec_free = gsp_cuda_vec_free,
      .padded_n = gsp_cuda_padded_n,
      .closure_bytes = gsp_cuda_closure_bytes,
      .fw_device = gsp_cuda_fw_device,
      .count_present = gsp_cuda_count_present,
      .fill_zero = gsp_cuda_fill_zero,
      .fw_ooc = gsp_cuda_fw_ooc,
      .mgpu_built = gsp_cuda_mgpu_built,
      .mgpu_bytes = gsp_cuda_mgpu_bytes,
      .mgpu_create = gsp_cuda_mgpu_create,
      .mgpu_destroy = gsp_cuda_mgpu_destroy,
      .mgpu_grid = gsp_cuda_mgpu_grid,
      .mgpu_block = gsp_cuda_mgpu_block,
      .mgpu_fill = gsp_cuda_mgpu_fill,
      .mgpu_upload = gsp_cuda_mgpu_upload,
      .mgpu_run = gsp_cuda_mgpu_run,
      .mgpu_download = gsp_cuda_mgpu_download,
  };
  return true;
}

/* the entry has the type the loader calls it by */
static const gsp__cuda_plugin_open_fn entry_type_check __attribute__((unused)) = gsp_cuda_plugin_open;
