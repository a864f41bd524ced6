// Default options of the sanitizers, linked into every executable of a TESSERA_SANITIZE build
// (top-level CMakeLists.txt), so that ctest, the applications' tests and a binary run by hand all
// behave the same without exporting anything. ASAN_OPTIONS, UBSAN_OPTIONS and LSAN_OPTIONS, when
// set, are read after these and win.
//
// exitcode=86: a finding never looks like a tool's own exit code (0 ok, 1 failed, 2 refused), so a
// test that expects 1 or 2 still fails on a finding. UBSan halts on the first report (the build also
// passes -fno-sanitize-recover=undefined). LeakSanitizer reads tests/sanitizers/lsan.supp, which
// names allocations made inside StarPU, PoCL/LLVM and hwloc only, by functions up to 8 frames deep
// in their stacks: fast_unwind_on_malloc=0 unwinds through those libraries, built without frame
// pointers (the frame-pointer unwinder stops in their first frame). The slow unwinder costs most
// where PoCL compiles kernels with LLVM (millions of allocations): 10 frames instead of 30 halve
// that (a cold test_blas3 gemm in opencl mode: 33 s fast, 72 s with 10 frames, 138 s with 30).
//
// intercept_tls_get_addr=0: clang 14's runtime (up to LLVM 16) records each dynamic TLS block that
// __tls_get_addr returns, and takes a block whose address is 16 bytes past a 4096 boundary for one
// of glibc 2.19-2.24's, whose start and size it reads from the two words before it. Debian 12's
// glibc 2.36 has no such header and mallocs the block, which lands on that offset by chance, so
// LeakSanitizer scans a garbage range at exit and its tracer dies (compiler-rt's
// sanitizer_tls_get_addr.cpp, DTLS_on_tls_get_addr): "Tracer caught signal 11: addr=0x2188" after
// test_trace.mixed had passed, in both attempts on the CI machine, once a Runtime started one more thread
// and so moved the heap's blocks (verbosity=2 lists each block: a 0x602... heap chunk). With it off,
// dynamic TLS (that of libraries opened with dlopen: PoCL and its LLVM, through the OpenCL ICD
// loader) is not scanned for pointers; Tessera and the libraries it links are in static TLS,
// which still is.
#ifndef TESSERA_SANITIZER_DIR
#error "TESSERA_SANITIZER_DIR: the folder of lsan.supp, set by the top-level CMakeLists.txt"
#endif
// llvm-symbolizer, where CMake found one (an empty path would turn symbolizing off): reports name
// functions, and the suppressions match them.
#ifdef TESSERA_SYMBOLIZER
#define TESSERA_SYMBOLIZER_OPTION ":external_symbolizer_path=" TESSERA_SYMBOLIZER
#else
#define TESSERA_SYMBOLIZER_OPTION ""
#endif

extern "C" {

const char* __asan_default_options() {
    return "exitcode=86:detect_leaks=1:fast_unwind_on_malloc=0:malloc_context_size=10:check_initialization_order=1"
           ":intercept_tls_get_addr=0"
           ":print_suppressions=0"
           TESSERA_SYMBOLIZER_OPTION;
}

const char* __ubsan_default_options() {
    return "exitcode=86:halt_on_error=1:print_stacktrace=1" TESSERA_SYMBOLIZER_OPTION;
}

const char* __lsan_default_options() {
    return "exitcode=86:print_suppressions=0:suppressions=" TESSERA_SANITIZER_DIR "/lsan.supp";
}

}  // extern "C"
