/* Bytes <-> bits of bool rows, eight at a time (no branch per entry):
 * shared by the host conversions (core) and the GPU staging (src/cuda). */
#ifndef GSP_BITS_PACK_H
#define GSP_BITS_PACK_H

#include <stdint.h>
#include <string.h>

/* Bit q of the result: x[q] != 0 && (!b || b[q] != 0), for q < len <= 64. */
static inline uint64_t gsp__pack64(const uint8_t *x, const uint8_t *b, int64_t len) {
  uint64_t w = 0;
  int64_t q = 0;
  for (; q + 8 <= len; q += 8) {
    uint64_t v, m;
    memcpy(&v, x + q, 8);
    /* 0x80 in each nonzero byte, then those 8 bits gathered into one byte */
    v = (((v & 0x7f7f7f7f7f7f7f7full) + 0x7f7f7f7f7f7f7f7full) | v) & 0x8080808080808080ull;
    if (b) {
      memcpy(&m, b + q, 8);
      v &= (((m & 0x7f7f7f7f7f7f7f7full) + 0x7f7f7f7f7f7f7f7full) | m) & 0x8080808080808080ull;
    }
    w |= (((v >> 7) * 0x0102040810204080ull) >> 56) << q;
  }
  for (; q < len; q++) w |= (uint64_t)((x[q] != 0) & (!b || b[q] != 0)) << q;
  return w;
}

/* row[q] = bit q of w ? 1 : 0, for q < len <= 64. */
static inline void gsp__unpack64(uint8_t *row, uint64_t w, int64_t len) {
  int64_t q = 0;
  for (; q + 8 <= len; q += 8) {
    /* byte k of y holds bit k of c (1 << k or 0): + 0x7f carries it to bit 7 */
    const uint64_t c = (w >> q) & 0xff, y = (c * 0x0101010101010101ull) & 0x8040201008040201ull;
    const uint64_t v = ((y + 0x7f7f7f7f7f7f7f7full) >> 7) & 0x0101010101010101ull;
    memcpy(row + q, &v, 8);
  }
  for (; q < len; q++) row[q] = (uint8_t)((w >> q) & 1);
}

#endif
