// Cosine and sine of float rotations, to double precision: one rotation (every moved body), or the
// two of a pair at once (cw_overlap's rotated pairs), lane by lane the same operations.
#include "internal.h"

#include <math.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static inline uint64_t double_bits(double x)
{
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    return bits;
}

static inline double double_of_bits(uint64_t bits)
{
    double x;
    memcpy(&x, &bits, sizeof x);
    return x;
}

// The spacing of floats at x's magnitude (its unit in the last place), from the exponent bits.
static double float_ulp(float x)
{
    int exponent = (int)((cw__float_bits(x) >> 23) & 0xff);
    return double_of_bits((uint64_t)(exponent > 0 ? exponent - 150 + 1023 : 1023 - 149) << 52);
}

// Whether cw__cos_sin() computes the series rather than take a shortcut (an unrotated sprite, or
// libm beyond 1e5 rad).
static inline bool takes_series(float angle) { return angle != 0.0f && fabs((double)angle) < 1e5; }

// Cosine and sine of a float rotation to double precision, about six times faster than two libm
// calls: reduce by multiples of pi/2 (pi/2 split in two parts so k * part1 is exact), then the
// minimax polynomials of fdlibm's sine and cosine kernels on [-pi/4, pi/4] (within one unit of the
// last place of libm's answer). A rotation that is the float nearest a multiple of 90 degrees (float
// pi/2 is 4e-8 rad short of the real one) is taken as that exact multiple, so a sprite turned by a
// float pi/2 stays on the texel grid; anything further away, however little, is kept as given.
// Beyond 1e5 rad: libm, as given (the one place where answers may differ between machines, whose
// libms differ in the last bit). Every moved body pays this, so it is written for latency: k is
// rounded by adding and taking away 1.5 * 2^52 (no conversions on the way to the remainder), the
// series go in independent halves (Estrin's scheme), and the quadrant swaps and signs the two
// results by their bits, without branches (k is as random as the rotations). Here the series for
// |x| < 1e5, a remainder below `snap` taken as zero; cw__cos_sin() adds the float rule.
static inline void series_cos_sin(double x, double snap, double *c, double *s)
{
    const double pio2_hi = 1.5707963267341256e+00, pio2_lo = 6.0771005065061922e-11, to_nearest = 0x1.8p52;
    double k = (x * 0.63661977236758134 + to_nearest) - to_nearest;
    double r = (x - k * pio2_hi) - k * pio2_lo;
    if (fabs(r) < snap)
        r = 0;
    double z = r * r, z2 = z * z, z4 = z2 * z2;
    double sin_tail = ((-1.66666666666666324348e-01 + z * 8.33333333332248946124e-03) +
                       z2 * (-1.98412698298579493134e-04 + z * 2.75573137070700676789e-06)) +
                      z4 * (-2.50507602534068634195e-08 + z * 1.58969099521155010221e-10);
    double cos_tail = ((4.16666666666666019037e-02 - z * 1.38888888888741095749e-03) +
                       z2 * (2.48015872894767294178e-05 - z * 2.75573143513906633035e-07)) +
                      z4 * (2.08757232129817482790e-09 - z * 1.13596475577881948265e-11);
    // sin r = r + r z S(z) and cos r = 1 + (-z/2 + z^2 C(z)) add the small parts last.
    double sr = r + (r * z) * sin_tail, cr = 1 + (z * -0.5 + z2 * cos_tail);
    // Quadrant q = k mod 4: cos is cr, -sr, -cr, sr and sin is sr, cr, -sr, -cr.
    int q = (int)k & 3;
    uint64_t swap = 0 - (uint64_t)(q & 1), cb = double_bits(cr), sb = double_bits(sr);
    *c = double_of_bits(((cb & ~swap) | (sb & swap)) ^ ((uint64_t)((q + 1) & 2) << 62));
    *s = double_of_bits(((sb & ~swap) | (cb & swap)) ^ ((uint64_t)(q & 2) << 62));
}

void cw__cos_sin(float angle, double *c, double *s)
{
    if (!takes_series(angle)) { // the common unrotated sprite needs no trigonometry
        *c = angle == 0.0f ? 1.0 : cos((double)angle);
        *s = angle == 0.0f ? 0.0 : sin((double)angle);
        return;
    }
    // Half a float step: only the float nearest a multiple of 90 degrees (the next is 1e-7 rad off).
    series_cos_sin(angle, 0.5 * float_ulp(angle), c, s);
}

#if defined(__SSE2__)

// The sine and cosine series of two remainders at once: cw__cos_sin()'s expressions in its order.
static inline void series2(__m128d r, __m128d *sr, __m128d *cr)
{
    const __m128d z = _mm_mul_pd(r, r), z2 = _mm_mul_pd(z, z), z4 = _mm_mul_pd(z2, z2);
#define CW__AFFINE(a, op, b) op(_mm_set1_pd(a), _mm_mul_pd(z, _mm_set1_pd(b)))
    __m128d sin_tail = _mm_add_pd(
        _mm_add_pd(CW__AFFINE(-1.66666666666666324348e-01, _mm_add_pd, 8.33333333332248946124e-03),
                   _mm_mul_pd(z2, CW__AFFINE(-1.98412698298579493134e-04, _mm_add_pd, 2.75573137070700676789e-06))),
        _mm_mul_pd(z4, CW__AFFINE(-2.50507602534068634195e-08, _mm_add_pd, 1.58969099521155010221e-10)));
    __m128d cos_tail = _mm_add_pd(
        _mm_add_pd(CW__AFFINE(4.16666666666666019037e-02, _mm_sub_pd, 1.38888888888741095749e-03),
                   _mm_mul_pd(z2, CW__AFFINE(2.48015872894767294178e-05, _mm_sub_pd, 2.75573143513906633035e-07))),
        _mm_mul_pd(z4, CW__AFFINE(2.08757232129817482790e-09, _mm_sub_pd, 1.13596475577881948265e-11)));
#undef CW__AFFINE
    *sr = _mm_add_pd(r, _mm_mul_pd(_mm_mul_pd(r, z), sin_tail));
    *cr = _mm_add_pd(_mm_set1_pd(1.0), _mm_add_pd(_mm_mul_pd(z, _mm_set1_pd(-0.5)), _mm_mul_pd(z2, cos_tail)));
}

void cw__cos_sin2(float a, float b, double c[2], double s[2])
{
    if (!takes_series(a) || !takes_series(b)) {
        cw__cos_sin(a, &c[0], &s[0]);
        cw__cos_sin(b, &c[1], &s[1]);
        return;
    }
    const __m128d x = _mm_setr_pd(a, b), to_nearest = _mm_set1_pd(0x1.8p52);
    // k + 1.5 * 2^52 holds k in its low bits (two's complement below 2^51), the quadrant in the last two.
    const __m128d shifted = _mm_add_pd(_mm_mul_pd(x, _mm_set1_pd(0.63661977236758134)), to_nearest);
    const __m128d k = _mm_sub_pd(shifted, to_nearest);
    __m128d r = _mm_sub_pd(_mm_sub_pd(x, _mm_mul_pd(k, _mm_set1_pd(1.5707963267341256e+00))),
                           _mm_mul_pd(k, _mm_set1_pd(6.0771005065061922e-11)));
    const __m128d half_ulp = _mm_setr_pd(0.5 * float_ulp(a), 0.5 * float_ulp(b));
    r = _mm_andnot_pd(_mm_cmplt_pd(_mm_andnot_pd(_mm_set1_pd(-0.0), r), half_ulp), r); // +0 as cw__cos_sin's r = 0
    __m128d sr, cr;
    series2(r, &sr, &cr);
    const __m128i one = _mm_set1_epi64x(1), two = _mm_set1_epi64x(2);
    const __m128i q = _mm_and_si128(_mm_castpd_si128(shifted), _mm_set1_epi64x(3));
    const __m128i swap = _mm_sub_epi64(_mm_setzero_si128(), _mm_and_si128(q, one));
    const __m128i cb = _mm_castpd_si128(cr), sb = _mm_castpd_si128(sr);
    const __m128i cos_sign = _mm_slli_epi64(_mm_and_si128(_mm_add_epi64(q, one), two), 62);
    const __m128i sin_sign = _mm_slli_epi64(_mm_and_si128(q, two), 62);
    const __m128i cos_bits = _mm_xor_si128(_mm_or_si128(_mm_andnot_si128(swap, cb), _mm_and_si128(sb, swap)), cos_sign);
    const __m128i sin_bits = _mm_xor_si128(_mm_or_si128(_mm_andnot_si128(swap, sb), _mm_and_si128(cb, swap)), sin_sign);
    _mm_storeu_pd(c, _mm_castsi128_pd(cos_bits));
    _mm_storeu_pd(s, _mm_castsi128_pd(sin_bits));
}
#else
void cw__cos_sin2(float a, float b, double c[2], double s[2])
{
    cw__cos_sin(a, &c[0], &s[0]);
    cw__cos_sin(b, &c[1], &s[1]);
}
#endif
