// launchad.h compiled on its own (it must stay valid C with nothing else included), and its one
// function that needs nothing of the library: the error texts, static for the process.
#include "launchad.h"

const char *launchad_strerror(int error) {
    switch (error) {
    case LAUNCHAD_OK: return "no error";
    case LAUNCHAD_ERROR_INVALID_ARGUMENT: return "an invalid argument (a NULL handle or pointer, or an option the command line refuses)";
    case LAUNCHAD_ERROR_INVALID_STATE: return "not now (present before attach, a second attach, ...)";
    case LAUNCHAD_ERROR_NO_AD: return "nothing to show (no ad)";
    case LAUNCHAD_ERROR_TIMEOUT: return "not ready in time (presenting still shows it as soon as it is)";
    case LAUNCHAD_ERROR_LIBRARY_MISSING: return "FFmpeg or SDL2 cannot be loaded";
    case LAUNCHAD_ERROR_RENDER:
        return "the renderer, buffer or X11 window cannot be drawn on (for an X11 window: SDL_VIDEODRIVER names another driver "
               "than x11, or SDL's video already runs with another)";
    case LAUNCHAD_ERROR_NO_WINDOW: return "no such X11 window (an unknown or destroyed window id, or no X11 display)";
    default: return "an unknown error code";
    }
}
