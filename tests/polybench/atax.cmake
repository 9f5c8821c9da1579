# PolyBench atax tests (seed 004): included from tests/CMakeLists.txt; filled in by its slice of issue 10.
