#ifndef LAUNCHAD_CFFMPEG_SHIM_H
#define LAUNCHAD_CFFMPEG_SHIM_H
// FFmpeg's function-like and compound-literal macros, as functions Swift can call.
#include <errno.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/display.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libavutil/samplefmt.h>
#include <libavutil/dict.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>
#include <dlfcn.h>

static inline int launchad_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int launchad_averror_eof(void) { return AVERROR_EOF; }
static inline int launchad_averror_enomem(void) { return AVERROR(ENOMEM); }
static inline int launchad_averror_einval(void) { return AVERROR(EINVAL); }
static inline int launchad_averror_eio(void) { return AVERROR(EIO); }
static inline int launchad_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int launchad_averror_decoder_not_found(void) { return AVERROR_DECODER_NOT_FOUND; }
static inline int launchad_averror_stream_not_found(void) { return AVERROR_STREAM_NOT_FOUND; }
static inline int64_t launchad_av_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline AVRational launchad_av_time_base_q(void) { return AV_TIME_BASE_Q; }
static inline int launchad_av_time_base(void) { return AV_TIME_BASE; }
static inline int launchad_av_error_max_string_size(void) { return AV_ERROR_MAX_STRING_SIZE; }

/// The display-matrix rotation of a stream in degrees (counter-clockwise, as av_display_rotation_get), or 0.
static inline double launchad_stream_rotation(const AVStream *st) {
    size_t size = 0;
    const uint8_t *sd = av_stream_get_side_data(st, AV_PKT_DATA_DISPLAYMATRIX, &size);
    if (!sd || size < 9 * sizeof(int32_t)) return 0;
    double r = av_display_rotation_get((const int32_t *)sd);
    return r != r ? 0 : r; // NaN when the matrix is degenerate
}

static inline void launchad_stereo_layout(AVChannelLayout *layout) {
    AVChannelLayout stereo = AV_CHANNEL_LAYOUT_STEREO;
    av_channel_layout_copy(layout, &stereo);
}

// libavfilter is opened on first use (validate, snapshot), not when the process starts: with
// its own dependencies (flite's voices, pocketsphinx, vulkan, lapack, rubberband, ...) it is
// about 30 libraries and a fifth of the dynamic loader's symbol lookups that `play` never uses.
// The module map does not link it; Swift calls these launchad_ wrappers instead.
static inline void *launchad_avfilter_symbol(const char *name) {
    static void *lib;
    if (!lib) lib = dlopen("libavfilter.so." AV_STRINGIFY(LIBAVFILTER_VERSION_MAJOR), RTLD_NOW | RTLD_LOCAL);
    return lib ? dlsym(lib, name) : NULL;
}
#define LAUNCHAD_AVFILTER(ret, name, params, args, failure) \
    static inline ret launchad_##name params { \
        typedef ret (*fn_t) params; \
        static fn_t fn; \
        if (!fn) fn = (fn_t)launchad_avfilter_symbol(#name); \
        return fn ? fn args : failure; \
    }
#define LAUNCHAD_AVFILTER_VOID(name, params, args) \
    static inline void launchad_##name params { \
        typedef void (*fn_t) params; \
        static fn_t fn; \
        if (!fn) fn = (fn_t)launchad_avfilter_symbol(#name); \
        if (fn) fn args; \
    }
LAUNCHAD_AVFILTER(AVFilterGraph *, avfilter_graph_alloc, (void), (), NULL)
LAUNCHAD_AVFILTER_VOID(avfilter_graph_free, (AVFilterGraph **g), (g))
LAUNCHAD_AVFILTER(const AVFilter *, avfilter_get_by_name, (const char *name), (name), NULL)
LAUNCHAD_AVFILTER(int, avfilter_graph_create_filter,
                  (AVFilterContext **c, const AVFilter *f, const char *name, const char *args, void *opaque, AVFilterGraph *g),
                  (c, f, name, args, opaque, g), AVERROR(ENOSYS))
LAUNCHAD_AVFILTER(AVFilterInOut *, avfilter_inout_alloc, (void), (), NULL)
LAUNCHAD_AVFILTER_VOID(avfilter_inout_free, (AVFilterInOut **io), (io))
LAUNCHAD_AVFILTER(int, avfilter_graph_parse_ptr,
                  (AVFilterGraph *g, const char *filters, AVFilterInOut **inputs, AVFilterInOut **outputs, void *log),
                  (g, filters, inputs, outputs, log), AVERROR(ENOSYS))
LAUNCHAD_AVFILTER(int, avfilter_graph_config, (AVFilterGraph *g, void *log), (g, log), AVERROR(ENOSYS))
LAUNCHAD_AVFILTER(int, av_buffersrc_add_frame_flags, (AVFilterContext *c, AVFrame *f, int flags), (c, f, flags), AVERROR(ENOSYS))
LAUNCHAD_AVFILTER(int, av_buffersink_get_frame, (AVFilterContext *c, AVFrame *f), (c, f), AVERROR(ENOSYS))

/// Frees nothing: the memory belongs to someone else (a locked SDL texture).
static void launchad_buffer_keep(void *opaque, uint8_t *data) { (void)opaque; (void)data; }

/// Points `frame`'s first plane at packed pixels it does not own, so sws_scale_frame (and its
/// slice threads) writes straight there instead of allocating a picture of its own.
static inline int launchad_frame_wrap(AVFrame *frame, uint8_t *data, int linesize, int height) {
    frame->buf[0] = av_buffer_create(data, (size_t)linesize * (size_t)height, launchad_buffer_keep, NULL, 0);
    if (!frame->buf[0]) return AVERROR(ENOMEM);
    frame->data[0] = data;
    frame->linesize[0] = linesize;
    return 0;
}

#endif
