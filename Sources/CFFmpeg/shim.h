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
#include "../CLazyLoad/lazy_load.h"
#include "sonames.h"

// Each library is opened on first use (Sources/CLazyLoad/lazy_load.h says why): Swift calls
// libavcodec.avcodec_send_packet(...) and so on through one global table per library, and
// libavfilter (about 30 more libraries: flite's voices, pocketsphinx, vulkan, ...) is opened
// only by the commands that analyse (validate, snapshot). These lists are every function
// LaunchAd calls; one missing from them does not link.

#define LAUNCHAD_LIBAVUTIL(F) \
    F(av_buffer_create) \
    F(av_channel_layout_check) \
    F(av_channel_layout_copy) \
    F(av_channel_layout_default) \
    F(av_channel_layout_describe) \
    F(av_channel_layout_uninit) \
    F(av_color_primaries_name) \
    F(av_color_range_name) \
    F(av_color_space_name) \
    F(av_color_transfer_name) \
    F(av_dict_free) \
    F(av_dict_get) \
    F(av_dict_set) \
    F(av_display_rotation_get) \
    F(av_frame_alloc) \
    F(av_frame_clone) \
    F(av_frame_free) \
    F(av_frame_get_buffer) \
    F(av_frame_move_ref) \
    F(av_frame_unref) \
    F(av_free) \
    F(av_freep) \
    F(av_get_bytes_per_sample) \
    F(av_get_pix_fmt_name) \
    F(av_get_sample_fmt_name) \
    F(av_log_set_level) \
    F(av_malloc) \
    F(av_opt_set_int) \
    F(av_pix_fmt_desc_get) \
    F(av_reduce) \
    F(av_rescale_q) \
    F(av_strdup) \
    F(av_strerror) \
    F(av_version_info) \
    F(avutil_version)
LAUNCHAD_LAZY_LIBRARY(libavutil, LAUNCHAD_SONAME(avutil, LIBAVUTIL_VERSION_MAJOR), LAUNCHAD_LIBAVUTIL)

#define LAUNCHAD_LIBAVCODEC(F) \
    F(av_new_packet) \
    F(av_packet_alloc) \
    F(av_packet_free) \
    F(av_packet_move_ref) \
    F(av_packet_unref) \
    F(avcodec_alloc_context3) \
    F(avcodec_decode_subtitle2) \
    F(avcodec_find_decoder) \
    F(avcodec_find_decoder_by_name) \
    F(avcodec_find_encoder) \
    F(avcodec_flush_buffers) \
    F(avcodec_free_context) \
    F(avcodec_get_name) \
    F(avcodec_open2) \
    F(avcodec_parameters_to_context) \
    F(avcodec_profile_name) \
    F(avcodec_receive_frame) \
    F(avcodec_receive_packet) \
    F(avcodec_send_frame) \
    F(avcodec_send_packet) \
    F(avsubtitle_free)
LAUNCHAD_LAZY_LIBRARY(libavcodec, LAUNCHAD_SONAME(avcodec, LIBAVCODEC_VERSION_MAJOR), LAUNCHAD_LIBAVCODEC)

#define LAUNCHAD_LIBAVFORMAT(F) \
    F(av_find_best_stream) \
    F(av_find_input_format) \
    F(av_probe_input_buffer2) \
    F(av_read_frame) \
    F(av_stream_get_side_data) \
    F(avformat_alloc_context) \
    F(avformat_close_input) \
    F(avformat_find_stream_info) \
    F(avformat_free_context) \
    F(avformat_index_get_entry_from_timestamp) \
    F(avformat_open_input) \
    F(avformat_seek_file) \
    F(avio_alloc_context) \
    F(avio_context_free) \
    F(avio_feof)
LAUNCHAD_LAZY_LIBRARY(libavformat, LAUNCHAD_SONAME(avformat, LIBAVFORMAT_VERSION_MAJOR), LAUNCHAD_LIBAVFORMAT)

#define LAUNCHAD_LIBSWSCALE(F) \
    F(sws_alloc_context) \
    F(sws_freeContext) \
    F(sws_getCoefficients) \
    F(sws_init_context) \
    F(sws_scale_frame) \
    F(sws_setColorspaceDetails)
LAUNCHAD_LAZY_LIBRARY(libswscale, LAUNCHAD_SONAME(swscale, LIBSWSCALE_VERSION_MAJOR), LAUNCHAD_LIBSWSCALE)

#define LAUNCHAD_LIBSWRESAMPLE(F) \
    F(swr_alloc_set_opts2) \
    F(swr_convert) \
    F(swr_free) \
    F(swr_get_out_samples) \
    F(swr_init)
LAUNCHAD_LAZY_LIBRARY(libswresample, LAUNCHAD_SONAME(swresample, LIBSWRESAMPLE_VERSION_MAJOR), LAUNCHAD_LIBSWRESAMPLE)

#define LAUNCHAD_LIBAVFILTER(F) \
    F(avfilter_graph_alloc) \
    F(avfilter_graph_free) \
    F(avfilter_get_by_name) \
    F(avfilter_graph_create_filter) \
    F(avfilter_inout_alloc) \
    F(avfilter_inout_free) \
    F(avfilter_graph_parse_ptr) \
    F(avfilter_graph_config) \
    F(av_buffersrc_add_frame_flags) \
    F(av_buffersink_get_frame)
LAUNCHAD_LAZY_LIBRARY(libavfilter, LAUNCHAD_SONAME(avfilter, LIBAVFILTER_VERSION_MAJOR), LAUNCHAD_LIBAVFILTER)

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
    const uint8_t *sd = launchad_libavformat()->av_stream_get_side_data(st, AV_PKT_DATA_DISPLAYMATRIX, &size);
    if (!sd || size < 9 * sizeof(int32_t)) return 0;
    double r = launchad_libavutil()->av_display_rotation_get((const int32_t *)sd);
    return r != r ? 0 : r; // NaN when the matrix is degenerate
}

static inline void launchad_stereo_layout(AVChannelLayout *layout) {
    AVChannelLayout stereo = AV_CHANNEL_LAYOUT_STEREO;
    launchad_libavutil()->av_channel_layout_copy(layout, &stereo);
}

/// Frees nothing: the memory belongs to someone else (a locked SDL texture).
static void launchad_buffer_keep(void *opaque, uint8_t *data) { (void)opaque; (void)data; }

/// Points `frame`'s first plane at packed pixels it does not own, so sws_scale_frame (and its
/// slice threads) writes straight there instead of allocating a picture of its own.
static inline int launchad_frame_wrap(AVFrame *frame, uint8_t *data, int linesize, int height) {
    frame->buf[0] = launchad_libavutil()->av_buffer_create(data, (size_t)linesize * (size_t)height, launchad_buffer_keep, NULL, 0);
    if (!frame->buf[0]) return AVERROR(ENOMEM);
    frame->data[0] = data;
    frame->linesize[0] = linesize;
    return 0;
}

#endif
