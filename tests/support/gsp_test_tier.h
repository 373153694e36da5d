/*
 * GPU test tiers. Every GPU suite (tests/test_cuda_*.c) is built twice
 * (tests/CMakeLists.txt): test_cuda_X, ctest labels gpu + gpu-quick, the
 * per-change tier (every kernel, type and semiring at small sizes, a few
 * minutes for all suites under ctest -j4), and test_cuda_X_long, built with
 * GSP_TEST_LONG, labels gpu + gpu-long: the large sizes, the repetitions
 * and the cases only large inputs reach (out-of-core, multi-block).
 * GSP_TIER(quick, long) picks a size or count for the build; cases that
 * exist only in the long tier are inside #ifdef GSP_TEST_LONG.
 */
#ifndef GSP_TEST_TIER_H
#define GSP_TEST_TIER_H

#ifdef GSP_TEST_LONG
#define GSP_TIER(quick, long_) (long_)
#else
#define GSP_TIER(quick, long_) (quick)
#endif

#endif
