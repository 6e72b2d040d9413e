#include "draw.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const double DEGREES_PER_RADIAN = 180.0 / 3.14159265358979323846;
static const SDL_Color KIND_COLORS[KIND_COUNT] = {
    {255, 160, 60, 255}, {90, 170, 255, 255}, {255, 225, 90, 255},
    {120, 220, 120, 255}, {185, 150, 255, 255}, {80, 210, 200, 255},
};
static const SDL_Color STATIC_COLOR = {125, 135, 155, 255}, TOUCH_COLOR = {255, 60, 50, 255},
                       FLASH_COLOR = {255, 235, 190, 255}, BACKGROUND = {16, 18, 26, 255};

SDL_Texture *texture_from_rgba(SDL_Renderer *renderer, const uint8_t *rgba, int width, int height)
{
    SDL_Texture *texture =
        SDL_CreateTexture(renderer, SDL_PIXELFORMAT_RGBA32, SDL_TEXTUREACCESS_STATIC, width, height);
    if (texture == NULL)
        return NULL;
    SDL_UpdateTexture(texture, NULL, rgba, width * 4);
    SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_BLEND);
    return texture;
}

bool painter_init(painter *p, SDL_Renderer *renderer, const sprite_image images[KIND_COUNT])
{
    *p = (painter){.renderer = renderer};
    for (int k = 0; k < KIND_COUNT; k++)
        if ((p->textures[k] = texture_from_rgba(renderer, images[k].rgba, SPRITE_SIZE, SPRITE_SIZE)) == NULL)
            return false;
    SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND);
    return (p->text = text_create(renderer)) != NULL;
}

void painter_free(painter *p)
{
    for (int k = 0; k < KIND_COUNT; k++)
        if (p->textures[k] != NULL)
            SDL_DestroyTexture(p->textures[k]);
    text_destroy(p->text);
    *p = (painter){0};
}

// collworld puts local point p at  position + R(rotation) * ((p - origin) ∘ scale),  R turning +x
// toward +y: clockwise on SDL's y-down screen, as SDL_RenderCopyEx's angle. SDL first mirrors the
// image inside `dst`, then turns it about `center` (measured from dst's corner). So `dst` is the
// scaled, mirrored image placed with the pivot on `position`, and the angle is the rotation in degrees.
void draw_sprite(SDL_Renderer *renderer, SDL_Texture *texture, const cw_transform *t)
{
    int w, h;
    SDL_QueryTexture(texture, NULL, NULL, &w, &h);
    float sx = fabsf(t->scale.x), sy = fabsf(t->scale.y);
    SDL_FPoint pivot = {(t->scale.x < 0 ? w - t->origin.x : t->origin.x) * sx,
                        (t->scale.y < 0 ? h - t->origin.y : t->origin.y) * sy};
    SDL_FRect dst = {t->position.x - pivot.x, t->position.y - pivot.y, w * sx, h * sy};
    int flip = (t->scale.x < 0 ? SDL_FLIP_HORIZONTAL : 0) | (t->scale.y < 0 ? SDL_FLIP_VERTICAL : 0);
    SDL_RenderCopyExF(renderer, texture, NULL, &dst, t->rotation * DEGREES_PER_RADIAN, &pivot, (SDL_RendererFlip)flip);
}

static SDL_Color sprite_color(const sprite *sp)
{
    if (sp->flash > FLASH_FRAMES - 3)
        return FLASH_COLOR;
    if (sp->touching > 0)
        return TOUCH_COLOR;
    return sp->is_static ? STATIC_COLOR : KIND_COLORS[sp->kind];
}

static void set_color(SDL_Renderer *r, SDL_Color c)
{
    SDL_SetRenderDrawColor(r, c.r, c.g, c.b, c.a);
}

// A box body (the shooter's bullets and walls): its rotated rectangle, filled.
static void draw_box(SDL_Renderer *r, const sprite *sp, SDL_Color c)
{
    static const int corner[6][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 0}, {1, 1}, {0, 1}}; // two triangles
    SDL_Vertex v[6];
    for (int k = 0; k < 6; k++) {
        cw_vec2 w = local_to_world(&sp->transform, (cw_vec2){corner[k][0] * sp->size.x, corner[k][1] * sp->size.y});
        v[k] = (SDL_Vertex){{w.x, w.y}, c, {0, 0}};
    }
    SDL_RenderGeometry(r, NULL, v, 6, NULL, 0);
}

static void draw_one(painter *p, const scene *s, const sprite *sp)
{
    if (sp->is_bullet || sp->is_wall) {
        SDL_Color c = sp->is_bullet ? (SDL_Color){255, 250, 170, 255}
                                    : sp->flash > 0 ? FLASH_COLOR : STATIC_COLOR;
        draw_box(p->renderer, sp, c);
        return;
    }
    SDL_Texture *texture = p->textures[sp->kind];
    bool inspect = sp->is_player && s->kind == SCENE_INSPECT; // see-through, in its own colour
    SDL_Color c = inspect ? KIND_COLORS[sp->kind] : sprite_color(sp);
    SDL_SetTextureColorMod(texture, c.r, c.g, c.b);
    SDL_SetTextureAlphaMod(texture, inspect ? 190 : 255);
    draw_sprite(p->renderer, texture, &sp->transform);
}

// The outline of what a body's shape spans: its local rectangle [0, w] x [0, h], transformed.
static void draw_oriented_box(SDL_Renderer *r, const cw_transform *t)
{
    static const cw_vec2 corners[5] = {{0, 0}, {SPRITE_SIZE, 0}, {SPRITE_SIZE, SPRITE_SIZE}, {0, SPRITE_SIZE}, {0, 0}};
    SDL_FPoint points[5];
    for (int i = 0; i < 5; i++) {
        cw_vec2 w = local_to_world(t, corners[i]);
        points[i] = (SDL_FPoint){w.x, w.y};
    }
    SDL_RenderDrawLinesF(r, points, 5);
}

// --- the collision world's own view, through cw_world_debug_draw ---

static void set_item_color(SDL_Renderer *r, const cw_debug_item *item)
{
    switch (item->what) {
    case CW_DRAW_GRID: SDL_SetRenderDrawColor(r, 90, 110, 160, 70); break;
    case CW_DRAW_AABBS: SDL_SetRenderDrawColor(r, 80, 230, 120, 140); break;
    case CW_DRAW_CONTACTS: SDL_SetRenderDrawColor(r, 255, 255, 120, 230); break;
    default: // boxes and mask outlines: red while touching
        if (item->touching)
            SDL_SetRenderDrawColor(r, 255, 110, 90, 200);
        else
            SDL_SetRenderDrawColor(r, 230, 230, 255, 140);
        break;
    }
}

static void debug_polygon(const cw_vec2 *v, int count, const cw_debug_item *item, void *context)
{
    SDL_Renderer *r = context;
    set_item_color(r, item);
    if (item->what == CW_DRAW_GRID && count == 4) { // filled cells, as the demo always showed them
        SDL_FRect rect = {v[0].x + 1, v[0].y + 1, v[2].x - v[0].x - 2, v[2].y - v[0].y - 2};
        SDL_RenderFillRectF(r, &rect);
        return;
    }
    SDL_FPoint points[9];
    int n = count < 8 ? count : 8;
    for (int k = 0; k < n; k++)
        points[k] = (SDL_FPoint){v[k].x, v[k].y};
    points[n] = points[0];
    SDL_RenderDrawLinesF(r, points, n + 1);
}

static void debug_segment(cw_vec2 a, cw_vec2 b, const cw_debug_item *item, void *context)
{
    SDL_Renderer *r = context;
    set_item_color(r, item);
    SDL_RenderDrawLineF(r, a.x, a.y, b.x, b.y);
}

static void debug_point(cw_vec2 p, float size, const cw_debug_item *item, void *context)
{
    SDL_Renderer *r = context;
    set_item_color(r, item);
    SDL_FRect dot = {p.x - size / 2, p.y - size / 2, size, size};
    SDL_RenderFillRectF(r, &dot);
}

// Grid cells, AABBs, boxes and mask outlines, and the touching pairs' manifolds, as the world sees
// them, culled to the window.
static void draw_world_view(SDL_Renderer *r, const scene *s, const layers *l)
{
    cw_debug_draw d = cw_default_debug_draw();
    d.draw_polygon = debug_polygon, d.draw_segment = debug_segment, d.draw_point = debug_point;
    d.context = r;
    d.flags = (l->grid ? CW_DRAW_GRID : 0) | (l->aabbs ? CW_DRAW_AABBS : 0) |
              (l->boxes || s->boxes ? CW_DRAW_BOXES : 0) | (l->boxes ? CW_DRAW_MASK_OUTLINES : 0) |
              (l->contacts ? CW_DRAW_CONTACTS : 0);
    d.use_bounds = true;
    d.bounds = (cw_aabb){{0, 0}, {s->size.x, s->size.y}};
    if (d.flags != 0 && !cw_world_debug_draw(s->world, &d))
        fprintf(stderr, "demo: debug draw: %s\n", cw_last_error());
}

static void draw_contacts(SDL_Renderer *r, const scene *s)
{
    for (int i = 0; i < s->contact_count; i++) {
        const cw_manifold *m = &s->contacts[i].manifold;
        Uint8 alpha = (Uint8)(255 * s->contacts[i].frames / CONTACT_FRAMES);
        float length = 6 + m->depth;
        SDL_SetRenderDrawColor(r, 255, 255, 120, alpha);
        SDL_RenderDrawLineF(r, m->point.x, m->point.y, m->point.x + length * m->normal.x, m->point.y + length * m->normal.y);
        SDL_FRect dot = {m->point.x - 2, m->point.y - 2, 4, 4};
        SDL_RenderFillRectF(r, &dot);
    }
}

typedef struct ray_probe {
    cw_body_id skip; // the sprite the rays start from
    cw_ray_hit closest;
    bool found;
} ray_probe;

// A ray callback: the closest hit that is not the player's own sprite.
static float closest_but_self(const cw_ray_hit *hit, void *context)
{
    ray_probe *probe = context;
    if (hit->body.index == probe->skip.index && hit->body.generation == probe->skip.generation)
        return -1; // ignore this body, keep looking
    probe->closest = *hit;
    probe->found = true;
    return hit->fraction; // from now on only closer hits
}

// Rays from the first player in every direction, each to the closest other sprite it hits.
static void draw_rays(SDL_Renderer *r, const scene *s)
{
    enum { RAYS = 90 };
    const sprite *player = NULL;
    for (int i = 1; i < s->capacity && player == NULL; i++)
        if (!cw_body_id_is_null(s->sprites[i].id) && s->sprites[i].is_player)
            player = &s->sprites[i];
    cw_aabb box;
    if (player == NULL || !cw_body_aabb(s->world, player->id, &box))
        return;
    cw_vec2 from = {(box.min.x + box.max.x) / 2, (box.min.y + box.max.y) / 2};
    for (int k = 0; k < RAYS; k++) {
        float angle = 6.2831853f * (float)k / RAYS, reach = 600;
        cw_vec2 ray = {reach * cosf(angle), reach * sinf(angle)};
        ray_probe probe = {player->id, {{0, 0}, NULL, {0, 0}, {0, 0}, 0}, false};
        cw_world_raycast(s->world, from, ray, cw_default_query_filter(), closest_but_self, &probe);
        cw_vec2 end = probe.found ? probe.closest.point : (cw_vec2){from.x + ray.x, from.y + ray.y};
        SDL_SetRenderDrawColor(r, 120, 220, 255, probe.found ? 200 : 60);
        SDL_RenderDrawLineF(r, from.x, from.y, end.x, end.y);
        if (probe.found) {
            SDL_FRect dot = {end.x - 2, end.y - 2, 4, 4};
            SDL_RenderFillRectF(r, &dot);
        }
    }
}

static void draw_layers(painter *p, const scene *s, const layers *l)
{
    SDL_Renderer *r = p->renderer;
    draw_world_view(r, s, l);
    if (l->contacts) // the begins' manifolds, fading (the world's view shows the pairs touching now)
        draw_contacts(r, s);
    if (l->rays)
        draw_rays(r, s);
}

void draw_scene(painter *p, const scene *s, const layers *l)
{
    set_color(p->renderer, BACKGROUND);
    SDL_RenderClear(p->renderer);
    for (int pass = 0; pass < 2; pass++) // players on top
        for (int i = 1; i < s->capacity; i++)
            if (!cw_body_id_is_null(s->sprites[i].id) && !s->sprites[i].off && s->sprites[i].is_player == (pass == 1))
                draw_one(p, s, &s->sprites[i]);
    draw_layers(p, s, l);
    const sprite *selected = scene_sprite(s, s->selected);
    if (selected != NULL) {
        SDL_SetRenderDrawColor(p->renderer, 255, 255, 255, 230);
        draw_oriented_box(p->renderer, &selected->transform);
    }
}

// --- the inspect scene: texels of one sprite whose centre the other covers ---

typedef struct vertices {
    SDL_Vertex *items;
    int count, capacity;
} vertices;

static void push_texel(vertices *v, const cw_transform *t, int i, int j, SDL_Color c)
{
    if (v->count + 6 > v->capacity) {
        int capacity = v->capacity ? 2 * v->capacity : 6 * 1024;
        SDL_Vertex *grown = realloc(v->items, (size_t)capacity * sizeof *grown);
        if (grown == NULL)
            return;
        v->items = grown, v->capacity = capacity;
    }
    static const int corner[6][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 0}, {1, 1}, {0, 1}}; // two triangles
    for (int k = 0; k < 6; k++) {
        cw_vec2 w = local_to_world(t, (cw_vec2){(float)(i + corner[k][0]), (float)(j + corner[k][1])});
        v->items[v->count++] = (SDL_Vertex){{w.x, w.y}, c, {0, 0}};
    }
}

// Counts (and queues for drawing) the opaque texels of `a` whose centre lies inside shape `b`.
static int overlapping_texels(const sprite *a, const cw_shape *b, const cw_transform *tb, const cw_mask *mask,
                              vertices *v, SDL_Color c)
{
    int count = 0;
    for (int j = 0; j < SPRITE_SIZE; j++)
        for (int i = 0; i < SPRITE_SIZE; i++) {
            cw_vec2 centre = local_to_world(&a->transform, (cw_vec2){i + 0.5f, j + 0.5f});
            if (cw_mask_get(mask, i, j) && shape_covers(b, tb, centre)) {
                push_texel(v, &a->transform, i, j, c);
                count++;
            }
        }
    return count;
}

static void draw_texel_grid(SDL_Renderer *r, const cw_transform *t)
{
    SDL_SetRenderDrawColor(r, 255, 255, 255, 28);
    for (int k = 0; k <= SPRITE_SIZE; k++) {
        cw_vec2 a = local_to_world(t, (cw_vec2){(float)k, 0}), b = local_to_world(t, (cw_vec2){(float)k, SPRITE_SIZE});
        cw_vec2 c = local_to_world(t, (cw_vec2){0, (float)k}), d = local_to_world(t, (cw_vec2){SPRITE_SIZE, (float)k});
        SDL_RenderDrawLineF(r, a.x, a.y, b.x, b.y);
        SDL_RenderDrawLineF(r, c.x, c.y, d.x, d.y);
    }
}

static const sprite *nth_player(const scene *s, int n)
{
    for (int i = 1; i < s->capacity; i++)
        if (!cw_body_id_is_null(s->sprites[i].id) && s->sprites[i].is_player && n-- == 0)
            return &s->sprites[i];
    return NULL;
}

void draw_inspect(painter *p, const scene *s)
{
    const sprite *a = nth_player(s, 0), *b = nth_player(s, 1);
    if (a == NULL || b == NULL)
        return;
    cw_shape sa = cw_body_shape(s->world, a->id), sb = cw_body_shape(s->world, b->id);
    vertices v = {0};
    int na = overlapping_texels(a, &sb, &b->transform, s->images[a->kind].mask, &v, (SDL_Color){255, 245, 80, 170});
    int nb = overlapping_texels(b, &sa, &a->transform, s->images[b->kind].mask, &v, (SDL_Color){255, 255, 255, 90});
    draw_texel_grid(p->renderer, &a->transform);
    draw_texel_grid(p->renderer, &b->transform);
    SDL_RenderGeometry(p->renderer, NULL, v.items, v.count, NULL, 0);
    free(v.items);
    cw_manifold m;
    char line[160];
    if (cw_overlap(&sa, &a->transform, &sb, &b->transform, &m)) {
        SDL_SetRenderDrawColor(p->renderer, 255, 255, 255, 255);
        SDL_FRect dot = {m.point.x - 4, m.point.y - 4, 8, 8};
        SDL_RenderFillRectF(p->renderer, &dot);
        SDL_RenderDrawLineF(p->renderer, m.point.x, m.point.y, m.point.x + 60 * m.normal.x, m.point.y + 60 * m.normal.y);
        snprintf(line, sizeof line, "cw_overlap: yes | texels inside the other: F %d, R %d | normal (%.2f, %.2f), depth %.1f px",
                 na, nb, m.normal.x, m.normal.y, m.depth);
    } else
        snprintf(line, sizeof line, "cw_overlap: no | texels inside the other: F %d, R %d", na, nb);
    int h = text_line_height(p->text);
    text_draw(p->text, 12, (int)s->size.y - h - 10, line, (SDL_Color){255, 255, 255, 255});
}

// --- HUD ---

void draw_hud(painter *p, const scene *s, const hud_info *info, const layers *l)
{
    cw_world_stats st = cw_world_get_stats(s->world);
    char lines[4][200];
    snprintf(lines[0], sizeof lines[0], "collworld %s | %s | %d bodies (%d static) | %.0f FPS%s", info->title,
             s->boxes ? "boxes" : "masks", st.bodies, st.static_bodies, info->fps, info->paused ? " | PAUSED" : "");
    snprintf(lines[1], sizeof lines[1], "pairs: %d candidates, %d tested, %d touching | events: %d begin, %d end",
             st.candidate_pairs, st.narrow_tests, st.touching_pairs, st.begin_events, st.end_events);
    snprintf(lines[2], sizeof lines[2], "step on %d worker%s: broad %.2f ms, narrow %.2f ms, events %.2f ms | draw %.1f ms",
             st.workers, st.workers == 1 ? "" : "s", st.broad_ms, st.narrow_ms, st.events_ms, info->draw_ms);
    snprintf(lines[3], sizeof lines[3], "%s",
             l->help ? "drag: move | wheel, arrows: rotate | +/-: scale | M: mirror | A/X: +/-1000 | B: boxes | "
                       "space: pause | N: step | 1-5: grid, AABBs, boxes, contacts, rays | H: help"
                     : "H: help");
    if (s->kind == SCENE_SHOOTER) // the shooter's own line instead of the sprite editing keys
        snprintf(lines[3], sizeof lines[3],
                 "bullets: %s (S toggles) | fired %ld | hits %ld | passed through unseen: %ld | touching the ship: %d",
                 s->shooter.unswept ? "UNSWEPT" : "swept", s->shooter.fired, s->shooter.hits, s->shooter.unseen,
                 s->shooter.touching_ship);
    int h = text_line_height(p->text), width = 0;
    for (int i = 0; i < 4; i++)
        width = SDL_max(width, text_width(p->text, lines[i]));
    SDL_SetRenderDrawColor(p->renderer, 0, 0, 0, 200);
    SDL_Rect panel = {4, 4, width + 16, 4 * h + 12};
    SDL_RenderFillRect(p->renderer, &panel);
    for (int i = 0; i < 4; i++)
        text_draw(p->text, 12, 10 + i * h, lines[i], (SDL_Color){235, 240, 255, 255});
}
