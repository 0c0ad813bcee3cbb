// Anchor translation unit for the oracle library; the oracle's routines live in the files
// beside it, one per question (projection, mass, distance).
#include "oracle/oracle.hpp"
