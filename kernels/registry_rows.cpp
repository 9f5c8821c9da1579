#include "kernels/registry_rows.hpp"

namespace kc {

const char* name_of(caught_by detection) {
  switch (detection) {
    case caught_by::value_checks: return "value checks";
    case caught_by::racecheck: return "racecheck";
    case caught_by::memcheck: return "memcheck";
    case caught_by::initcheck: return "initcheck";
  }
  return "unknown";
}

}  // namespace kc
