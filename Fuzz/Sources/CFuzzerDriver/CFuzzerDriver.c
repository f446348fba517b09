// Header-only target: SwiftPM needs one source file per C target.
#include "CFuzzerDriver.h"
