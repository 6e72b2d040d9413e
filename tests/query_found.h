// What the world queries report, as the query tests collect and judge it: collectors for the point,
// box and shape queries and for rays (whose callback gives the answers under test), and the checks
// of a ray hit against the slow reference (query_ref.h). Shared by the tests/test_query_*.c files.
#ifndef CW_TEST_QUERY_FOUND_H
#define CW_TEST_QUERY_FOUND_H

#include <stdbool.h>
#include <stdint.h>

#include <collworld.h>

#include "query_ref.h"

#define QF_MAX_FOUND 2048 // more than any scene's bodies

// User data pointers: &qf_users[k], so that a report's user data says which body k it came from.
extern char qf_users[64];
// k for &qf_users[k], -1 for NULL.
int qf_user_index(const void *user);

cw_transform qf_xf(float px, float py, float rot, float sx, float sy, float ox, float oy);
bool qf_same_id(cw_body_id a, cw_body_id b);
// Whether a body with this category and mask passes the query filter f.
bool qf_filter_ok(uint32_t category, uint32_t collides_with, cw_query_filter f);

// What a point, box or shape query reports.
typedef struct qf_found {
    int n, calls, stop_after; // stop_after > 0: return false at that call
    cw_body_id ids[QF_MAX_FOUND];
    void *users[QF_MAX_FOUND];
    bool has_manifold[QF_MAX_FOUND];
    cw_manifold manifolds[QF_MAX_FOUND];
} qf_found;

qf_found *qf_found_new(void);
// The query callback: `context` is a qf_found.
bool qf_collect(cw_body_id body, void *user_data, const cw_manifold *manifold, void *context);
// Where `id` is among the reports, or -1.
int qf_found_index(const qf_found *f, cw_body_id id);
void qf_found_reset(qf_found *f, int stop_after);

// What a ray cast reports, and how its callback answers: 1 (all), 0 (stop), -1 (ignore all), the
// hit's fraction (closest), or -1 for bodies with odd user data and the fraction for the others.
enum { QF_RAY_ALL, QF_RAY_STOP, QF_RAY_IGNORE_ALL, QF_RAY_CLOSEST, QF_RAY_IGNORE_ODD, QF_RAY_MODES };

typedef struct qf_rays_found {
    int mode, n, calls, beyond_limit;
    float limit;
    cw_ray_hit hits[QF_MAX_FOUND];
} qf_rays_found;

// The ray callback: `context` is a qf_rays_found.
float qf_ray_collect(const cw_ray_hit *hit, void *context);
qf_rays_found *qf_rays_new(void);
void qf_rays_reset(qf_rays_found *f, int mode);

// Tolerance on entry points, in world units (the fraction's is this over the ray's length).
double qf_ray_tolerance(cw_vec2 d);
bool qf_vec_close(double ax, double ay, double bx, double by, double tol);
// Whatever the reference says: a fraction in [0, 1], the point on the segment at that fraction, a
// unit normal facing the ray.
bool qf_hit_sane(const cw_ray_hit *h, cw_vec2 o, cw_vec2 d);
// The hit agrees with the reference's entry into that body.
bool qf_hit_matches(const cw_ray_hit *h, const qr_ray *ref, cw_vec2 o, cw_vec2 d);

void qf_print_ray(cw_vec2 o, cw_vec2 d, cw_query_filter f);
void qf_print_hit(const char *name, const cw_ray_hit *h);
void qf_print_ref(const qr_ray *r);

#endif
