# Makes walk.bin, the "real walk from Blender" of tests/unit/test_wobble.c:
#   blender -b --factory-startup --python-exit-code 1 -P tests/data/wobble/walk.py -- tests/data/wobble/walk.bin
# A figure of boxes (torso, head, two legs of thigh and shin, two arms), rigidly skinned to an
# armature whose legs and arms swing through a 24-frame walk cycle in place; the torso and head
# are not animated, so Blender's evaluation leaves them where they are (a still base with moving
# parts, as a game's walk in place has). Writes, little-endian: "WALK", then uint32 vertices V,
# frames F, triangles T; F * V * 3 float32 positions (frame by frame, Blender's Z up); T * 3
# uint32 vertex indices (MD2's winding is not needed: the test checks positions only).
# SPDX-License-Identifier: MIT
import bpy, bmesh, math, struct, sys

out = sys.argv[sys.argv.index("--") + 1]
bpy.ops.wm.read_factory_settings(use_empty=True)
scene = bpy.context.scene

# the armature: bones as (name, head, tail, parent)
arm_data = bpy.data.armatures.new("rig")
rig = bpy.data.objects.new("rig", arm_data)
scene.collection.objects.link(rig)
bpy.context.view_layer.objects.active = rig
bpy.ops.object.mode_set(mode="EDIT")
bones = [("hips", (0, 0, 1.0), (0, 0, 1.5), None),
         ("thigh.L", (0.15, 0, 1.0), (0.15, 0, 0.55), "hips"),
         ("shin.L", (0.15, 0, 0.55), (0.15, 0, 0.1), "thigh.L"),
         ("thigh.R", (-0.15, 0, 1.0), (-0.15, 0, 0.55), "hips"),
         ("shin.R", (-0.15, 0, 0.55), (-0.15, 0, 0.1), "thigh.R"),
         ("arm.L", (0.35, 0, 1.55), (0.35, 0, 1.0), "hips"),
         ("arm.R", (-0.35, 0, 1.55), (-0.35, 0, 1.0), "hips")]
for name, head, tail, parent in bones:
    b = arm_data.edit_bones.new(name)
    b.head, b.tail = head, tail
    if parent:
        b.parent = arm_data.edit_bones[parent]
bpy.ops.object.mode_set(mode="OBJECT")

# the body: boxes, each subdivided once, each vertex in its bone's group
coords, faces, groups = [], [], []
parts = [("hips", (0, 0, 1.3), (0.25, 0.12, 0.3)),     # torso
         ("hips", (0, 0, 1.75), (0.12, 0.12, 0.14)),   # head
         ("thigh.L", (0.15, 0, 0.78), (0.08, 0.08, 0.21)),
         ("shin.L", (0.15, 0, 0.32), (0.07, 0.07, 0.21)),
         ("thigh.R", (-0.15, 0, 0.78), (0.08, 0.08, 0.21)),
         ("shin.R", (-0.15, 0, 0.32), (0.07, 0.07, 0.21)),
         ("arm.L", (0.35, 0, 1.28), (0.05, 0.05, 0.26)),
         ("arm.R", (-0.35, 0, 1.28), (0.05, 0.05, 0.26))]
for bone, centre, half in parts:
    bm = bmesh.new()
    bmesh.ops.create_cube(bm, size=1.0)
    bmesh.ops.subdivide_edges(bm, edges=bm.edges[:], cuts=1, use_grid_fill=True)
    bmesh.ops.triangulate(bm, faces=bm.faces[:])
    bm.verts.index_update()
    base = len(coords)
    for v in bm.verts:
        coords.append((v.co.x * 2 * half[0] + centre[0], v.co.y * 2 * half[1] + centre[1],
                       v.co.z * 2 * half[2] + centre[2]))
        groups.append(bone)
    for f in bm.faces:
        faces.append(tuple(base + v.index for v in f.verts))
    bm.free()
mesh = bpy.data.meshes.new("body")
mesh.from_pydata(coords, [], faces)
body = bpy.data.objects.new("body", mesh)
scene.collection.objects.link(body)
for name, _, _, _ in bones:
    body.vertex_groups.new(name=name)
for i, bone in enumerate(groups):
    body.vertex_groups[bone].add([i], 1.0, "REPLACE")
mod = body.modifiers.new("rig", "ARMATURE")
mod.object = rig
body.parent = rig

# the walk: 24 keyframes, legs and arms swinging, shins bending on the way forward
scene.frame_start, scene.frame_end = 1, 24
for f in range(1, 25):
    phase = 2 * math.pi * (f - 1) / 24
    swing = math.radians(30) * math.sin(phase)
    poses = {"thigh.L": swing, "thigh.R": -swing,
             "shin.L": -math.radians(35) * max(0.0, math.sin(phase + 1.2)),
             "shin.R": -math.radians(35) * max(0.0, math.sin(phase + 1.2 + math.pi)),
             "arm.L": -0.8 * swing, "arm.R": 0.8 * swing}
    for name, angle in poses.items():
        pb = rig.pose.bones[name]
        pb.rotation_mode = "XYZ"
        pb.rotation_euler = (angle, 0, 0)
        pb.keyframe_insert("rotation_euler", frame=f)

frames = []
for f in range(1, 25):
    scene.frame_set(f)
    dg = bpy.context.evaluated_depsgraph_get()
    ev = body.evaluated_get(dg)
    m = ev.to_mesh()
    frames.append([tuple(ev.matrix_world @ v.co) for v in m.vertices])
    if f == 1:
        m.calc_loop_triangles()
        tris = [tuple(t.vertices) for t in m.loop_triangles]
    ev.to_mesh_clear()
with open(out, "wb") as fh:
    fh.write(b"WALK" + struct.pack("<III", len(frames[0]), len(frames), len(tris)))
    for fr in frames:
        for p in fr:
            fh.write(struct.pack("<3f", *p))
    for t in tris:
        fh.write(struct.pack("<3I", *t))
print("walk.bin: %d vertices, %d frames, %d triangles" % (len(frames[0]), len(frames), len(tris)))
