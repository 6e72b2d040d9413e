/// @file bench_narrow.c
/// Narrow-phase benchmark: cw_overlap() against the textbook per-texel test (textbook.c) on five
/// fixed, seeded pair lists (cases.c), and on the unrotated ones (2, 4, 5) against the pygame-style
/// word-wise bitmask test (bitmask_peer.c) too. Prints Markdown tables for the README.
///
/// Usage: bench_narrow [--quick] [--case N] [--repeats N] [--check] [--fixed-point]
///   --fixed-point  baseline is the 32.32 fixed-point textbook loop instead of the float one
///   --quick      1 repeat, 256 pairs per case, each list timed once (also handy under callgrind)
///   --case N     run only case N (1..5)
///   --repeats N  timed repeats per method (default 7; the median is reported)
///   --check      no timing: for every pair, check symmetry, that cases 3 and 4 never overlap, that
///                the manifold variant agrees with the plain test (and its depth separates), and
///                compare with a supersampled reference (~10 s)
#define _POSIX_C_SOURCE 199309L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "measure.h"
#include "cases.h"
#include "collworld.h"
#include "textbook.h"

#define DEFAULT_PAIRS 4096
#define QUICK_PAIRS 256
#define DEFAULT_REPEATS 7
#define MAX_REPEATS 101
#define MIN_RUN_SECONDS 0.020

static volatile unsigned long long sink;

typedef struct options {
    bool quick;
    bool check;
    int only_case; // 0 = all
    int repeats;
} options;

typedef struct case_result {
    int touching_cw;
    int touching_tb;
    int tb_only;  // textbook says touching, collworld says not
    int cw_only;  // collworld says touching, textbook says not
    int errors;   // cw_overlap calls that set an error
    double cw_ns, tb_ns;             // medians, ns per pair
    double cw_min, cw_max, tb_min, tb_max; // spread of the timed runs, ns per pair
    long cw_loops, tb_loops;         // passes over the list per timed run
    bool has_peer;                   // every pair unrotated at unit scale and a whole offset apart
    int peer_differs;                // pairs where the bitmask peer and collworld disagree
    double bp_ns;                    // the bitmask peer's median, ns per pair (timed with collworld)
    double cw_ns_with_peer;          // collworld's median in the runs interleaved with the peer
    double cw_ns_floats, cw_ns_vec2s; // the same, each transform written just before the call, float
                                      // by float or as cw_vec2s (see time_cw_fresh)
    double placed_ns;                // cw_placed_overlap's median on placements made beforehand
    double tb_ns_with_placed;        // the textbook's median in the runs interleaved with it
    double bp_ns_with_placed;        // the peer's median in those runs (0: no peer)
    int placed_differs;              // pairs where cw_placed_overlap and cw_overlap disagree
} case_result;

/// A pair as the pygame-style peer sees it: two bitmasks and b's offset in a's texels.
typedef struct peer_pair {
    const bp_mask *a, *b;
    int dx, dy;
} peer_pair;

static bool run_cw(const sprite *sp, const bench_pair *p, cw_manifold *m) {
    return cw_overlap(&sp[p->a].shape, &p->ta, &sp[p->b].shape, &p->tb, m);
}

/// Which textbook loop is the baseline: float stepping (default, as the issue describes it) or the
/// 32.32 fixed-point rotozoomer (--fixed-point), about 30% faster.
static bool fixed_point_textbook;

static bool run_tb(const sprite *sp, const bench_pair *p) {
    return fixed_point_textbook ? tb_overlap(&sp[p->a].tbmask, &p->ta, &sp[p->b].tbmask, &p->tb)
                                : tb_overlap_float(&sp[p->a].tbmask, &p->ta, &sp[p->b].tbmask, &p->tb);
}

/// cw_overlap() on the pair's transforms written into locals just before the call, float by float
/// (as `t.position.x = x; ...` does with values computed apart) or as cw_vec2 fields: a load wider
/// than the stores it reads back waits for them, so how a caller writes a transform can show in the
/// call's time. Out of line, as a caller's own function would be; a compiler barrier after each
/// float keeps the compiler from merging the copies into wider stores, as it may here.
#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#define ALWAYS_INLINE inline __attribute__((always_inline))
#define STORE_APART() __asm__ volatile("" ::: "memory")
#else
#define NOINLINE
#define ALWAYS_INLINE inline
#define STORE_APART() ((void)0)
#endif
static void write_floats(cw_transform *t, const cw_transform *from) {
    t->position.x = from->position.x;
    STORE_APART();
    t->position.y = from->position.y;
    STORE_APART();
    t->rotation = from->rotation;
    STORE_APART();
    t->scale.x = from->scale.x;
    STORE_APART();
    t->scale.y = from->scale.y;
    STORE_APART();
    t->origin.x = from->origin.x;
    STORE_APART();
    t->origin.y = from->origin.y;
    STORE_APART();
}

static NOINLINE bool run_cw_fresh(const sprite *sp, const bench_pair *p, bool by_floats) {
    cw_transform ta, tb;
    if (by_floats) {
        write_floats(&ta, &p->ta);
        write_floats(&tb, &p->tb);
    } else {
        ta.position = p->ta.position, ta.rotation = p->ta.rotation, ta.scale = p->ta.scale, ta.origin = p->ta.origin;
        tb.position = p->tb.position, tb.rotation = p->tb.rotation, tb.scale = p->tb.scale, tb.origin = p->tb.origin;
    }
    return cw_overlap(&sp[p->a].shape, &ta, &sp[p->b].shape, &tb, NULL);
}

/// Where cw_overlap() finds each pair's transforms: in the list, or written just before the call.
typedef enum transforms_from { FROM_LIST, WRITTEN_AS_VEC2S, WRITTEN_BY_FLOATS } transforms_from;

/// Seconds for `loops` passes of cw_overlap(..., NULL) over the list. Inlined with `from` a
/// constant, so the list's timing loop has no test of it.
static ALWAYS_INLINE double time_cw_from(const sprite *sp, const bench_pair *pairs, int n, long loops,
                                          transforms_from from) {
    unsigned long long acc = 0;
    const double t0 = bm_now_ms() / 1e3;
    for (long l = 0; l < loops; l++) {
        for (int k = 0; k < n; k++) {
            const bool hit = from == FROM_LIST ? run_cw(sp, &pairs[k], NULL)
                                               : run_cw_fresh(sp, &pairs[k], from == WRITTEN_BY_FLOATS);
            acc += hit ? (unsigned long long)k + 1u : 0u;
        }
    }
    const double t1 = bm_now_ms() / 1e3;
    sink += acc;
    return t1 - t0;
}

static double time_cw(const sprite *sp, const bench_pair *pairs, int n, long loops) {
    return time_cw_from(sp, pairs, n, loops, FROM_LIST);
}

/// Seconds for `loops` passes of the textbook test over the list.
static double time_tb(const sprite *sp, const bench_pair *pairs, int n, long loops) {
    unsigned long long acc = 0;
    const double t0 = bm_now_ms() / 1e3;
    for (long l = 0; l < loops; l++) {
        for (int k = 0; k < n; k++) {
            acc += run_tb(sp, &pairs[k]) ? (unsigned long long)k + 1u : 0u;
        }
    }
    const double t1 = bm_now_ms() / 1e3;
    sink += acc;
    return t1 - t0;
}

/// Where the corner of a 64x64 sprite's texel (0, 0) lands under t, along x (axis 0) or y
/// (unrotated, scale +-1: mirrored, column 0 is the original's last).
static double sprite_corner(const cw_transform *t, int axis) {
    const double p = axis ? t->position.y : t->position.x, o = axis ? t->origin.y : t->origin.x;
    const double scale = axis ? t->scale.y : t->scale.x;
    return scale > 0 ? p - o : p + o - SPRITE_SIZE;
}

/// The peer's view of every pair; false if some pair is rotated, scaled, mirrored in y or not a
/// whole number of texels from the other (the peer cannot test it).
static bool peer_pairs(const sprite *sp, const bench_case *c, peer_pair *out) {
    for (int k = 0; k < c->count; k++) {
        const bench_pair *p = &c->pairs[k];
        const double dx = sprite_corner(&p->tb, 0) - sprite_corner(&p->ta, 0);
        const double dy = sprite_corner(&p->tb, 1) - sprite_corner(&p->ta, 1);
        if (p->ta.rotation != 0 || p->tb.rotation != 0 || fabsf(p->ta.scale.x) != 1 || fabsf(p->tb.scale.x) != 1 ||
            p->ta.scale.y != 1 || p->tb.scale.y != 1 || dx != floor(dx) || dy != floor(dy)) {
            return false;
        }
        out[k] = (peer_pair){&sp[p->a].bpmask[p->ta.scale.x < 0], &sp[p->b].bpmask[p->tb.scale.x < 0], (int)dx,
                             (int)dy};
    }
    return true;
}

/// Seconds for `loops` passes of the peer over the list.
static double time_bp(const peer_pair *pairs, int n, long loops) {
    unsigned long long acc = 0;
    const double t0 = bm_now_ms() / 1e3;
    for (long l = 0; l < loops; l++) {
        for (int k = 0; k < n; k++) {
            acc += bp_overlap(pairs[k].a, pairs[k].b, pairs[k].dx, pairs[k].dy) ? (unsigned long long)k + 1u : 0u;
        }
    }
    const double t1 = bm_now_ms() / 1e3;
    sink += acc;
    return t1 - t0;
}

/// Seconds for `loops` passes of cw_overlap with a manifold over the list.
static double time_cw_manifold(const sprite *sp, const bench_pair *pairs, int n, long loops) {
    unsigned long long acc = 0;
    float facc = 0.0f;
    const double t0 = bm_now_ms() / 1e3;
    for (long l = 0; l < loops; l++) {
        for (int k = 0; k < n; k++) {
            cw_manifold m = {{0.0f, 0.0f}, {0.0f, 0.0f}, 0.0f};
            acc += run_cw(sp, &pairs[k], &m) ? 1u : 0u;
            facc += m.depth + m.normal.x + m.point.y;
        }
    }
    const double t1 = bm_now_ms() / 1e3;
    sink += acc + (unsigned long long)(facc != facc ? 1 : 0);
    return t1 - t0;
}

/// Passes over the list so that one timed run lasts at least MIN_RUN_SECONDS (1 when quick).
static long calibrate(double one_pass, bool quick) {
    if (quick || one_pass >= MIN_RUN_SECONDS) {
        return 1;
    }
    if (one_pass <= 0.0) {
        return 1000;
    }
    return (long)ceil(MIN_RUN_SECONDS / one_pass);
}

static void print_transform(const char *label, const cw_transform *t) {
    printf("    %s = {position {%.9g, %.9g}, rotation %.9g, scale {%.9g, %.9g}, origin {%.9g, %.9g}}\n", label,
           (double)t->position.x, (double)t->position.y, (double)t->rotation, (double)t->scale.x,
           (double)t->scale.y, (double)t->origin.x, (double)t->origin.y);
}

static void print_pair(const sprite *sp, const bench_case *c, int k) {
    const bench_pair *p = &c->pairs[k];
    printf("  case %d pair %d: a = %s, b = %s\n", c->number, k, sp[p->a].name, sp[p->b].name);
    print_transform("ta", &p->ta);
    print_transform("tb", &p->tb);
}

/// Answers of both methods (untimed) and the touching / disagreement counts.
static void accuracy(const sprite *sp, const bench_case *c, case_result *res) {
    for (int k = 0; k < c->count; k++) {
        cw_clear_error();
        const bool cw = run_cw(sp, &c->pairs[k], NULL);
        if (cw_last_error()[0] != '\0') {
            res->errors++;
        }
        const bool tb = run_tb(sp, &c->pairs[k]);
        res->touching_cw += cw;
        res->touching_tb += tb;
        res->tb_only += tb && !cw;
        res->cw_only += cw && !tb;
    }
}

static void time_case(const sprite *sp, const bench_case *c, const options *o, case_result *res) {
    double cw_t[MAX_REPEATS], tb_t[MAX_REPEATS];
    // Warm-up pass of each doubles as the calibration.
    res->cw_loops = calibrate(time_cw(sp, c->pairs, c->count, 1), o->quick);
    res->tb_loops = calibrate(time_tb(sp, c->pairs, c->count, 1), o->quick);
    for (int r = 0; r < o->repeats; r++) {
        cw_t[r] = time_cw(sp, c->pairs, c->count, res->cw_loops) * 1e9 / ((double)res->cw_loops * c->count);
        tb_t[r] = time_tb(sp, c->pairs, c->count, res->tb_loops) * 1e9 / ((double)res->tb_loops * c->count);
    }
    res->cw_ns = bm_median(cw_t, o->repeats);
    res->tb_ns = bm_median(tb_t, o->repeats);
    res->cw_min = cw_t[0];
    res->cw_max = cw_t[o->repeats - 1];
    res->tb_min = tb_t[0];
    res->tb_max = tb_t[o->repeats - 1];
}

/// Seconds for `loops` passes of cw_placed_overlap over the placed pairs (two placements a pair).
static double time_placed(const cw_placed *placed, int n, long loops) {
    unsigned long long acc = 0;
    const double t0 = bm_now_ms() / 1e3;
    for (long l = 0; l < loops; l++) {
        for (int k = 0; k < n; k++) {
            acc += cw_placed_overlap(&placed[2 * k], &placed[2 * k + 1], NULL) ? (unsigned long long)k + 1u : 0u;
        }
    }
    const double t1 = bm_now_ms() / 1e3;
    sink += acc;
    return t1 - t0;
}

/// cw_placed_overlap on placements made once beforehand (what a caller pays a pair when each
/// placement meets many others), checked against cw_overlap pair by pair, timed interleaved with
/// the textbook loop and, where it runs, the peer.
static void placed_case(const sprite *sp, const bench_case *c, const peer_pair *peers, const options *o,
                        case_result *res) {
    cw_placed *placed = malloc(sizeof(cw_placed) * 2 * (size_t)c->count);
    if (placed == NULL) {
        return;
    }
    for (int k = 0; k < c->count; k++) {
        const bench_pair *p = &c->pairs[k];
        if (!cw_place(&sp[p->a].shape, &p->ta, &placed[2 * k]) || !cw_place(&sp[p->b].shape, &p->tb, &placed[2 * k + 1])) {
            res->placed_differs++;
            continue;
        }
        res->placed_differs += cw_placed_overlap(&placed[2 * k], &placed[2 * k + 1], NULL) != run_cw(sp, p, NULL);
    }
    const bool peer = peers != NULL;
    double pl_t[MAX_REPEATS], tb_t[MAX_REPEATS], bp_t[MAX_REPEATS];
    const long pl_loops = calibrate(time_placed(placed, c->count, 1), o->quick);
    const long tb_loops = calibrate(time_tb(sp, c->pairs, c->count, 1), o->quick);
    const long bp_loops = peer ? calibrate(time_bp(peers, c->count, 1), o->quick) : 0;
    for (int r = 0; r < o->repeats; r++) {
        pl_t[r] = time_placed(placed, c->count, pl_loops) * 1e9 / ((double)pl_loops * c->count);
        tb_t[r] = time_tb(sp, c->pairs, c->count, tb_loops) * 1e9 / ((double)tb_loops * c->count);
        bp_t[r] = peer ? time_bp(peers, c->count, bp_loops) * 1e9 / ((double)bp_loops * c->count) : 0;
    }
    res->placed_ns = bm_median(pl_t, o->repeats);
    res->tb_ns_with_placed = bm_median(tb_t, o->repeats);
    res->bp_ns_with_placed = peer ? bm_median(bp_t, o->repeats) : 0;
    free(placed);
}

/// The table for placements made once.
static void print_placed_table(const bench_case *cases, const case_result *res, const options *o) {
    printf("\nplaced once (cw_place for every sprite beforehand, then cw_placed_overlap a pair), interleaved with "
           "the textbook loop and the pygame-style peer\n");
    printf("\n| case | cw_placed_overlap ns/pair | textbook ns/pair | speed-up | bitmask peer ns/pair | faster than "
           "the peer by |\n");
    printf("|---|---:|---:|---:|---:|---:|\n");
    for (int n = 1; n <= CASE_COUNT; n++) {
        const case_result *r = &res[n - 1];
        if (o->only_case != 0 && o->only_case != n) {
            continue;
        }
        if (r->bp_ns_with_placed > 0) {
            printf("| %s | %.1f | %.1f | %.1fx | %.1f | %.2fx |\n", cases[n - 1].name, r->placed_ns,
                   r->tb_ns_with_placed, r->tb_ns_with_placed / r->placed_ns, r->bp_ns_with_placed,
                   r->bp_ns_with_placed / r->placed_ns);
        } else {
            printf("| %s | %.1f | %.1f | %.1fx | - | - |\n", cases[n - 1].name, r->placed_ns, r->tb_ns_with_placed,
                   r->tb_ns_with_placed / r->placed_ns);
        }
    }
}

/// The pygame-style peer against collworld, where every pair is one the peer can test: answers
/// compared pair by pair (both are exact at whole offsets), then both timed, interleaved.
static void peer_case(const sprite *sp, const bench_case *c, const peer_pair *pairs, const options *o,
                      case_result *res) {
    res->has_peer = true;
    for (int k = 0; k < c->count; k++) {
        const peer_pair *q = &pairs[k];
        res->peer_differs += bp_overlap(q->a, q->b, q->dx, q->dy) != run_cw(sp, &c->pairs[k], NULL);
    }
    double cw_t[MAX_REPEATS], bp_t[MAX_REPEATS], floats_t[MAX_REPEATS], vec2s_t[MAX_REPEATS];
    const long cw_loops = calibrate(time_cw(sp, c->pairs, c->count, 1), o->quick);
    const long bp_loops = calibrate(time_bp(pairs, c->count, 1), o->quick);
    const double per_pass = 1e9 / ((double)cw_loops * c->count);
    for (int r = 0; r < o->repeats; r++) {
        cw_t[r] = time_cw(sp, c->pairs, c->count, cw_loops) * per_pass;
        bp_t[r] = time_bp(pairs, c->count, bp_loops) * 1e9 / ((double)bp_loops * c->count);
        floats_t[r] = time_cw_from(sp, c->pairs, c->count, cw_loops, WRITTEN_BY_FLOATS) * per_pass;
        vec2s_t[r] = time_cw_from(sp, c->pairs, c->count, cw_loops, WRITTEN_AS_VEC2S) * per_pass;
    }
    res->cw_ns_with_peer = bm_median(cw_t, o->repeats);
    res->bp_ns = bm_median(bp_t, o->repeats);
    res->cw_ns_floats = bm_median(floats_t, o->repeats);
    res->cw_ns_vec2s = bm_median(vec2s_t, o->repeats);
}

/// The peer's view of the case's pairs (malloc'd), or NULL where it cannot test them all.
static peer_pair *make_peer_pairs(const sprite *sp, const bench_case *c) {
    peer_pair *pairs = malloc(sizeof(peer_pair) * (size_t)c->count);
    if (pairs != NULL && !peer_pairs(sp, c, pairs)) {
        free(pairs);
        pairs = NULL;
    }
    return pairs;
}

/// The table against the peer, for the cases it can run.
static void print_peer_table(const bench_case *cases, const case_result *res, const options *o) {
    printf("\nagainst the pygame-style word-wise bitmask test (bitmask_peer.c), on the cases whose pairs it "
           "can test (unrotated, unscaled, whole offsets; mirrored sprites from a mirrored mask)\n");
    printf("\n| case | pairs | touching | collworld ns/pair | bitmask peer ns/pair | collworld faster by | "
           "collworld, transforms just written as cw_vec2s / float by float |\n");
    printf("|---|---:|---:|---:|---:|---:|---:|\n");
    for (int n = 1; n <= CASE_COUNT; n++) {
        const case_result *r = &res[n - 1];
        if ((o->only_case != 0 && o->only_case != n) || !r->has_peer) {
            continue;
        }
        printf("| %s | %d | %d | %.1f | %.1f | %.2fx | %.1f / %.1f |\n", cases[n - 1].name, cases[n - 1].count,
               r->touching_cw, r->cw_ns_with_peer, r->bp_ns, r->bp_ns / r->cw_ns_with_peer, r->cw_ns_vec2s,
               r->cw_ns_floats);
    }
}

/// Manifold cost on the pairs of case 1 that collworld says touch.
static void manifold_cost(const sprite *sp, const bench_case *c1, const options *o) {
    bench_pair *touching = malloc(sizeof(bench_pair) * (size_t)c1->count);
    if (touching == NULL) {
        return;
    }
    int n = 0;
    for (int k = 0; k < c1->count; k++) {
        if (run_cw(sp, &c1->pairs[k], NULL)) {
            touching[n++] = c1->pairs[k];
        }
    }
    if (n == 0) {
        printf("\nmanifold: no touching pairs in case 1\n");
        free(touching);
        return;
    }
    double plain[MAX_REPEATS], with[MAX_REPEATS];
    const long lp = calibrate(time_cw(sp, touching, n, 1), o->quick);
    const long lm = calibrate(time_cw_manifold(sp, touching, n, 1), o->quick);
    for (int r = 0; r < o->repeats; r++) {
        plain[r] = time_cw(sp, touching, n, lp) * 1e9 / ((double)lp * n);
        with[r] = time_cw_manifold(sp, touching, n, lm) * 1e9 / ((double)lm * n);
    }
    const double mp = bm_median(plain, o->repeats), mm = bm_median(with, o->repeats);
    printf("\nmanifold cost (case 1, %d touching pairs): %.1f ns/pair with manifold vs %.1f ns/pair plain "
           "(%.1fx)\n",
           n, mm, mp, mm / mp);
    free(touching);
}

/// Independent reference for --check: n x n sample points strictly inside every opaque texel of A,
/// each mapped (in double) into B and tested against the B texel that contains it. A hit is a
/// point inside both shapes, so a real overlap; a miss can still hide an overlap thinner than the
/// sample spacing.
static bool ref_overlap(const sprite *sp, const bench_pair *p, int n) {
    const tb_mask *a = &sp[p->a].tbmask, *b = &sp[p->b].tbmask;
    double m[4], c[2];
    tb_affine(&p->ta, &p->tb, m, c);
    for (int j = 0; j < a->h; j++) {
        for (int i = 0; i < a->w; i++) {
            if (!a->bits[j * a->w + i]) {
                continue;
            }
            for (int t = 0; t < n; t++) {
                const double y = j + (t + 0.5) / n;
                for (int s = 0; s < n; s++) {
                    const double x = i + (s + 0.5) / n;
                    const double u = floor(m[0] * x + m[1] * y + c[0]), v = floor(m[2] * x + m[3] * y + c[1]);
                    if (u >= 0 && v >= 0 && u < b->w && v < b->h && b->bits[(int)v * b->w + (int)u]) {
                        return true;
                    }
                }
            }
        }
    }
    return false;
}

#define REF_SAMPLES 6
#define REF_SAMPLES_FINE 32

/// --check: symmetry, cases 3 and 4 never touching, manifold variant consistent, and agreement with
/// the supersampled reference.
static int check_case(const sprite *sp, const bench_case *c) {
    int asym = 0, bad_true = 0, errors = 0, mf_mismatch = 0, mf_normal = 0, mf_depth = 0, mf_sym = 0;
    int ref_missed = 0, ref_unconfirmed = 0;
    const int max_print = 5;
    for (int k = 0; k < c->count; k++) {
        const bench_pair *p = &c->pairs[k];
        const cw_shape *a = &sp[p->a].shape, *b = &sp[p->b].shape;
        cw_clear_error();
        const bool ab = cw_overlap(a, &p->ta, b, &p->tb, NULL);
        const bool ba = cw_overlap(b, &p->tb, a, &p->ta, NULL);
        if (cw_last_error()[0] != '\0') {
            if (errors++ < max_print) {
                printf("ERROR: cw_overlap failed: %s\n", cw_last_error());
                print_pair(sp, c, k);
            }
        }
        if (ab != ba) {
            if (asym++ < max_print) {
                printf("ASYMMETRIC: cw_overlap(a,b) = %d, cw_overlap(b,a) = %d\n", ab, ba);
                print_pair(sp, c, k);
            }
        }
        if ((c->number == 3 || c->number == 4) && (ab || ba)) {
            if (bad_true++ < max_print) {
                printf("WRONG: case %d must never overlap, got (a,b) = %d, (b,a) = %d\n", c->number, ab, ba);
                print_pair(sp, c, k);
            }
        }
        // Supersampled reference, both ways round (sampling A or sampling B).
        bench_pair swapped = *p;
        swapped.a = p->b;
        swapped.b = p->a;
        swapped.ta = p->tb;
        swapped.tb = p->ta;
        const bool ref = ref_overlap(sp, p, REF_SAMPLES) || ref_overlap(sp, &swapped, REF_SAMPLES);
        if (ref && !ab) {
            if (ref_missed++ < max_print) {
                printf("MISSED: the reference finds a point inside both shapes, cw_overlap says no\n");
                print_pair(sp, c, k);
            }
        } else if (ab && !ref && !ref_overlap(sp, p, REF_SAMPLES_FINE) &&
                   !ref_overlap(sp, &swapped, REF_SAMPLES_FINE)) {
            if (ref_unconfirmed++ < max_print) {
                printf("UNCONFIRMED: cw_overlap says yes, no sample of the %dx%d reference is inside both "
                       "(overlap thinner than 1/%d texel, or a false positive)\n",
                       REF_SAMPLES_FINE, REF_SAMPLES_FINE, REF_SAMPLES_FINE);
                print_pair(sp, c, k);
            }
        }
        cw_manifold mab = {{NAN, NAN}, {NAN, NAN}, NAN}, mba = mab;
        const bool ab_m = cw_overlap(a, &p->ta, b, &p->tb, &mab);
        const bool ba_m = cw_overlap(b, &p->tb, a, &p->ta, &mba);
        if (ab_m != ab || ba_m != ba) {
            if (mf_mismatch++ < max_print) {
                printf("MANIFOLD MISMATCH: with manifold (a,b) = %d (b,a) = %d, without %d %d\n", ab_m, ba_m, ab,
                       ba);
                print_pair(sp, c, k);
            }
        }
        if (ab_m) {
            const double len = hypot((double)mab.normal.x, (double)mab.normal.y);
            if (!(fabs(len - 1.0) < 1e-3) || !(mab.depth >= 0.0f)) {
                if (mf_normal++ < max_print) {
                    printf("MANIFOLD BAD: |normal| = %g, depth = %g\n", len, (double)mab.depth);
                    print_pair(sp, c, k);
                }
            }
            if (ba_m && (fabs((double)mab.normal.x + (double)mba.normal.x) > 1e-4 ||
                         fabs((double)mab.normal.y + (double)mba.normal.y) > 1e-4 ||
                         fabs((double)mab.depth - (double)mba.depth) > 1e-4 ||
                         fabs((double)mab.point.x - (double)mba.point.x) > 1e-4 ||
                         fabs((double)mab.point.y - (double)mba.point.y) > 1e-4)) {
                if (mf_sym++ < max_print) {
                    printf("MANIFOLD NOT SYMMETRIC: (a,b) point {%g, %g} normal {%g, %g} depth %g; (b,a) point "
                           "{%g, %g} normal {%g, %g} depth %g\n",
                           (double)mab.point.x, (double)mab.point.y, (double)mab.normal.x, (double)mab.normal.y,
                           (double)mab.depth, (double)mba.point.x, (double)mba.point.y, (double)mba.normal.x,
                           (double)mba.normal.y, (double)mba.depth);
                    print_pair(sp, c, k);
                }
            }
            // Moving B by normal * depth (plus a little float slack) must separate the shapes.
            cw_transform moved = p->tb;
            const float slack = 1e-3f;
            moved.position.x += mab.normal.x * (mab.depth + slack);
            moved.position.y += mab.normal.y * (mab.depth + slack);
            if (cw_overlap(a, &p->ta, b, &moved, NULL)) {
                if (mf_depth++ < max_print) {
                    printf("MANIFOLD DEPTH: moving B by normal {%g, %g} * (depth %g + %g) still overlaps\n",
                           (double)mab.normal.x, (double)mab.normal.y, (double)mab.depth, (double)slack);
                    print_pair(sp, c, k);
                }
            }
        }
    }
    printf("case %d (%s): %d pairs, %d asymmetric, %d wrongly touching, %d errors, manifold: %d boolean "
           "mismatches, %d bad normal/depth, %d not symmetric, %d depth does not separate\n",
           c->number, c->name, c->count, asym, bad_true, errors, mf_mismatch, mf_normal, mf_sym, mf_depth);
    printf("  vs %dx%d-supersampled reference: %d overlaps collworld missed, %d collworld overlaps not "
           "confirmed even at %dx%d\n",
           REF_SAMPLES, REF_SAMPLES, ref_missed, ref_unconfirmed, REF_SAMPLES_FINE, REF_SAMPLES_FINE);
    return asym + bad_true + errors + mf_mismatch + mf_normal + mf_sym + mf_depth + ref_missed;
}

static void usage(void) {
    fprintf(stderr, "usage: bench_narrow [--quick] [--case N] [--repeats N] [--check] [--fixed-point]\n");
}

static bool parse(int argc, char **argv, options *o) {
    o->quick = false;
    o->check = false;
    o->only_case = 0;
    o->repeats = DEFAULT_REPEATS;
    bool repeats_given = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            o->quick = true;
        } else if (strcmp(argv[i], "--fixed-point") == 0) {
            fixed_point_textbook = true;
        } else if (strcmp(argv[i], "--check") == 0) {
            o->check = true;
        } else if (strcmp(argv[i], "--case") == 0 && i + 1 < argc) {
            o->only_case = atoi(argv[++i]);
            if (o->only_case < 1 || o->only_case > CASE_COUNT) {
                return false;
            }
        } else if (strcmp(argv[i], "--repeats") == 0 && i + 1 < argc) {
            o->repeats = atoi(argv[++i]);
            repeats_given = true;
            if (o->repeats < 1 || o->repeats > MAX_REPEATS) {
                return false;
            }
        } else {
            return false;
        }
    }
    if (o->quick && !repeats_given) {
        o->repeats = 1;
    }
    return true;
}

int main(int argc, char **argv) {
    options o;
    if (!parse(argc, argv, &o)) {
        usage();
        return 2;
    }
    static sprite sp[SPRITE_COUNT];
    if (!sprites_build(sp)) {
        fprintf(stderr, "bench_narrow: could not build the sprites: %s\n", cw_last_error());
        return 1;
    }
    const int npairs = o.quick ? QUICK_PAIRS : DEFAULT_PAIRS;
    bench_case cases[CASE_COUNT];
    memset(cases, 0, sizeof cases);
    for (int n = 1; n <= CASE_COUNT; n++) {
        if (!case_build(&cases[n - 1], n, npairs)) {
            fprintf(stderr, "bench_narrow: could not build case %d\n", n);
            return 1;
        }
    }

    int status = 0;
    if (o.check) {
        int problems = 0;
        for (int n = 1; n <= CASE_COUNT; n++) {
            if (o.only_case == 0 || o.only_case == n) {
                problems += check_case(sp, &cases[n - 1]);
            }
        }
        printf("%s: %d problem(s)\n", problems ? "FAIL" : "OK", problems);
        status = problems ? 1 : 0;
    } else {
        case_result res[CASE_COUNT];
        memset(res, 0, sizeof res);
        printf("collworld narrow phase vs textbook per-texel test: %dx%d RGBA sprites, %d pairs per case, "
               "%d repeat(s) interleaved, median, >= %.0f ms per timed run%s\n\n",
               SPRITE_SIZE, SPRITE_SIZE, npairs, o.repeats, MIN_RUN_SECONDS * 1e3,
               o.quick ? " (--quick: one pass per run)" : "");
        for (int n = 1; n <= CASE_COUNT; n++) {
            if (o.only_case != 0 && o.only_case != n) {
                continue;
            }
            const bench_case *c = &cases[n - 1];
            case_result *r = &res[n - 1];
            accuracy(sp, c, r);
            time_case(sp, c, &o, r);
            peer_pair *peers = make_peer_pairs(sp, c);
            if (peers != NULL) {
                peer_case(sp, c, peers, &o, r);
            }
            placed_case(sp, c, peers, &o, r);
            free(peers);
            printf("case %d (%s): touching collworld %d, textbook %d; disagreements %d (textbook only %d, "
                   "collworld only %d)%s\n",
                   n, c->name, r->touching_cw, r->touching_tb, r->tb_only + r->cw_only, r->tb_only, r->cw_only,
                   r->errors ? " -- cw_overlap reported errors!" : "");
            printf("  collworld %.1f ns/pair (runs %.1f..%.1f, %ld pass(es)/run), textbook %.1f ns/pair "
                   "(runs %.1f..%.1f, %ld pass(es)/run)\n",
                   r->cw_ns, r->cw_min, r->cw_max, r->cw_loops, r->tb_ns, r->tb_min, r->tb_max, r->tb_loops);
            if (r->has_peer) {
                printf("  bitmask peer %.1f ns/pair, collworld %.1f in the runs alternated with it; they disagree "
                       "on %d pair(s)\n",
                       r->bp_ns, r->cw_ns_with_peer, r->peer_differs);
            }
            printf("  placed once: %.1f ns/pair (textbook %.1f in the runs alternated with it); it disagrees with "
                   "cw_overlap on %d pair(s)\n",
                   r->placed_ns, r->tb_ns_with_placed, r->placed_differs);
            if (r->placed_differs != 0) {
                printf("  WRONG: cw_placed_overlap must equal cw_overlap\n");
                status = 1;
            }
            if (r->peer_differs != 0) {
                printf("  WRONG: the bitmask peer and collworld must agree on whole offsets\n");
                status = 1;
            }
            if ((n == 3 || n == 4) && r->touching_cw != 0) {
                printf("  WRONG: case %d must never overlap, collworld says %d pairs touch (run --check)\n", n,
                       r->touching_cw);
                status = 1;
            }
        }
        printf("\nbaseline: the textbook loop with %s stepping\n", fixed_point_textbook ? "32.32 fixed-point" : "float");
        printf("\n| case | pairs | touching | collworld ns/pair | textbook ns/pair | speed-up | target |\n");
        printf("|---|---:|---:|---:|---:|---:|---:|\n");
        for (int n = 1; n <= CASE_COUNT; n++) {
            if (o.only_case != 0 && o.only_case != n) {
                continue;
            }
            const bench_case *c = &cases[n - 1];
            const case_result *r = &res[n - 1];
            const double ratio = r->tb_ns / r->cw_ns;
            printf("| %s | %d | %d | %.1f | %.1f | %.1fx | %s%s |\n", c->name, c->count, r->touching_cw, r->cw_ns,
                   r->tb_ns, ratio, c->target, ratio >= c->target_ratio ? "" : " (missed)");
        }
        printf("\n\"touching\" is collworld's count, which is exact; the textbook test samples one point per "
               "texel of A and disagrees with it on the pairs counted above.\n");
        print_peer_table(cases, res, &o);
        print_placed_table(cases, res, &o);
        if (o.only_case == 0 || o.only_case == 1) {
            manifold_cost(sp, &cases[0], &o);
        }
    }

    for (int n = 0; n < CASE_COUNT; n++) {
        case_free(&cases[n]);
    }
    sprites_free(sp);
    return status;
}
