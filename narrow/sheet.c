// Sprite sheets: named frames, each a mask built from a sub-rectangle of an RGBA sheet. Names are
// looked up in one uthash table; frames with the same opaque bits share one mask through a second
// table keyed by the mask's content hash (collisions chained and compared in full). Every table
// allocation goes through the allocator hook, and running out of memory fails the call with the
// sheet as it was (HASH_NONFATAL_OOM: a failed add leaves the item out with hh.tbl NULL).
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "internal.h"

#define HASH_NONFATAL_OOM 1
#define uthash_malloc(size) cw__alloc(size)
#define uthash_free(memory, size) cw__free((memory), (size))
#include <uthash.h>

// One distinct mask and the frames that use it.
typedef struct sheet_mask {
    cw_mask *mask;
    int frames;                // frames using it
    struct sheet_mask *also;   // the next mask with the same content hash (different bits)
    struct hash_slot *slot;
} sheet_mask;

// The masks with one content hash (almost always one).
typedef struct hash_slot {
    uint64_t hash;             // the table's key: cw_mask's content hash
    sheet_mask *masks;
    UT_hash_handle hh;
} hash_slot;

typedef struct sheet_frame {
    char *name;                // owned, NUL-terminated; the table's key
    size_t name_size;          // strlen + 1
    sheet_mask *mask;
    UT_hash_handle hh;
} sheet_frame;

struct cw_sheet {
    sheet_frame *by_name;      // uthash head
    hash_slot *by_hash;        // uthash head
    sheet_frame **order;       // the frames in the order they were added
    uint32_t count, capacity;
    int masks;
    size_t mask_bytes, name_bytes;
};

// Names of grid frames are the prefix, '/', and a decimal index (at most 10 digits).
enum { GRID_SUFFIX_MAX = 12 };

cw_sheet *cw_sheet_create(void)
{
    cw_sheet *sheet = cw__alloc(sizeof *sheet);
    if (sheet != NULL)
        memset(sheet, 0, sizeof *sheet);
    return sheet;
}

static sheet_frame *find_frame(const cw_sheet *sheet, const char *name, size_t size)
{
    sheet_frame *frame = NULL;
    sheet_frame *head = sheet->by_name;
    HASH_FIND(hh, head, name, size, frame);
    return frame;
}

static hash_slot *find_hash_slot(const cw_sheet *sheet, uint64_t hash)
{
    hash_slot *head = sheet->by_hash, *slot = NULL;
    HASH_FIND(hh, head, &hash, sizeof hash, slot);
    return slot;
}

// The sheet's mask with exactly these texels, or NULL.
static sheet_mask *find_mask(const cw_sheet *sheet, const cw_mask *mask)
{
    const hash_slot *slot = find_hash_slot(sheet, mask->hash);
    for (sheet_mask *entry = slot != NULL ? slot->masks : NULL; entry != NULL; entry = entry->also)
        if (cw__mask_compare(entry->mask, mask) == 0)
            return entry;
    return NULL;
}

// Frees a mask no frame uses any more (never allocates).
static void forget_mask(cw_sheet *sheet, sheet_mask *entry)
{
    hash_slot *slot = entry->slot;
    sheet_mask **link = &slot->masks;
    while (*link != entry)
        link = &(*link)->also;
    *link = entry->also;
    if (slot->masks == NULL) {
        HASH_DEL(sheet->by_hash, slot);
        cw__free(slot, sizeof *slot);
    }
    sheet->masks--;
    sheet->mask_bytes -= cw__mask_bytes(entry->mask);
    cw_mask_destroy(entry->mask);
    cw__free(entry, sizeof *entry);
}

// Takes `mask` into the sheet: the existing entry with the same texels (and `mask` is freed), or a
// new one. NULL (and `mask` freed) if memory runs out.
static sheet_mask *adopt_mask(cw_sheet *sheet, cw_mask *mask)
{
    sheet_mask *same = find_mask(sheet, mask);
    if (same != NULL) {
        cw_mask_destroy(mask);
        return same;
    }
    hash_slot *slot = find_hash_slot(sheet, mask->hash), *made = NULL;
    sheet_mask *entry = cw__alloc(sizeof *entry);
    if (entry != NULL && slot == NULL && (made = cw__alloc(sizeof *made)) != NULL) {
        memset(made, 0, sizeof *made);
        made->hash = mask->hash;
        HASH_ADD(hh, sheet->by_hash, hash, sizeof made->hash, made);
        if (made->hh.tbl == NULL) {
            cw__fail("Out of memory: the sheet's mask table could not grow.");
            cw__free(made, sizeof *made);
            made = NULL;
        }
        slot = made;
    }
    if (entry == NULL || slot == NULL) {
        cw__free(entry, sizeof *entry);
        cw_mask_destroy(mask);
        return NULL;
    }
    memset(entry, 0, sizeof *entry);
    entry->mask = mask, entry->slot = slot;
    entry->also = slot->masks; // a different mask with the same hash is chained
    slot->masks = entry;
    sheet->masks++;
    sheet->mask_bytes += cw__mask_bytes(mask);
    return entry;
}

static bool check_name(const cw_sheet *sheet, const char *name, size_t *size)
{
    if (name == NULL) {
        cw__fail("The frame name is NULL.");
        return false;
    }
    if (name[0] == '\0') {
        cw__fail("The frame name is empty.");
        return false;
    }
    *size = strlen(name) + 1;
    if (find_frame(sheet, name, *size) != NULL) {
        cw__fail("The sheet already has a frame with that name.");
        return false;
    }
    return true;
}

// Removes the most recently added frame (undoing an add); its mask goes with its last frame.
static void remove_last(cw_sheet *sheet)
{
    sheet_frame *frame = sheet->order[--sheet->count];
    HASH_DEL(sheet->by_name, frame);
    if (--frame->mask->frames == 0)
        forget_mask(sheet, frame->mask);
    sheet->name_bytes -= frame->name_size;
    cw__free(frame->name, frame->name_size);
    cw__free(frame, sizeof *frame);
}

// Adds a frame whose name was checked, taking `mask` (freed on failure).
static const cw_mask *add_frame(cw_sheet *sheet, const char *name, size_t name_size, cw_mask *mask)
{
    sheet_frame *frame = NULL;
    char *copy = NULL;
    if (sheet->count == sheet->capacity) {
        void *order = sheet->order;
        if (!cw__reserve(&order, sizeof *sheet->order, &sheet->capacity, sheet->count + 1)) {
            cw_mask_destroy(mask);
            return NULL;
        }
        sheet->order = order;
    }
    if ((frame = cw__alloc(sizeof *frame)) == NULL || (copy = cw__alloc(name_size)) == NULL) {
        cw__free(frame, sizeof *frame);
        cw_mask_destroy(mask);
        return NULL;
    }
    sheet_mask *entry = adopt_mask(sheet, mask);
    if (entry == NULL) {
        cw__free(frame, sizeof *frame), cw__free(copy, name_size);
        return NULL;
    }
    memcpy(copy, name, name_size);
    memset(frame, 0, sizeof *frame);
    frame->name = copy, frame->name_size = name_size, frame->mask = entry;
    entry->frames++;
    HASH_ADD_KEYPTR(hh, sheet->by_name, frame->name, name_size, frame);
    if (frame->hh.tbl == NULL) {
        cw__fail("Out of memory: the sheet's name table could not grow.");
        if (--entry->frames == 0)
            forget_mask(sheet, entry);
        cw__free(frame, sizeof *frame), cw__free(copy, name_size);
        return NULL;
    }
    sheet->order[sheet->count++] = frame;
    sheet->name_bytes += name_size;
    return entry->mask;
}

const cw_mask *cw_sheet_add(cw_sheet *sheet, const char *name, const void *rgba, int width, int height, int pitch,
                            uint8_t alpha_threshold)
{
    size_t name_size;
    if (sheet == NULL) {
        cw__fail("The sheet is NULL.");
        return NULL;
    }
    if (!check_name(sheet, name, &name_size))
        return NULL;
    cw_mask *mask = cw_mask_from_rgba(rgba, width, height, pitch, alpha_threshold);
    return mask != NULL ? add_frame(sheet, name, name_size, mask) : NULL;
}

static bool check_grid(const void *rgba, int sheet_width, int sheet_height, int pitch, int frame_width,
                       int frame_height)
{
    if (rgba == NULL) {
        cw__fail("The pixel pointer is NULL.");
        return false;
    }
    if (sheet_width < 1 || sheet_height < 1 || frame_width < 1 || frame_height < 1) {
        cw__fail("The sheet's and the frames' width and height must be positive.");
        return false;
    }
    if (frame_width > sheet_width || frame_height > sheet_height) {
        cw__fail("The frame is larger than the sheet.");
        return false;
    }
    if (pitch / 4 < sheet_width) {
        cw__fail("The pitch is smaller than 4 bytes times the sheet's width.");
        return false;
    }
    if ((int64_t)(sheet_height - 1) * pitch + 4 * (int64_t)sheet_width > INT_MAX) {
        cw__fail("The sheet spans more than INT_MAX bytes.");
        return false;
    }
    return true;
}

int cw_sheet_add_grid(cw_sheet *sheet, const char *prefix, const void *rgba, int sheet_width, int sheet_height,
                      int pitch, int frame_width, int frame_height, uint8_t alpha_threshold)
{
    if (sheet == NULL) {
        cw__fail("The sheet is NULL.");
        return -1;
    }
    if (prefix == NULL || prefix[0] == '\0') {
        cw__fail(prefix == NULL ? "The frame name prefix is NULL." : "The frame name prefix is empty.");
        return -1;
    }
    if (!check_grid(rgba, sheet_width, sheet_height, pitch, frame_width, frame_height))
        return -1;
    int columns = sheet_width / frame_width, rows = sheet_height / frame_height, total = columns * rows;
    size_t prefix_length = strlen(prefix), name_size = prefix_length + GRID_SUFFIX_MAX;
    char *name = cw__alloc(name_size);
    if (name == NULL)
        return -1;
    for (int k = 0; k < total; k++) { // every name is free before anything is added
        size_t size = (size_t)snprintf(name, name_size, "%s/%d", prefix, k) + 1;
        if (find_frame(sheet, name, size) != NULL) {
            cw__free(name, name_size);
            cw__fail("The sheet already has a frame with one of the grid's names.");
            return -1;
        }
    }
    uint32_t before = sheet->count;
    for (int k = 0; k < total; k++) {
        int size = snprintf(name, name_size, "%s/%d", prefix, k) + 1;
        const uint8_t *first = (const uint8_t *)rgba + (size_t)(k / columns) * (size_t)frame_height * (size_t)pitch +
                               (size_t)(k % columns) * (size_t)frame_width * 4;
        cw_mask *mask = cw_mask_from_rgba(first, frame_width, frame_height, pitch, alpha_threshold);
        if (mask == NULL || add_frame(sheet, name, (size_t)size, mask) == NULL) {
            while (sheet->count > before) // the sheet as it was
                remove_last(sheet);
            cw__free(name, name_size);
            return -1;
        }
    }
    cw__free(name, name_size);
    return total;
}

const cw_mask *cw_sheet_find(const cw_sheet *sheet, const char *name)
{
    if (sheet == NULL || name == NULL) {
        cw__fail(sheet == NULL ? "The sheet is NULL." : "The frame name is NULL.");
        return NULL;
    }
    const sheet_frame *frame = find_frame(sheet, name, strlen(name) + 1);
    return frame != NULL ? frame->mask->mask : NULL;
}

const char *cw_sheet_frame_name(const cw_sheet *sheet, int index)
{
    if (sheet == NULL) {
        cw__fail("The sheet is NULL.");
        return NULL;
    }
    if (index < 0 || (uint32_t)index >= sheet->count) {
        cw__fail("The frame index is out of range.");
        return NULL;
    }
    return sheet->order[index]->name;
}

cw_sheet_stats cw_sheet_get_stats(const cw_sheet *sheet)
{
    cw_sheet_stats stats = {0, 0, 0};
    if (sheet == NULL) {
        cw__fail("The sheet is NULL.");
        return stats;
    }
    stats.frames = (int)sheet->count;
    stats.masks = sheet->masks;
    size_t tables = 0;
    if (sheet->by_name != NULL)
        tables += sizeof(UT_hash_table) + sheet->by_name->hh.tbl->num_buckets * sizeof(UT_hash_bucket);
    if (sheet->by_hash != NULL)
        tables += sizeof(UT_hash_table) + sheet->by_hash->hh.tbl->num_buckets * sizeof(UT_hash_bucket);
    stats.bytes = sizeof *sheet + sheet->mask_bytes + sheet->name_bytes + sheet->count * sizeof(sheet_frame) +
                  (size_t)sheet->masks * (sizeof(sheet_mask) + sizeof(hash_slot)) +
                  sheet->capacity * sizeof *sheet->order + tables;
    return stats;
}

void cw_sheet_destroy(cw_sheet *sheet)
{
    if (sheet == NULL)
        return;
    while (sheet->count > 0)
        remove_last(sheet);
    cw__free(sheet->order, sheet->capacity * sizeof *sheet->order);
    cw__free(sheet, sizeof *sheet);
}
