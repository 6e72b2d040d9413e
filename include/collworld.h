/// @file collworld.h
/// collworld: exact 2D sprite collision for game engines.
///
/// One header, C11, usable from C++. All names start with `cw_`.
///
/// ## Conventions
/// - Units: a mask's local unit is one texel; a box's local unit is whatever the caller uses (usually
///   pixels). World units are whatever the transforms map to (usually screen pixels).
/// - A local point p lands in the world at `position + R(rotation) * ((p - origin) ∘ scale)`, with
///   `R(t) = [cos t, -sin t; sin t, cos t]` and `∘` the per-axis product. On a y-down screen (as SDL
///   draws) a positive rotation turns clockwise. A rotation that is the float nearest to a multiple of
///   pi/2 (and below 100,000 rad) counts as that exact multiple, so a float pi/2 keeps sprites on
///   the texel grid; every other value is used exactly as given.
/// - Mask texel (i, j) covers the local unit square [i, i+1] x [j, j+1]; a box of size (w, h) covers
///   [0, w] x [0, h].
/// - Two shapes overlap iff the regions they cover (the union of their opaque texels, or the box)
///   intersect with positive area. Edges or corners that only touch do not overlap. The answer does
///   not depend on the argument order.
///
/// ## Errors
/// Bad input never crashes and never calls exit(): the call fails (returns false or NULL) and
/// cw_last_error() describes the problem in one plain sentence. The message is per thread.
///
/// ## Threads
/// Masks are immutable once built and may be read from any number of threads at once. cw_overlap()
/// and the other shape functions are pure and thread-safe. cw_set_allocator() must be called before
/// anything is allocated; your allocator must be thread-safe if several threads use collworld (a
/// world's own workers never allocate).
///
/// A world belongs to one thread at a time, with one exception: between steps, the queries
/// (cw_world_query_point/box/shape, cw_world_raycast, cw_world_raycast_all, cw_world_cast_shape,
/// cw_world_cast_shape_all), the read-only body getters and cw_world_events() (whose first call
/// after a step gathers the arrays while other callers wait) may run on any number of threads at
/// once, as long as no thread changes the world meanwhile (creates, destroys, moves or changes a
/// body, steps or destroys the world). Up to CW_QUERY_LANES queries run at the same time; more
/// wait for one of them to finish. A change or a step started while a query runs on another
/// thread fails with an error instead of racing; anything else done concurrently is undefined. A
/// world's step can use several threads itself (cw_world_def::worker_count).
#ifndef COLLWORLD_H
#define COLLWORLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// @name Version
/// The version of this header (semantic versioning: the major number changes when the API or ABI
/// breaks). cw_version() gives the version of the library actually linked.
/// @{

/// Major version: incremented on incompatible API or ABI changes.
#define CW_VERSION_MAJOR 0
/// Minor version: incremented when functionality is added compatibly.
#define CW_VERSION_MINOR 5
/// Patch version: incremented for compatible bug fixes.
#define CW_VERSION_PATCH 0
/// The version as a string literal, "MAJOR.MINOR.PATCH".
#define CW_VERSION_STRING "0.5.0"

/// @}

/// Marks a public function: exported from the shared library (which is built with hidden
/// visibility, so nothing else is). Defined to nothing where symbol visibility is unknown.
#if defined(__GNUC__) || defined(__clang__)
#define CW_API __attribute__((visibility("default")))
#else
#define CW_API
#endif

/// Returns the version of the linked library as "MAJOR.MINOR.PATCH" (CW_VERSION_STRING when it was
/// built). Never NULL; the string is static.
CW_API const char *cw_version(void);

/// Largest accepted mask width or height, in texels. Larger sizes fail with an error.
#define CW_MASK_MAX_SIZE 16384

/// A 2D vector or point, in the units of the space it lives in.
typedef struct cw_vec2 {
    float x; ///< Horizontal component (grows to the right on screen).
    float y; ///< Vertical component (grows downward on a y-down screen).
} cw_vec2;

/// Where and how a shape is drawn: `world = position + R(rotation) * ((local - origin) ∘ scale)`.
typedef struct cw_transform {
    cw_vec2 position; ///< Where the origin lands in the world, in world units. Must be finite.
    float rotation;   ///< Radians; turns +x toward +y (clockwise on a y-down screen). Must be finite.
    cw_vec2 scale;    ///< Per-axis scale; a negative value mirrors that axis. Zero or non-finite is rejected.
    cw_vec2 origin;   ///< Pivot in the shape's local units (texels for a mask); must be finite.
} cw_transform;

/// Returns the identity transform: position 0, rotation 0, scale 1, origin 0.
CW_API cw_transform cw_default_transform(void);

/// Allocation function: returns `size` bytes aligned for any type, or NULL when out of memory.
/// `context` is the pointer given to cw_set_allocator().
typedef void *cw_alloc_fn(size_t size, void *context);

/// Release function: frees a block returned by the matching cw_alloc_fn. `size` is the size that was
/// requested for it, for allocators that need it. Never called with NULL.
typedef void cw_free_fn(void *memory, size_t size, void *context);

/// Routes every allocation collworld makes (masks included) through `alloc` and `free_fn`.
/// Pass NULL for both to go back to malloc/free. Call it before creating anything: memory must be
/// released by the allocator that made it. Fails (returns false, allocator unchanged) if exactly one
/// of the two functions is NULL.
CW_API bool cw_set_allocator(cw_alloc_fn *alloc, cw_free_fn *free_fn, void *context);

/// Returns the message of the most recent failed collworld call on this thread, one plain sentence,
/// or "" if nothing failed since the thread started or since cw_clear_error(). Never NULL; the
/// string is static and stays valid for the life of the program.
CW_API const char *cw_last_error(void);

/// Resets cw_last_error() to "" on this thread. Successful calls do not clear it by themselves.
CW_API void cw_clear_error(void);

/// A per-texel collision mask. Immutable once built; one mask may be shared by many shapes, bodies
/// and threads. The caller owns it and must keep it alive while any shape uses it.
typedef struct cw_mask cw_mask;

/// Builds a mask from 8-bit RGBA pixels (4 bytes per pixel in memory order R, G, B, A).
/// A texel is opaque iff its alpha >= `alpha_threshold` (so threshold 0 makes every texel opaque).
/// `pitch` is the number of bytes from the start of one row to the next; it must be at least
/// `4 * width`. A frame of a sprite sheet is a pointer to its first pixel plus the sheet's pitch.
/// The pixels are copied; the caller may free them afterwards.
/// Returns NULL (see cw_last_error()) if `pixels` is NULL, width or height is not in
/// [1, CW_MASK_MAX_SIZE], the pitch is too small, the byte count `(height - 1) * pitch + 4 * width`
/// exceeds INT_MAX, or memory runs out.
/// A mask with no opaque texel is valid and never overlaps anything.
/// A mask at most 64 texels each way also keeps a transposed copy of its texels (its own
/// allocation, as large as the mask: 5.75 KB for 64 x 64, 3.4 KB for 32 x 32), so that two
/// sprites a quarter turn apart are tested row against row like unturned ones (2-3x faster); where
/// memory for that copy runs out the mask is made without it (no error is recorded), and such
/// pairs take the general test, with the same answers.
CW_API cw_mask *cw_mask_from_rgba(const void *pixels, int width, int height, int pitch, uint8_t alpha_threshold);

/// Builds a mask from one 8-bit alpha value per pixel; as cw_mask_from_rgba() but `pitch` must be at
/// least `width` bytes (and the byte count is `(height - 1) * pitch + width`).
CW_API cw_mask *cw_mask_from_alpha(const uint8_t *alpha, int width, int height, int pitch, uint8_t alpha_threshold);

/// Frees a mask made by cw_mask_from_rgba() or cw_mask_from_alpha(). NULL is ignored. No shape may
/// use the mask afterwards: destroy or reshape the bodies that do first (from then on the world
/// never reads it, see cw_body_destroy()).
CW_API void cw_mask_destroy(cw_mask *mask);

/// Width in texels, or 0 (with an error) if `mask` is NULL.
CW_API int cw_mask_width(const cw_mask *mask);

/// Height in texels, or 0 (with an error) if `mask` is NULL.
CW_API int cw_mask_height(const cw_mask *mask);

/// Whether texel (x, y) is opaque. Coordinates outside the mask are transparent (false, no error);
/// a NULL mask gives false with an error.
CW_API bool cw_mask_get(const cw_mask *mask, int x, int y);

/// Number of opaque texels, or 0 (with an error) if `mask` is NULL.
CW_API int cw_mask_count(const cw_mask *mask);

/// A sprite sheet: named frames, each a mask built from a sub-rectangle of an RGBA image, with
/// frames of identical opaque texels (and size) sharing one mask. The sheet owns its masks: they
/// stay valid until cw_sheet_destroy(), so bodies using them must be destroyed (or reshaped) first.
/// Adding frames is not thread-safe; finding frames and using the masks are, once built.
typedef struct cw_sheet cw_sheet;

/// Creates an empty sheet; NULL (see cw_last_error()) if memory runs out.
CW_API cw_sheet *cw_sheet_create(void);

/// Frees the sheet, its names and its masks. NULL is ignored. No shape may use one of its masks
/// afterwards: destroy or reshape the bodies that do first (see cw_body_destroy()).
CW_API void cw_sheet_destroy(cw_sheet *sheet);

/// Adds one frame named `name` (copied): the `width` x `height` pixels at `rgba` (a pointer to the
/// frame's first pixel; `pitch` the sheet's bytes per row), as cw_mask_from_rgba() reads them.
/// Returns the frame's mask, owned by the sheet (the same mask as an earlier frame with the same
/// texels). Returns NULL and leaves the sheet unchanged (see cw_last_error()) for a NULL sheet, a
/// NULL or empty name, a name the sheet already has, the bad pixels of cw_mask_from_rgba(), or
/// out of memory.
CW_API const cw_mask *cw_sheet_add(cw_sheet *sheet, const char *name, const void *rgba, int width, int height,
                                   int pitch, uint8_t alpha_threshold);

/// Adds a grid of equal frames cut from a sheet image of `sheet_width` x `sheet_height` pixels,
/// row by row from the top left, named "prefix/0", "prefix/1", ...; a partial column or row at the
/// right or bottom edge is left out. Returns the number of frames added, or -1 with the sheet
/// unchanged for a NULL sheet or pixels, a NULL or empty prefix, sizes that are not positive, a
/// frame larger than the sheet, a pitch under 4 bytes per pixel of the sheet's width, a sheet
/// over INT_MAX bytes, a name the sheet already has, or out of memory.
CW_API int cw_sheet_add_grid(cw_sheet *sheet, const char *prefix, const void *rgba, int sheet_width,
                             int sheet_height, int pitch, int frame_width, int frame_height,
                             uint8_t alpha_threshold);

/// The mask of the frame named `name`, or NULL if the sheet has no such frame (no error then);
/// NULL with an error for a NULL sheet or name.
CW_API const cw_mask *cw_sheet_find(const cw_sheet *sheet, const char *name);

/// The name of frame `index` in the order the frames were added (0 to frames - 1), valid until
/// the sheet is destroyed; NULL with an error for a NULL sheet or an index out of range.
CW_API const char *cw_sheet_frame_name(const cw_sheet *sheet, int index);

/// What a sheet holds.
typedef struct cw_sheet_stats {
    int frames;   ///< Named frames.
    int masks;    ///< Distinct masks (frames with the same texels share one).
    size_t bytes; ///< Memory the sheet holds: masks, names and tables.
} cw_sheet_stats;

/// The sheet's counts; all zero (and an error) for a NULL sheet.
CW_API cw_sheet_stats cw_sheet_get_stats(const cw_sheet *sheet);

/// Shape kinds.
typedef enum cw_shape_type {
    CW_SHAPE_BOX = 1,  ///< A solid rectangle covering [0, size.x] x [0, size.y] in local units.
    CW_SHAPE_MASK = 2, ///< The opaque texels of `mask`.
} cw_shape_type;

/// A shape: a value type, cheap to copy. It does not own its mask.
typedef struct cw_shape {
    cw_shape_type type;  ///< Which kind of shape this is.
    cw_vec2 size;        ///< Box: width and height in local units, finite and > 0. Mask: its size in texels.
    const cw_mask *mask; ///< Mask shapes: the mask (borrowed, must outlive the shape). Boxes: NULL.
} cw_shape;

/// Returns a box shape covering [0, width] x [0, height] in local units. Invalid sizes (<= 0 or not
/// finite) are kept as given and make every call that uses the shape fail with an error.
/// The touching tolerance (about 1e-6 local units, see cw_overlap()) holds for the box's own size
/// too: an overlap counts only where it is thicker than that, so a box with a side under 1e-6 units
/// touches nothing, and one of a few times that touches only what it lies well into.
CW_API cw_shape cw_shape_box(float width, float height);

/// Returns a shape covering the opaque texels of `mask`, which it borrows. A NULL mask gives a shape
/// that every call rejects with an error.
CW_API cw_shape cw_shape_mask(const cw_mask *mask);

/// An axis-aligned box in world units.
typedef struct cw_aabb {
    cw_vec2 min; ///< Smallest x and y.
    cw_vec2 max; ///< Largest x and y.
} cw_aabb;

/// Computes the world AABB of what `shape` covers under `transform`: for a mask, the box around its
/// opaque texels only (transparent borders of a sprite cost nothing), rounded outward to floats. A
/// mask with no opaque texel gives an empty box at the transform's position (min == max). A shape
/// whose world extent leaves the float range gets infinite (or, past the double range, NaN) bounds.
/// Far beyond moderate placements (see cw_overlap()), where double rounding may exceed the touching
/// tolerance, the box is widened by that rounding (a relative 4e-15 of the position and pivot offset)
/// so that it still holds everything cw_overlap() can find. Returns false with an error on bad input
/// (NULL pointers, invalid shape or transform).
CW_API bool cw_shape_aabb(const cw_shape *shape, const cw_transform *transform, cw_aabb *aabb);

/// Contact data for two overlapping shapes. For (b, a) instead of (a, b) the normal is negated and
/// point and depth are the same (unless the two prepare to the very same placement, say rotations
/// that differ by less than float resolution: then both orders give the same normal).
/// - Box-box: the separating-axis answer. `normal` is the box edge normal along which B needs the
///   least travel to stop overlapping, `depth` is that travel (the overlap of the projections unless
///   one contains the other), `point` the centroid of the overlap polygon (convex, so inside it).
/// - Anything with a mask (a box then counts as a one-texel mask): `normal` and `depth` are the
///   minimum translation: the shortest move of B that ends the overlap (B moved by
///   `normal * depth` no longer overlaps A, and no move much shorter does). Both shapes are unions
///   of rectangles (a mask's runs of opaque texels); along a direction the moves that keep a pair
///   of rectangles overlapping form one interval, so the shortest move along it is the first gap
///   in their union, found exactly. A first answer comes from the overlap's gradient, the centres'
///   direction and every 45 degrees from each shape's edge normals; then cones of directions are
///   searched with a lower bound on the gap over each, the cones that could hold a shorter move
///   halved, until none can beat the answer by more than a 64th. So no direction parts the
///   shapes' runs with a move more than 1/64 shorter: a short way out that is a narrow pocket (B
///   between the bars of a letter, a ring over another's rim) is found, not only ways out near
///   the directions sampled.
///   Where the overlap is deep (the bound on the answer spans many texels) rows are first merged
///   in bands of a twelfth of it, then searched one by one, with the cones, within that answer
///   (or half or an eighth of it) where they fit in the 320 pairs of runs the stack holds, so
///   that a shallow gap the merged rows closed is still found; where they do not, the merged
///   rows' answer stands, and may be longer. Measured against a brute-force search over 720
///   directions on 32 seeds of 120 pairs (tests, README): depth within 1.02x of the minimum at
///   the 99th percentile for convex blobs, letters and boxes against letters, 1.16x for rings,
///   the normal within half a degree of a way out within 1% of the shortest at the 90th; the
///   worst pair 1.3x for letters, 7.4x for rings and 1.9x in 3,840 pairs of crossed rings, each
///   a deep overlap whose rows did not fit (the move still separates). `point`
///   is inside the overlap: the mean of the finer sprite's texel centres that lie in it (thinned
///   to about 128) if that is inside, else the nearest of them; overlaps too thin for any centre are measured exactly
///   instead. The costs: about 7-8 µs for two 32x32 sprites that just touch, 24-25 µs for a deep
///   overlap (the README's benchmark), with about 40 KB of stack.
///
/// The manifold is specified for moderate placements: box sizes and scales within [1e-6, 1e6] and
/// positions and origins below 1e7 in magnitude. Beyond that (a box of width 1e38 scaled by 40) the
/// overlap answer stays exact, but the manifold may be inaccurate or hold non-finite values.
typedef struct cw_manifold {
    cw_vec2 point;  ///< A point inside the overlap, in world units.
    cw_vec2 normal; ///< Unit vector pointing from A toward B.
    float depth;    ///< Penetration along `normal`, in world units, >= 0.
} cw_manifold;

/// Whether shape `a` under `ta` and shape `b` under `tb` overlap with positive area (see the
/// conventions above). Exact for box-box, box-mask and mask-mask at any rotation, scale and mirroring;
/// `cw_overlap(a, ta, b, tb)` always equals `cw_overlap(b, tb, a, ta)`. Work is done relative to one
/// of the two shapes, so pairs far from the world origin keep their precision. Configurations within
/// about 1e-6 local units of merely touching count as touching (no overlap), and so do overlaps no
/// thicker than that (up to 1.42e-6 measured across a turned pair).
///
/// Transforms are combined in double precision: for moderate placements (positions, pivot offsets
/// and sizes as for cw_manifold) rounding stays far below that tolerance and the answer is exact.
/// Far beyond them (a pivot 1e30 units outside the sprite, a box 1e28 long beside a small sprite)
/// rounding may exceed it; then shapes whose cw_shape_aabb() boxes do not meet never overlap, so the
/// answer is always the one the world gives, and it stays deterministic and symmetric.
///
/// If `manifold` is non-NULL and the shapes overlap, it is filled (see cw_manifold); for masks this
/// costs tens of plain tests (see cw_manifold), while the plain test stops at the first overlapping
/// texel pair.
/// If they do not overlap, `manifold` is left untouched.
///
/// Performance: unrotated sprite pairs at one scale read each cw_vec2 of a transform in one 8-byte
/// load. Write a transform's position, scale and origin as cw_vec2 values (or keep transforms in your
/// own data) rather than float by float just before the call: a CPU makes a load wait for narrower
/// stores it reads back, which doubles such a pair's cost (about 12 ns against 24 on the benchmark).
///
/// Returns false with an error for NULL shapes or transforms, an unknown shape type, a box size that
/// is not finite and positive, a mask shape without a mask, or a transform with a non-finite field or
/// a zero scale. Check cw_last_error() (after cw_clear_error()) to tell that apart from "no overlap".
CW_API bool cw_overlap(const cw_shape *a, const cw_transform *ta, const cw_shape *b, const cw_transform *tb,
                cw_manifold *manifold);


/// Bytes of cw_placed's storage.
#define CW_PLACED_BYTES 384

/// A shape placed by a transform, checked and prepared once by cw_place(), for testing against many
/// others with cw_placed_overlap(): the work cw_overlap() repeats on every call (validating both
/// shapes and transforms, the rotation's cosine and sine, the placement's frame and box) is paid
/// once per placement. Use it where one placement meets many others in the same frame (a player
/// against the enemies, a bullet against the walls, a level editor's selection) outside a world;
/// a world already prepares each body once per move. A plain value: copy it freely, any number of
/// threads may read one at once. It borrows the shape's mask, as a cw_shape does: keep the mask
/// alive while the placement is used. Opaque: only cw_place() fills it.
typedef struct cw_placed {
    /// Private: the prepared shape. Aligned for any of its fields.
    union {
        double align_double;                  ///< Aligns the storage for doubles.
        void *align_pointer;                  ///< Aligns the storage for pointers.
        unsigned char bytes[CW_PLACED_BYTES]; ///< The storage.
    } opaque;
} cw_placed;

/// Places `shape` by `transform` into `*placed` for cw_placed_overlap(). Returns false with an error
/// (and `*placed` marked unusable, so that cw_placed_overlap() refuses it) for a NULL output, and on
/// the bad shapes and transforms cw_overlap() refuses, with the same message.
CW_API bool cw_place(const cw_shape *shape, const cw_transform *transform, cw_placed *placed);

/// Exactly cw_overlap() of the two placements' shapes and transforms, manifold included, bit for
/// bit: the same answer both ways round, the same tolerance and rounding rules. Returns false with
/// an error for a NULL placement or one that cw_place() did not fill (never filled, or its
/// cw_place() failed; a copy of a filled one is fine).
CW_API bool cw_placed_overlap(const cw_placed *a, const cw_placed *b, cw_manifold *manifold);

/// Whether shape `a`, moving in a straight line from `ta` by `t * translation` (world units) for t
/// in [0, 1], overlaps shape `b` (which stays at `tb`) with positive area at some t: a shape cast,
/// decided exactly (each run of opaque texels sweeps a convex hexagon, tested against the other's
/// texels as cw_overlap() tests parallelograms; boxes by the separating-axis test with time).
/// Rotation, scale and origin stay as given over the whole motion.
///
/// On a hit, `*fraction` is the earliest such t: 0 if the shapes already overlap at the start (as
/// cw_overlap() says), else the first touch, found by bisecting "touched somewhere in [0, t]" (which
/// only grows with t) to within 2^-20 of the motion and rounded up, so the shapes do overlap just
/// after it (boxes: the separating-axis answer itself, rounded up to a float). A pair that
/// cw_overlap() finds overlapping at t = 1 is always a hit. With a non-NULL `manifold`, it is the
/// contact at the first touch: cw_overlap()'s manifold of the shapes at `fraction` (normal from A
/// toward B, so roughly along the motion; a small depth), or, where they only graze there (overlap
/// for less than the resolution), the motion's direction with depth 0 and a point where they graze
/// (where the touch is one that only rounding makes: the middle of where their boxes meet). Casts
/// are symmetric: A moving by d against B gives the same
/// fraction, point and depth as B moving by -d against A, and the normal negated. A zero
/// translation is cw_overlap() (fraction 0 on overlap).
///
/// Returns false when they never overlap (outputs untouched), or with an error for the same bad
/// input as cw_overlap(), a NULL `fraction`, or a translation that is not finite.
CW_API bool cw_shape_cast(const cw_shape *a, const cw_transform *ta, cw_vec2 translation, const cw_shape *b,
                          const cw_transform *tb, float *fraction, cw_manifold *manifold);

/// @name World
/// A world owns bodies (a shape, a transform, a collision filter) and, each step, finds which pairs
/// touch and reports contact events to callbacks.
///
/// ## Event semantics
/// - After a step, a pair is *touching* iff both bodies are enabled (cw_body_set_enabled()), their
///   filters pass (the same nonzero cw_body_def::group decides: never if negative, always if
///   positive; otherwise `(a.category & b.collides_with) && (b.category & a.collides_with)`), not
///   both bodies are static, and cw_overlap() is true for their current shapes and transforms.
/// - `on_begin` is called when a pair becomes touching, `on_end` when it stops: because the bodies
///   moved apart, a body was destroyed or switched off, or a shape, filter or group changed. Every
///   begin is matched by exactly one end, unless the world is destroyed first (cw_world_destroy()
///   reports nothing).
///   `on_stay` is called every step for each pair that stays touching (only if it is set, or
///   cw_world_def::report_stays). The same events, in the same order, are kept as arrays after
///   the step (cw_world_events()), and what touches what can be asked at any time
///   (cw_body_touching(), cw_pair_touching()).
/// - A body created or moved before a step has its begins in that very step.
/// - Within a step: all ends, then all begins, then the ends of pairs that began and ended within
///   the step (swept pairs, below), then all stays; each group in ascending (a.index, b.index).
///   The same calls give the same events, byte for byte.
///
/// ## Contacts over the step's motion (swept bodies)
/// - A body's motion in a step goes in a straight line from its position at the previous step to
///   its current one (several cw_body_set_transform() calls in between count as one move);
///   rotation, scale and origin take their current values for the whole motion. A body created
///   since the last step does not move in its first step, and cw_body_teleport() places a body
///   without motion (a respawn, a screen wrap): its motion in the next step starts where it lands.
/// - A pair with at least one swept body (cw_body_def::swept) is judged over the relative motion
///   of its two bodies (a straight translation; an unswept body's motion counts too): it touched
///   during the step iff cw_shape_cast() of one against the other over that translation hits
///   (where one of them stayed put, as a wall does: of the other from where it was, against it).
///   Such a pair that touched during the step and was not touching after the previous one begins,
///   with cw_contact::fraction the time of its first touch along the step (0 if it was already
///   touching at the start of the step) and the manifold of that first touch. If it no longer
///   touches at the end of the step (a bullet that passed through), its end follows in the same
///   step, after all of the step's begins, so every begin still has exactly one end. Pairs without
///   a swept body are judged at the end of the step as ever (fraction 1). The touching set after a
///   step stays what the first rule says: overlap at the end of the step.
/// - Cost: a swept body is filed in the grid under the box of its whole motion, widened by the
///   farthest any unswept body moved in the step (so that their meeting anywhere is a candidate);
///   its candidates are tested over the motion (an exact test of run hexagons), and each begin
///   finds its first touch from when its pairs of runs overlap, near where the two boxes first
///   meet, checked by two more such tests (a bisection of about 20 where the runs are too many).
/// - Callbacks run inside cw_world_step() after detection is complete. Inside them you may create
///   and destroy bodies and set transforms, shapes, filters, groups, user data and whether a body
///   is enabled; the changes take effect for the next step. cw_body_touching() and
///   cw_pair_touching() there answer for the step being reported, and cw_world_events() holds the
///   events delivered so far. Once a body is destroyed no begin or stay names it again (later events of the
///   current step that name it are dropped). The ends that close its contacts carry its old id and
///   user_data and are delivered in the ends of the next cw_world_step().
/// - cw_world_step() and cw_world_destroy() called from a callback fail (cw_last_error() says so).
/// - Ids of destroyed bodies (or of a slot since reused) are rejected by every function. A destroyed
///   body's slot is reused only after the step that reports its ends.
/// - A step that runs out of memory reports no events and keeps the touching pairs as they were;
///   the next step redoes its work, so events are delayed, never lost or doubled.
///
/// ## Cost
/// A step re-tests only pairs with a body that changed (moved, reshaped, refiltered, created) since
/// the last step; pairs of two unchanged bodies stay touching without a test. Disabled bodies cost
/// nothing. Once cw_body_touching() has been called, the step keeps an index from each body to its
/// pairs (five 4-byte words per touching pair: three links and its node in each of the step's two
/// sets; and one per body), so that it costs what its answer holds; a world that never asks has
/// no index and does not pay for it. Moving, marking and destroying bodies never allocate; a step
/// allocates only while the world grows.
/// @{

/// A world. Create with cw_world_create(), free with cw_world_destroy().
typedef struct cw_world cw_world;

/// A body handle: a slot index and the slot's generation. All zero is the null id, never a body.
/// Handles of destroyed bodies stay invalid until the slot has been reused 2^24 times.
typedef struct cw_body_id {
    uint32_t index;      ///< Slot index, >= 1 for a real body.
    /// The world's cw_world_def::id_tag in the top 8 bits; below, a count incremented each time the
    /// slot is reused (1 to 2^24 - 1, then 1 again).
    uint32_t generation;
} cw_body_id;

/// Whether `id` is the null id (all zero).
CW_API bool cw_body_id_is_null(cw_body_id id);

/// What a contact callback receives. Valid only during the call.
typedef struct cw_contact {
    cw_body_id a, b;      ///< The two bodies, a.index < b.index.
    /// Body a's user_data as it was when the step's delivery began (for the ends that close a
    /// destroyed body's contacts: as it was when it was destroyed).
    void *user_a;
    void *user_b; ///< Body b's user_data, at the same moment as user_a.
    /// Filled for begin and stay events (when cw_world_def::manifolds is on; for stays only with
    /// stay_manifolds too); all zero for end events. A begin of a pair with a swept body carries the contact at its first touch (the
    /// overlap there is thin: a small depth); every other begin and stay the overlap at the end of
    /// the step.
    cw_manifold manifold;
    /// Begins: when along the step's motion the pair first touched, in [0, 1] (to within 2^-20 of
    /// the step); 1 when no swept body is involved (found at the end of the step), 0 when a pair
    /// with a swept body already touched at its start. Ends and stays: 1.
    float fraction;
} cw_contact;

/// A contact callback: `context` is cw_world_def::context.
typedef void cw_contact_fn(const cw_contact *contact, void *context);

/// The default cw_world_def::max_pairs: 2^25 (33.5 million) candidate pairs a step, 50 times what a
/// million moving sprites need in the benchmark scene.
#define CW_DEFAULT_MAX_PAIRS (1 << 25)

/// Queries that can run on one world at the same time, from different threads (see Threads).
#define CW_QUERY_LANES 4

/// The most workers a world may have (cw_world_def::worker_count).
#define CW_MAX_WORKERS 64

/// A piece of a step's parallel work: run items [start, end) as worker `worker`
/// (0 <= worker < cw_world_def::worker_count). Pieces of one task may run at once on different
/// threads, in any order; two pieces running at the same time must have different worker numbers.
typedef void cw_task_fn(int start, int end, int worker, void *task_context);

/// Your task system, as Box2D v3's: run `task` over the items [0, item_count), split into ranges of
/// at least `min_range` items (the last may be shorter), on your workers, with `task_context` for
/// every range; `user_context` is cw_world_def::user_task_context. Return a handle that
/// cw_finish_task_fn waits on, or NULL if the whole range already ran before returning. Called
/// only from the thread running cw_world_step(), or cw_world_set_transforms() with a long list.
typedef void *cw_enqueue_task_fn(cw_task_fn *task, int item_count, int min_range, void *task_context,
                                 void *user_context);

/// Waits until every range of the task behind `user_task` has run (called once per non-NULL handle,
/// on the thread that enqueued the task, before the step or call reads the results).
typedef void cw_finish_task_fn(void *user_task, void *user_context);

/// How to build a world. Start from cw_default_world_def().
typedef struct cw_world_def {
    float cell_size;       ///< Broadphase grid cell side in world units, 0 or >= CW_MIN_CELL_SIZE; 0: chosen and adapted from the bodies.
    cw_contact_fn *on_begin; ///< Called when a pair starts touching; may be NULL.
    cw_contact_fn *on_stay;  ///< Called each step for pairs that stay touching; may be NULL (then no stay work).
    cw_contact_fn *on_end;   ///< Called when a pair stops touching; may be NULL.
    void *context;           ///< Passed to every callback.
    /// Fill cw_contact::manifold for begins and stays (default true). For masks a manifold costs
    /// tens of plain tests (about 7-8 µs for two 32x32 sprites that just touch, 0.3 µs for two boxes); set false when
    /// the callbacks only need to know who touches whom, and contacts then carry a zeroed manifold.
    bool manifolds;
    /// Report stays (to cw_world_events() and on_stay) even without an on_stay callback; default
    /// false: then stays cost nothing unless on_stay is set.
    bool report_stays;
    /// Keep the step's events as arrays for cw_world_events() (default true). Ends are copied as
    /// they are delivered (sizeof(cw_contact) bytes each); begins and stays are gathered only when
    /// cw_world_events() is first called after the step, so a world that never asks keeps no room
    /// for them (a first step that begins 436k pairs would need 25 MB). The arrays keep the room of
    /// the largest step; set false when only the callbacks are used.
    bool event_arrays;
    /// With manifolds on, fill them for stays too (default true). Set false to keep begins'
    /// manifolds (swept begins' first touches included) and skip stays': stays then carry a zeroed
    /// manifold, as do cw_body_touching()'s touches. A world that reports stays (on_stay or
    /// report_stays) otherwise works out the manifold of every touching pair one of whose bodies
    /// moved, every step: about 24 µs for two 32x32 sprites overlapping deeply, so 10k moving
    /// sprites with 2,400 touching pay some 58 ms a step, against 2.5 ms with begins' manifolds
    /// alone. Ignored when manifolds is false. (It follows the other flags, in what was the
    /// struct's padding, so that no field moved.)
    bool stay_manifolds;
    /// Threads the step (and cw_world_set_transforms() with a long list) may use, 1 to
    /// CW_MAX_WORKERS (default 1). With enqueue_task set, your task system runs the step's
    /// parallel work as this many workers; without, a world with worker_count > 1 starts
    /// worker_count - 1 threads of its own (they sleep between steps and are joined by
    /// cw_world_destroy(); if they cannot all be started the world still works, with those that
    /// did, and cw_world_stats::workers says how many run). Whatever the count or the
    /// task system, every event, its order, manifold and fraction is the same, byte for byte; the
    /// callbacks always run on the thread that called cw_world_step().
    int worker_count;
    cw_enqueue_task_fn *enqueue_task; ///< Your task system's enqueue, or NULL (set both or neither).
    cw_finish_task_fn *finish_task;   ///< Your task system's finish, or NULL (set both or neither).
    void *user_task_context;          ///< Passed to enqueue_task and finish_task.
    /// The most candidate pairs one step may list (pairs whose AABBs meet, of bodies that moved or
    /// changed) and the most pairs touching after it (those kept from earlier steps counted too), 0
    /// (CW_DEFAULT_MAX_PAIRS, the default) or 1 to INT_MAX. A step that would need more fails (at once
    /// when its candidates are too many, after its exact tests when its touching pairs are) and
    /// changes nothing: no event, the touching set as it was, every moved body tried again
    /// by the next step; cw_last_error() says "The step needs more than N candidate pairs ..." and
    /// cw_world_stats::failed_steps counts such steps. It bounds a step's memory (about 60 bytes a
    /// pair at the limit) and the time it takes to say it cannot go on: a pile-up of 50,000 bodies on
    /// one point (1.25 billion pairs) fails in 2 s the first time (the pair list grows to the
    /// default limit, 270 MB) and in 0.1-0.2 s each step after, instead of never returning.
    int max_pairs;
    /// A tag put in every body id of this world (default 0). Give worlds that live at the same time,
    /// or one after another, different tags (a level number, say) and each rejects the others' ids
    /// with the stale-id error, as it rejects its own destroyed bodies'. Worlds with the same tag
    /// (all of them by default) cannot tell their ids apart: an id used with the wrong world may
    /// then name an unrelated body. Ids are otherwise unchanged by the tag, so two worlds made by
    /// the same calls with the same tag give the same ids, byte for byte.
    uint8_t id_tag;
    /// Room for this many bodies, made by cw_world_create (default 0: none; 0 to 2,147,483,646).
    /// Without it the per-body arrays grow by a quarter as bodies are created, so up to a fifth of
    /// their room lies unused (boxes made one by one: 1.14 times the room they need at 10k, 1.06
    /// at 100k) and each growth copies them. A world that knows its size (a level's sprites, a stress test's
    /// count) keeps exactly this room, 216 bytes a body (on 64-bit), whether the bodies come or
    /// not: creating that many box bodies allocates nothing (a mask body also keeps its prepared
    /// form, 128 bytes, in pages of 64 made as mask bodies come and handed on to the next mask body
    /// when a slot's mask body becomes a box, and a swept one may grow the list of swept
    /// bodies, which grows with them alone), and more bodies still fit (the arrays grow
    /// past it). Out of range, or not enough memory, and cw_world_create returns NULL with the
    /// reason in cw_last_error(). cw_world_reserve() makes the same room in a world that exists.
    int body_capacity;
} cw_world_def;

/// Returns a def with automatic cell size, no callbacks, manifolds (stays' too) and event arrays on,
/// one worker.
CW_API cw_world_def cw_default_world_def(void);

/// How to build a body. Start from cw_default_body_def().
typedef struct cw_body_def {
    cw_shape shape;         ///< The shape (a mask shape borrows its mask: keep it alive while the body uses it).
    cw_transform transform; ///< Where it is.
    uint32_t category;      ///< Category bits, default 1.
    uint32_t collides_with; ///< Categories it collides with, default all bits.
    bool is_static;         ///< Static bodies never touch each other (default false); they may still be moved.
    /// Default false: contacts are found where the bodies are at the end of each step. True:
    /// contacts anywhere along the step's motion count (see the swept-body semantics above), so a
    /// fast bullet never passes through a thin wall unseen.
    bool swept;
    void *user_data;        ///< Yours; reported in contacts.
    /// Collision group (default 0), as Box2D's groupIndex: two bodies with the same nonzero group
    /// never touch if it is negative (a ship and its own bullets) and always pass the category
    /// filter if it is positive; any other pair is filtered by categories alone.
    int32_t group;
} cw_body_def;

/// Returns a def with a 1 x 1 box, the identity transform, category 1, colliding with everything.
CW_API cw_body_def cw_default_body_def(void);

/// Smallest cell size a world accepts, in world units (0 still means automatic).
#define CW_MIN_CELL_SIZE 1e-3f

/// Creates a world, or returns NULL (see cw_last_error()) if `def` is NULL, the cell size is negative,
/// not finite or below CW_MIN_CELL_SIZE, or memory runs out.
CW_API cw_world *cw_world_create(const cw_world_def *def);

/// Makes room for `bodies` live bodies in all (those there are included), exactly, as
/// cw_world_def::body_capacity does at creation: for a world that lives across levels, call it
/// with the next level's count before creating its bodies, and creating that many box bodies
/// allocates nothing (a mask body also keeps its prepared form, in pages of 64; a swept body may
/// grow the list of swept bodies). Never shrinks:
/// a count at or below the room there is does nothing. Bodies destroyed since the last step keep
/// their slots until the next step reports their ends, so room is made beside them. Returns
/// false, the world unchanged but for room already made, with the reason in cw_last_error() if
/// `world` is NULL, `bodies` is outside 0 to 2,147,483,646, it is called from a query callback or
/// while another thread queries or steps the world, or memory runs out. Not thread-safe: like
/// body creation.
CW_API bool cw_world_reserve(cw_world *world, int bodies);

/// Destroys a world and all its bodies, without reporting any event. NULL is ignored. Fails (the
/// world is kept) when called from a callback.
CW_API void cw_world_destroy(cw_world *world);

/// Adds a body; it takes part from the next step on. Returns the null id (see cw_last_error()) if
/// `world` or `def` is NULL, the shape or transform is invalid (as for cw_overlap()), or memory runs out.
CW_API cw_body_id cw_body_create(cw_world *world, const cw_body_def *def);

/// Removes a body. Its touching pairs end in the next step (see the event semantics). From this
/// call on the world never reads the body's mask again: you may free it at once, even from a
/// contact callback. A stale or null id, or a NULL world, does nothing but record an error.
CW_API void cw_body_destroy(cw_world *world, cw_body_id body);

/// Whether `body` names a live body of `world` (no error is recorded either way).
CW_API bool cw_body_is_valid(const cw_world *world, cw_body_id body);

/// Moves a body; takes effect at the next step. Its motion in that step goes from where it was at
/// the last step to here, which matters only to pairs with a swept body (a body never moves in the
/// step after its creation). Returns false (see cw_last_error()) for a stale id, a NULL world or
/// transform, or an invalid transform. Each call reads and writes its body's records, so in a large
/// world calls in a random order of bodies wait on memory (100k boxes: 22.8 ms against 2.7 in index
/// order): move such a world's bodies in one cw_world_set_transforms() list, which asks ahead.
CW_API bool cw_body_set_transform(cw_world *world, cw_body_id body, const cw_transform *transform);

/// Moves `count` bodies at once: entry k moves `bodies[k]` to `transforms[k]`, exactly as
/// cw_body_set_transform() would (the same bits in every body, every event and every manifold),
/// for the engine that keeps its sprites' transforms in arrays. The list is checked whole first,
/// the rotations' cosines and sines are computed two at a time, and a long list (16,384 boxes'
/// worth or more, a mask counting two; outside a step's callbacks) is shared among the world's
/// workers (cw_world_def::worker_count, through your task system if you set one). On one thread,
/// with the bodies in index order, it costs about what a loop of cw_body_set_transform() calls
/// does, up to 1.3x that in a large world on some machines (the check reads every body's records
/// before the moves do); listed out of index order in a large world, whose records it then asks for
/// ahead, it is faster (100k boxes in random order 1.3x-1.5x); on two workers the moves of 10k
/// rotating sprites and of 100k boxes are up to 1.4x faster, of 100k boxes in random order 1.8x-2.3x
/// (bench_moves, two machines). Both arrays are read during the call
/// only; `count` may be 0 (the arrays may then be NULL). Each body may be listed once. Returns
/// false and moves nothing for a NULL world or array, a negative count, a stale or null id, a body
/// listed twice, or an invalid transform (cw_last_error() names the first bad entry, counting from
/// 0); also, as every change, from a query callback or while another thread queries or steps the
/// world. Never allocates.
CW_API bool cw_world_set_transforms(cw_world *world, const cw_body_id *bodies, const cw_transform *transforms,
                                    int count);

/// Places a body without motion, as cw_body_set_transform() but its motion in the next step starts
/// here: a respawn, a teleport or a screen wrap of a swept body (or of anything a swept body meets)
/// does not sweep through everything in between. Same failures as cw_body_set_transform().
CW_API bool cw_body_teleport(cw_world *world, cw_body_id body, const cw_transform *transform);

/// Makes contacts of this body count anywhere along each step's motion (true) or only at the end
/// of each step (false); see cw_body_def::swept. Takes effect at the next step, whose motion is
/// still measured from the body's position at the last step. Allocates only to grow the world's list
/// of swept bodies (geometrically, never shrinking). Returns false (the body unchanged) for a stale
/// id, a NULL world, or if memory runs out growing that list.
CW_API bool cw_body_set_swept(cw_world *world, cw_body_id body, bool swept);

/// Whether the body is swept; false (and an error) for a stale id.
CW_API bool cw_body_is_swept(const cw_world *world, cw_body_id body);

/// Changes a body's collision group (see cw_body_def::group): as a filter change, its contacts end
/// or begin at the next step. Returns false for a stale id or a NULL world.
CW_API bool cw_body_set_group(cw_world *world, cw_body_id body, int32_t group);

/// The body's group; 0 (and an error) for a stale id.
CW_API int32_t cw_body_group(const cw_world *world, cw_body_id body);

/// Switches a body off or on (a pooled bullet, a sprite off screen). A disabled body keeps its id,
/// shape, transform, filter and user data and may be changed as usual, but it is out of the grid
/// and of every query, its contacts end at the next step, and it costs nothing per step. Enabling
/// files it again at the next step, without a motion (a swept body does not sweep from where it
/// was disabled). Never allocates. Returns false for a stale id or a NULL world.
CW_API bool cw_body_set_enabled(cw_world *world, cw_body_id body, bool enabled);

/// Whether the body is enabled; false (and an error) for a stale id.
CW_API bool cw_body_is_enabled(const cw_world *world, cw_body_id body);

/// Changes a body's shape (say, the next animation frame). Once it returns true the world never
/// reads the old shape's mask again: you may free it at once, even from a contact callback. Same
/// failures as cw_body_set_transform().
CW_API bool cw_body_set_shape(cw_world *world, cw_body_id body, const cw_shape *shape);

/// Changes a body's collision filter. Returns false for a stale id or a NULL world.
CW_API bool cw_body_set_filter(cw_world *world, cw_body_id body, uint32_t category, uint32_t collides_with);

/// Changes a body's user data. Returns false for a stale id or a NULL world.
CW_API bool cw_body_set_user_data(cw_world *world, cw_body_id body, void *user_data);

/// The body's transform; the identity transform (and an error) for a stale id.
CW_API cw_transform cw_body_transform(const cw_world *world, cw_body_id body);

/// The body's shape; a zeroed shape (and an error) for a stale id.
CW_API cw_shape cw_body_shape(const cw_world *world, cw_body_id body);

/// The body's user data; NULL (and an error) for a stale id.
CW_API void *cw_body_user_data(const cw_world *world, cw_body_id body);

/// The body's filter through the out-pointers (either may be NULL); false for a stale id.
CW_API bool cw_body_filter(const cw_world *world, cw_body_id body, uint32_t *category, uint32_t *collides_with);

/// Whether the body is static; false (and an error) for a stale id.
CW_API bool cw_body_is_static(const cw_world *world, cw_body_id body);

/// The body's world AABB for its current shape and transform (as cw_shape_aabb()); false for a stale id.
CW_API bool cw_body_aabb(const cw_world *world, cw_body_id body, cw_aabb *aabb);

/// Finds the touching pairs for the bodies as they are now and reports the events (see the event
/// semantics above). Fails (no effect) for a NULL world, when called from a callback, or while
/// another thread is stepping the same world or querying it. Allocates only while the world grows:
/// a warmed-up world steps without touching the allocator. With worker_count > 1 the exact tests
/// of the candidate pairs, the grid's sort and scan of large worlds, and the sort of the touching
/// pairs run on the workers (the same results as on one); everything else, callbacks included, on
/// this thread.
CW_API void cw_world_step(cw_world *world);

/// What the last step did and how long its phases took.
typedef struct cw_world_stats {
    int bodies;           ///< Live bodies now (not as of the last step).
    int static_bodies;    ///< Of which static, now.
    int moved_bodies;     ///< Bodies whose AABB was recomputed in the last step.
    int large_bodies;     ///< Bodies kept out of the grid because they span many cells.
    int candidate_pairs;  ///< Pairs from the broadphase whose AABBs meet, once each (only pairs
                          ///< with a changed body are looked for).
    int narrow_tests;     ///< Of those, pairs that passed the filters and were tested exactly.
    int touching_pairs;   ///< Pairs touching after the last step.
    int begin_events, stay_events, end_events; ///< Events reported by the last step (to the callbacks
                                               ///< and the arrays of cw_world_events()).
    int disabled_bodies;  ///< Of the live bodies, switched off (cw_body_set_enabled()), now.
    float cell_size;      ///< The grid's cell side in world units.
    int workers;          ///< Workers the step can use: worker_count, or fewer if the world's own
                          ///< threads could not all be started.
    int failed_steps;     ///< Steps in a row that failed (out of memory, or more candidate pairs than
                          ///< cw_world_def::max_pairs); 0 after a step that succeeded.
    double broad_ms;      ///< Milliseconds spent on AABBs, updating the grid and finding candidate pairs.
    double narrow_ms;     ///< Milliseconds spent in exact tests.
    double events_ms;     ///< Milliseconds spent diffing the touching pairs, computing manifolds for
                          ///< begins and stays, and in the callbacks.
    /// Bytes the world holds now from the allocator (cw_set_allocator's functions, their own
    /// overhead aside): its bodies, grid, touching sets, scratch, and the event arrays, body index
    /// and query lanes' marks once made (each by its first use), everything cw_world_destroy()
    /// gives back. Not the masks and sheets its bodies borrow, nor the stacks of its own threads.
    /// Room is kept once grown (a warm world allocates nothing per step). Safe to read while other
    /// threads read the world between steps, as every getter is.
    size_t bytes;
} cw_world_stats;

/// Statistics of the last step (the body counts and bytes are current); all zero for a NULL world.
CW_API cw_world_stats cw_world_get_stats(const cw_world *world);

/// The events of the last step as read-only arrays, for engines that handle them after the step
/// (in a system of their own, on another thread) rather than in callbacks: the same contacts in
/// the same order as the callbacks get them (all ends, including those of pairs that began and
/// ended within the step, in delivery order; then begins; then stays, which come only with on_stay
/// or cw_world_def::report_stays). Whether or not callbacks are set, every event is there; events
/// a callback made void (a begin naming a body it destroyed) are left out of both. Valid until the
/// next cw_world_step() or cw_world_destroy(); empty before the first step, after a step that ran
/// out of memory, or when cw_world_def::event_arrays is off. From inside a callback they hold the
/// events delivered so far.
///
/// Begins and stays are gathered into the arrays by the first call after the step (from the
/// step's touching set, which the world keeps anyway): the bodies may change in between (moved,
/// reshaped, destroyed, their user data set, new ones made) and the arrays still hold the events
/// as they were delivered, ids, user data and manifolds alike. That call allocates while the
/// arrays grow to the largest step asked for; if memory runs out, every array is empty,
/// cw_last_error() says so and a later call tries again. Which to use: both cost about the same
/// time per event (a call, or a copy of sizeof(cw_contact) bytes). The callbacks let you change
/// the world at once and need no memory; the arrays can be read later, in any order, by any
/// thread, while nothing steps or destroys the world (threads that ask at once get the same
/// arrays: one gathers while the others wait). Asking from another thread while the world steps
/// fails with an error and empty arrays.
typedef struct cw_events {
    const cw_contact *begins; ///< begin_count begins.
    const cw_contact *stays;  ///< stay_count stays.
    const cw_contact *ends;   ///< end_count ends.
    int begin_count; ///< Begins in `begins`.
    int stay_count;  ///< Stays in `stays`.
    int end_count;   ///< Ends in `ends`.
} cw_events;

/// The last step's events (see cw_events); all empty (and an error) for a NULL world.
CW_API cw_events cw_world_events(const cw_world *world);

/// A body that another touches, as cw_body_touching() lists it.
typedef struct cw_touch {
    cw_body_id body;      ///< The other body.
    void *user_data;      ///< Its user data.
    /// The overlap as of the last step, normal from the asking body toward this one, when the world
    /// keeps manifolds for stays (cw_world_def::manifolds and stay_manifolds, with on_stay or
    /// report_stays); all zero otherwise.
    cw_manifold manifold;
} cw_touch;

/// The bodies `body` touches after the last step, in ascending index order (bodies destroyed or
/// switched off since are left out, as from queries; a switched-off body touches nothing): fills `out` with the first `capacity` of them and returns how many there are, so a
/// call with capacity 0 (and `out` NULL) sizes the buffer. It costs what the answer holds, not what
/// the world holds: the first call in a world's life builds an index from each body to its pairs
/// (one pass over the touching pairs, allocating about 16 bytes a pair and 4 a body: about 10 ms
/// for 436k pairs, nothing before the first step; threads that call at once wait for the one
/// building it), which every later step keeps up to date. Works from
/// callbacks, where it still answers for the last step. Returns -1 (see cw_last_error()) for a NULL
/// world, a stale id, a negative capacity, a NULL `out` with a positive capacity, or if memory runs
/// out building the index (nothing is kept; a later call tries again) or another thread is
/// stepping the world when it would be built.
CW_API int cw_body_touching(const cw_world *world, cw_body_id body, cw_touch *out, int capacity);

/// Whether bodies `a` and `b` touch after the last step (either order); a binary search of the
/// touching pairs. False for a pair that does not or where either body is switched off, and false
/// with an error for a NULL world or a stale id.
CW_API bool cw_pair_touching(const cw_world *world, cw_body_id a, cw_body_id b);

/// @}

/// @name Queries
/// Questions asked of the world between steps or from inside contact callbacks. They see the
/// bodies as they are now: shapes, transforms and filters set since the last step count, and so do
/// bodies created since (destroyed ones are gone at once). They go through the broadphase grid, so
/// a query costs what it touches, not what the world holds. Queries never change the world and
/// never call the contact callbacks, and allocate only once for each of the CW_QUERY_LANES lanes:
/// the first query that runs in a lane makes its marks (2 bytes a body slot, kept and grown with
/// the slots), so a world never queried keeps none and one queried from a single thread one lane's;
/// if memory runs out then, that query returns false and reports nothing, with the error in
/// cw_last_error() (a later query tries again). A query callback may not create, destroy or
/// change bodies (user data included), step or destroy the world, or start another query (such
/// calls fail with an error while the query runs). Like manifolds, query answers are specified for
/// moderate placements (sizes and scales in [1e-6, 1e6], positions below 1e7): a body whose world
/// AABB leaves the float range may be missed.
/// @{

/// Which bodies a query reports: a body is reported iff `(body.category & filter.collides_with)`
/// and `(filter.category & body.collides_with)` are both nonzero, as between two bodies.
typedef struct cw_query_filter {
    uint32_t category;      ///< The query's own category bits (default all bits).
    uint32_t collides_with; ///< The body categories it wants (default all bits).
} cw_query_filter;

/// Returns a filter that reports every body (both fields all bits).
CW_API cw_query_filter cw_default_query_filter(void);

/// Called for each body a point, box or shape query finds, in no particular order. `manifold` is
/// NULL except for cw_world_query_shape() with `want_manifold` (then it is as cw_overlap() fills it,
/// with the query shape as A and the body as B). Return true to go on, false to stop the query.
typedef bool cw_query_fn(cw_body_id body, void *user_data, const cw_manifold *manifold, void *context);

/// Reports every body whose covered region contains `point` (world units). Texels and boxes are
/// half-open here, like the pixel under a cursor: a point whose local coordinates are (u, v) is in
/// mask texel (floor(u), floor(v)) and in a box of size (w, h) iff 0 <= u < w and 0 <= v < h, so a
/// point on an edge shared by two texels or sprites belongs to exactly one of them (the one toward
/// +u, +v in local space). Returns false (and reports nothing) for a NULL world or callback, or a
/// non-finite point.
CW_API bool cw_world_query_point(cw_world *world, cw_vec2 point, cw_query_filter filter, cw_query_fn *fn, void *context);

/// Reports every body whose world AABB (as cw_body_aabb()) overlaps `box` with positive area: fast
/// and coarse. Returns false for a NULL world or callback, or a box with a non-finite or inverted
/// (min > max) coordinate.
CW_API bool cw_world_query_aabb(cw_world *world, cw_aabb box, cw_query_filter filter, cw_query_fn *fn, void *context);

/// Reports every body whose shape overlaps `shape` under `transform`, exactly as cw_overlap() (say,
/// which sprites an explosion sprite touches). With `want_manifold` each report carries the
/// manifold (which costs what cw_overlap() with a manifold costs). Returns false for a NULL world,
/// shape, transform or callback, or an invalid shape or transform (as cw_overlap()).
CW_API bool cw_world_query_shape(cw_world *world, const cw_shape *shape, const cw_transform *transform,
                          cw_query_filter filter, bool want_manifold, cw_query_fn *fn, void *context);

/// Where a ray enters a body.
typedef struct cw_ray_hit {
    cw_body_id body;  ///< The body hit.
    void *user_data;  ///< Its user data.
    cw_vec2 point;    ///< The entry point, in world units: origin + fraction * translation.
    cw_vec2 normal;   ///< Unit world normal of the texel (or box) edge the ray enters through,
                      ///< facing the ray; for a ray that starts inside the body, minus its direction.
    float fraction;   ///< Along the ray, in [0, 1].
} cw_ray_hit;

/// Called for each body a ray hits (each body once, at its first entry point), in no particular
/// order. Return the new limit on the fraction: 0 stops the cast, `hit->fraction` keeps only
/// closer hits (finds the closest), 1 goes on to every hit, and a negative value ignores this body
/// and keeps the current limit. The limit never grows, and only hits before it are reported.
typedef float cw_ray_fn(const cw_ray_hit *hit, void *context);

/// Casts the segment from `origin` to `origin + translation` (world units). A body is hit where the
/// segment first enters its covered region's interior: for a mask the first opaque texel it passes
/// through (walked texel by texel in the sprite's local space), entered through that texel's
/// nearest edge; a segment that only grazes an edge or a corner does not hit. A segment that starts
/// inside a body hits it at fraction 0. Cells are visited along the ray, so a closest-hit cast stops
/// early. Returns false for a NULL world or callback, a non-finite origin or translation, or a
/// zero-length translation.
CW_API bool cw_world_raycast(cw_world *world, cw_vec2 origin, cw_vec2 translation, cw_query_filter filter, cw_ray_fn *fn,
                      void *context);

/// The closest hit along the segment: returns true and fills `hit`, or false with `hit` untouched if
/// nothing is hit (cw_last_error() is then "" unless the input was bad, as for cw_world_raycast()).
CW_API bool cw_world_raycast_closest(cw_world *world, cw_vec2 origin, cw_vec2 translation, cw_query_filter filter,
                              cw_ray_hit *hit);


/// Casts `shape`, moving in a straight line from `transform` by `translation` (world units), through
/// the world: every body it would touch on the way, as cw_shape_cast() judges each (exact; through
/// the grid cells the motion's box covers, so it costs what the motion passes). Each body is
/// reported once, at its first touch, to `fn` with cw_world_raycast()'s protocol (the return value
/// sets the limit on the fraction; 1 goes on, 0 stops, `hit->fraction` keeps only closer hits, a
/// negative value ignores the body), in no particular order. In the hit: `fraction` as
/// cw_shape_cast() gives it (0 for a body the shape already overlaps), `point` the contact at
/// that moment, `normal` the unit normal of the contact facing the moving shape (the way to push
/// it back; for a body it starts in, the way out). A body touched only at the very end has
/// fraction 1. A zero translation reports what the shape overlaps, at fraction 0 (as
/// cw_world_query_shape()). The same rules as every query: bodies as they are now, never
/// allocates, no changes from the callback. Returns false for a NULL world, shape, transform or
/// callback, an invalid shape or transform (as cw_overlap()), or a translation that is not finite.
CW_API bool cw_world_cast_shape(cw_world *world, const cw_shape *shape, const cw_transform *transform,
                                cw_vec2 translation, cw_query_filter filter, cw_ray_fn *fn, void *context);

/// The first body the moving shape touches: returns true and fills `hit`, or false with `hit`
/// untouched if it touches nothing (cw_last_error() is then "" unless the input was bad, as for
/// cw_world_cast_shape()). Of bodies first touched at the same fraction, the one with the lowest
/// index.
CW_API bool cw_world_cast_shape_closest(cw_world *world, const cw_shape *shape, const cw_transform *transform,
                                        cw_vec2 translation, cw_query_filter filter, cw_ray_hit *hit);

/// Whether `point` (world units) lies in the region `shape` covers under `transform`, with the
/// half-open rule of cw_world_query_point(). Returns false with an error for the same bad input as
/// cw_overlap() or a non-finite point.
CW_API bool cw_shape_contains_point(const cw_shape *shape, const cw_transform *transform, cw_vec2 point);

/// Casts the segment from `origin` to `origin + translation` against one shape, with the rules of
/// cw_world_raycast(). Returns true and fills `hit` (its body is the null id, its user data NULL) if
/// the segment enters the shape; false otherwise, with an error only for bad input.
CW_API bool cw_shape_raycast(const cw_shape *shape, const cw_transform *transform, cw_vec2 origin, cw_vec2 translation,
                      cw_ray_hit *hit);

/// @}

/// @name Debug draw
/// What the collision world sees, drawn by your renderer (as Box2D's b2DebugDraw): the world calls
/// your functions with world-space geometry and says what each piece is, and you pick the colours.
/// @{

/// What cw_world_debug_draw() draws: any combination (cw_debug_draw::flags).
typedef enum cw_debug_flags {
    CW_DRAW_AABBS = 1 << 0,         ///< Each body's AABB, as a 4-vertex polygon.
    CW_DRAW_BOXES = 1 << 1,         ///< Box bodies' oriented boxes, as 4-vertex polygons.
    CW_DRAW_MASK_OUTLINES = 1 << 2, ///< Mask bodies' outlines: the boundary edges of their opaque
                                    ///< texels (between an opaque texel and a clear one or the
                                    ///< outside), joined into the longest straight segments.
    CW_DRAW_GRID = 1 << 3,          ///< The broadphase cells that hold bodies, as polygons (a
                                    ///< view of more cells than the grid holds walks the grid's
                                    ///< occupied cells instead of the view's).
    CW_DRAW_CONTACTS = 1 << 4,      ///< Each touching pair's manifold: a point, and a segment from it
                                    ///< along the normal, as long as the depth (at least 1 unit).
    CW_DRAW_IDS = 1 << 5,           ///< Each body's index at its AABB's centre (needs draw_text).
} cw_debug_flags;

/// What a piece of debug geometry belongs to, so that you can colour it.
typedef struct cw_debug_item {
    cw_debug_flags what;  ///< The one flag that drew it.
    cw_body_id body;      ///< The body (for contacts, the pair's a), or the null id for grid cells.
    cw_body_id other;     ///< Contacts: the pair's b; else the null id.
    void *user_data;      ///< The body's user data (contacts: a's), or NULL.
    bool touching;        ///< The body is in a touching pair after the last step.
} cw_debug_item;

/// Your drawing functions and what to draw. The pointers passed to them are valid during the call.
typedef struct cw_debug_draw {
    /// A closed polygon (AABBs, boxes, grid cells), `count` vertices in world units.
    void (*draw_polygon)(const cw_vec2 *vertices, int count, const cw_debug_item *item, void *context);
    /// A segment (mask outlines, contact normals).
    void (*draw_segment)(cw_vec2 a, cw_vec2 b, const cw_debug_item *item, void *context);
    /// A point (contact points); `size` is a suggestion in world units.
    void (*draw_point)(cw_vec2 p, float size, const cw_debug_item *item, void *context);
    /// Text at a point (CW_DRAW_IDS); may be NULL, then no text is drawn.
    void (*draw_text)(cw_vec2 p, const char *text, const cw_debug_item *item, void *context);
    uint32_t flags;      ///< cw_debug_flags to draw.
    bool use_bounds;     ///< Draw only what meets `bounds` (your view): culling for large worlds.
    cw_aabb bounds;      ///< The visible area, world units, when use_bounds.
    void *context;       ///< Passed to every function.
} cw_debug_draw;

/// A cw_debug_draw with no functions, no flags and no bounds.
CW_API cw_debug_draw cw_default_debug_draw(void);

/// Draws the world as of now (bodies changed since the last step where they are now; grid cells as
/// of the last step) through `draw`, bodies in index order. Switched-off bodies are not drawn.
/// Contacts are the pairs touching after the last step whose bodies both still live: with the
/// manifold that step found where the world keeps stays' manifolds (cw_world_def::manifolds and
/// stay_manifolds, with stays reported), else worked out from the two bodies as they are now, and
/// left out if they no longer overlap. Read-only: it may run between steps like a query, and never
/// allocates. Returns false with an error for a NULL world or draw, flags that need a NULL function
/// (draw_polygon for AABBs, boxes and the grid; draw_segment for outlines and contacts; draw_point
/// for contacts), unknown flags, or inverted or non-finite bounds. Mask outlines cost a walk over
/// the mask's texels per body per call: cull with bounds in large worlds.
CW_API bool cw_world_debug_draw(const cw_world *world, const cw_debug_draw *draw);

/// @}

#ifdef __cplusplus
}
#endif

#endif
