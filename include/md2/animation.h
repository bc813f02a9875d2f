/*
 * libmd2 - named animations, playback state and instances.
 *
 * SPDX-License-Identifier: MIT
 *
 * Overview
 * --------
 * An MD2 file holds keyframes but no animation table. This header gives:
 *
 *  - md2_anims_from_names(): animations found from the frame names
 *    ("stand01".."stand40", "pain101".."pain104", ...);
 *  - md2_anims_quake2_player(): the standard Quake II player table (20
 *    animations of a 198-frame model), as constant data;
 *  - md2_parse_anm() and md2_parse_framegroups(): the side files of UFO:AI
 *    (.anm) and DarkPlaces (.framegroups), parsed from memory;
 *    md2_write_anm() writes animations as an .anm text;
 *  - md2_player: the playback state of one instance (animation, play mode,
 *    rate, time, cross-fade, skin), kept apart from the shared model;
 *  - linked models: md2_player_pose_linked() and md2_player_bounds_linked()
 *    pose other models (a weapon) with a player's frames, and
 *    md2_linked_check() checks their frame counts.
 *
 * Memory: nothing declared here allocates. Every function writes into
 * buffers and structs the caller owns; md2_player is fixed-size opaque
 * storage the caller places anywhere (stack, array, inside its own entity
 * struct) and copies freely.
 *
 * Thread safety: there is no global mutable state. The functions read the
 * model (const) and never modify it, so any number of threads may use one
 * loaded model at the same time, each with its own md2_player. One
 * md2_player must be used by one thread at a time.
 *
 * docs/animation.md explains the grouping rules, the side-file grammars,
 * the play modes, the no-drift rule and cross-fading, with examples.
 */
#ifndef MD2_ANIMATION_H
#define MD2_ANIMATION_H

#include "md2.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Animations                                                                */
/* ------------------------------------------------------------------------ */

/** Longest animation name in bytes, without its NUL (as a frame name). */
#define MD2_ANIM_NAME_SIZE 16

/** Frames per second given to animations found from frame names, which
 *  carry no rate: Quake II steps its models at 10 Hz. */
#define MD2_ANIM_DEFAULT_FPS 10.0f

/** One animation: the keyframes first..last (inclusive, first <= last),
 *  played at fps frames per second. Plain data; copy it freely. When you
 *  fill one in yourself, start from zero: the functions that read an
 *  md2_anim refuse one whose reserved_ are not zero (MD2_ERR_INVALID_ARGUMENT;
 *  md2_anim_find() then finds nothing). */
typedef struct md2_anim {
    char name[MD2_ANIM_NAME_SIZE + 1]; /**< NUL-terminated, may be "" */
    uint32_t first;                    /**< first keyframe */
    uint32_t last;                     /**< last keyframe (>= first) */
    float fps;                         /**< keyframes per second (>= 0; 0 holds the first frame) */
    int loop;                          /**< 1: loops by default; 0: plays once (see MD2_PLAY_DEFAULT) */
    uint32_t reserved_[2];             /**< must be zero: room for new fields (checked: "md2_anim.reserved_[i]"; the library writes zeros) */
} md2_anim;

/** Whether an animation of this name loops by default, as Quake II plays
 *  it: 0 (play once) for deaths, pains and poses of the dead, jumps, flips
 *  and gestures, and their crouching variants; 1 (loop) for everything
 *  else, such as standing, walking, running and attacking. The rule: a
 *  leading "cr" (crouch) is dropped, then the letters before the first
 *  digit, '_', '-', '.' or space are compared, ignoring case, with death,
 *  dead, die, pain, jump, flip, salute, taunt, wave and point ("death2",
 *  "crpain", "dead_rifle" play once; "stand", "crwalk", "painting" loop).
 *  md2_anims_from_names(), md2_parse_anm() and md2_parse_framegroups()
 *  (for a line without its loop field) set md2_anim.loop with it; a player
 *  can override it with MD2_PLAY_LOOP or MD2_PLAY_ONCE. NULL gives 1.
 *  Thread-safe. */
MD2_API int md2_anim_loops(const char *name);

/** Returned by md2_anim_find() when no animation has the name: the
 *  largest size_t, (size_t)-1, which is never a valid index. */
#define MD2_ANIM_NOT_FOUND ((size_t)-1)

/** Finds the animations of model m from its frame names and writes the
 *  first of them, in frame order, to out (at most capacity). Returns the
 *  number written, so the result is always a safe count for out, even for
 *  a file with more animations than fit. With out NULL nothing is written
 *  and the total is returned: md2_anims_from_names(m, NULL, 0) sizes the
 *  array (a model has at most num_frames animations). The rules (docs/animation.md):
 *  a name splits into a prefix and its trailing decimal digits; consecutive
 *  frames with the same prefix whose numbers go on by +1 (or repeat) form
 *  one animation; a jump in the numbering starts a new one. When a prefix's
 *  run of frames is split by jumps and each part keeps one leading digit
 *  (pain101-104, pain201-204), the parts are named prefix + that digit
 *  (pain1, pain2); other splits are named prefix + 1, 2, 3... in order.
 *  Trailing '_', '-', '.' and ' ' are dropped from names. Every animation
 *  gets fps MD2_ANIM_DEFAULT_FPS and loop md2_anim_loops(name). Names are not guaranteed to be
 *  unique (md2_anim_find() returns the first).
 *  m NULL, or without frames, gives 0. Never allocates;
 *  thread-safe on a shared model; O(num_frames). */
MD2_API size_t md2_anims_from_names(const md2_model *m, md2_anim *out,
                                    size_t capacity);

/** Number of animations in the standard Quake II player table. */
#define MD2_QUAKE2_PLAYER_ANIMS 20
/** Number of keyframes the standard Quake II player table covers. */
#define MD2_QUAKE2_PLAYER_FRAMES 198

/** The standard Quake II player animations (stand 0-39 at 9 fps, run 40-45
 *  at 10 fps, ... death3 190-197 at 7 fps; all 20 in docs/animation.md),
 *  as a pointer to a constant static array of MD2_QUAKE2_PLAYER_ANIMS
 *  entries that together cover frames 0..197 in order. loop is 1 for the
 *  cyclic ones (stand, run, attack, crstand, crwalk, crattack) and 0 for
 *  the gestures, pains and deaths. If count is not NULL it receives
 *  MD2_QUAKE2_PLAYER_ANIMS. Apply it to a model after
 *  md2_anims_validate() accepts it (any model of 198 or more frames).
 *  Never NULL; the data is never modified; thread-safe. */
MD2_API const md2_anim *md2_anims_quake2_player(size_t *count);

/** Index of the first animation of anims[0..count) whose name equals name
 *  exactly (case-sensitive), or MD2_ANIM_NOT_FOUND (also when anims or name
 *  is NULL). Thread-safe. */
MD2_API size_t md2_anim_find(const md2_anim *anims, size_t count,
                             const char *name);

/** Checks animations against model m: every entry needs first <= last,
 *  last < m->num_frames and a finite fps >= 0. On failure, if error is not
 *  NULL, it names the first bad entry (index), the field ("last" for a
 *  last frame before first or past the model, "fps" for a bad rate) and
 *  the animation's name in its message.
 *  Errors: MD2_ERR_INVALID_ARGUMENT (m NULL, anims NULL with count > 0,
 *  first > last, bad fps), MD2_ERR_FRAME_RANGE (last >= num_frames).
 *  Thread-safe. */
MD2_API md2_result md2_anims_validate(const md2_anim *anims, size_t count,
                                      const md2_model *m,
                                      md2_diagnostic *error);

/* ------------------------------------------------------------------------ */
/* Side files                                                                */
/* ------------------------------------------------------------------------ */

/** Parses a UFO:AI animation file (.anm) held in memory: text[0..size),
 *  not NUL-terminated necessarily. Each non-blank line is
 *      name first last fps
 *  (whitespace-separated; first and last are inclusive keyframe numbers,
 *  fps a decimal number >= 0 that fits a float; name at most 16 bytes,
 *  optionally in double quotes). "//" starts a comment that runs to the
 *  end of the line. Lines end in LF, CRLF or CR; a UTF-8 byte order mark is
 *  skipped. Entries get loop = md2_anim_loops(name). If m is not NULL
 *  every range must lie inside its frames.
 *
 *  A rate of 0 (UFO:AI's one-frame poses, "dead1 29 29 0") is a quirk: by
 *  default the entry loads with fps 0, which holds its first frame, and
 *  opts->on_warning hears MD2_WARN_ANIM_RATE_ZERO; with that flag in
 *  opts->strict the line is an error (MD2_ERR_PARSE_SIDEFILE).
 *
 *  opts: as for md2_parse() (NULL for defaults); only error, on_warning,
 *  warning_user and strict are used. Diagnostics have section
 *  MD2_SECTION_SIDEFILE, the 1-based line and column, offset (the byte in
 *  text), index (the entry's number) and field ("name", "first", "last",
 *  "fps", "count", "loop").
 *
 *  Output: the entries are written in file order to out (at most capacity
 *  of them) and *count receives the number of entries in the file. Call
 *  with out NULL and capacity 0 to size the array (result MD2_OK if the
 *  text is valid). If the file holds more than capacity entries (out not
 *  NULL), the first capacity are written and the result is
 *  MD2_ERR_BUFFER_TOO_SMALL, after the whole text has been checked.
 *
 *  Errors: MD2_ERR_INVALID_ARGUMENT (text NULL with size > 0, count NULL,
 *  out NULL with capacity > 0), MD2_ERR_PARSE_SIDEFILE (a malformed line:
 *  missing or extra field, bad number, a number that is not a finite float
 *  in range, first > last, negative fps, name too long, unterminated
 *  quote, control byte), MD2_ERR_FRAME_RANGE (a range past the model's
 *  last frame). On a line error *count holds the entries before that line.
 *  Never allocates; reads no byte outside text[0..size); no locale
 *  dependence; thread-safe. */
MD2_API md2_result md2_parse_anm(const char *text, size_t size,
                                 const md2_model *m, const md2_options *opts,
                                 md2_anim *out, size_t capacity, size_t *count);

/** Writes anims[0..count) as the text of a UFO:AI animation file (.anm)
 *  into out[0..capacity): the entries md2_parse_anm() reads back from it
 *  are anims' names, first and last frames and rates, exactly (fps bit
 *  for bit, but that a rate of -0 comes back as 0). loop is not written:
 *  an .anm line has no such field, and the parser gives
 *  md2_anim_loops(name).
 *
 *  The text is canonical, the one layout this function writes:
 *   - one line an entry, in order: name, first, last, fps, separated by
 *     one space, ending in LF (the last line too); nothing else: no byte
 *     order mark, comment, blank line or CR; no entries, no bytes;
 *   - the name as it is, but in double quotes when it is empty, contains
 *     a space, tab, vertical tab or form feed or "//", or starts with '"'
 *     or with a UTF-8 byte order mark (EF BB BF);
 *   - first and last in decimal, without sign or leading zeros;
 *   - fps as "0" for 0, else with the fewest significant digits (1 to
 *     17) that md2_parse_anm() reads back as the same float, those digits
 *     being the correctly rounded ones: without an exponent when the
 *     value's decimal exponent X (fps = d.ddd * 10^X) is -4 to 8 ("10",
 *     "12.5", "0.0001"), else as the digits with a '.' after the first
 *     (when there are more) then 'e', '-' if X is negative, and X's
 *     decimal digits ("1e9", "2.5e12", "1.5e-5").
 *  So a canonical text comes back byte for byte through md2_parse_anm()
 *  and md2_write_anm(), and any text md2_parse_anm() reads becomes its
 *  canonical form.
 *
 *  Each entry is checked first; one that could not come back is refused:
 *  reserved_ not zero; a name without its NUL in its 17 bytes, with a
 *  control byte (below 0x20 but tab, vertical tab and form feed, or 0x7F),
 *  or with a '"' where it needs quotes (see above); last before first; a
 *  range past m's last frame when m is not NULL; fps NaN, infinite,
 *  negative, between 0 and FLT_MIN (which md2_parse_anm() refuses) or so
 *  small that the entry would last longer than FLT_MAX seconds.
 *
 *  Output: *size receives the length of the text in bytes (not counting
 *  a NUL: none is written) whenever every entry can be written. Call with
 *  out NULL and capacity 0 to learn it (result MD2_OK). When capacity is
 *  smaller, nothing is written and the result is
 *  MD2_ERR_BUFFER_TOO_SMALL.
 *
 *  Errors, each also described in *error when error is not NULL (for an
 *  entry: section MD2_SECTION_SIDEFILE, index the entry, field "name",
 *  "last" or "fps", and a message that names the entry by number and name
 *  and says what is wrong): MD2_ERR_INVALID_ARGUMENT (size NULL, anims
 *  NULL with count > 0, out NULL with capacity > 0, an entry that cannot
 *  be written, an entry's or m's reserved_ not zero, checked before the
 *  entries),
 *  MD2_ERR_FRAME_RANGE (a range past m's frames),
 *  MD2_ERR_BUFFER_TOO_SMALL. On error *size is 0 but for
 *  MD2_ERR_BUFFER_TOO_SMALL. Never allocates; no locale dependence (the
 *  digits come from snprintf, the decimal point is always '.');
 *  thread-safe. */
MD2_API md2_result md2_write_anm(const md2_anim *anims, size_t count,
                                 const md2_model *m, char *out,
                                 size_t capacity, size_t *size,
                                 md2_diagnostic *error);

/** Parses a DarkPlaces frame-group file (.framegroups) held in memory,
 *  with the conventions, options, output and errors of md2_parse_anm()
 *  (a rate of 0 included). Each non-blank line is
 *      first count [fps [loop [name]]] [// comment]
 *  first is the first keyframe, count (>= 1) the number of keyframes, fps
 *  a decimal number >= 0 (default 20, as DarkPlaces), loop an integer (0:
 *  play once, other: loop; without it, md2_anim_loops(name)). The name is
 *  the fifth field if present, else the first word of the comment ("0 40 9
 *  1 // stand" names the group "stand") if that word has 1 to 16 bytes,
 *  else "group" followed by the entry's index ("group0", "group1", ...). A
 *  fifth field longer than 16 bytes is an error; a longer comment word is
 *  only a comment. More than five fields is an error. */
MD2_API md2_result md2_parse_framegroups(const char *text, size_t size,
                                         const md2_model *m,
                                         const md2_options *opts,
                                         md2_anim *out, size_t capacity,
                                         size_t *count);

/* ------------------------------------------------------------------------ */
/* Playback                                                                  */
/* ------------------------------------------------------------------------ */

/** How an animation plays. */
typedef enum md2_play_mode {
    MD2_PLAY_DEFAULT = 0, /**< MD2_PLAY_LOOP if the animation's loop is not 0, else MD2_PLAY_ONCE */
    MD2_PLAY_LOOP,        /**< first..last, then last -> first blended, and again */
    MD2_PLAY_ONCE,        /**< first..last, then holds the last frame */
    MD2_PLAY_PINGPONG     /**< first..last..first, and again */
} md2_play_mode;

/** Pass as a rate to play at the animation's own fps. */
#define MD2_RATE_ANIM (-1.0f)

/** Event flags returned by md2_player_advance(). */
#define MD2_EVENT_LOOPED 1u    /**< a loop or ping-pong cycle ended (the playhead passed first again) */
#define MD2_EVENT_FINISHED 2u  /**< a once-animation reached its last frame (reported once per play) */
#define MD2_EVENT_FADE_DONE 4u /**< a cross-fade ended; only the current animation shows now */

/** The playback state of one instance of a model: current animation and
 *  its playhead, an outgoing animation while cross-fading, and the skin.
 *  Opaque storage of a fixed size owned by the caller (stack, arrays, your
 *  own entity struct): the library may change what it keeps inside in a
 *  later 1.x release without changing its size, so programs built against
 *  an older header keep working. It holds no pointer (not even to the
 *  model), so it can be copied with memcpy or assignment and used with
 *  any model whose frames cover its animations. Initialise it with
 *  md2_player_init(); read it only through the md2_player_* functions. */
typedef union md2_player {
    unsigned char opaque_[256];
    double align_double_;
    uint64_t align_u64_;
    void *align_pointer_;
} md2_player;

/** What a player shows: the pose is
 *    lerp(outgoing pose, current pose, weight)
 *  where the current pose is md2_lerp(frame_a, frame_b, t) and the
 *  outgoing pose md2_lerp(from_a, from_b, from_t). weight is 1 when no
 *  cross-fade is running (the from_* fields then repeat frame_a, frame_b
 *  and t). frame_b may be below frame_a (looping wrap, ping-pong).
 *  Output only: md2_player_state() fills it; no function reads one. */
typedef struct md2_player_frames {
    uint32_t frame_a, frame_b;
    float t;              /**< in [0, 1]; 0 when frame_a == frame_b */
    uint32_t from_a, from_b;
    float from_t;
    float weight;         /**< weight of the current pose, in [0, 1] */
    uint32_t reserved_[2];/**< written as zero: room for new fields (output only: not checked) */
} md2_player_frames;

/** Resets p: no cross-fade, skin 0, and a one-frame animation of keyframe 0
 *  held (so a new player shows frame 0). p NULL is a no-op. */
MD2_API void md2_player_init(md2_player *p);

/** Starts anim (copied into p; the caller's md2_anim need not outlive the
 *  call) from its first frame in the given mode, at rate keyframes per
 *  second, or at anim->fps if rate is negative (MD2_RATE_ANIM). A rate of
 *  0 (or MD2_RATE_ANIM with anim->fps 0) holds the first frame until
 *  md2_player_set_rate(). Any cross-fade in
 *  progress is dropped (a hard switch). The animation is not checked
 *  against a model here: md2_player_pose() reports MD2_ERR_FRAME_RANGE.
 *  Errors (p unchanged): MD2_ERR_INVALID_ARGUMENT (p or anim NULL,
 *  first > last, mode not an md2_play_mode, rate NaN or infinite, or
 *  rate negative while anim->fps is negative or not finite). */
MD2_API md2_result md2_player_play(md2_player *p, const md2_anim *anim,
                                   md2_play_mode mode, float rate);

/** md2_player_play() of the first animation in anims[0..count) named name.
 *  Errors: MD2_ERR_NOT_FOUND, or as md2_player_play(). */
MD2_API md2_result md2_player_play_named(md2_player *p, const md2_anim *anims,
                                         size_t count, const char *name,
                                         md2_play_mode mode, float rate);

/** Switches to anim as md2_player_play() does, but over duration seconds
 *  the pose blends from the outgoing animation (which keeps playing, its
 *  events muted) to the new one: weight = elapsed / duration. When it ends,
 *  md2_player_advance() reports MD2_EVENT_FADE_DONE. duration <= 0 is a
 *  hard switch. A cross-fade started during another one keeps, as the
 *  outgoing animation, whichever of the two had the larger weight (the
 *  current one on a tie), so the pose may move by up to half the distance
 *  between those two poses. Errors: as md2_player_play(), and
 *  MD2_ERR_INVALID_ARGUMENT for a NaN or infinite duration. */
MD2_API md2_result md2_player_crossfade(md2_player *p, const md2_anim *anim,
                                        md2_play_mode mode, float rate,
                                        float duration);

/** Changes the rate (keyframes per second, >= 0) of the current animation,
 *  keeping its playhead; MD2_RATE_ANIM restores the animation's fps.
 *  Errors: MD2_ERR_INVALID_ARGUMENT (p NULL, NaN or infinite rate). */
MD2_API md2_result md2_player_set_rate(md2_player *p, float rate);

/** Moves the current animation's playhead to position keyframes after its
 *  first frame (for instance 2.5: halfway between first + 2 and first + 3),
 *  wrapped or clamped by the play mode as if played there; no event is
 *  reported. Use it to start instances at different phases.
 *  Errors: MD2_ERR_INVALID_ARGUMENT (p NULL, position negative or not
 *  finite). */
MD2_API md2_result md2_player_seek(md2_player *p, double position);

/** Advances the playhead (and any cross-fade) by dt seconds and returns the
 *  MD2_EVENT_* flags of what happened during this step (0 if nothing).
 *  dt negative, NaN or infinite is treated as 0. No drift: the playhead
 *  is kept as whole keyframes (an integer) plus a fraction (a double), so
 *  the whole-frame count is exact and each step rounds only the fraction:
 *  a million steps of dt land where one step of a million * dt does, to
 *  within N * 2^-53 + 2^-52 * (N * dt * rate) keyframes for N steps (about
 *  1e-10 for a million steps at game rates; see docs/animation.md). p NULL
 *  gives 0. */
MD2_API unsigned md2_player_advance(md2_player *p, double dt);

/** The keyframes and weights p shows now, into *out. Both pointers must
 *  not be NULL (else nothing is written). */
MD2_API void md2_player_state(const md2_player *p, md2_player_frames *out);

/** A copy of the current animation (all zero if p is NULL). */
MD2_API md2_anim md2_player_anim(const md2_player *p);

/** The current animation's playhead in keyframes after its first frame,
 *  after wrapping (loop: [0, n); once: [0, n - 1]; ping-pong:
 *  [0, 2 (n - 1)) for an n-frame animation). 0 if p is NULL. */
MD2_API double md2_player_position(const md2_player *p);

/** 1 if the current animation plays once and has reached its last frame,
 *  else 0. */
MD2_API int md2_player_finished(const md2_player *p);

/** 1 while a cross-fade is running, else 0. */
MD2_API int md2_player_fading(const md2_player *p);

/** Writes the pose p shows for model m to caller buffers, like md2_lerp():
 *  3 floats per vertex to positions every position_stride bytes (0:
 *  packed), and, if normals is not NULL, the blended normals likewise
 *  (md2_normalize() makes them unit length). Buffers hold
 *  (m->num_vertices - 1) * stride + 12 bytes. Without a cross-fade the
 *  result is exactly md2_lerp(m, frame_a, frame_b, t, ...); during one,
 *  each vertex is (1 - weight) * outgoing + weight * current, decoded from
 *  the compressed keyframes vertex by vertex with no temporary buffer.
 *  Errors (nothing written): MD2_ERR_INVALID_ARGUMENT (NULL p, m or
 *  positions, bad stride), MD2_ERR_FRAME_RANGE (an animation reaches past
 *  the model's frames). Never allocates; thread-safe on a shared model. */
MD2_API md2_result md2_player_pose(const md2_player *p, const md2_model *m,
                                   float *positions, size_t position_stride,
                                   float *normals, size_t normal_stride);

/** The axis-aligned box of the pose p shows, into min[3] and max[3]: the
 *  keyframe boxes (md2_frame_bounds()) blended with the pose's own weights.
 *  Each vertex of the pose is that same weighted mix of its keyframe
 *  positions, so the box always contains the pose (use it for culling); it
 *  is exact at keyframes and tighter than the union of the keyframe boxes.
 *  Costs one pass over the vertices of each keyframe involved (2, or 4
 *  during a cross-fade). Errors: MD2_ERR_INVALID_ARGUMENT (NULL argument,
 *  model without vertices), MD2_ERR_FRAME_RANGE. */
MD2_API md2_result md2_player_bounds(const md2_player *p, const md2_model *m,
                                     float min[3], float max[3]);

/** Chooses the instance's skin. The index means what the caller makes it
 *  mean: an index into m->skins (see md2_player_skin_name()) or into the
 *  caller's own textures (Quake II player models have no skins of their
 *  own). p NULL is a no-op. */
MD2_API void md2_player_set_skin(md2_player *p, uint32_t skin);

/** The skin index set by md2_player_set_skin() (0 after init; 0 if p is
 *  NULL). */
MD2_API uint32_t md2_player_skin(const md2_player *p);

/** The model's skin path for p's skin index (a pointer into m), or NULL if
 *  p or m is NULL or the index is not below m->num_skins. */
MD2_API const char *md2_player_skin_name(const md2_player *p,
                                         const md2_model *m);

/* ------------------------------------------------------------------------ */
/* Linked models                                                             */
/* ------------------------------------------------------------------------ */

/* Quake II draws a player's weapon model with the player's frames (frame a,
 * frame b, t), frame for frame: one md2_player drives them all.
 * md2_player_pose_linked() poses any model with a player's frames, clamped
 * to that model's frames, and md2_linked_check() reports frame counts that
 * differ (docs/animation.md, "Linked models"). libmd2 1.0 declared them in
 * <md2/tags.h>, which includes this header. */

/** Checks models that one player drives with the frames of model driver
 *  (a Quake II player's body, head and weapon): each linked[i] whose
 *  num_frames differs from the driver's is the quirk MD2_WARN_FRAME_COUNT,
 *  reported to opts->on_warning (section MD2_SECTION_FRAMES, field
 *  "num_frames", index i), or, with that flag in opts->strict, the error
 *  MD2_ERR_FRAME_RANGE described in opts->error (the first such model).
 *  md2_player_pose_linked() and md2_player_bounds_linked() then clamp the
 *  frames past such a model's last to its last. opts may be NULL.
 *  Errors: MD2_ERR_INVALID_ARGUMENT (driver NULL, linked NULL with count >
 *  0, a NULL entry), MD2_ERR_FRAME_RANGE (strict). Never allocates;
 *  thread-safe. */
MD2_API md2_result md2_linked_check(const md2_model *driver,
                                    const md2_model *const *linked,
                                    size_t count, const md2_options *opts);

/** md2_player_pose() for a model linked to the player's model: the same
 *  pose, buffers and cross-fade, with every frame number the player shows
 *  (frame_a, frame_b, from_a, from_b) clamped to m's last frame. A
 *  cross-fade whose two poses are then one and the same pose is shown as
 *  that pose exactly, not blended with itself, so a one-frame model (a
 *  static weapon) always shows its frame, bit for bit. Otherwise the
 *  result is md2_player_pose()'s with the clamped frames, bit for bit
 *  (for a model that has all the frames: md2_player_pose()'s).
 *  Errors (nothing written): MD2_ERR_INVALID_ARGUMENT (NULL p, m or
 *  positions, bad stride, a model without frames, a frame without
 *  vertices). Never allocates; thread-safe on a shared model. */
MD2_API md2_result md2_player_pose_linked(const md2_player *p,
                                          const md2_model *m, float *positions,
                                          size_t position_stride,
                                          float *normals, size_t normal_stride);

/** md2_player_bounds() with the frames clamped (and a fade between one
 *  pose and itself shown as that pose) as md2_player_pose_linked() does:
 *  a box that contains that pose. Errors:
 *  MD2_ERR_INVALID_ARGUMENT (a NULL argument, a model without frames or
 *  vertices). Never allocates; thread-safe on a shared model. */
MD2_API md2_result md2_player_bounds_linked(const md2_player *p,
                                            const md2_model *m, float min[3],
                                            float max[3]);

#ifdef __cplusplus
}
#endif

#endif /* MD2_ANIMATION_H */
