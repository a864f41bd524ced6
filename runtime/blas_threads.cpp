// Looks the BLAS vendors' thread-count functions up with dlsym, so that any CBLAS works.
#include "runtime/blas_threads.hpp"

#include <dlfcn.h>

namespace tessera::detail {

template <class F>
static F lookup(const char* name) {
    return reinterpret_cast<F>(dlsym(RTLD_DEFAULT, name));
}

int blas_num_threads() {
    if (auto f = lookup<int (*)()>("openblas_get_num_threads")) return f();
    if (auto f = lookup<long (*)()>("bli_thread_get_num_threads")) return int(f());
    if (auto f = lookup<int (*)()>("MKL_Get_Max_Threads")) return f();
    return -1;
}

void set_blas_num_threads(int n) {
    if (n < 1) return;
    if (auto f = lookup<void (*)(int)>("openblas_set_num_threads")) f(n);
    if (auto f = lookup<void (*)(long)>("bli_thread_set_num_threads")) f(n);
    if (auto f = lookup<void (*)(int)>("MKL_Set_Num_Threads")) f(n);
}

}  // namespace tessera::detail
