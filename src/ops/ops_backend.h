/*
 * The one backend decision of every operation (ops_backend.c): where a call
 * runs, and what a decline of the CUDA gateway means for it.
 *
 *   gsp__backend_choice be;
 *   GSP_TRY(gsp__backend_pick(&be, opts.backend, auto_wants_gpu, fn));
 *   if (be.gpu) {
 *     GSP_TRY(gsp_cuda_<op>(..., &taken));   (the launcher takes or declines)
 *     if (!taken) GSP_TRY(gsp__backend_declined(&be, fn));
 *   }
 *   if (!taken) the CPU kernel
 */
#ifndef GSP_OPS_BACKEND_H
#define GSP_OPS_BACKEND_H

#include <stdbool.h>

#include "gsp_internal.h"

typedef struct {
  bool gpu;      /* offer the call to the CUDA gateway */
  bool required; /* CUDA was asked for (option or process default): no CPU run */
} gsp__backend_choice;

/* requested: the call's option (AUTO: the process default, gsp_set_backend
 * or GSP_BACKEND). auto_gpu: whether AUTO should offer this call to the GPU
 * (the operation's own heuristic). GSP_INVALID_VALUE for an unknown
 * backend; GSP_NO_DEVICE when CUDA is required and no device is usable (or
 * the build has no CUDA backend), with the reason. */
gsp_info gsp__backend_pick(gsp__backend_choice *c, gsp_backend requested, bool auto_gpu, const char *fn);

/* After the gateway declined the call: GSP_SUCCESS under AUTO (the CPU
 * runs it); under a required CUDA backend the gateway's reason and code
 * (gsp__device_decline), never a silent CPU run. */
gsp_info gsp__backend_declined(const gsp__backend_choice *c, const char *fn);

#endif /* GSP_OPS_BACKEND_H */
