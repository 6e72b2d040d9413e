/// @file textbook.c
/// The textbook per-texel collision test used as the benchmark's baseline (see textbook.h).
#include "textbook.h"

#include <math.h>
#include <stdlib.h>

bool tb_mask_from_rgba(tb_mask *out, const uint8_t *pixels, int width, int height, int pitch,
                       uint8_t alpha_threshold) {
    out->w = width;
    out->h = height;
    out->bits = malloc((size_t)width * (size_t)height);
    if (out->bits == NULL) {
        return false;
    }
    for (int y = 0; y < height; y++) {
        const uint8_t *row = pixels + (size_t)y * (size_t)pitch;
        for (int x = 0; x < width; x++) {
            out->bits[(size_t)y * (size_t)width + (size_t)x] = row[4 * x + 3] >= alpha_threshold ? 1 : 0;
        }
    }
    return true;
}

void tb_mask_free(tb_mask *mask) {
    free(mask->bits);
    mask->bits = NULL;
}

void tb_affine(const cw_transform *ta, const cw_transform *tb, double m[4], double c[2]) {
    // A-local p -> world: pa + Ra * ((p - oa) o sa)
    // world w -> B-local: ob + (Rb^T * (w - pb)) / sb
    // so B-local = M * p + c with M = diag(1/sb) * Rb^T * Ra * diag(sa).
    const double ca = cos((double)ta->rotation), sa = sin((double)ta->rotation);
    const double cb = cos((double)tb->rotation), sb = sin((double)tb->rotation);
    // Rb^T * Ra = R(ta.rot - tb.rot), written out from the two matrices.
    const double r00 = cb * ca + sb * sa, r01 = -cb * sa + sb * ca;
    const double r10 = -sb * ca + cb * sa, r11 = sb * sa + cb * ca;
    const double isx = 1.0 / (double)tb->scale.x, isy = 1.0 / (double)tb->scale.y;
    const double m00 = r00 * (double)ta->scale.x * isx, m01 = r01 * (double)ta->scale.y * isx;
    const double m10 = r10 * (double)ta->scale.x * isy, m11 = r11 * (double)ta->scale.y * isy;
    // c = M * (-oa) + diag(1/sb) * Rb^T * (pa - pb) + ob
    const double dx = (double)ta->position.x - (double)tb->position.x;
    const double dy = (double)ta->position.y - (double)tb->position.y;
    const double tx = (cb * dx + sb * dy) * isx, ty = (-sb * dx + cb * dy) * isy;
    const double ox = -(double)ta->origin.x, oy = -(double)ta->origin.y;
    c[0] = m00 * ox + m01 * oy + tx + (double)tb->origin.x;
    c[1] = m10 * ox + m11 * oy + ty + (double)tb->origin.y;
    m[0] = m00;
    m[1] = m01;
    m[2] = m10;
    m[3] = m11;
}

bool tb_overlap(const tb_mask *a, const cw_transform *ta, const tb_mask *b, const cw_transform *tb) {
    double m[4], c[2];
    tb_affine(ta, tb, m, c);
    const double m00 = m[0], m01 = m[1], m10 = m[2], m11 = m[3], c0 = c[0], c1 = c[1];

    // Stepping is done in 32.32 fixed point (int64): the classic rotozoomer loop. An integer add has
    // one cycle of latency where a float add has four, and one unsigned compare per axis does the
    // whole bounds check. 2^-32 texel per step is far below the test's own half-texel sampling error.
    // +0.5 is folded into the start so that floor(x + 0.5) is the integer part of a value >= 0.
    const double one = 4294967296.0; // 2^32
    const int64_t du = (int64_t)(m00 * one), dv = (int64_t)(m10 * one);
    const int64_t dru = (int64_t)(m01 * one), drv = (int64_t)(m11 * one);
    int64_t ru = (int64_t)((c0 + 0.5) * one), rv = (int64_t)((c1 + 0.5) * one);
    const int wa = a->w, ha = a->h, wb = b->w;
    const uint64_t ulim = (uint64_t)b->w << 32, vlim = (uint64_t)b->h << 32;
    const unsigned char *abits = a->bits, *bbits = b->bits;

    for (int j = 0; j < ha; j++) {
        const unsigned char *arow = abits + (size_t)j * (size_t)wa;
        int64_t u = ru, v = rv;
        for (int i = 0; i < wa; i++) {
            // (uint64_t)u < ulim <=> 0 <= u < w: negative values wrap to huge ones.
            if (arow[i] && (uint64_t)u < ulim && (uint64_t)v < vlim) {
                if (bbits[(size_t)(v >> 32) * (size_t)wb + (size_t)(u >> 32)]) {
                    return true;
                }
            }
            u += du;
            v += dv;
        }
        ru += dru;
        rv += drv;
    }
    return false;
}

bool tb_overlap_float(const tb_mask *a, const cw_transform *ta, const tb_mask *b, const cw_transform *tb) {
    double m[4], c[2];
    tb_affine(ta, tb, m, c);
    // The loop as the issue describes it: float stepping along A's rows and columns, floor(x + 0.5).
    const float du = (float)m[0], dv = (float)m[2], dru = (float)m[1], drv = (float)m[3];
    float ru = (float)c[0], rv = (float)c[1];
    const int wa = a->w, ha = a->h, wb = b->w, hb = b->h;
    for (int j = 0; j < ha; j++) {
        const unsigned char *arow = a->bits + (size_t)j * (size_t)wa;
        float u = ru, v = rv;
        for (int i = 0; i < wa; i++, u += du, v += dv) {
            if (!arow[i]) {
                continue;
            }
            const int x = (int)floorf(u + 0.5f), y = (int)floorf(v + 0.5f);
            if (x >= 0 && y >= 0 && x < wb && y < hb && b->bits[(size_t)y * (size_t)wb + (size_t)x]) {
                return true;
            }
        }
        ru += dru;
        rv += drv;
    }
    return false;
}
