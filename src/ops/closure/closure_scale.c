/* Out-of-core page plan (closure_scale.h). */
#include "closure_scale.h"

#include "gsp_internal.h"

size_t gsp__ooc_bytes(int64_t np, size_t ts, int64_t B, int slots) {
  return (size_t)slots * (size_t)B * (size_t)np * ts + (size_t)B * (size_t)B * ts + GSP_OOC_SLACK;
}

/* The largest multiple of 128 rows, at most np, with `slots` pages within
 * budget; 0 when not even 128 fit. */
static int64_t largest_rows(int64_t np, size_t ts, size_t budget, int slots) {
  int64_t lo = 0, hi = np / 128; /* in tiles: lo fits (0 trivially), find the largest */
  while (lo < hi) {
    int64_t mid = lo + (hi - lo + 1) / 2;
    if (gsp__ooc_bytes(np, ts, mid * 128, slots) <= budget) lo = mid;
    else hi = mid - 1;
  }
  return lo * 128;
}

bool gsp__ooc_plan_make(gsp__ooc_plan *pl, int64_t np, size_t ts, size_t budget, int64_t force_rows, int force_slots) {
  static const int slot_choice[] = {5, 4, 3, 2};
  static const int64_t min_rows[] = {1024, 512, 256, 128};
  if (np < 128 || np % 128 != 0 || ts == 0) return false;
  for (int k = 0; k < 4; k++) {
    const int S = force_slots >= 2 ? force_slots : slot_choice[k];
    int64_t B;
    if (force_rows > 0) {
      B = (force_rows + 127) / 128 * 128;
      if (B > np) B = np;
      if (gsp__ooc_bytes(np, ts, B, S) > budget) B = 0;
    } else {
      B = largest_rows(np, ts, budget, S);
    }
    const bool forced = force_slots >= 2 || force_rows > 0;
    if (B >= 128 && (forced || B >= min_rows[k] || B == np)) {
      pl->page_rows = B;
      pl->pages = (np + B - 1) / B;
      pl->slots = S;
      pl->bytes = gsp__ooc_bytes(np, ts, B, S);
      return true;
    }
    if (force_slots >= 2) break;
  }
  return false;
}
