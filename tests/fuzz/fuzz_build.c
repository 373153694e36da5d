/* libFuzzer target: build (see fuzz_inputs.h). */
#include "fuzz_inputs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (fuzz_one(FUZZ_BUILD, data, size)) abort(); /* a broken contract is a finding */
  return 0;
}
