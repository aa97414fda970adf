#ifndef LAUNCHAD_CFFMPEG_SONAMES_H
#define LAUNCHAD_CFFMPEG_SONAMES_H
// FFmpeg's sonames, from the headers the build uses: "libavformat.so.59" and so on.
#include <libavutil/macros.h>
#include <libavutil/version.h>
#include <libavcodec/version.h>
#include <libavformat/version.h>
#include <libavfilter/version.h>
#include <libswscale/version.h>
#include <libswresample/version.h>

#define LAUNCHAD_SONAME(lib, MAJOR) "lib" #lib ".so." AV_STRINGIFY(MAJOR)

#endif
