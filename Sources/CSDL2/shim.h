#ifndef LAUNCHAD_CSDL2_SHIM_H
#define LAUNCHAD_CSDL2_SHIM_H
// SDL's function-like macros, as functions Swift can call.
#include <SDL2/SDL.h>
#include <SDL2/SDL_ttf.h>
#include <sys/prctl.h>
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include "../CLazyLoad/lazy_load.h"

// SDL_syswm.h would bring Xlib's names (Window, Display) into Swift beside the player's own:
// SDL_GetWindowWMInfo is declared here with its struct left opaque (X11WindowMap reads the X11
// display and window out of it by their offsets).
struct SDL_SysWMinfo;
extern DECLSPEC SDL_bool SDLCALL SDL_GetWindowWMInfo(SDL_Window *window, struct SDL_SysWMinfo *info);

// SDL2 and SDL2_ttf are opened on first use (Sources/CLazyLoad/lazy_load.h says why); Swift calls
// libsdl.SDL_CreateWindow(...) and libsdlttf.TTF_OpenFont(...). These lists are every function
// LaunchAd calls; one missing from them does not link.
#define LAUNCHAD_LIBSDL(F) \
    F(SDL_ClearQueuedAudio) \
    F(SDL_CloseAudioDevice) \
    F(SDL_CreateRGBSurfaceWithFormat) \
    F(SDL_CreateRenderer) \
    F(SDL_CreateSoftwareRenderer) \
    F(SDL_CreateTexture) \
    F(SDL_CreateTextureFromSurface) \
    F(SDL_CreateWindow) \
    F(SDL_CreateWindowFrom) \
    F(SDL_Delay) \
    F(SDL_DestroyRenderer) \
    F(SDL_DestroyTexture) \
    F(SDL_DestroyWindow) \
    F(SDL_EventState) \
    F(SDL_FlushEvent) \
    F(SDL_FreeSurface) \
    F(SDL_GetCurrentAudioDriver) \
    F(SDL_GetCurrentVideoDriver) \
    F(SDL_GetDisplayBounds) \
    F(SDL_GetDisplayUsableBounds) \
    F(SDL_GetError) \
    F(SDL_GetHint) \
    F(SDL_GetNumVideoDrivers) \
    F(SDL_GetQueuedAudioSize) \
    F(SDL_GetRenderDrawBlendMode) \
    F(SDL_GetRenderDrawColor) \
    F(SDL_GetRenderTarget) \
    F(SDL_GetRenderer) \
    F(SDL_GetRendererInfo) \
    F(SDL_GetRendererOutputSize) \
    F(SDL_GetTextureBlendMode) \
    F(SDL_GetVersion) \
    F(SDL_GetVideoDriver) \
    F(SDL_GetWindowID) \
    F(SDL_GetWindowPixelFormat) \
    F(SDL_GetWindowSize) \
    F(SDL_GetWindowWMInfo) \
    F(SDL_GetYUVConversionMode) \
    F(SDL_InitSubSystem) \
    F(SDL_LockTexture) \
    F(SDL_OpenAudioDevice) \
    F(SDL_PauseAudioDevice) \
    F(SDL_PollEvent) \
    F(SDL_PumpEvents) \
    F(SDL_PushEvent) \
    F(SDL_QueueAudio) \
    F(SDL_QuitSubSystem) \
    F(SDL_RenderClear) \
    F(SDL_RenderCopyEx) \
    F(SDL_RenderFillRect) \
    F(SDL_RenderGeometry) \
    F(SDL_RenderGetClipRect) \
    F(SDL_RenderGetLogicalSize) \
    F(SDL_RenderGetScale) \
    F(SDL_RenderGetViewport) \
    F(SDL_RenderGetWindow) \
    F(SDL_RenderIsClipEnabled) \
    F(SDL_RenderPresent) \
    F(SDL_RenderReadPixels) \
    F(SDL_RenderSetClipRect) \
    F(SDL_RenderSetLogicalSize) \
    F(SDL_RenderSetScale) \
    F(SDL_RenderSetViewport) \
    F(SDL_SetHint) \
    F(SDL_SetRenderDrawBlendMode) \
    F(SDL_SetRenderDrawColor) \
    F(SDL_SetRenderTarget) \
    F(SDL_SetTextureAlphaMod) \
    F(SDL_SetTextureBlendMode) \
    F(SDL_SetTextureScaleMode) \
    F(SDL_SetWindowSize) \
    F(SDL_SetYUVConversionMode) \
    F(SDL_ShowCursor) \
    F(SDL_ShowWindow) \
    F(SDL_UnlockTexture) \
    F(SDL_UpdateTexture) \
    F(SDL_UpdateYUVTexture) \
    F(SDL_WaitEventTimeout) \
    F(SDL_WasInit)
LAUNCHAD_LAZY_LIBRARY(libsdl, "libSDL2-2.0.so.0", LAUNCHAD_LIBSDL)

#define LAUNCHAD_LIBSDLTTF(F) \
    F(TTF_CloseFont) \
    F(TTF_GlyphIsProvided32) \
    F(TTF_Init) \
    F(TTF_Linked_Version) \
    F(TTF_OpenFont) \
    F(TTF_RenderUTF8_Blended) \
    F(TTF_SetFontSize) \
    F(TTF_SizeUTF8) \
    F(TTF_WasInit)
LAUNCHAD_LAZY_LIBRARY(libsdlttf, "libSDL2_ttf-2.0.so.0", LAUNCHAD_LIBSDLTTF)

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
// ALSA writes its own lines to stderr ("ALSA lib confmisc.c:855:(parse_card) cannot find card
// '0'", eight of them on a machine without a sound card) whatever SDL does with the failure.
// SDL opens libasound.so.2 with dlopen; launchad opens the same library first and gives it an
// error handler (snd_lib_error_set_handler, process-wide in libasound) that keeps the first
// line instead, for the audio_unavailable event. Called from one Swift file only (SDLAudio), so
// the handler and its buffer are that file's one copy.
static inline char *launchad_alsa_first_error(void) {
    static char line[200];  // in a function: Swift emits no file-scope static variable of a header
    return line;
}
static void launchad_alsa_error(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err;
    char *first = launchad_alsa_first_error();
    if (first[0] != 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(first, 200, fmt, ap);
    va_end(ap);
}
// 1 when ALSA's lines now go to the handler; 0 when libasound cannot be loaded (SDL then cannot use ALSA either).
static inline int launchad_quiet_alsa(void) {
    void *alsa = dlopen("libasound.so.2", RTLD_NOW | RTLD_LOCAL);  // kept open: the handler must stay
    if (alsa == NULL) return 0;
    typedef int (*set_handler)(void (*)(const char *, int, const char *, int, const char *, ...));
    set_handler set = (set_handler)dlsym(alsa, "snd_lib_error_set_handler");
    return set != NULL && set(launchad_alsa_error) == 0;
}
static inline const char *launchad_alsa_error_line(void) { return launchad_alsa_first_error(); }
// Forgets what ALSA said so far: listing devices logs errors ALSA itself silences by default.
static inline void launchad_alsa_forget(void) { launchad_alsa_first_error()[0] = 0; }
#endif
