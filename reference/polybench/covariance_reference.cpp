// CPU reference for PolyBench covariance (seed 004): filled in by its slice of issue 10.
namespace kc::reference::polybench {}
