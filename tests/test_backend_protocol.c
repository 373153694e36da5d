/*
 * The "decline or take" protocol of the CUDA gateway, below the GPU
 * (src/ops/ops_backend.c, src/core/memory.c): after a decline, AUTO goes
 * on (the CPU runs the call) and a required CUDA backend fails with the
 * launcher's code and reason, or GSP_NO_DEVICE when it gave none.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "gsp_internal.h"
#include "ops_backend.h"

Test(backend_protocol, auto_goes_on_after_a_decline) {
  const gsp__backend_choice be = {.gpu = true, .required = false};
  gsp__device_decline(GSP_DEVICE_OUT_OF_MEMORY, "it needs %d bytes", 64);
  cr_expect_eq(gsp__backend_declined(&be, "f"), GSP_SUCCESS);
  /* the reason does not outlive the call it was given for */
  const gsp__backend_choice req = {.gpu = true, .required = true};
  cr_expect_eq(gsp__backend_declined(&req, "f"), GSP_NO_DEVICE);
}

Test(backend_protocol, required_fails_with_the_reason) {
  const gsp__backend_choice be = {.gpu = true, .required = true};
  gsp__device_decline(GSP_DOMAIN_MISMATCH, "no kernel for %s", "MAX_MIN");
  cr_expect_eq(gsp__backend_declined(&be, "gsp_f"), GSP_DOMAIN_MISMATCH);
  cr_expect(strstr(gsp_last_error(), "gsp_f: CUDA backend requested, but no kernel for MAX_MIN") != NULL, "%s",
            gsp_last_error());
  gsp__device_decline_clear();
  cr_expect_eq(gsp__backend_declined(&be, "gsp_f"), GSP_NO_DEVICE);
}

Test(backend_protocol, pick_refuses_an_unknown_backend) {
  gsp__backend_choice be;
  cr_expect_eq(gsp__backend_pick(&be, (gsp_backend)7, true, "gsp_f"), GSP_INVALID_VALUE);
  cr_expect_eq(gsp__backend_pick(&be, GSP_BACKEND_CPU, true, "gsp_f"), GSP_SUCCESS);
  cr_expect(!be.gpu && !be.required);
}
