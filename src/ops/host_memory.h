/* How much host memory this process may still take (host_memory.c). */
#ifndef GSP_HOST_MEMORY_H
#define GSP_HOST_MEMORY_H

#include <stddef.h>

/* Bytes that can still be allocated: the least of the memory the system
 * reports available and the headroom under the address-space and data
 * limits (RLIMIT_AS, RLIMIT_DATA) above what the process already maps.
 * SIZE_MAX when nothing bounds it. */
size_t gsp__host_memory_available(void);

#endif /* GSP_HOST_MEMORY_H */
