/*
 * An object's device copy is one cache that every GPU call on it shares and
 * may fill or replace (CSR, transpose, shortest-path data, a vector's
 * copy), while the library lets several threads read one object at once.
 * An entry that reads objects therefore holds their locks for the call: a
 * cache is built once and never replaced under another call. The locks
 * are striped by the address of the object's device slot (`dev` of its
 * gsp_cuda_arrays or gsp_cuda_vec). Plain locks: no entry calls another.
 */
#ifndef GSP_CUDA_GUARD_CUH
#define GSP_CUDA_GUARD_CUH

/* Holds the stripes of x and y (NULL: none) from construction to scope
 * exit, lower stripe first. */
class gsp__cu_guard {
public:
  explicit gsp__cu_guard(const void *x, const void *y = nullptr);
  ~gsp__cu_guard();
  gsp__cu_guard(const gsp__cu_guard &) = delete;
  gsp__cu_guard &operator=(const gsp__cu_guard &) = delete;

private:
  int k_[2];
};

#endif /* GSP_CUDA_GUARD_CUH */
