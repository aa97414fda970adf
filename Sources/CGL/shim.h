#ifndef LAUNCHAD_CGL_SHIM_H
#define LAUNCHAD_CGL_SHIM_H
// OpenGL as an application's own context offers it (launchad_attach_gl): no GL library is linked
// or opened here. Each function comes from the application's get_proc_address, into a table
// (`struct launchad_gl`) filled once per attach. The types and the few constants used are
// written out (values from Khronos' gl.xml), so building needs no GL headers.
#include <stddef.h>
#include <stdint.h>

#ifndef __clang__
#define _Nonnull
#define _Nullable
#endif

typedef unsigned int GLenum;
typedef unsigned int GLuint;
typedef int GLint;
typedef int GLsizei;
typedef unsigned char GLboolean;
typedef float GLfloat;
typedef unsigned int GLbitfield;
typedef char GLchar;
typedef unsigned char GLubyte;
typedef ptrdiff_t GLsizeiptr;
typedef ptrdiff_t GLintptr;

#define GL_FALSE ((GLboolean)0)
#define GL_TRUE ((GLboolean)1)
#define GL_UNSIGNED_BYTE ((GLenum)0x1401)
#define GL_FLOAT ((GLenum)0x1406)
#define GL_TRIANGLE_STRIP ((GLenum)0x0005)
#define GL_COLOR_BUFFER_BIT ((GLbitfield)0x00004000)
#define GL_VERSION ((GLenum)0x1F02)
#define GL_RENDERER ((GLenum)0x1F01)
#define GL_SHADING_LANGUAGE_VERSION ((GLenum)0x8B8C)
#define GL_CONTEXT_PROFILE_MASK ((GLenum)0x9126)
#define GL_CONTEXT_COMPATIBILITY_PROFILE_BIT ((GLint)0x00000002)
// Capabilities (glIsEnabled, glEnable, glDisable).
#define GL_BLEND ((GLenum)0x0BE2)
#define GL_SCISSOR_TEST ((GLenum)0x0C11)
#define GL_DEPTH_TEST ((GLenum)0x0B71)
#define GL_STENCIL_TEST ((GLenum)0x0B90)
#define GL_CULL_FACE ((GLenum)0x0B44)
#define GL_FRAMEBUFFER_SRGB ((GLenum)0x8DB9)
#define GL_RASTERIZER_DISCARD ((GLenum)0x8C89)
#define GL_SAMPLE_ALPHA_TO_COVERAGE ((GLenum)0x809E)
#define GL_SAMPLE_COVERAGE ((GLenum)0x80A0)
#define GL_COLOR_LOGIC_OP ((GLenum)0x0BF2)
#define GL_ALPHA_TEST ((GLenum)0x0BC0)
// State queries (glGetIntegerv, glGetFloatv, glGetBooleanv).
#define GL_VIEWPORT ((GLenum)0x0BA2)
#define GL_SCISSOR_BOX ((GLenum)0x0C10)
#define GL_COLOR_CLEAR_VALUE ((GLenum)0x0C22)
#define GL_COLOR_WRITEMASK ((GLenum)0x0C23)
#define GL_POLYGON_MODE ((GLenum)0x0B40)
#define GL_CURRENT_PROGRAM ((GLenum)0x8B8D)
#define GL_ACTIVE_TEXTURE ((GLenum)0x84E0)
#define GL_TEXTURE_BINDING_2D ((GLenum)0x8069)
#define GL_SAMPLER_BINDING ((GLenum)0x8919)
#define GL_ARRAY_BUFFER_BINDING ((GLenum)0x8894)
#define GL_VERTEX_ARRAY_BINDING ((GLenum)0x85B5)
#define GL_PIXEL_UNPACK_BUFFER_BINDING ((GLenum)0x88EF)
#define GL_DRAW_FRAMEBUFFER_BINDING ((GLenum)0x8CA6)
#define GL_BLEND_SRC_RGB ((GLenum)0x80C9)
#define GL_BLEND_DST_RGB ((GLenum)0x80C8)
#define GL_BLEND_SRC_ALPHA ((GLenum)0x80CB)
#define GL_BLEND_DST_ALPHA ((GLenum)0x80CA)
#define GL_BLEND_EQUATION_RGB ((GLenum)0x8009)
#define GL_BLEND_EQUATION_ALPHA ((GLenum)0x883D)
#define GL_UNPACK_ALIGNMENT ((GLenum)0x0CF5)
#define GL_UNPACK_ROW_LENGTH ((GLenum)0x0CF2)
#define GL_UNPACK_SKIP_ROWS ((GLenum)0x0CF3)
#define GL_UNPACK_SKIP_PIXELS ((GLenum)0x0CF4)
#define GL_MAX_TEXTURE_SIZE ((GLenum)0x0D33)
// Vertex attribute state (glGetVertexAttribiv, glGetVertexAttribPointerv).
#define GL_VERTEX_ATTRIB_ARRAY_ENABLED ((GLenum)0x8622)
#define GL_VERTEX_ATTRIB_ARRAY_SIZE ((GLenum)0x8623)
#define GL_VERTEX_ATTRIB_ARRAY_STRIDE ((GLenum)0x8624)
#define GL_VERTEX_ATTRIB_ARRAY_TYPE ((GLenum)0x8625)
#define GL_VERTEX_ATTRIB_ARRAY_NORMALIZED ((GLenum)0x886A)
#define GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING ((GLenum)0x889F)
#define GL_VERTEX_ATTRIB_ARRAY_POINTER ((GLenum)0x8645)
// Values.
#define GL_FRONT ((GLenum)0x0404)
#define GL_BACK ((GLenum)0x0405)
#define GL_FRONT_AND_BACK ((GLenum)0x0408)
#define GL_FILL ((GLenum)0x1B02)
#define GL_ZERO ((GLenum)0)
#define GL_ONE ((GLenum)1)
#define GL_ONE_MINUS_SRC_ALPHA ((GLenum)0x0303)
#define GL_FUNC_ADD ((GLenum)0x8006)
#define GL_TEXTURE0 ((GLenum)0x84C0)
#define GL_TEXTURE_2D ((GLenum)0x0DE1)
#define GL_TEXTURE_MIN_FILTER ((GLenum)0x2801)
#define GL_TEXTURE_MAG_FILTER ((GLenum)0x2800)
#define GL_TEXTURE_WRAP_S ((GLenum)0x2802)
#define GL_TEXTURE_WRAP_T ((GLenum)0x2803)
#define GL_LINEAR ((GLint)0x2601)
#define GL_NEAREST ((GLint)0x2600)
#define GL_CLAMP_TO_EDGE ((GLint)0x812F)
#define GL_RED ((GLenum)0x1903)
#define GL_R8 ((GLint)0x8229)
#define GL_LUMINANCE ((GLenum)0x1909)
#define GL_RGBA ((GLenum)0x1908)
#define GL_RGBA8 ((GLint)0x8058)
#define GL_ARRAY_BUFFER ((GLenum)0x8892)
#define GL_PIXEL_UNPACK_BUFFER ((GLenum)0x88EC)
#define GL_STREAM_DRAW ((GLenum)0x88E0)
#define GL_VERTEX_SHADER ((GLenum)0x8B31)
#define GL_FRAGMENT_SHADER ((GLenum)0x8B30)
#define GL_COMPILE_STATUS ((GLenum)0x8B81)
#define GL_LINK_STATUS ((GLenum)0x8B82)
#define GL_INFO_LOG_LENGTH ((GLenum)0x8B84)
#define GL_DELETE_STATUS ((GLenum)0x8B80)
#define GL_ACTIVE_UNIFORMS ((GLenum)0x8B86)
#define GL_ACTIVE_ATTRIBUTES ((GLenum)0x8B89)
#define GL_BUFFER_SIZE ((GLenum)0x8764)
#define GL_TEXTURE_WIDTH ((GLenum)0x1000)
#define GL_TEXTURE_HEIGHT ((GLenum)0x1001)

/// The functions every context LaunchAd draws in has (OpenGL 2.0 and OpenGL ES 2.0 alike).
#define LAUNCHAD_GL_REQUIRED(F) \
    F(void, glActiveTexture, (GLenum texture)) \
    F(void, glAttachShader, (GLuint program, GLuint shader)) \
    F(void, glBindAttribLocation, (GLuint program, GLuint index, const GLchar *_Nonnull name)) \
    F(void, glBindBuffer, (GLenum target, GLuint buffer)) \
    F(void, glBindTexture, (GLenum target, GLuint texture)) \
    F(void, glBlendEquationSeparate, (GLenum rgb, GLenum alpha)) \
    F(void, glBlendFuncSeparate, (GLenum srcRGB, GLenum dstRGB, GLenum srcAlpha, GLenum dstAlpha)) \
    F(void, glBufferData, (GLenum target, GLsizeiptr size, const void *_Nullable data, GLenum usage)) \
    F(void, glClear, (GLbitfield mask)) \
    F(void, glClearColor, (GLfloat r, GLfloat g, GLfloat b, GLfloat a)) \
    F(void, glColorMask, (GLboolean r, GLboolean g, GLboolean b, GLboolean a)) \
    F(void, glCompileShader, (GLuint shader)) \
    F(GLuint, glCreateProgram, (void)) \
    F(GLuint, glCreateShader, (GLenum type)) \
    F(void, glDeleteBuffers, (GLsizei n, const GLuint *_Nonnull buffers)) \
    F(void, glDeleteProgram, (GLuint program)) \
    F(void, glDeleteShader, (GLuint shader)) \
    F(void, glDeleteTextures, (GLsizei n, const GLuint *_Nonnull textures)) \
    F(void, glDisable, (GLenum cap)) \
    F(void, glDisableVertexAttribArray, (GLuint index)) \
    F(void, glDrawArrays, (GLenum mode, GLint first, GLsizei count)) \
    F(void, glEnable, (GLenum cap)) \
    F(void, glEnableVertexAttribArray, (GLuint index)) \
    F(void, glGenBuffers, (GLsizei n, GLuint *_Nonnull buffers)) \
    F(void, glGenTextures, (GLsizei n, GLuint *_Nonnull textures)) \
    F(void, glGetBooleanv, (GLenum pname, GLboolean *_Nonnull data)) \
    F(void, glGetBufferParameteriv, (GLenum target, GLenum pname, GLint *_Nonnull value)) \
    F(void, glGetFloatv, (GLenum pname, GLfloat *_Nonnull data)) \
    F(void, glGetIntegerv, (GLenum pname, GLint *_Nonnull data)) \
    F(void, glGetProgramInfoLog, (GLuint program, GLsizei size, GLsizei *_Nullable length, GLchar *_Nonnull log)) \
    F(void, glGetProgramiv, (GLuint program, GLenum pname, GLint *_Nonnull value)) \
    F(void, glGetShaderInfoLog, (GLuint shader, GLsizei size, GLsizei *_Nullable length, GLchar *_Nonnull log)) \
    F(void, glGetShaderiv, (GLuint shader, GLenum pname, GLint *_Nonnull value)) \
    F(const GLubyte *_Nullable, glGetString, (GLenum name)) \
    F(GLint, glGetUniformLocation, (GLuint program, const GLchar *_Nonnull name)) \
    F(void, glGetVertexAttribPointerv, (GLuint index, GLenum pname, void *_Nullable *_Nonnull pointer)) \
    F(void, glGetVertexAttribiv, (GLuint index, GLenum pname, GLint *_Nonnull value)) \
    F(GLboolean, glIsBuffer, (GLuint buffer)) \
    F(GLboolean, glIsEnabled, (GLenum cap)) \
    F(GLboolean, glIsProgram, (GLuint program)) \
    F(GLboolean, glIsTexture, (GLuint texture)) \
    F(void, glLinkProgram, (GLuint program)) \
    F(void, glPixelStorei, (GLenum pname, GLint param)) \
    F(void, glScissor, (GLint x, GLint y, GLsizei width, GLsizei height)) \
    F(void, glShaderSource, (GLuint shader, GLsizei count, const GLchar *_Nonnull const *_Nonnull strings, const GLint *_Nullable lengths)) \
    F(void, glTexImage2D, (GLenum target, GLint level, GLint internal, GLsizei width, GLsizei height, GLint border, GLenum format, GLenum type, const void *_Nullable pixels)) \
    F(void, glTexParameteri, (GLenum target, GLenum pname, GLint param)) \
    F(void, glTexSubImage2D, (GLenum target, GLint level, GLint x, GLint y, GLsizei width, GLsizei height, GLenum format, GLenum type, const void *_Nullable pixels)) \
    F(void, glUniform1i, (GLint location, GLint value)) \
    F(void, glUniform3f, (GLint location, GLfloat x, GLfloat y, GLfloat z)) \
    F(void, glUniformMatrix3fv, (GLint location, GLsizei count, GLboolean transpose, const GLfloat *_Nonnull value)) \
    F(void, glUseProgram, (GLuint program)) \
    F(void, glVertexAttribPointer, (GLuint index, GLint size, GLenum type, GLboolean normalized, GLsizei stride, const void *_Nullable pointer)) \
    F(void, glBufferSubData, (GLenum target, GLintptr offset, GLsizeiptr size, const void *_Nonnull data))

/// Functions some contexts lack: vertex array objects (OpenGL 3.0, ES 3.0), sampler objects
/// (OpenGL 3.3, ES 3.0), polygon modes (desktop OpenGL only), a texture level's size (desktop
/// OpenGL, ES 3.1). Used when the version has them.
#define LAUNCHAD_GL_OPTIONAL(F) \
    F(void, glBindVertexArray, (GLuint array)) \
    F(GLboolean, glIsVertexArray, (GLuint array)) \
    F(void, glGetTexLevelParameteriv, (GLenum target, GLint level, GLenum pname, GLint *_Nonnull value)) \
    F(void, glDeleteVertexArrays, (GLsizei n, const GLuint *_Nonnull arrays)) \
    F(void, glGenVertexArrays, (GLsizei n, GLuint *_Nonnull arrays)) \
    F(void, glBindSampler, (GLuint unit, GLuint sampler)) \
    F(void, glPolygonMode, (GLenum face, GLenum mode))

#define LAUNCHAD_GL_REQUIRED_FIELD(ret, name, args) ret (*_Nonnull name) args;
#define LAUNCHAD_GL_OPTIONAL_FIELD(ret, name, args) ret (*_Nullable name) args;

/// The functions, from the application's get_proc_address.
struct launchad_gl {
    LAUNCHAD_GL_REQUIRED(LAUNCHAD_GL_REQUIRED_FIELD)
    LAUNCHAD_GL_OPTIONAL(LAUNCHAD_GL_OPTIONAL_FIELD)
};

/// An application's get_proc_address: a GL function's address by name, NULL when it has none.
typedef void *_Nullable (*launchad_gl_get_proc_address_fn)(void *_Nullable ctx, const char *_Nonnull name);

/// Fills `table` through `get`. Returns NULL, or the name of the first required function the
/// application's get_proc_address has no address for (`table` is then not to be used).
static inline const char *_Nullable launchad_gl_load(
    struct launchad_gl *_Nonnull table, launchad_gl_get_proc_address_fn _Nonnull get, void *_Nullable ctx) {
#define LAUNCHAD_GL_LOAD_REQUIRED(ret, name, args) \
    table->name = (ret (*) args)get(ctx, #name); \
    if (!table->name) return #name;
#define LAUNCHAD_GL_LOAD_OPTIONAL(ret, name, args) table->name = (ret (*) args)get(ctx, #name);
    LAUNCHAD_GL_REQUIRED(LAUNCHAD_GL_LOAD_REQUIRED)
    LAUNCHAD_GL_OPTIONAL(LAUNCHAD_GL_LOAD_OPTIONAL)
#undef LAUNCHAD_GL_LOAD_REQUIRED
#undef LAUNCHAD_GL_LOAD_OPTIONAL
    return NULL;
}

#endif
