// collworld's SDL2 demo: thousands of spinning sprites with pixel-exact contacts.
// With a display it opens a window; without one (or with --headless) it renders N frames offscreen
// with SDL's software renderer, saves a screenshot and prints a stats table. See --help.
#include <SDL.h>
#ifdef HAVE_SDL_IMAGE
#include <SDL_image.h>
#endif

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw.h"
#include "selftest.h"

typedef struct options {
    int count, frames, width, height, workers;
    unsigned long seed;
    bool headless, selftest, unswept;
    scene_kind scene;
    const char *screenshot;
    const char *overlays; // the debug-draw layers to start with
    const char *write_art; // write the painted sprite sheet as a PNG there and stop
} options;

static const char USAGE[] =
    "usage: collworld_demo [--count N] [--seed N] [--scene default|inspect|shooter] [--size WxH]\n"
    "                      [--headless] [--frames N] [--screenshot FILE] [--selftest] [--unswept]\n"
    "                      [--workers N (default: the machine's cores)]\n"
    "                      [--overlays grid,aabbs,boxes,contacts] (cw_world_debug_draw; keys 1-4)\n";

static const char *const SCENE_NAMES[] = {"default", "inspect", "shooter"};

static bool scene_named(const char *name, scene_kind *kind)
{
    for (int k = 0; k < 3; k++)
        if (strcmp(name, SCENE_NAMES[k]) == 0) {
            *kind = (scene_kind)k;
            return true;
        }
    return false;
}

static bool parse_options(int argc, char **argv, options *o)
{
    int cores = SDL_GetCPUCount();
    *o = (options){.count = 5000, .frames = 300, .width = 1600, .height = 900, .seed = 1,
                   .workers = cores < 1 ? 1 : cores > CW_MAX_WORKERS ? CW_MAX_WORKERS : cores};
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(arg, "--headless") == 0)
            o->headless = true;
        else if (strcmp(arg, "--selftest") == 0)
            o->selftest = true;
        else if (strcmp(arg, "--unswept") == 0) // the shooter's bullets start unswept
            o->unswept = true;
        else if (value == NULL)
            return false;
        else if (strcmp(arg, "--count") == 0)
            o->count = atoi(value), i++;
        else if (strcmp(arg, "--frames") == 0)
            o->frames = atoi(value), i++;
        else if (strcmp(arg, "--seed") == 0)
            o->seed = strtoul(value, NULL, 10), i++;
        else if (strcmp(arg, "--write-art") == 0)
            o->write_art = value, i++;
        else if (strcmp(arg, "--overlays") == 0)
            o->overlays = value, i++;
        else if (strcmp(arg, "--workers") == 0)
            o->workers = atoi(value), i++;
        else if (strcmp(arg, "--screenshot") == 0)
            o->screenshot = value, i++;
        else if (strcmp(arg, "--size") == 0 && sscanf(value, "%dx%d", &o->width, &o->height) == 2)
            i++;
        else if (strcmp(arg, "--scene") == 0 && scene_named(value, &o->scene))
            i++;
        else
            return false;
    }
    return o->count >= 0 && o->frames > 0 && o->width >= 320 && o->height >= 240 && o->workers >= 1 &&
           o->workers <= CW_MAX_WORKERS;
}

// No display to talk to: X11 and Wayland both absent (other platforms always have one).
static bool no_display(void)
{
#if defined(__unix__) && !defined(__APPLE__) && !defined(__ANDROID__)
    const char *x11 = SDL_getenv("DISPLAY"), *wayland = SDL_getenv("WAYLAND_DISPLAY");
    return (x11 == NULL || *x11 == '\0') && (wayland == NULL || *wayland == '\0');
#else
    return false;
#endif
}

// --- headless mode: the statistics of every frame, summarised at the end ---

typedef struct summary {
    double step_ms[4], draw_ms; // sums: whole step, broad, narrow, events
    double max_step_ms, first_step_ms; // the first step, where every touching pair begins, apart
    int first_begins;
    long candidates, touching, begins, ends;
    int frames;
} summary;

static double now_ms(void)
{
    return 1000.0 * (double)SDL_GetPerformanceCounter() / (double)SDL_GetPerformanceFrequency();
}

// The first frame is kept apart: it begins every pair the scene starts with (a manifold each), a
// cost a game pays once, when a level loads, not every frame.
static void summary_add(summary *sum, const cw_world_stats *st, double step_ms, double draw_ms, int frame)
{
    if (frame == 0) {
        sum->first_step_ms = step_ms, sum->first_begins = st->begin_events;
        return;
    }
    double phases[4] = {step_ms, st->broad_ms, st->narrow_ms, st->events_ms};
    for (int i = 0; i < 4; i++)
        sum->step_ms[i] += phases[i];
    sum->max_step_ms = fmax(sum->max_step_ms, step_ms);
    sum->draw_ms += draw_ms;
    sum->candidates += st->candidate_pairs, sum->touching += st->touching_pairs;
    sum->begins += st->begin_events, sum->ends += st->end_events;
    sum->frames++;
}

static void summary_print(const summary *sum, const scene *s, const options *o, const char *font)
{
    cw_world_stats st = cw_world_get_stats(s->world);
    double n = sum->frames > 0 ? sum->frames : 1;
    printf("collworld demo, headless: %s scene, %d frames at %dx%d, seed %lu, font: %s\n", SCENE_NAMES[o->scene],
           o->frames, o->width, o->height, o->seed, font);
    printf("| %-28s | %12s |\n|%s|%s|\n", "per frame after the first", "mean", "------------------------------",
           "-------------:");
    printf("| %-28s | %12d |\n| %-28s | %12d |\n", "bodies", st.bodies, "of which static", st.static_bodies);
    printf("| %-28s | %12d |\n", "step workers", st.workers);
    printf("| %-28s | %12.0f |\n", "world memory, bytes a body", st.bodies ? (double)st.bytes / st.bodies : 0.0);
    printf("| %-28s | %12.0f |\n| %-28s | %12.0f |\n", "candidate pairs", sum->candidates / n, "touching pairs",
           sum->touching / n);
    printf("| %-28s | %12.1f |\n| %-28s | %12.1f |\n", "begin events", sum->begins / n, "end events", sum->ends / n);
    printf("| %-28s | %12.2f |\n| %-28s | %12.2f |\n", "world step, ms", sum->step_ms[0] / n, "world step max, ms",
           sum->max_step_ms);
    printf("| %-28s | %12.2f |\n| %-28s | %12.2f |\n| %-28s | %12.2f |\n", "  broadphase, ms",
           sum->step_ms[1] / n, "  narrowphase, ms", sum->step_ms[2] / n, "  events, ms", sum->step_ms[3] / n);
    printf("| %-28s | %12.2f |\n", "drawing (software), ms", sum->draw_ms / n);
    printf("| %-28s | %12.2f |\n| %-28s | %12d |\n", "first step, ms", sum->first_step_ms, "  its begin events",
           sum->first_begins);
    if (o->scene == SCENE_SHOOTER)
        printf("| %-28s | %12ld |\n| %-28s | %12ld |\n| %-28s | %12ld |\n| %-28s | %12d |\n",
               "bullets fired (total)", s->shooter.fired,
               s->shooter.unswept ? "hits (unswept bullets)" : "hits (swept bullets)", s->shooter.hits,
               "passed through unseen", s->shooter.unseen, "touching the ship (last)", s->shooter.touching_ship);
}

// Saves what the renderer shows: PNG through SDL2_image when it was found at build time, else BMP.
static bool save_screenshot(SDL_Renderer *r, const char *path)
{
    int w, h;
    SDL_GetRendererOutputSize(r, &w, &h);
    SDL_Surface *shot = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_RGBA32);
    if (shot == NULL || SDL_RenderReadPixels(r, NULL, SDL_PIXELFORMAT_RGBA32, shot->pixels, shot->pitch) != 0) {
        SDL_FreeSurface(shot);
        return false;
    }
#ifdef HAVE_SDL_IMAGE
    const char *dot = strrchr(path, '.');
    bool ok = (dot != NULL && SDL_strcasecmp(dot, ".bmp") == 0 ? SDL_SaveBMP(shot, path) : IMG_SavePNG(shot, path)) == 0;
#else
    // No PNG without SDL2_image: a BMP, named so (shot.png becomes shot.bmp).
    char bmp[1024];
    const char *dot = strrchr(path, '.');
    size_t stem = dot != NULL && SDL_strcasecmp(dot, ".png") == 0 ? (size_t)(dot - path) : strlen(path);
    snprintf(bmp, sizeof bmp, "%.*s.bmp", (int)(stem < 1000 ? stem : 1000), path);
    bool ok = SDL_SaveBMP(shot, bmp) == 0;
    fprintf(stderr, "demo: no SDL2_image at build time: the screenshot is %s\n", bmp);
#endif
    SDL_FreeSurface(shot);
    return ok;
}

// --- the frame loop ---

typedef struct app {
    options opt;
    sprite_set sprites;
    scene scene;
    SDL_Window *window;
    SDL_Renderer *renderer;
    painter painter;
    layers layers;
    bool paused, step_once, quit, dragging;
    cw_vec2 grab; // the dragged sprite's position minus the cursor
    double fps, draw_ms;
} app;

static void render(app *a)
{
    double start = now_ms();
    draw_scene(&a->painter, &a->scene, &a->layers);
    if (a->opt.scene == SCENE_INSPECT)
        draw_inspect(&a->painter, &a->scene);
    hud_info info = {a->opt.scene == SCENE_DEFAULT ? "demo" : SCENE_NAMES[a->opt.scene], a->fps, a->draw_ms, a->paused};
    draw_hud(&a->painter, &a->scene, &info, &a->layers);
    a->draw_ms = now_ms() - start;
}

// Changes the selected sprite's transform through `edit`.
static void edit_selected(app *a, float turn, float grow, bool mirror)
{
    sprite *sp = scene_sprite(&a->scene, a->scene.selected);
    if (sp == NULL)
        return;
    cw_transform t = sp->transform;
    t.rotation += turn;
    t.scale.x *= grow * (mirror ? -1 : 1), t.scale.y *= grow;
    scene_set_transform(&a->scene, sp, &t);
}

static void on_mouse_down(app *a, float x, float y)
{
    a->scene.selected = scene_pick(&a->scene, (cw_vec2){x, y});
    sprite *sp = scene_sprite(&a->scene, a->scene.selected);
    a->dragging = sp != NULL;
    if (sp != NULL) {
        sp->velocity = (cw_vec2){0, 0}, sp->spin = 0; // held sprites stop
        a->grab = (cw_vec2){sp->transform.position.x - x, sp->transform.position.y - y};
    }
}

static void on_mouse_move(app *a, float x, float y)
{
    sprite *sp = scene_sprite(&a->scene, a->scene.selected);
    if (!a->dragging || sp == NULL)
        return;
    cw_transform t = sp->transform;
    t.position = (cw_vec2){x + a->grab.x, y + a->grab.y};
    scene_set_transform(&a->scene, sp, &t);
}

static void on_key(app *a, SDL_Keycode key)
{
    switch (key) {
    case SDLK_ESCAPE: case SDLK_q: a->quit = true; break;
    case SDLK_SPACE: a->paused = !a->paused; break;
    case SDLK_n: a->step_once = true; break;
    case SDLK_LEFT: edit_selected(a, -0.05f, 1, false); break;
    case SDLK_RIGHT: edit_selected(a, 0.05f, 1, false); break;
    case SDLK_PLUS: case SDLK_EQUALS: case SDLK_KP_PLUS: edit_selected(a, 0, 1.1f, false); break;
    case SDLK_MINUS: case SDLK_KP_MINUS: edit_selected(a, 0, 1 / 1.1f, false); break;
    case SDLK_m: edit_selected(a, 0, 1, true); break;
    case SDLK_a: scene_add_sprites(&a->scene, 1000); break;
    case SDLK_x: scene_remove_sprites(&a->scene, 1000); break;
    case SDLK_b: scene_set_boxes(&a->scene, !a->scene.boxes); break;
    case SDLK_s: shooter_set_unswept(&a->scene, !a->scene.shooter.unswept); break;
    case SDLK_1: a->layers.grid = !a->layers.grid; break;
    case SDLK_2: a->layers.aabbs = !a->layers.aabbs; break;
    case SDLK_3: a->layers.boxes = !a->layers.boxes; break;
    case SDLK_4: a->layers.contacts = !a->layers.contacts; break;
    case SDLK_5: a->layers.rays = !a->layers.rays; break;
    case SDLK_h: a->layers.help = !a->layers.help; break;
    case SDLK_F12: if (a->opt.screenshot != NULL) save_screenshot(a->renderer, a->opt.screenshot); break;
    default: break;
    }
}

static void handle_events(app *a)
{
    SDL_Event e;
    while (SDL_PollEvent(&e)) {
        if (e.type == SDL_QUIT)
            a->quit = true;
        else if (e.type == SDL_KEYDOWN)
            on_key(a, e.key.keysym.sym);
        else if (e.type == SDL_MOUSEBUTTONDOWN && e.button.button == SDL_BUTTON_LEFT)
            on_mouse_down(a, (float)e.button.x, (float)e.button.y);
        else if (e.type == SDL_MOUSEBUTTONUP)
            a->dragging = false;
        else if (e.type == SDL_MOUSEMOTION)
            on_mouse_move(a, (float)e.motion.x, (float)e.motion.y);
        else if (e.type == SDL_MOUSEWHEEL)
            edit_selected(a, 0.1f * (float)e.wheel.y, 1, false);
    }
}

static void run_window(app *a)
{
    Uint64 last = SDL_GetPerformanceCounter();
    while (!a->quit) {
        handle_events(a);
        if (!a->paused || a->step_once)
            scene_advance(&a->scene, 1 / 60.0f);
        a->step_once = false;
        render(a);
        SDL_RenderPresent(a->renderer);
        Uint64 now = SDL_GetPerformanceCounter();
        double fps = (double)SDL_GetPerformanceFrequency() / (double)(now - last);
        a->fps = a->fps == 0 ? fps : 0.9 * a->fps + 0.1 * fps, last = now;
    }
}

// Headless: the player (or the inspect scene's R) moves along a fixed path, so runs are reproducible.
static void autopilot(app *a, int frame)
{
    sprite *sp = scene_sprite(&a->scene, a->scene.selected);
    if (sp == NULL)
        return;
    cw_transform t = sp->transform;
    if (a->opt.scene == SCENE_SHOOTER) {
        return; // the ship turns and fires by itself
    } else if (a->opt.scene == SCENE_INSPECT) {
        t.rotation += 0.001f;
    } else {
        float phase = (float)frame / 120.0f;
        t.position = (cw_vec2){a->scene.size.x * (0.5f + 0.3f * sinf(phase)), a->scene.size.y * (0.5f + 0.25f * sinf(2 * phase))};
        t.rotation += 0.02f;
    }
    scene_set_transform(&a->scene, sp, &t);
}

static int run_headless(app *a)
{
    summary sum = {0};
    for (int frame = 0; frame < a->opt.frames; frame++) {
        autopilot(a, frame);
        double start = now_ms();
        scene_advance(&a->scene, 1 / 60.0f);
        double step_ms = now_ms() - start;
        a->fps = 1000.0 / fmax(step_ms + a->draw_ms, 1e-3);
        render(a);
        cw_world_stats st = cw_world_get_stats(a->scene.world);
        summary_add(&sum, &st, step_ms, a->draw_ms, frame);
    }
    summary_print(&sum, &a->scene, &a->opt, text_font_name(a->painter.text));
    const char *path = a->opt.screenshot != NULL ? a->opt.screenshot : "collworld-demo.png";
    if (!save_screenshot(a->renderer, path)) {
        fprintf(stderr, "demo: cannot save %s: %s\n", path, SDL_GetError());
        return 1;
    }
    printf("screenshot: %s\n", path);
    return 0;
}

static bool open_window(app *a)
{
    Uint32 flags = a->opt.headless ? SDL_WINDOW_HIDDEN : SDL_WINDOW_SHOWN;
    a->window = SDL_CreateWindow("collworld demo", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, a->opt.width,
                                 a->opt.height, flags);
    if (a->window == NULL)
        return false;
    Uint32 renderer_flags = a->opt.headless ? SDL_RENDERER_SOFTWARE : SDL_RENDERER_ACCELERATED | SDL_RENDERER_PRESENTVSYNC;
    a->renderer = SDL_CreateRenderer(a->window, -1, renderer_flags);
    if (a->renderer == NULL && !a->opt.headless)
        a->renderer = SDL_CreateRenderer(a->window, -1, SDL_RENDERER_SOFTWARE);
    return a->renderer != NULL;
}

// Video: the real driver when there is a display, else SDL's offscreen driver.
static bool start_video(app *a)
{
    if (no_display())
        a->opt.headless = true;
    if (!a->opt.headless && SDL_Init(SDL_INIT_VIDEO) != 0) {
        fprintf(stderr, "demo: no display (%s), running headless\n", SDL_GetError());
        a->opt.headless = true;
    }
    if (a->opt.headless) {
        SDL_SetHint(SDL_HINT_VIDEODRIVER, "offscreen");
        if (SDL_Init(SDL_INIT_VIDEO) != 0)
            return false;
    }
    return open_window(a);
}

static void shut_down(app *a)
{
    painter_free(&a->painter);
    if (a->renderer != NULL)
        SDL_DestroyRenderer(a->renderer);
    if (a->window != NULL)
        SDL_DestroyWindow(a->window);
    scene_free(&a->scene);
    sprite_set_destroy(&a->sprites);
    SDL_Quit();
}

int main(int argc, char **argv)
{
    static app a; // large: sprite pixels live in it
    a.layers.help = true;
    a.layers.rays = true; // the player's ray casts, to the closest sprite in each direction
    if (!parse_options(argc, argv, &a.opt)) {
        fputs(USAGE, stderr);
        return 2;
    }
    if (a.opt.selftest)
        return run_selftest() ? 0 : 1;
    if (a.opt.write_art != NULL)
        return sprite_art_write(a.opt.write_art) ? 0 : 1;
    if (a.opt.overlays != NULL) {
        a.layers.grid = strstr(a.opt.overlays, "grid") != NULL;
        a.layers.aabbs = strstr(a.opt.overlays, "aabbs") != NULL;
        a.layers.boxes = strstr(a.opt.overlays, "boxes") != NULL;
        a.layers.contacts = strstr(a.opt.overlays, "contacts") != NULL;
    }
    if (!sprite_set_create(&a.sprites)) {
        fprintf(stderr, "demo: %s\n", cw_last_error());
        return 1;
    }
    cw_vec2 size = {(float)a.opt.width, (float)a.opt.height};
    bool ok = scene_init(&a.scene, a.opt.scene, a.opt.count, a.opt.seed, size, a.sprites.images, a.opt.workers) && start_video(&a) &&
              painter_init(&a.painter, a.renderer, a.sprites.images);
    if (a.opt.scene == SCENE_SHOOTER) { // hits flash with their point and normal; no ray fan
        a.layers.contacts = true, a.layers.rays = false;
        shooter_set_unswept(&a.scene, a.opt.unswept);
    }
    int status = 1;
    if (!ok)
        fprintf(stderr, "demo: cannot start: %s%s\n", SDL_GetError(), cw_last_error());
    else if (a.opt.headless)
        status = run_headless(&a);
    else {
        run_window(&a);
        status = 0;
    }
    shut_down(&a);
    return status;
}
