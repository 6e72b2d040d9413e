// What the world queries report, as the query tests collect and judge it (query_found.h).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "query_found.h"
#include "suites.h" // cmocka, for the allocations' assertions

char qf_users[64];

int qf_user_index(const void *user) { return user ? (int)((const char *)user - qf_users) : -1; }

cw_transform qf_xf(float px, float py, float rot, float sx, float sy, float ox, float oy)
{
    return (cw_transform){.position = {px, py}, .rotation = rot, .scale = {sx, sy}, .origin = {ox, oy}};
}

bool qf_same_id(cw_body_id a, cw_body_id b) { return a.index == b.index && a.generation == b.generation; }

bool qf_filter_ok(uint32_t category, uint32_t collides_with, cw_query_filter f)
{
    return (category & f.collides_with) != 0 && (f.category & collides_with) != 0;
}

qf_found *qf_found_new(void)
{
    qf_found *f = calloc(1, sizeof *f);
    assert_non_null(f);
    return f;
}

bool qf_collect(cw_body_id body, void *user_data, const cw_manifold *manifold, void *context)
{
    qf_found *f = context;
    f->calls++;
    if (f->n < QF_MAX_FOUND) {
        f->ids[f->n] = body;
        f->users[f->n] = user_data;
        f->has_manifold[f->n] = manifold != NULL;
        if (manifold)
            f->manifolds[f->n] = *manifold;
        f->n++;
    }
    return !(f->stop_after > 0 && f->calls >= f->stop_after);
}

int qf_found_index(const qf_found *f, cw_body_id id)
{
    for (int k = 0; k < f->n; k++)
        if (qf_same_id(f->ids[k], id))
            return k;
    return -1;
}

void qf_found_reset(qf_found *f, int stop_after)
{
    f->n = f->calls = 0;
    f->stop_after = stop_after;
}

float qf_ray_collect(const cw_ray_hit *hit, void *context)
{
    qf_rays_found *f = context;
    f->calls++;
    if (hit->fraction > f->limit)
        f->beyond_limit++;
    if (f->n < QF_MAX_FOUND)
        f->hits[f->n++] = *hit;
    switch (f->mode) {
    case QF_RAY_ALL:
        return 1;
    case QF_RAY_STOP:
        f->limit = 0;
        return 0;
    case QF_RAY_IGNORE_ALL:
        return -1;
    case QF_RAY_IGNORE_ODD:
        if (qf_user_index(hit->user_data) & 1)
            return -1;
        f->limit = hit->fraction;
        return hit->fraction;
    default:
        f->limit = hit->fraction;
        return hit->fraction;
    }
}

qf_rays_found *qf_rays_new(void)
{
    qf_rays_found *f = calloc(1, sizeof *f);
    assert_non_null(f);
    return f;
}

void qf_rays_reset(qf_rays_found *f, int mode)
{
    f->mode = mode;
    f->n = f->calls = f->beyond_limit = 0;
    f->limit = 1;
}

double qf_ray_tolerance(cw_vec2 d) { return 1e-4 * fmax(hypot(d.x, d.y), 1.0); }

bool qf_vec_close(double ax, double ay, double bx, double by, double tol) { return hypot(ax - bx, ay - by) <= tol; }

bool qf_hit_sane(const cw_ray_hit *h, cw_vec2 o, cw_vec2 d)
{
    double f = h->fraction, len = hypot(d.x, d.y);
    double tol = 1e-5 * fmax(len, 1) + 1e-6 * (fabs(o.x) + fabs(o.y));
    double nl = hypot(h->normal.x, h->normal.y);
    return f >= 0 && f <= 1 && qf_vec_close(h->point.x, h->point.y, o.x + f * d.x, o.y + f * d.y, tol) &&
           fabs(nl - 1) < 1e-4 && h->normal.x * d.x + h->normal.y * d.y <= 1e-4 * len;
}

bool qf_hit_matches(const cw_ray_hit *h, const qr_ray *ref, cw_vec2 o, cw_vec2 d)
{
    double tol = qf_ray_tolerance(d), len = hypot(d.x, d.y);
    if (fabs(h->fraction - ref->fraction) * len > tol)
        return false;
    if (!qf_vec_close(h->point.x, h->point.y, ref->point[0], ref->point[1], tol + 1e-6 * (fabs(o.x) + fabs(o.y))))
        return false;
    return qf_vec_close(h->normal.x, h->normal.y, ref->normal[0], ref->normal[1], 1e-4) ||
           (ref->corner && qf_vec_close(h->normal.x, h->normal.y, ref->normal_alt[0], ref->normal_alt[1], 1e-4));
}

void qf_print_ray(cw_vec2 o, cw_vec2 d, cw_query_filter f)
{
    printf("    ray origin (%a, %a) translation (%a, %a) = (%.9g, %.9g) + (%.9g, %.9g), filter %#x/%#x\n",
           (double)o.x, (double)o.y, (double)d.x, (double)d.y, (double)o.x, (double)o.y, (double)d.x, (double)d.y,
           f.category, f.collides_with);
}

void qf_print_hit(const char *name, const cw_ray_hit *h)
{
    printf("    %s: body {%u, %u} fraction %.9g point (%.9g, %.9g) normal (%.9g, %.9g)\n", name, h->body.index,
           h->body.generation, (double)h->fraction, (double)h->point.x, (double)h->point.y, (double)h->normal.x,
           (double)h->normal.y);
}

void qf_print_ref(const qr_ray *r)
{
    static const char *const names[] = {"miss", "hit", "unsure"};
    printf("    reference: %s fraction %.9g point (%.9g, %.9g) normal (%.9g, %.9g)%s%s\n", names[r->status], r->fraction,
           r->point[0], r->point[1], r->normal[0], r->normal[1], r->inside ? " (starts inside)" : "",
           r->corner ? " (corner)" : "");
}
