/* gsp_semiring_identities: a semiring's zero and one for a type, for
 * callers of the public API (the "no path" value of an exported result, the
 * one of a unit vector), from gsp_semiring.h's one definition of them. */
#include "gsp_internal.h"

gsp_info gsp_semiring_identities(void *zero, void *one, gsp_semiring s, gsp_type t) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  GSP_TRY(gsp__check_type(t, "gsp_semiring_identities"));
  GSP_CHECK(s >= GSP_MIN_PLUS && s <= GSP_PLUS_TIMES, GSP_INVALID_VALUE,
            "gsp_semiring_identities: invalid semiring code %d", (int)s);
  GSP_CHECK(gsp__semiring_fits(s, t), GSP_DOMAIN_MISMATCH,
            "gsp_semiring_identities: the semiring does not work on this type (OR_AND is for GSP_BOOL, the others "
            "for the numeric types)");
  if (zero) gsp__semiring_zero(zero, s, t);
  if (one) gsp__semiring_one(one, s, t);
#undef GSP_FREE_ALL
  return info;
}
