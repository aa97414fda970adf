/* gl-host's check of the GL state contract: a known, unusual state set in the host's context
 * before launchad_render and read back after, field by field, read here independently of the
 * library. What it sets is what docs/embedding.md says is saved and put back. */
#ifndef GL_HOST_STATE_H
#define GL_HOST_STATE_H
#include <stdio.h>
#include <string.h>

struct gl_state {
    GLint program, active, tex[3], sampler[3], vao, array_buffer, unpack_buffer, unpack[4];
    GLint blend_factors[6], scissor_box[4], viewport[4], draw_fbo, read_fbo, polygon[2];
    GLint attrib_enabled, attrib_size, attrib_stride, attrib_buffer;
    GLboolean enables[12], mask[4];
    GLfloat clear[4];
};

static const GLenum state_caps[12] = {GL_BLEND, GL_SCISSOR_TEST, GL_DEPTH_TEST, GL_STENCIL_TEST, GL_CULL_FACE, GL_SAMPLE_COVERAGE,
                                      GL_SAMPLE_ALPHA_TO_COVERAGE, GL_RASTERIZER_DISCARD, GL_FRAMEBUFFER_SRGB, GL_COLOR_LOGIC_OP,
                                      GL_ALPHA_TEST, GL_DITHER};
static const char *state_cap_names[12] = {"blend", "scissor test", "depth test", "stencil test", "cull face", "sample coverage",
                                          "alpha to coverage", "rasterizer discard", "framebuffer sRGB", "logic op", "alpha test", "dither"};

/* What this context has: ES or desktop, its version, compatibility. */
static int state_es, state_major, state_minor, state_compat;
static void state_version(void) {
    const char *v = (const char *)glGetString(GL_VERSION);
    state_es = strncmp(v, "OpenGL ES", 9) == 0;
    sscanf(state_es ? v + 10 : v, "%d.%d", &state_major, &state_minor);
    GLint mask = 0;
    if (!state_es && state_major * 10 + state_minor >= 32) glGetIntegerv(GL_CONTEXT_PROFILE_MASK, &mask);
    state_compat = !state_es && (state_major * 10 + state_minor < 31 || (mask & GL_CONTEXT_COMPATIBILITY_PROFILE_BIT));
}
static int at_least(int major, int minor, int es_major) {
    return state_es ? state_major >= es_major : state_major * 10 + state_minor >= major * 10 + minor;
}
static int cap_exists(int i) {
    if (i == 7) return at_least(3, 0, 3);          /* rasterizer discard */
    if (i == 8 || i == 9) return !state_es && (i == 9 || state_major >= 3); /* sRGB, logic op */
    if (i == 10) return state_compat;               /* alpha test */
    return 1;
}

/* The host's own objects, made once: a program, three textures, a sampler, a vertex array, two buffers. */
static GLuint host_program, host_tex[3], host_sampler, host_vao, host_vbo, host_pbo;
static void state_objects(void) {
    if (host_program) return;
    state_version();
    const char *vs_modern = "in vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }\n";
    const char *vs_old = "attribute vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }\n";
    const char *fs_modern = "out vec4 c; void main() { c = vec4(1.0); }\n";
    const char *fs_old = "void main() { gl_FragColor = vec4(1.0); }\n";
    int modern = at_least(3, 0, 3);
    const char *header = state_es ? (modern ? "#version 300 es\nprecision mediump float;\n" : "#version 100\nprecision mediump float;\n")
                                  : at_least(3, 2, 9) ? "#version 150\n" : modern ? "#version 130\n" : "#version 120\n";
    const char *vs[2] = {header, modern ? vs_modern : vs_old}, *fs[2] = {header, modern ? fs_modern : fs_old};
    GLuint v = glCreateShader(GL_VERTEX_SHADER), f = glCreateShader(GL_FRAGMENT_SHADER);
    glShaderSource(v, 2, vs, NULL);
    glShaderSource(f, 2, fs, NULL);
    glCompileShader(v);
    glCompileShader(f);
    host_program = glCreateProgram();
    glAttachShader(host_program, v);
    glAttachShader(host_program, f);
    glLinkProgram(host_program);
    GLint linked = 0;
    glGetProgramiv(host_program, GL_LINK_STATUS, &linked);
    if (!linked) fprintf(stderr, "gl-host: the host's own program did not link\n");
    glGenTextures(3, host_tex);
    for (int i = 0; i < 3; i++) {
        glBindTexture(GL_TEXTURE_2D, host_tex[i]);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    }
    if (at_least(3, 3, 3)) glGenSamplers(1, &host_sampler);
    if (at_least(3, 0, 3)) glGenVertexArrays(1, &host_vao);
    glGenBuffers(1, &host_vbo);
    glBindBuffer(GL_ARRAY_BUFFER, host_vbo);
    glBufferData(GL_ARRAY_BUFFER, 64, NULL, GL_STATIC_DRAW);
    if (at_least(2, 1, 3)) glGenBuffers(1, &host_pbo);
    if (host_pbo) {
        glBindBuffer(GL_PIXEL_UNPACK_BUFFER, host_pbo);
        glBufferData(GL_PIXEL_UNPACK_BUFFER, 64, NULL, GL_STREAM_DRAW);
    }
}

static void state_read(struct gl_state *s) {
    memset(s, 0, sizeof *s);
    glGetIntegerv(GL_CURRENT_PROGRAM, &s->program);
    glGetIntegerv(GL_ACTIVE_TEXTURE, &s->active);
    for (int i = 0; i < 3; i++) {
        glActiveTexture(GL_TEXTURE0 + i);
        glGetIntegerv(GL_TEXTURE_BINDING_2D, &s->tex[i]);
        if (host_sampler) glGetIntegerv(GL_SAMPLER_BINDING, &s->sampler[i]);
    }
    glActiveTexture(s->active);
    if (host_vao) glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &s->vao);
    glGetIntegerv(GL_ARRAY_BUFFER_BINDING, &s->array_buffer);
    glGetVertexAttribiv(0, GL_VERTEX_ATTRIB_ARRAY_ENABLED, &s->attrib_enabled);
    glGetVertexAttribiv(0, GL_VERTEX_ATTRIB_ARRAY_SIZE, &s->attrib_size);
    glGetVertexAttribiv(0, GL_VERTEX_ATTRIB_ARRAY_STRIDE, &s->attrib_stride);
    glGetVertexAttribiv(0, GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING, &s->attrib_buffer);
    if (host_pbo) glGetIntegerv(GL_PIXEL_UNPACK_BUFFER_BINDING, &s->unpack_buffer);
    glGetIntegerv(GL_UNPACK_ALIGNMENT, &s->unpack[0]);
    if (at_least(1, 0, 3)) {
        glGetIntegerv(GL_UNPACK_ROW_LENGTH, &s->unpack[1]);
        glGetIntegerv(GL_UNPACK_SKIP_ROWS, &s->unpack[2]);
        glGetIntegerv(GL_UNPACK_SKIP_PIXELS, &s->unpack[3]);
    }
    const GLenum blend[6] = {GL_BLEND_SRC_RGB, GL_BLEND_DST_RGB, GL_BLEND_SRC_ALPHA, GL_BLEND_DST_ALPHA, GL_BLEND_EQUATION_RGB, GL_BLEND_EQUATION_ALPHA};
    for (int i = 0; i < 6; i++) glGetIntegerv(blend[i], &s->blend_factors[i]);
    glGetIntegerv(GL_SCISSOR_BOX, s->scissor_box);
    glGetIntegerv(GL_VIEWPORT, s->viewport);
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &s->draw_fbo);
    if (at_least(3, 0, 3)) glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &s->read_fbo);
    if (!state_es) glGetIntegerv(GL_POLYGON_MODE, s->polygon);
    for (int i = 0; i < 12; i++) s->enables[i] = cap_exists(i) ? glIsEnabled(state_caps[i]) : 0;
    glGetBooleanv(GL_COLOR_WRITEMASK, s->mask);
    glGetFloatv(GL_COLOR_CLEAR_VALUE, s->clear);
}

/* The known state: everything the contract names set away from its default. */
static void state_set_known(struct gl_state *known) {
    state_objects();
    for (int i = 0; i < 3; i++) {
        glActiveTexture(GL_TEXTURE0 + i);
        glBindTexture(GL_TEXTURE_2D, host_tex[i]);
        if (host_sampler) glBindSampler(i, i == 1 ? host_sampler : 0);
    }
    glActiveTexture(GL_TEXTURE1);
    glUseProgram(host_program);
    if (host_vao) glBindVertexArray(host_vao);
    glBindBuffer(GL_ARRAY_BUFFER, host_vbo);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 12, (const void *)0);
    glEnableVertexAttribArray(0);
    if (host_pbo) glBindBuffer(GL_PIXEL_UNPACK_BUFFER, host_pbo);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 2);
    if (at_least(1, 0, 3)) {
        glPixelStorei(GL_UNPACK_ROW_LENGTH, 7);
        glPixelStorei(GL_UNPACK_SKIP_ROWS, 1);
        glPixelStorei(GL_UNPACK_SKIP_PIXELS, 3);
    }
    glBlendFuncSeparate(GL_SRC_COLOR, GL_DST_COLOR, GL_ONE, GL_ZERO);
    glBlendEquationSeparate(GL_FUNC_SUBTRACT, GL_FUNC_REVERSE_SUBTRACT);
    glScissor(1, 2, 3, 4);
    glClearColor(0.25f, 0.5f, 0.75f, 1);
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_FALSE);
    if (!state_es) glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
    for (int i = 0; i < 12; i++)
        if (cap_exists(i)) (i == 11 ? glDisable : glEnable)(state_caps[i]); /* all on; dither (on by default) off */
    state_read(known);
    /* Errors from here on are the library's. */
    for (GLenum e; (e = glGetError()) != GL_NO_ERROR;) fprintf(stderr, "gl-host: the host's own state setting raised 0x%04x\n", e);
}

/* Prints each field that differs from `known`; how many did. A GL error the library left counts too. */
static int state_compare(const struct gl_state *known) {
    struct gl_state now;
    state_read(&now);
    int changed = 0;
#define SAME_INTS(field, n, name) \
    for (int i = 0; i < (n); i++) \
        if (known->field[i] != now.field[i]) printf("state %s[%d]: %d -> %d\n", name, i, (int)known->field[i], (int)now.field[i]), changed++;
#define SAME_INT(field, name) \
    if (known->field != now.field) printf("state %s: %d -> %d\n", name, (int)known->field, (int)now.field), changed++;
    SAME_INT(program, "program") SAME_INT(active, "active texture") SAME_INTS(tex, 3, "texture") SAME_INTS(sampler, 3, "sampler")
    SAME_INT(vao, "vertex array") SAME_INT(array_buffer, "array buffer") SAME_INT(unpack_buffer, "unpack buffer")
    SAME_INT(attrib_enabled, "attribute 0 enabled") SAME_INT(attrib_size, "attribute 0 size") SAME_INT(attrib_stride, "attribute 0 stride")
    SAME_INT(attrib_buffer, "attribute 0 buffer") SAME_INTS(unpack, 4, "unpack alignment/row length/skip rows/skip pixels")
    SAME_INTS(blend_factors, 6, "blend src rgb/dst rgb/src alpha/dst alpha/equation rgb/equation alpha")
    SAME_INTS(scissor_box, 4, "scissor box") SAME_INTS(viewport, 4, "viewport") SAME_INT(draw_fbo, "draw framebuffer")
    SAME_INT(read_fbo, "read framebuffer") SAME_INTS(polygon, 2, "polygon mode") SAME_INTS(mask, 4, "colour mask")
    for (int i = 0; i < 12; i++)
        if (known->enables[i] != now.enables[i]) printf("state %s: %d -> %d\n", state_cap_names[i], known->enables[i], now.enables[i]), changed++;
    for (int i = 0; i < 4; i++)
        if (known->clear[i] != now.clear[i]) printf("state clear colour[%d]: %g -> %g\n", i, known->clear[i], now.clear[i]), changed++;
    for (GLenum e; (e = glGetError()) != GL_NO_ERROR;) printf("state gl error 0x%04x\n", e), changed++;
    fflush(stdout);
    return changed;
}
#endif
