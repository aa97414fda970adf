#ifndef LAUNCHAD_CXLIB_SHIM_H
#define LAUNCHAD_CXLIB_SHIM_H
// Xlib for the tests only (LaunchAdTestSupport reads the screen of a test's Xvfb back with
// XGetImage); the product never links it (its own X11 look-ups open libX11 at run time).
#include <X11/Xlib.h>
#include <X11/Xutil.h>

// XDestroyImage is also a macro, which hides the function from Swift.
static inline int launchad_x_destroy_image(XImage *image) { return XDestroyImage(image); }
#endif
