/* Replays every fuzz corpus input (seeds and past findings) through the
 * fuzz targets' own checks, so each crash ever found stays a regression
 * test in every build, with or without libFuzzer. */
#include <criterion/criterion.h>
#include <dirent.h>

#include "../tests/fuzz/fuzz_inputs.h"

static void replay(int target) {
  char dir[512];
  snprintf(dir, sizeof dir, "%s/tests/fuzz/corpus/%s", GSP_SOURCE_DIR, fuzz_target_names[target]);
  DIR *d = opendir(dir);
  cr_assert_not_null(d, "no corpus directory %s", dir);
  int count = 0;
  for (struct dirent *e; (e = readdir(d));) {
    if (e->d_name[0] == '.') continue;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f);
    static uint8_t buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    cr_assert_eq(fuzz_one(target, buf, n), 0, "%s: contract broken by %s", fuzz_target_names[target], path);
    count++;
  }
  closedir(d);
  cr_assert_gt(count, 0, "empty corpus %s", dir);
}

Test(fuzz_corpus, mtx) {
  replay(FUZZ_MTX);
}
Test(fuzz_corpus, dimacs) {
  replay(FUZZ_DIMACS);
}
Test(fuzz_corpus, edgelist) {
  replay(FUZZ_EDGELIST);
}
Test(fuzz_corpus, npy) {
  replay(FUZZ_NPY);
}
Test(fuzz_corpus, dense) {
  replay(FUZZ_DENSE);
}
Test(fuzz_corpus, build) {
  replay(FUZZ_BUILD);
}
