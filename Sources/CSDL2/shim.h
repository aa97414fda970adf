#ifndef LAUNCHAD_CSDL2_SHIM_H
#define LAUNCHAD_CSDL2_SHIM_H
// SDL's function-like macros, as functions Swift can call.
#include <SDL2/SDL.h>
#include <SDL2/SDL_ttf.h>
#include <sys/prctl.h>

static inline int launchad_sdl_windowpos_centered(void) { return SDL_WINDOWPOS_CENTERED; }
static inline int launchad_sdl_windowpos_undefined(void) { return SDL_WINDOWPOS_UNDEFINED; }
static inline SDL_AudioFormat launchad_sdl_audio_s16sys(void) { return AUDIO_S16SYS; }
static inline SDL_AudioFormat launchad_sdl_audio_f32sys(void) { return AUDIO_F32SYS; }
static inline Uint32 launchad_sdl_pixelformat_iyuv(void) { return SDL_PIXELFORMAT_IYUV; }
static inline Uint32 launchad_sdl_pixelformat_argb8888(void) { return SDL_PIXELFORMAT_ARGB8888; }
static inline Uint32 launchad_sdl_pixelformat_abgr8888(void) { return SDL_PIXELFORMAT_ABGR8888; }
static inline Uint32 launchad_sdl_pixelformat_rgba32(void) { return SDL_PIXELFORMAT_RGBA32; }
static inline Uint32 launchad_sdl_pixelformat_rgb888(void) { return SDL_PIXELFORMAT_RGB888; }
static inline Uint32 launchad_sdl_pixelformat_bgr888(void) { return SDL_PIXELFORMAT_BGR888; }
static inline Uint32 launchad_sdl_pixelformat_nv12(void) { return SDL_PIXELFORMAT_NV12; }
static inline Uint32 launchad_sdl_touch_mouseid(void) { return SDL_TOUCH_MOUSEID; }
// prctl is variadic, which Swift cannot call: names the calling thread (15 bytes at most) in
// /proc, as SDL_CreateThread does for its own threads.
static inline int launchad_name_this_thread(const char *name) { return prctl(PR_SET_NAME, name, 0, 0, 0); }
#endif
