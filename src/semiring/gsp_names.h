/*
 * The names of types and semirings, for messages: one definition, used by
 * the core (gsp__type_name, gsp__semiring_name in src/core/settings.c) and
 * by the CUDA plugin, which names them in its own messages without asking
 * the core.
 */
#ifndef GSP_NAMES_H
#define GSP_NAMES_H

#include "gsp_semiring.h"

static inline const char *gsp_names_type(gsp_type t) {
  switch (t) {
#define GSP_TYPE_NAME_(T, ct, sfx) \
  case GSP_##T:                    \
    return #T;
    GSP_TYPE_LIST(GSP_TYPE_NAME_)
#undef GSP_TYPE_NAME_
  }
  return "invalid type";
}

static inline const char *gsp_names_semiring(gsp_semiring s) {
  switch (s) {
#define GSP_SR_NAME_(SR, sr, a, m, z, o) \
  case GSP_##SR:                         \
    return #SR;
    GSP_NUM_SEMIRING_LIST(GSP_SR_NAME_)
#undef GSP_SR_NAME_
  case GSP_OR_AND:
    return "OR_AND";
  }
  return "invalid semiring";
}

#endif /* GSP_NAMES_H */
