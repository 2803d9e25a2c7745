#include "diag/doctor_harness.h"
