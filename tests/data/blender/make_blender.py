# Makes the Blender-written sources of md2 import's tests (issue 31), with
# Debian's Blender 3.4 headless, into the folder given (default: this one):
#
#   blender -b --factory-startup --python-exit-code 1 -P make_blender.py -- [DIR]
#
# The outputs are committed beside this script (CI needs no Blender for the
# import cases); tests/tool/import.cases' blender_regenerate case runs it
# again when Blender is there and compares the vertex counts it prints.
#
#  box.glb        a character of 6 boxes, flat shaded, a texture: 48 vertices
#  sphere_smooth.glb / sphere_flat.glb   an icosphere of 642 vertices
#  lamp.glb       a still base (keyed where it stands: its action "base")
#                 and an arm swinging (action "idle"): two clips, "base"
#                 moving nothing
#  arm.glb        a cylinder skinned to two bones, action "wave"
#  walk_N.obj     an OBJ sequence of a bending quad strip, frames 1..3, with
#                 normals: quads (walkq_) and triangulated (walkt_)
#
# Each line "COUNT NAME VERTICES" printed is Blender's own vertex count.
#
# SPDX-License-Identifier: MIT
import math
import os
import sys
import warnings

import numpy

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    if not hasattr(numpy, "bool") or numpy.bool is not bool:
        numpy.bool = bool

import bpy  # noqa: E402

argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
out = os.path.abspath(argv[0] if argv else os.path.dirname(os.path.abspath(__file__)))


def clear():
    bpy.ops.object.select_all(action="SELECT")
    bpy.ops.object.delete()
    for coll in (bpy.data.meshes, bpy.data.actions, bpy.data.armatures, bpy.data.images,
                 bpy.data.materials):
        for item in list(coll):
            coll.remove(item)
    bpy.context.scene.frame_start = 1
    bpy.context.scene.frame_end = 11
    bpy.context.scene.render.fps = 10


def count(name, objs):
    print("COUNT %s %d" % (name, sum(len(o.data.vertices) for o in objs if o.type == "MESH")),
          flush=True)


def glb(name, **kw):
    bpy.ops.export_scene.gltf(filepath=os.path.join(out, name), export_format="GLB",
                              export_apply=True, **kw)


def textured(obj):
    img = bpy.data.images.new("skin", 8, 8)
    img.pixels = [((i // 4) % 8) / 8.0 if i % 4 < 3 else 1.0 for i in range(8 * 8 * 4)]
    img.filepath_raw = os.path.join(out, "skin_tmp.png")
    img.file_format = "PNG"
    img.save()
    img.pack()
    mat = bpy.data.materials.new("skin")
    mat.use_nodes = True
    tex = mat.node_tree.nodes.new("ShaderNodeTexImage")
    tex.image = img
    bsdf = mat.node_tree.nodes["Principled BSDF"]
    mat.node_tree.links.new(tex.outputs["Color"], bsdf.inputs["Base Color"])
    obj.data.materials.append(mat)
    os.remove(os.path.join(out, "skin_tmp.png"))


# A box character: body, head, two arms, two legs, joined, flat shaded.
clear()
parts = [((0, 0, 1.0), (0.5, 0.3, 0.7)), ((0, 0, 1.95), (0.3, 0.3, 0.25)),
         ((0.7, 0, 1.1), (0.15, 0.15, 0.6)), ((-0.7, 0, 1.1), (0.15, 0.15, 0.6)),
         ((0.25, 0, 0.15), (0.18, 0.18, 0.3)), ((-0.25, 0, 0.15), (0.18, 0.18, 0.3))]
for loc, size in parts:
    bpy.ops.mesh.primitive_cube_add(location=loc)
    bpy.context.object.scale = size
bpy.ops.object.select_all(action="SELECT")
bpy.context.view_layer.objects.active = bpy.context.selected_objects[0]
bpy.ops.object.join()
bpy.ops.object.transform_apply(scale=True)
box = bpy.context.object
bpy.ops.object.shade_flat()
textured(box)
count("box.glb", [box])
glb("box.glb")

# Spheres: smooth and flat.
for shade in ("smooth", "flat"):
    clear()
    bpy.ops.mesh.primitive_ico_sphere_add(subdivisions=3)
    sph = bpy.context.object
    if shade == "smooth":
        bpy.ops.object.shade_smooth()
    else:
        bpy.ops.object.shade_flat()
    count("sphere_%s.glb" % shade, [sph])
    glb("sphere_%s.glb" % shade)

# A lamp: a still base, an arm that swings (its action "idle").
clear()
bpy.ops.mesh.primitive_cylinder_add(vertices=8, radius=0.5, depth=0.2, location=(0, 0, 0.1))
base = bpy.context.object
base.name = "base"
bpy.ops.mesh.primitive_cube_add(location=(0, 0, 0.8))
arm = bpy.context.object
arm.name = "arm"
arm.scale = (0.1, 0.1, 0.6)
bpy.ops.object.transform_apply(scale=True)
arm.rotation_mode = "XYZ"
for frame, angle in ((1, -30), (6, 30), (11, -30)):
    arm.rotation_euler = (math.radians(angle), 0, 0)
    arm.keyframe_insert("rotation_euler", frame=frame)
arm.animation_data.action.name = "idle"
# the base keyed where it stands (a modder's "key everything"): Blender
# writes its action as a clip of its own that moves nothing
base.keyframe_insert("location", frame=1)
base.keyframe_insert("location", frame=11)
base.animation_data.action.name = "base"
count("lamp.glb", [base, arm])
glb("lamp.glb")

# An armature: a cylinder on two bones, waving.
clear()
bpy.ops.mesh.primitive_cylinder_add(vertices=8, radius=0.2, depth=2, location=(0, 0, 1))
cyl = bpy.context.object
bpy.ops.object.mode_set(mode="EDIT")
bpy.ops.mesh.select_all(action="SELECT")
bpy.ops.mesh.subdivide(number_cuts=3)
bpy.ops.object.mode_set(mode="OBJECT")
bpy.ops.object.armature_add(location=(0, 0, 0))
rig = bpy.context.object
bpy.ops.object.mode_set(mode="EDIT")
b0 = rig.data.edit_bones[0]
b0.head, b0.tail = (0, 0, 0), (0, 0, 1)
b1 = rig.data.edit_bones.new("Bone.001")
b1.head, b1.tail, b1.parent = (0, 0, 1), (0, 0, 2), b0
bpy.ops.object.mode_set(mode="OBJECT")
cyl.select_set(True)
rig.select_set(True)
bpy.context.view_layer.objects.active = rig
bpy.ops.object.parent_set(type="ARMATURE_AUTO")
bpy.ops.object.mode_set(mode="POSE")
pb = rig.pose.bones["Bone.001"]
pb.rotation_mode = "XYZ"
for frame, angle in ((1, 0), (6, 50), (11, 0)):
    pb.rotation_euler = (math.radians(angle), 0, 0)
    pb.keyframe_insert("rotation_euler", frame=frame)
bpy.ops.object.mode_set(mode="OBJECT")
rig.animation_data.action.name = "wave"
count("arm.glb", [cyl])
glb("arm.glb")

# An OBJ sequence: a strip of quads that bends, so that the triangulation of
# its quads flips between frames; normals on.
clear()
bpy.ops.mesh.primitive_grid_add(x_subdivisions=4, y_subdivisions=2, size=2)
strip = bpy.context.object
bpy.ops.object.shade_flat()
key = strip.shape_key_add(name="Basis")
bend = strip.shape_key_add(name="bend")
for i, v in enumerate(bend.data):
    x, y, z = v.co
    v.co = (x, y + (0.6 if (x > 0) == (y > 0) else -0.2), z + x * x)
for frame, value in ((1, 0.0), (2, 0.5), (3, 1.0)):
    bend.value = value
    bend.keyframe_insert("value", frame=frame)
bpy.context.scene.frame_end = 3
count("walkq_1.obj", [strip])
for tri, prefix in ((False, "walkq_"), (True, "walkt_")):
    bpy.ops.wm.obj_export(filepath=os.path.join(out, prefix + ".obj"), export_animation=True,
                          start_frame=1, end_frame=3, export_selected_objects=False,
                          export_uv=True, export_normals=True, export_materials=False,
                          export_triangulated_mesh=tri)
