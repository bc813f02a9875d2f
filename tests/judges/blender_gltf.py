# Blender as a judge of md2 export's glTF (issue #18): Blender's own glTF
# importer (io_import_scene_gltf2, Debian's blender 3.4) imports each .glb,
# and what it made is compared with libmd2's decoding of the model
# (export_reference --all-keyframes: every keyframe's welded positions, the
# animations, the model's size). Run by run_blender.cmake, in one Blender:
#
#   blender -b --factory-startup --python-exit-code 1 -P blender_gltf.py --
#       check NAME FILE.glb REF.json [check ...] [refuse NAME FILE.glb REF.json]
#       [render FILE.glb ANIM OUT.png]
#
# For each check, every one of these must hold (each failure is printed as
# "blender: NAME: ..." and the exit status is 1):
#  - one mesh object, every object at scale 1 (and its world matrix too);
#  - the Basis shape key is the first keyframe of the default animation
#    (stand, else idle, else the first looping one, else the first; keyframe
#    0 without animations) within 1e-5 of the model's size, on every axis of
#    every vertex, vertex for vertex (Blender keeps the file's vertex order
#    when every vertex is used: the welded mesh's order);
#  - one shape key per morph target of the file (the keyframes the export
#    kept), each named after a keyframe and equal to it (the same
#    tolerance), in the model's order, no keyframe twice;
#  - one action per animation of the model, named after it (Blender names
#    them ANIM_OBJECT), the default one the active action (what Blender
#    plays when the file is opened);
#  - the file embeds a skin (every model judged has one: found beside it,
#    or given with --skin), and the material's image is of its size.
# refuse: the judge judged: the checks must fail for FILE, an export of
# the old layout (md2 export --compact: quantised positions under a node
# scale, the base mesh the middle of each vertex's range), on its scale and
# on its Basis shape key (what the issue saw in Blender); those failures
# are expected, and their absence is one.
# render: the model posed at the middle of animation ANIM, drawn by the
# workbench engine with its texture to OUT.png (800 x 600), which must
# show the model (not only the background).
#
# Axes: glTF is Y up, x = MD2 y, y = MD2 z, z = MD2 x; Blender's importer
# makes Z up again with (x, -z, y), so a Blender point is MD2 (y, -x, z).
#
# SPDX-License-Identifier: MIT
import json
import struct
import sys
import warnings

import numpy

# Debian's Blender 3.4 glTF add-on uses numpy.bool, which numpy 1.24 removed
# (asking for it warns before 1.24)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    if not hasattr(numpy, "bool") or numpy.bool is not bool:
        numpy.bool = bool

import bpy  # noqa: E402  (after the numpy fix)

TOLERANCE = 1e-5  # of the model's size
failures = []


def fail(name, text):
    failures.append("%s: %s" % (name, text))
    print("blender: %s: %s" % (name, text), flush=True)


def note(name, text):
    print("blender: %s: %s" % (name, text), flush=True)


def read_glb(path):
    """The JSON and the BIN chunk of a .glb."""
    data = open(path, "rb").read()
    magic, version, length = struct.unpack_from("<4sII", data, 0)
    if magic != b"glTF" or version != 2 or length != len(data):
        raise ValueError("%s is not a GLB file of glTF 2.0" % path)
    size, kind = struct.unpack_from("<II", data, 12)
    doc = json.loads(data[20:20 + size])
    at = 20 + size
    binary = b""
    if at + 8 <= len(data):
        bsize, _ = struct.unpack_from("<II", data, at)
        binary = data[at + 8:at + 8 + bsize]
    return doc, binary


def embedded_image_size(doc, binary):
    """(width, height) of the first embedded PNG, or None."""
    images = doc.get("images") or []
    if not images or "bufferView" not in images[0]:
        return None
    view = doc["bufferViews"][images[0]["bufferView"]]
    png = binary[view.get("byteOffset", 0):view.get("byteOffset", 0) + view["byteLength"]]
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return struct.unpack(">II", png[16:24])


def default_animation(anims):
    """The animation a viewer should open on (docs/tool.md): stand, idle,
    else the first looping one, else the first; None without any."""
    for wanted in ("stand", "idle"):
        for a in anims:
            if a["name"] == wanted:
                return a
    for a in anims:
        if a["loop"]:
            return a
    return anims[0] if anims else None


def md2_to_blender(positions):
    """MD2 (x, y, z) triples as Blender's (y, -x, z), an n x 3 array."""
    p = numpy.asarray(positions, dtype=numpy.float64).reshape(-1, 3)
    return numpy.stack([p[:, 1], -p[:, 0], p[:, 2]], axis=1)


def key_positions(block):
    co = numpy.empty(len(block.data) * 3, dtype=numpy.float32)
    block.data.foreach_get("co", co)
    return co.astype(numpy.float64).reshape(-1, 3)


def import_glb(path):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.import_scene.gltf(filepath=path)
    meshes = [o for o in bpy.data.objects if o.type == "MESH"]
    return meshes


def check_scale(name, objects):
    for o in objects:
        if max(abs(s - 1.0) for s in o.scale) > 1e-6:
            fail(name, "object %s has scale %s, not 1" % (o.name, tuple(o.scale)))
        world = o.matrix_world.to_scale()
        if max(abs(s - 1.0) for s in world) > 1e-6:
            fail(name, "object %s is drawn at scale %s (its parents'), not 1"
                 % (o.name, tuple(world)))


def check_shape_keys(name, mesh, ref, doc, limit):
    keys = mesh.data.shape_keys
    frames = [md2_to_blender(k) for k in ref["keyframes"]]
    names = ref["frameNames"]
    if len(mesh.data.vertices) != ref["vertices"]:
        fail(name, "Blender's mesh has %d vertices, the welded model %d"
             % (len(mesh.data.vertices), ref["vertices"]))
        return
    if keys is None:
        fail(name, "no shape keys")
        return
    blocks = keys.key_blocks
    anim = default_animation(ref["anims"])
    first = anim["first"] if anim else 0
    basis = key_positions(blocks[0])
    error = float(numpy.max(numpy.abs(basis - frames[first])))
    if error > limit:
        fail(name, "the Basis shape key is not keyframe %d (%s, the first of %s): off by %.3g "
             "(%.3g of the size)" % (first, names[first], anim["name"] if anim else "the model",
                                     error, error / ref["size"]))
    else:
        note(name, "Basis = keyframe %d (%s, the first of %s) within %.3g of the size"
             % (first, names[first], anim["name"] if anim else "the model", error / ref["size"]))
    targets = len(doc["meshes"][0]["primitives"][0].get("targets", []))
    parts = len(doc["meshes"])
    shape = list(blocks)[1:]
    if parts == 1 and len(shape) != targets:
        fail(name, "%d shape keys, but the file has %d morph targets" % (len(shape), targets))
    # each shape key a keyframe: the one of its name (Blender adds .001 to
    # a name met twice), else any keyframe it equals
    last = -1
    worst = 0.0
    for block in shape:
        pos = key_positions(block)
        base = block.name.split(".")[0] if block.name not in names else block.name
        tried = [i for i, n in enumerate(names) if n == base and i > last] or \
            list(range(last + 1, len(frames)))
        found = None
        for i in tried:
            e = float(numpy.max(numpy.abs(pos - frames[i])))
            if e <= limit:
                found = i
                worst = max(worst, e)
                break
        if found is None:
            fail(name, "shape key %s is no keyframe of the model after keyframe %d (%s) within "
                 "%.3g" % (block.name, last, names[last] if last >= 0 else "none", limit))
            return
        last = found
    note(name, "%d shape keys (of %d keyframes), each its keyframe within %.3g of the size"
         % (len(shape), len(frames), worst / ref["size"]))


def check_actions(name, mesh, ref):
    objname = mesh.name
    actions = {a.name for a in bpy.data.actions}
    wanted = [a["name"] for a in ref["anims"]]
    missing = [w for w in wanted if w not in actions and "%s_%s" % (w, objname) not in actions]
    if missing:
        fail(name, "no action for the animations %s (Blender has %s)"
             % (", ".join(missing), ", ".join(sorted(actions))))
    if len(actions) != len(wanted):
        fail(name, "%d actions for %d animations" % (len(actions), len(wanted)))
    anim = default_animation(ref["anims"])
    keys = mesh.data.shape_keys
    active = keys.animation_data.action if keys and keys.animation_data else None
    if anim and (active is None or active.name not in (anim["name"], "%s_%s" % (anim["name"], objname))):
        fail(name, "Blender opens playing %s, not %s" % (active.name if active else "nothing",
                                                         anim["name"]))
    elif anim:
        note(name, "%d actions, one per animation, and it opens playing %s" % (len(actions), active.name))


def check_skin(name, mesh, doc, binary):
    size = embedded_image_size(doc, binary)
    images = []
    for m in mesh.data.materials:
        if m and m.node_tree:
            images += [n.image for n in m.node_tree.nodes if n.type == "TEX_IMAGE" and n.image]
    if size is None:
        fail(name, "the file embeds no skin (every model judged here has one beside it, or "
             "given with --skin)")
        return
    if not images:
        fail(name, "the file embeds a %dx%d skin, but the material has no image" % size)
        return
    if tuple(images[0].size) != tuple(size):
        fail(name, "the material's image is %s, the skin %dx%d" % (tuple(images[0].size), *size))
    else:
        note(name, "the material shows the %dx%d skin" % size)


def check(name, glb, ref_path):
    ref = json.load(open(ref_path))
    doc, binary = read_glb(glb)
    meshes = import_glb(glb)
    if len(meshes) != 1:
        fail(name, "%d mesh objects, not 1" % len(meshes))
        if not meshes:
            return
    check_scale(name, list(bpy.data.objects))
    limit = TOLERANCE * ref["size"]
    check_shape_keys(name, meshes[0], ref, doc, limit)
    check_actions(name, meshes[0], ref)
    check_skin(name, meshes[0], doc, binary)


def refuse(name, glb, ref_path):
    global failures
    kept = failures
    failures = []
    check(name, glb, ref_path)
    found, failures = failures, kept
    for wanted in ("has scale", "the Basis shape key is not keyframe"):
        if not any(wanted in f for f in found):
            fail(name, "the judge did not refuse %s for '%s'" % (glb, wanted))
            return
    note(name, "refused, as it must be (%d failures above)" % len(found))


def render(glb, anim, out):
    name = "render"
    meshes = import_glb(glb)
    if not meshes:
        fail(name, "no mesh to draw")
        return
    obj = meshes[0]
    keys = obj.data.shape_keys
    action = bpy.data.actions.get("%s_%s" % (anim, obj.name)) or bpy.data.actions.get(anim)
    if action is None or keys is None:
        fail(name, "no action %s to pose" % anim)
        return
    keys.animation_data.action = action
    scene = bpy.context.scene
    start, end = action.frame_range
    frame = int(round((start + end) / 2))
    scene.frame_set(frame)
    # the camera: in front of the model (Blender -Y is MD2 +X, its front),
    # a little above, framing its box at this frame
    import mathutils
    depsgraph = bpy.context.evaluated_depsgraph_get()
    evaluated = obj.evaluated_get(depsgraph).to_mesh()
    co = numpy.array([v.co[:] for v in evaluated.vertices])
    obj.evaluated_get(depsgraph).to_mesh_clear()
    lo, hi = co.min(axis=0), co.max(axis=0)
    centre = mathutils.Vector(((lo + hi) / 2).tolist())
    radius = float(numpy.linalg.norm(hi - lo)) / 2
    cam_data = bpy.data.cameras.new("camera")
    cam = bpy.data.objects.new("camera", cam_data)
    scene.collection.objects.link(cam)
    direction = mathutils.Vector((0.45, -1.0, 0.35)).normalized()
    cam.location = centre + direction * radius * 4.2  # the whole box in the 30-degree height of the view
    cam.rotation_euler = (centre - cam.location).to_track_quat("-Z", "Y").to_euler()
    scene.camera = cam
    scene.render.engine = "BLENDER_WORKBENCH"
    scene.display.shading.light = "STUDIO"
    scene.display.shading.color_type = "TEXTURE"
    scene.render.resolution_x = 800
    scene.render.resolution_y = 600
    scene.render.resolution_percentage = 100
    scene.render.film_transparent = False
    scene.render.image_settings.file_format = "PNG"
    scene.render.filepath = out
    bpy.ops.render.render(write_still=True)
    img = bpy.data.images.load(out)
    px = numpy.array(img.pixels[:]).reshape(-1, 4)[:, :3]
    background = px[0]
    drawn = float(numpy.mean(numpy.max(numpy.abs(px - background), axis=1) > 0.02))
    note(name, "%s at frame %d of %s (%g to %g), %.1f%% of the picture is the model: %s"
         % (obj.name, frame, action.name, start, end, 100 * drawn, out))
    if drawn < 0.02:
        fail(name, "the picture shows no model (%.2f%% of it differs from the background)"
             % (100 * drawn))


def main(args):
    i = 0
    while i < len(args):
        if args[i] == "check" and i + 3 < len(args):
            check(args[i + 1], args[i + 2], args[i + 3])
            i += 4
        elif args[i] == "refuse" and i + 3 < len(args):
            refuse(args[i + 1], args[i + 2], args[i + 3])
            i += 4
        elif args[i] == "render" and i + 3 < len(args):
            render(args[i + 1], args[i + 2], args[i + 3])
            i += 4
        else:
            fail("usage", "check NAME FILE.glb REF.json ... [refuse NAME FILE.glb REF.json] "
                 "[render FILE.glb ANIM OUT.png]")
            break
    if failures:
        print("blender: %d failure(s)" % len(failures), flush=True)
        sys.exit(1)
    print("blender: every check holds", flush=True)


main(sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else [])
