/// @file bench_peers.cpp
/// collworld's world against the broadphases users would pick instead, on the world benchmark's
/// sprites scene (bench/world_scene.h): the same bodies moving the same way, frame after frame.
///
/// - collworld: a world stepped after every body's transform is set (events to the arrays).
/// - Box2D 2.4 (Debian's libbox2d-dev): b2BroadPhase as b2World runs it: a b2DynamicTree with fat
///   AABBs (b2_aabbExtension, displacement-predicted), MoveProxy for every body, UpdatePairs adding
///   new pairs to a persistent contact set, contacts whose fat AABBs part are dropped, and each
///   contact given the exact test. Box2D wants metres: the scene is fed at 32 units a metre (its
///   8-64 unit sprites become 0.25-2 m boxes, as a game with 32-pixel tiles would do).
/// - Chipmunk 7 (libchipmunk-dev): cpSpaceHash (cell 48 units, 10 cells a body, as its manual
///   suggests) and cpBBTree (with the bodies' velocities), reindexed and queried every frame with
///   cpSpatialIndexReindexQuery as cpSpaceStep does, each pair given the exact test.
/// - The exact test for the peers is the sort-and-sweep yardstick's (world_yardstick.h): the
///   separating-axis test on the two boxes; for masks that test on the sprites' rectangles, then
///   the textbook per-texel test both ways.
///
/// Before timing, a checking pass runs every side frame by frame and compares each peer's touching
/// pairs with the yardstick's (the same exact test, so they must be equal) and collworld's with
/// them (boxes: equal up to ties within 1e-6 units; masks: the textbook test samples, so a few
/// differ). Then interleaved timed runs: for each repeat, each side from scratch, warm-up frames,
/// timed frames; ms/frame is the median over frames, then over repeats. Peak memory: the growth of
/// the process's peak RSS over a run (the kernel's peak mark is reset before each).
///
/// Then a scaling run, boxes from 1k to 1M at a constant density (the 10k scene's; the world grows
/// with the bodies): ms/frame and bytes a body per side, as a table and as
/// two log-log plots (build/scaling-time.svg, build/scaling-memory.svg).
///
/// usage: bench_peers [--boxes N,N,...] [--masks N,N,...] [--frames F] [--warmup W] [--repeats R]
///                    [--check-frames C] [--scaling N,N,...] [--svg PREFIX]
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include <box2d/b2_broad_phase.h>
#include <chipmunk/chipmunk.h>

extern "C" {
#include "measure.h"
#include "svg_plot.h"
#include "world_scene.h"
#include "world_yardstick.h"
}

namespace {

constexpr double UNITS_PER_METRE = 32.0;
constexpr double FRAME_SECONDS = 1.0 / 60.0;

// --- what every peer computes each frame: the bodies' OBBs and tight AABBs (double) ---

struct Geometry {
    std::vector<ys_obb> obb;
    std::vector<double> minx, miny, maxx, maxy;

    void update(const ws_scene *s) {
        const size_t n = (size_t)s->n;
        obb.resize(n), minx.resize(n), miny.resize(n), maxx.resize(n), maxy.resize(n);
        for (size_t i = 0; i < n; i++) {
            const ys_obb o = ys_body_obb(s, (int)i);
            obb[i] = o;
            const double ex = o.hu * std::fabs(o.ux) + o.hv * std::fabs(o.uy);
            const double ey = o.hu * std::fabs(o.uy) + o.hv * std::fabs(o.ux);
            minx[i] = o.cx - ex, maxx[i] = o.cx + ex, miny[i] = o.cy - ey, maxy[i] = o.cy + ey;
        }
    }
    bool aabbs_overlap(int i, int j) const {
        return minx[i] < maxx[j] && minx[j] < maxx[i] && miny[i] < maxy[j] && miny[j] < maxy[i];
    }
};

// The peers' exact test, as the yardstick's.
bool touching(const ws_scene *s, const Geometry &g, int i, int j) {
    if (!ys_obb_overlap(&g.obb[i], &g.obb[j], nullptr)) {
        return false;
    }
    if (s->kind == WS_BOXES) {
        return true;
    }
    const tb_mask *a = &s->sprites[s->sprite[i]].tbmask, *b = &s->sprites[s->sprite[j]].tbmask;
    return tb_overlap_float(a, &s->xf[i], b, &s->xf[j]) || tb_overlap_float(b, &s->xf[j], a, &s->xf[i]);
}

// What a side reports for a frame: how many pairs touch, and (in the checking pass) which.
struct Frame {
    long touching = 0;
    bool record = false;
    std::vector<uint64_t> pairs;
    void found(int i, int j) {
        touching++;
        if (record) {
            pairs.push_back(ys_key(i, j));
        }
    }
};

// A set of pair keys: open addressing with linear probing and backward-shift deletion (what a
// careful implementer would use for persistent pairs; Box2D itself walks per-body contact lists).
class PairSet {
public:
    bool insert(uint64_t key) {
        if ((count_ + 1) * 2 > slots_.size()) {
            grow();
        }
        size_t i = slot(key);
        while (slots_[i] != EMPTY) {
            if (slots_[i] == key) {
                return false;
            }
            i = (i + 1) & mask_;
        }
        slots_[i] = key;
        count_++;
        return true;
    }
    void erase(uint64_t key) {
        size_t i = slot(key);
        while (slots_[i] != key) {
            if (slots_[i] == EMPTY) {
                return;
            }
            i = (i + 1) & mask_;
        }
        for (size_t j = (i + 1) & mask_;; j = (j + 1) & mask_) { // shift the run back over the hole
            if (slots_[j] == EMPTY) {
                break;
            }
            const size_t home = slot(slots_[j]);
            if (((j - home) & mask_) >= ((j - i) & mask_)) {
                slots_[i] = slots_[j];
                i = j;
            }
        }
        slots_[i] = EMPTY;
        count_--;
    }

private:
    static constexpr uint64_t EMPTY = ~0ull;
    std::vector<uint64_t> slots_;
    size_t count_ = 0, mask_ = 0;

    size_t slot(uint64_t key) const { return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 17) & mask_; }
    void grow() {
        std::vector<uint64_t> old;
        old.swap(slots_);
        slots_.assign(old.empty() ? 1024 : 2 * old.size(), EMPTY);
        mask_ = slots_.size() - 1;
        count_ = 0;
        for (uint64_t k : old) {
            if (k != EMPTY) {
                insert(k);
            }
        }
    }
};

// --- the sides ---

struct Side {
    virtual ~Side() = default;
    virtual const char *name() const = 0;
    virtual bool init(ws_scene *s) = 0;
    virtual void frame(ws_scene *s, Frame &out) = 0; // the scene has just advanced
};

class CollworldSide : public Side {
public:
    // With `reserve`, the world is told the body count up front (cw_world_def::body_capacity).
    explicit CollworldSide(bool reserve = false) : reserve_(reserve) {}
    const char *name() const override { return reserve_ ? "collworld, body_capacity" : "collworld"; }
    ~CollworldSide() override { cw_world_destroy(world_); }
    bool init(ws_scene *s) override {
        cw_world_def def = cw_default_world_def();
        def.manifolds = false; // the peers compute none
        def.body_capacity = reserve_ ? s->n : 0;
        world_ = cw_world_create(&def);
        ids_.resize((size_t)s->n);
        for (int i = 0; world_ != nullptr && i < s->n; i++) {
            cw_body_def d = cw_default_body_def();
            d.shape = s->shape[i];
            d.transform = s->xf[i];
            if (cw_body_id_is_null(ids_[(size_t)i] = cw_body_create(world_, &d))) {
                return false;
            }
        }
        return world_ != nullptr;
    }
    void frame(ws_scene *s, Frame &out) override {
        for (int i = 0; i < s->n; i++) {
            cw_body_set_transform(world_, ids_[(size_t)i], &s->xf[i]);
        }
        cw_world_step(world_);
        out.touching = cw_world_get_stats(world_).touching_pairs;
        if (!out.record) {
            return;
        }
        cw_touch touches[256];
        for (int i = 0; i < s->n; i++) {
            const int n = cw_body_touching(world_, ids_[(size_t)i], touches, 256);
            for (int k = 0; k < n && k < 256; k++) {
                const int j = (int)touches[k].body.index - 1; // bodies were created in order: index = i + 1
                if (j > i) {
                    out.pairs.push_back(ys_key(i, j));
                }
            }
        }
    }

private:
    bool reserve_;
    cw_world *world_ = nullptr;
    std::vector<cw_body_id> ids_;
};

class Box2DSide : public Side {
public:
    const char *name() const override { return "Box2D 2.4 b2BroadPhase"; }
    bool init(ws_scene *s) override {
        geometry_.update(s);
        proxy_.resize((size_t)s->n);
        for (int i = 0; i < s->n; i++) {
            proxy_[(size_t)i] = broad_.CreateProxy(aabb(i), reinterpret_cast<void *>((intptr_t)i));
        }
        return true;
    }
    void frame(ws_scene *s, Frame &out) override {
        geometry_.update(s);
        for (int i = 0; i < s->n; i++) {
            const b2Vec2 d((float)(s->vel[i].x / UNITS_PER_METRE), (float)(s->vel[i].y / UNITS_PER_METRE));
            broad_.MoveProxy(proxy_[(size_t)i], aabb(i), d);
        }
        broad_.UpdatePairs(this); // new pairs, through AddPair
        // b2ContactManager::Collide: contacts whose fat AABBs parted go; the rest are tested.
        for (size_t k = 0; k < contacts_.size();) {
            const int i = (int)(contacts_[k] >> 32), j = (int)(contacts_[k] & 0xffffffffu);
            if (!broad_.TestOverlap(proxy_[(size_t)i], proxy_[(size_t)j])) {
                set_.erase(contacts_[k]);
                contacts_[k] = contacts_.back();
                contacts_.pop_back();
                continue;
            }
            if (touching(s, geometry_, i, j)) {
                out.found(i, j);
            }
            k++;
        }
    }
    void AddPair(void *a, void *b) {
        const uint64_t key = ys_key((int)reinterpret_cast<intptr_t>(a), (int)reinterpret_cast<intptr_t>(b));
        if (set_.insert(key)) {
            contacts_.push_back(key);
        }
    }

private:
    Geometry geometry_;
    b2BroadPhase broad_;
    std::vector<int32> proxy_;
    std::vector<uint64_t> contacts_;
    PairSet set_;

    // The tight AABB in metres, rounded outward to floats.
    b2AABB aabb(int i) const {
        b2AABB box;
        box.lowerBound.Set(std::nextafter((float)(geometry_.minx[(size_t)i] / UNITS_PER_METRE), -1e30f),
                           std::nextafter((float)(geometry_.miny[(size_t)i] / UNITS_PER_METRE), -1e30f));
        box.upperBound.Set(std::nextafter((float)(geometry_.maxx[(size_t)i] / UNITS_PER_METRE), 1e30f),
                           std::nextafter((float)(geometry_.maxy[(size_t)i] / UNITS_PER_METRE), 1e30f));
        return box;
    }
};

// Chipmunk's callbacks take no context: the side running sets these.
const Geometry *g_geometry = nullptr;
const ws_scene *g_scene = nullptr;

cpBB chipmunk_bb(void *obj) {
    const size_t i = (size_t)reinterpret_cast<intptr_t>(obj) - 1;
    return cpBBNew(g_geometry->minx[i], g_geometry->miny[i], g_geometry->maxx[i], g_geometry->maxy[i]);
}

cpVect chipmunk_velocity(void *obj) { // units per second, as a cpBody's velocity
    const size_t i = (size_t)reinterpret_cast<intptr_t>(obj) - 1;
    return cpv(g_scene->vel[i].x / FRAME_SECONDS, g_scene->vel[i].y / FRAME_SECONDS);
}

cpCollisionID chipmunk_pair(void *a, void *b, cpCollisionID id, void *data) {
    const int i = (int)reinterpret_cast<intptr_t>(a) - 1, j = (int)reinterpret_cast<intptr_t>(b) - 1;
    if (g_geometry->aabbs_overlap(i, j) && touching(g_scene, *g_geometry, i, j)) { // cpSpaceCollideShapes
        static_cast<Frame *>(data)->found(i, j);
    }
    return id;
}

class ChipmunkSide : public Side {
public:
    explicit ChipmunkSide(bool tree) : tree_(tree) {}
    ~ChipmunkSide() override {
        if (index_ != nullptr) {
            cpSpatialIndexFree(index_);
        }
    }
    const char *name() const override { return tree_ ? "Chipmunk 7 cpBBTree" : "Chipmunk 7 cpSpaceHash"; }
    bool init(ws_scene *s) override {
        geometry_.update(s);
        bind(s);
        index_ = tree_ ? cpBBTreeNew(chipmunk_bb, nullptr) : cpSpaceHashNew(48.0, 10 * s->n, chipmunk_bb, nullptr);
        if (index_ == nullptr) {
            return false;
        }
        if (tree_) {
            cpBBTreeSetVelocityFunc(index_, chipmunk_velocity);
        }
        for (int i = 0; i < s->n; i++) {
            cpSpatialIndexInsert(index_, reinterpret_cast<void *>((intptr_t)i + 1), (cpHashValue)i);
        }
        return true;
    }
    void frame(ws_scene *s, Frame &out) override {
        geometry_.update(s);
        bind(s);
        cpSpatialIndexReindexQuery(index_, chipmunk_pair, &out);
    }

private:
    bool tree_;
    cpSpatialIndex *index_ = nullptr;
    Geometry geometry_;
    void bind(const ws_scene *s) {
        g_geometry = &geometry_;
        g_scene = s;
    }
};

// The sort-and-sweep yardstick, for the checking pass.
class YardstickSide : public Side {
public:
    const char *name() const override { return "sort-and-sweep yardstick"; }
    ~YardstickSide() override { ys_free(&state_); }
    bool init(ws_scene *s) override { return ys_init(&state_, s->n); }
    void frame(ws_scene *s, Frame &out) override {
        state_.record = out.record;
        out.touching = ys_frame(&state_, s).touching;
        if (out.record) {
            out.pairs.assign(state_.pairs.items, state_.pairs.items + state_.pairs.count);
        }
    }

private:
    ys_state state_{};
};

constexpr size_t SIDE_COUNT = 4;

std::unique_ptr<Side> make_side(size_t k) {
    switch (k) {
    case 0: return std::unique_ptr<Side>(new CollworldSide);
    case 1: return std::unique_ptr<Side>(new Box2DSide);
    case 2: return std::unique_ptr<Side>(new ChipmunkSide(false));
    default: return std::unique_ptr<Side>(new ChipmunkSide(true));
    }
}

// --- the checking pass ---

struct Check {
    long frames = 0, peer_mismatches = 0, collworld_mismatches = 0, pairs = 0;
};

Check check(ws_scene *s, int frames) {
    Check c;
    ws_scene_reset(s);
    std::vector<std::unique_ptr<Side>> sides;
    YardstickSide yardstick;
    bool ok = yardstick.init(s);
    for (size_t k = 0; k < SIDE_COUNT; k++) {
        sides.push_back(make_side(k));
        ok = ok && sides.back()->init(s);
    }
    if (!ok) {
        std::fprintf(stderr, "bench_peers: a side could not start for the checking pass\n");
        std::exit(1);
    }
    for (int f = 0; f < frames; f++) {
        ws_scene_advance(s);
        Frame reference;
        reference.record = true;
        yardstick.frame(s, reference);
        std::sort(reference.pairs.begin(), reference.pairs.end());
        c.pairs += (long)reference.pairs.size();
        for (size_t k = 0; k < sides.size(); k++) {
            Frame got;
            got.record = true;
            sides[k]->frame(s, got);
            std::sort(got.pairs.begin(), got.pairs.end());
            got.pairs.erase(std::unique(got.pairs.begin(), got.pairs.end()), got.pairs.end());
            std::vector<uint64_t> diff;
            std::set_symmetric_difference(got.pairs.begin(), got.pairs.end(), reference.pairs.begin(),
                                          reference.pairs.end(), std::back_inserter(diff));
            (k == 0 ? c.collworld_mismatches : c.peer_mismatches) += (long)diff.size();
        }
        c.frames++;
    }
    return c;
}

// --- the timed runs ---

struct Timing {
    double ms = 0;         // median ms/frame of the run
    double peak_mb = 0;    // peak RSS growth over the run
    double own_bytes = 0;  // collworld: the library's own peak (counting allocator); else 0
    long touching = 0;     // touching pairs in the last frame
};

Timing timed_run(Side *side, ws_scene *s, int warmup, int frames) {
    Timing t;
    ws_scene_reset(s);
    bm_trim_heap();
    bm_reset_peak_rss();
    const long before = bm_current_rss_kb();
    const double own_before = bm_collworld_live();
    bm_collworld_reset_peak();
    if (!side->init(s)) {
        std::fprintf(stderr, "bench_peers: %s could not start\n", side->name());
        std::exit(1);
    }
    std::vector<double> ms((size_t)frames);
    for (int f = 0; f < warmup + frames; f++) {
        ws_scene_advance(s);
        Frame out;
        const double t0 = bm_now_ms();
        side->frame(s, out);
        const double t1 = bm_now_ms();
        if (f >= warmup) {
            ms[(size_t)(f - warmup)] = t1 - t0;
        }
        t.touching = out.touching;
    }
    t.ms = bm_median(ms.data(), frames);
    t.peak_mb = (double)(bm_peak_rss_kb() - before) / 1024.0;
    t.own_bytes = bm_collworld_peak() - own_before;
    return t;
}

struct Options {
    std::vector<int> boxes{10000, 50000, 100000}, masks{10000, 50000, 100000};
    std::vector<int> scaling{1000, 3000, 10000, 30000, 100000, 300000, 1000000};
    int frames = 10, warmup = 3, repeats = 3, check_frames = 13;
    std::string svg_prefix = "build/scaling";
};

std::vector<int> parse_list(const char *text) {
    std::vector<int> out;
    for (const char *p = text; *p != '\0';) {
        char *end;
        const long v = std::strtol(p, &end, 10);
        if (end == p || v < 2) {
            break;
        }
        out.push_back((int)v);
        p = *end == ',' ? end + 1 : end;
    }
    return out;
}

Options parse(int argc, char **argv) {
    Options o;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        if (a == "--boxes") o.boxes = parse_list(argv[i + 1]);
        else if (a == "--masks") o.masks = parse_list(argv[i + 1]);
        else if (a == "--frames") o.frames = std::max(1, std::atoi(argv[i + 1]));
        else if (a == "--warmup") o.warmup = std::max(0, std::atoi(argv[i + 1]));
        else if (a == "--repeats") o.repeats = std::max(1, std::atoi(argv[i + 1]));
        else if (a == "--check-frames") o.check_frames = std::max(0, std::atoi(argv[i + 1]));
        else if (a == "--scaling") o.scaling = parse_list(argv[i + 1]);
        else if (a == "--svg") o.svg_prefix = argv[i + 1];
        else {
            std::fprintf(stderr, "usage: bench_peers [--boxes N,N] [--masks N,N] [--frames F] [--warmup W] "
                                 "[--repeats R] [--check-frames C] [--scaling N,N] [--svg PREFIX]\n");
            std::exit(2);
        }
    }
    return o;
}

// Every side's median ms/frame, peak RSS growth and (collworld) own bytes, over interleaved repeats.
struct Result {
    std::vector<std::string> names;
    std::vector<double> ms, mb, own_bytes;
};

Result measure(ws_scene *s, int warmup, int frames, int repeats) {
    std::vector<std::vector<Timing>> runs(SIDE_COUNT);
    Result r;
    for (int k = 0; k < repeats; k++) { // interleaved: each repeat runs every side once, from scratch
        for (size_t side = 0; side < SIDE_COUNT; side++) {
            std::unique_ptr<Side> made = make_side(side);
            runs[side].push_back(timed_run(made.get(), s, warmup, frames));
            if (k == 0) {
                r.names.push_back(made->name());
            }
        }
    }
    for (size_t side = 0; side < SIDE_COUNT; side++) {
        std::vector<double> ms, mb, own;
        for (const Timing &t : runs[side]) {
            ms.push_back(t.ms), mb.push_back(t.peak_mb), own.push_back(t.own_bytes);
        }
        r.ms.push_back(bm_median(ms.data(), (int)ms.size()));
        r.mb.push_back(bm_median(mb.data(), (int)mb.size()));
        r.own_bytes.push_back(bm_median(own.data(), (int)own.size()));
    }
    return r;
}

void run(ws_kind kind, int n, const Options &o, const ws_sprite *sprites) {
    ws_scene s;
    if (!ws_scene_init(&s, kind, n, 2024u, sprites)) {
        std::fprintf(stderr, "bench_peers: out of memory for the scene\n");
        std::exit(1);
    }
    const Check c = check(&s, o.check_frames);
    const Result r = measure(&s, o.warmup, o.frames, o.repeats);
    std::printf("\n%s, %d bodies: %ld frames checked, %.0f touching pairs a frame; peers vs the yardstick: %ld "
                "pairs differ; collworld vs the yardstick: %ld%s\n",
                kind == WS_BOXES ? "boxes" : "masks", n, c.frames, c.frames ? (double)c.pairs / c.frames : 0.0,
                c.peer_mismatches, c.collworld_mismatches,
                kind == WS_MASKS ? " (the textbook test samples one point a texel)" : "");
    if (c.peer_mismatches != 0) { // every peer runs the yardstick's exact test: only a lost or invented pair differs
        std::fflush(stdout);
        std::fprintf(stderr, "bench_peers: a peer's touching pairs differ from the yardstick's in %ld places\n",
                     c.peer_mismatches);
        std::exit(1);
    }
    std::printf("| side | ms/frame | its time / collworld's | peak RSS growth, MB |\n|---|---:|---:|---:|\n");
    for (size_t k = 0; k < SIDE_COUNT; k++) {
        std::printf("| %s | %.2f | %.2fx | %.1f |\n", r.names[k].c_str(), r.ms[k], r.ms[k] / r.ms[0], r.mb[k]);
    }
    std::printf("collworld's own peak (counting allocator): %.1f MB, %.0f bytes a body\n", r.own_bytes[0] / 1048576.0,
                r.own_bytes[0] / n);
    CollworldSide reserved(true); // one run, for its memory: the count told up front
    const Timing t = timed_run(&reserved, &s, 1, 1);
    std::printf("with cw_world_def::body_capacity = %d: %.1f MB, %.0f bytes a body\n", n, t.own_bytes / 1048576.0,
                t.own_bytes / n);
    ws_scene_free(&s);
}

// Boxes from 1k to 1M bodies: ms/frame and bytes a body for every side, as a table and two plots.
void scaling(const Options &o) {
    if (o.scaling.empty()) {
        return;
    }
    const size_t points = o.scaling.size();
    std::vector<std::vector<double>> ms(SIDE_COUNT, std::vector<double>(points)),
        bytes(SIDE_COUNT, std::vector<double>(points));
    std::vector<double> xs(points);
    std::vector<std::string> names;
    std::printf("\nscaling, boxes at the density of 10k in 8192 x 8192 (the world grows with the bodies): ms/frame "
                "(bytes a body: collworld's own peak, the peers' peak RSS growth)\n| bodies |");
    for (size_t p = 0; p < points; p++) {
        const int n = o.scaling[p];
        ws_scene s;
        if (!ws_scene_init(&s, WS_BOXES, n, 2024u, nullptr)) {
            std::fprintf(stderr, "bench_peers: out of memory for the scene\n");
            std::exit(1);
        }
        ws_scene_set_size(&s, (float)(WS_WORLD_SIZE * std::sqrt(n / 10000.0))); // the density of 10k in 8192^2
        const int frames = n >= 300000 ? 3 : o.frames, repeats = n >= 300000 ? 1 : o.repeats;
        const Result r = measure(&s, n >= 300000 ? 1 : o.warmup, frames, repeats);
        ws_scene_free(&s);
        if (p == 0) {
            names = r.names;
            for (const std::string &name : names) {
                std::printf(" %s |", name.c_str());
            }
            std::printf(" fastest peer / collworld |\n|---:|");
            for (size_t k = 0; k <= SIDE_COUNT; k++) {
                std::printf("---:|");
            }
            std::printf("\n");
        }
        xs[p] = n;
        std::printf("| %d |", n);
        for (size_t k = 0; k < SIDE_COUNT; k++) {
            ms[k][p] = r.ms[k];
            bytes[k][p] = (k == 0 ? r.own_bytes[k] : r.mb[k] * 1048576.0) / n;
            std::printf(" %.3g ms, %.0f B |", ms[k][p], bytes[k][p]);
        }
        double fastest_peer = ms[1][p];
        for (size_t k = 2; k < SIDE_COUNT; k++) {
            fastest_peer = std::min(fastest_peer, ms[k][p]);
        }
        std::printf(" %.2fx |\n", fastest_peer / ms[0][p]);
        std::fflush(stdout);
    }
    static const char *const colors[] = {"#d62728", "#1f77b4", "#2ca02c", "#9467bd"};
    std::vector<svg_series> time_lines, memory_lines;
    for (size_t k = 0; k < SIDE_COUNT; k++) {
        time_lines.push_back({names[k].c_str(), colors[k], xs.data(), ms[k].data(), (int)points});
        memory_lines.push_back({names[k].c_str(), colors[k], xs.data(), bytes[k].data(), (int)points});
    }
    const std::string time_svg = o.svg_prefix + "-time.svg", memory_svg = o.svg_prefix + "-memory.svg";
    const bool ok = svg_loglog(time_svg.c_str(), "Moving boxes: time per frame", "bodies", "ms per frame",
                               time_lines.data(), (int)SIDE_COUNT) &&
                    svg_loglog(memory_svg.c_str(), "Moving boxes: memory per body", "bodies", "bytes per body",
                               memory_lines.data(), (int)SIDE_COUNT);
    std::printf("%s %s and %s\n", ok ? "wrote" : "could not write", time_svg.c_str(), memory_svg.c_str());
}

} // namespace

int main(int argc, char **argv) {
    const Options o = parse(argc, argv);
    bm_count_collworld_memory();
    ws_sprite sprites[WS_SPRITE_COUNT];
    if (!ws_sprites_build(sprites)) {
        std::fprintf(stderr, "bench_peers: the sprites could not be built\n");
        return 1;
    }
    std::printf("bench_peers: the sprites scene, %d warm-up and %d timed frames, median of %d interleaved "
                "repeats; Box2D at %.0f units a metre\n",
                o.warmup, o.frames, o.repeats, UNITS_PER_METRE);
    for (int n : o.boxes) {
        run(WS_BOXES, n, o, sprites);
    }
    for (int n : o.masks) {
        run(WS_MASKS, n, o, sprites);
    }
    scaling(o);
    ws_sprites_free(sprites);
    return 0;
}
