// A library with an innocent name that runtime_libraries_cpu_tests copies to a temporary directory
// and has the fake submission load from there: code from outside the system and CUDA directories.
extern "C" __attribute__((visibility("default"))) int fake_plain_function() { return 7; }
