import CLayerKit
import Testing
@testable import LayerKitCore

/// S6.1 decorations as the display list says them: which layers become
/// offscreen groups and what those carry, and how damage grows with shadows.
private func build(_ root: Layer) -> [lk_dl_op] {
    var builder = DisplayListBuilder()
    builder.build(root: root)
    return (0..<builder.count).map { builder.op($0) }
}

private let fill = LK_DL_OP_FILL.rawValue, image = LK_DL_OP_IMAGE.rawValue, border = LK_DL_OP_BORDER.rawValue
private let pushClip = LK_DL_OP_PUSH_CLIP.rawValue, popClip = LK_DL_OP_POP_CLIP.rawValue
private let pushGroup = LK_DL_OP_PUSH_GROUP.rawValue, content = LK_DL_OP_GROUP_CONTENT.rawValue
private let popGroup = LK_DL_OP_POP_GROUP.rawValue

private func box(_ frame: Rect, in parent: Layer? = nil, color: Color = Color(r: 1, g: 0, b: 0, a: 1)) throws -> Layer {
    let l = makeLayer(frame: frame)
    try l.set(LayerProperties.backgroundColor, color)
    try parent?.addSublayer(l)
    return l
}

@Suite struct DecorationTests {
    @Test func plainFadingLayerStaysOnTheFastPathS6_1() throws {
        let root = makeLayer(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let l = try box(Rect(x: 10, y: 10, width: 20, height: 20), in: root)
        try l.set(LayerProperties.opacity, 0.5)
        let ops = build(root)
        #expect(ops.map(\.kind) == [fill])
        #expect(ops[0].opacity == 0.5)
    }

    @Test func fadingLayerWithSublayersIsOneGroupS6_1() throws {
        let root = makeLayer(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let l = try box(Rect(x: 10, y: 10, width: 20, height: 20), in: root)
        try l.set(LayerProperties.opacity, 0.5)
        _ = try box(Rect(x: 5, y: 5, width: 40, height: 10), in: l)
        var ops = build(root)
        #expect(ops.map(\.kind) == [pushGroup, fill, fill, popGroup])
        #expect(ops[0].opacity == 0.5 && ops[1].opacity == 1 && ops[2].opacity == 1)
        // The group's rect bounds what it draws, in output pixels: 10...55 x 10...30.
        #expect(ops[0].rect.x == 10 && ops[0].rect.y == 10 && ops[0].rect.width == 45 && ops[0].rect.height == 20)

        try l.set(LayerProperties.allowsGroupOpacity, false)
        ops = build(root)
        #expect(ops.map(\.kind) == [fill, fill])
        #expect(ops[0].opacity == 0.5 && ops[1].opacity == 0.5)
    }

    @Test func withoutGroupOpacityAMaskGroupPassesTheOpacityToEachOpS6_1() throws {
        let root = makeLayer(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let l = makeLayer(frame: Rect(x: 10, y: 10, width: 60, height: 60))
        try root.addSublayer(l)
        try l.set(LayerProperties.opacity, 0.5)
        _ = try box(Rect(x: 0, y: 0, width: 30, height: 30), in: l)
        _ = try box(Rect(x: 20, y: 20, width: 30, height: 30), in: l)
        try l.setMask(try box(Rect(x: 0, y: 0, width: 50, height: 50)))
        var ops = build(root)
        // the mask group fades the layer as one
        #expect(ops.map(\.kind) == [pushGroup, fill, content, fill, fill, popGroup])
        #expect(ops[0].opacity == 0.5 && ops[3].opacity == 1 && ops[4].opacity == 1)
        try l.set(LayerProperties.allowsGroupOpacity, false)
        ops = build(root)
        // the group only masks; each sublayer is blended at 0.5 on its own
        #expect(ops.map(\.kind) == [pushGroup, fill, content, fill, fill, popGroup])
        #expect(ops[0].opacity == 1 && ops[1].opacity == 1 && ops[3].opacity == 0.5 && ops[4].opacity == 0.5)
    }

    @Test func withoutGroupOpacityAShadowIsCastButTheLayerNotGroupedS6_1() throws {
        let root = makeLayer(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let l = makeLayer(frame: Rect(x: 10, y: 10, width: 60, height: 60))
        try root.addSublayer(l)
        try l.set(LayerProperties.opacity, 0.5)
        try l.set(LayerProperties.shadowOpacity, 1)
        _ = try box(Rect(x: 0, y: 0, width: 30, height: 30), in: l)
        _ = try box(Rect(x: 20, y: 20, width: 30, height: 30), in: l)
        var ops = build(root)
        #expect(ops.map(\.kind) == [pushGroup, fill, fill, popGroup])
        #expect(ops[0].opacity == 0.5 && ops[0].shadow_color.a == 0.5)
        try l.set(LayerProperties.allowsGroupOpacity, false)
        ops = build(root)
        // the whole layer casts the shadow (faded by its opacity), then each
        // sublayer is drawn at 0.5 on its own
        #expect(ops.map(\.kind) == [pushGroup, fill, fill, popGroup, fill, fill])
        #expect(ops[0].flags & LK_DL_FLAG_SHADOW_ONLY.rawValue != 0 && ops[0].shadow_color.a == 0.5)
        #expect(ops[4].opacity == 0.5 && ops[5].opacity == 0.5)
    }

    @Test func zeroSizeContentsCenterStretchesOneSourcePixel() {
        let d = Rect(x: 0, y: 0, width: 60, height: 40), src = Rect(x: 0, y: 0, width: 9, height: 9)
        // zero width and height at the middle: pixel 4 (4...5) stretches both ways
        let both = NineSlice.slices(destination: d, source: src, center: Rect(x: 0.5, y: 0.5, width: 0, height: 0),
                                    scale: 1) ?? []
        #expect(both.count == 9)
        #expect(both[4].source == Rect(x: 4, y: 4, width: 1, height: 1))
        #expect(both[4].destination == Rect(x: 4, y: 4, width: 52, height: 32))
        #expect(both[1].source == Rect(x: 4, y: 0, width: 1, height: 4))   // top edge: column 4 stretched
        #expect(both[3].source == Rect(x: 0, y: 4, width: 4, height: 1))   // left edge: row 4 stretched
        #expect(both[8].destination == Rect(x: 56, y: 36, width: 4, height: 4))
        // zero width only, at the left edge: the first column stretches, rows slice as given
        let left = NineSlice.slices(destination: d, source: src, center: Rect(x: 0, y: 1.0 / 3, width: 0, height: 1.0 / 3),
                                    scale: 1) ?? []
        #expect(left.count == 6)
        #expect(left.allSatisfy { $0.source.minX == 0 || $0.source.minX == 1 })
        #expect(left[0].source == Rect(x: 0, y: 0, width: 1, height: 3))
        #expect(left[0].destination == Rect(x: 0, y: 0, width: 52, height: 3))
        // zero height at the bottom: the last row stretches; at contentsScale 2 the fixed parts halve
        let bottom = NineSlice.slices(destination: d, source: src, center: Rect(x: 0, y: 1, width: 1, height: 0),
                                      scale: 2) ?? []
        #expect(bottom.map(\.source) == [Rect(x: 0, y: 0, width: 9, height: 8), Rect(x: 0, y: 8, width: 9, height: 1)])
        #expect(bottom.map(\.destination) == [Rect(x: 0, y: 0, width: 60, height: 4), Rect(x: 0, y: 4, width: 60, height: 36)])
    }

    @Test func backgroundAndBorderOverlapSoTheyFadeTogether() throws {
        let root = makeLayer(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let l = try box(Rect(x: 10, y: 10, width: 20, height: 20), in: root)
        try l.set(LayerProperties.opacity, 0.5)
        try l.set(LayerProperties.borderWidth, 2)
        #expect(build(root).map(\.kind) == [pushGroup, fill, border, popGroup])
    }

    @Test func shadowIsTheLayersGroupShadowS6_1() throws {
        let root = makeLayer(frame: Rect(x: 0, y: 0, width: 200, height: 200))
        let l = try box(Rect(x: 10, y: 10, width: 20, height: 20), in: root)
        try l.set(LayerProperties.shadowOpacity, 0.5)
        try l.set(LayerProperties.shadowRadius, 4)
        try l.set(LayerProperties.shadowOffset, Size(width: 3, height: 5))
        try l.set(LayerProperties.shadowColor, Color(r: 0, g: 0, b: 1, a: 1))
        try l.set(LayerProperties.opacity, 0.5)
        let ops = build(root)
        #expect(ops.map(\.kind) == [pushGroup, fill, popGroup])
        let g = ops[0]
        #expect(g.flags & LK_DL_FLAG_SHADOW_ONLY.rawValue == 0)
        #expect(g.opacity == 0.5)
        // premultiplied, shadowOpacity and the layer's opacity applied
        #expect(g.shadow_color.a == 0.25 && g.shadow_color.b == 0.25 && g.shadow_color.r == 0)
        #expect(g.shadow_offset_x == 3 && g.shadow_offset_y == 5 && g.shadow_sigma == 4)

        try l.set(LayerProperties.shadowOpacity, 0)
        #expect(build(root).map(\.kind) == [fill])   // shadowOpacity 0 draws nothing
    }

    @Test func shadowOffsetIsInTheSuperlayersSpace() throws {
        let root = makeLayer(frame: Rect(x: 0, y: 0, width: 200, height: 200))
        let parent = makeLayer(frame: Rect(x: 50, y: 50, width: 100, height: 100))
        try root.addSublayer(parent)
        try parent.set(LayerProperties.transform, Transform3D.scale(2, 2, 1))
        let l = try box(Rect(x: 10, y: 10, width: 20, height: 20), in: parent)
        try l.set(LayerProperties.transform, Transform3D.rotation(0.7, 0, 0, 1))
        try l.set(LayerProperties.shadowOpacity, 1)
        try l.set(LayerProperties.shadowOffset, Size(width: 0, height: 4))
        try l.set(LayerProperties.shadowRadius, 3)
        let g = build(root)[0]
        // the layer's own rotation does not turn it; the superlayer's scale doubles it
        #expect(near(g.shadow_offset_x, 0) && near(g.shadow_offset_y, 8))
        #expect(near(g.shadow_sigma, 6))
    }

    @Test func shadowPathOfASimpleShapeIsOneFill() throws {
        let root = makeLayer(frame: Rect(x: 0, y: 0, width: 200, height: 200))
        let l = try box(Rect(x: 10, y: 10, width: 20, height: 20), in: root)
        try l.set(LayerProperties.shadowOpacity, 1)
        for (make, radius) in [({ (p: inout PathData) in p.addRect(Rect(x: 0, y: 0, width: 30, height: 10)) }, 0.0),
                               ({ (p: inout PathData) in p.addRoundedRect(Rect(x: 0, y: 0, width: 30, height: 10), rx: 4, ry: 4) }, 4.0),
                               ({ (p: inout PathData) in p.addEllipse(in: Rect(x: 0, y: 0, width: 10, height: 10)) }, 5.0)] {
            var data = PathData()
            make(&data)
            try l.set(LayerProperties.shadowPath, Path(data))
            let ops = build(root)
            #expect(ops.map(\.kind) == [pushGroup, fill, popGroup, fill])
            #expect(ops[0].flags & LK_DL_FLAG_SHADOW_ONLY.rawValue != 0)
            #expect(ops[1].corner_radius == radius)
        }
        // An ellipse that is not a circle: a circle squeezed by the op's transform.
        var data = PathData()
        data.addEllipse(in: Rect(x: 0, y: 0, width: 40, height: 10))
        try l.set(LayerProperties.shadowPath, Path(data))
        let ops = build(root)
        #expect(ops[1].rect.width == 40 && ops[1].rect.height == 40 && ops[1].corner_radius == 20)
        #expect(near(ops[1].transform.5, 0.25))
    }

    @Test func shadowPathOfAnyOtherShapeIsItsRasterizedCoverage() throws {
        let root = makeLayer(frame: Rect(x: 0, y: 0, width: 200, height: 200))
        let l = try box(Rect(x: 10, y: 10, width: 20, height: 20), in: root)
        try l.set(LayerProperties.shadowOpacity, 1)
        var tri = PathData()
        tri.move(to: Point(x: 0, y: 0)); _ = tri.line(to: Point(x: 10, y: 0)); _ = tri.line(to: Point(x: 0, y: 10)); tri.close()
        try l.set(LayerProperties.shadowPath, Path(tri))
        var ops = build(root)
        // One IMAGE of the coverage in a SHADOW_ONLY group, then the layer as usual.
        #expect(ops.map(\.kind) == [pushGroup, image, popGroup, fill])
        #expect(ops[0].flags & LK_DL_FLAG_SHADOW_ONLY.rawValue != 0)
        // The path's box grown by a pixel for anti-aliasing, at contentsScale 1, placed by the layer's map.
        #expect(ops[1].rect.x == -1 && ops[1].rect.width == 12 && ops[1].source.width == 12)
        #expect(ops[1].transform.12 == 10 && ops[1].transform.13 == 10)
        // Enlarged 3x by its transform: rasterized at 4 (the next power of two), drawn in the layer's space.
        try l.set(LayerProperties.transform, Transform3D.scale(3, 3, 1))
        ops = build(root)
        #expect(ops[1].kind == image && ops[1].rect.width == 12 && ops[1].source.width == 48)
        // masksToBounds clips it (then the layer's own clip, around its
        // contents and sublayers); an empty path casts no shadow at all.
        try l.set(LayerProperties.masksToBounds, true)
        #expect(build(root).map(\.kind) == [pushClip, pushGroup, image, popGroup, popClip, fill, pushClip, popClip])
        try l.set(LayerProperties.shadowPath, Path(PathData()))
        #expect(build(root).map(\.kind) == [fill, pushClip, popClip])
    }

    @Test func maskIsAMaskGroupAroundTheLayerS6_1() throws {
        let root = makeLayer(frame: Rect(x: 0, y: 0, width: 200, height: 200))
        let l = try box(Rect(x: 100, y: 100, width: 50, height: 50), in: root)
        try l.set(LayerProperties.opacity, 0.5)
        _ = try box(Rect(x: 40, y: 40, width: 50, height: 50), in: l)
        let mask = try box(Rect(x: 10, y: 10, width: 20, height: 20))
        try l.setMask(mask)
        let ops = build(root)
        #expect(ops.map(\.kind) == [pushGroup, fill, content, fill, fill, popGroup])
        #expect(ops[0].flags & LK_DL_FLAG_GROUP_MASK.rawValue != 0 && ops[0].opacity == 0.5)
        // the mask lies in the layer's space: its origin lands at (110, 110)
        let t = ops[1].transform
        #expect(t.12 == 110 && t.13 == 110)
        // the group covers only where mask and content meet
        #expect(ops[0].rect.x == 110 && ops[0].rect.y == 110 && ops[0].rect.width == 20 && ops[0].rect.height == 20)
    }

    @Test func nineSliceSplitsTheContents() throws {
        let root = makeLayer(frame: Rect(x: 0, y: 0, width: 200, height: 200))
        let l = makeLayer(frame: Rect(x: 10, y: 10, width: 100, height: 50))
        try root.addSublayer(l)
        var pixels = [UInt32](repeating: 0xffff_ffff, count: 30 * 30)
        try l.set(LayerProperties.contents, try Image(width: 30, height: 30, stride: 120, format: .argb32Premultiplied, pixels: &pixels))
        try l.set(LayerProperties.contentsCenter, Rect(x: 1.0 / 3, y: 1.0 / 3, width: 1.0 / 3, height: 1.0 / 3))
        let ops = build(root)
        #expect(ops.map(\.kind) == Array(repeating: image, count: 9))
        #expect(ops.allSatisfy { $0.flags & LK_DL_FLAG_ANTIALIAS.rawValue == 0 })
        // corners at natural size, the centre stretched; source edges on whole pixels
        #expect(ops[0].rect.width == 10 && ops[0].rect.height == 10 && ops[0].source.width == 10)
        #expect(ops[4].rect.x == 10 && ops[4].rect.width == 80 && ops[4].rect.height == 30)
        #expect(ops[4].source.x == 10 && ops[4].source.width == 10)
        // rotated: an anti-aliased clip gives the outline smooth edges
        try l.set(LayerProperties.transform, Transform3D.rotation(0.3, 0, 0, 1))
        #expect(build(root).map(\.kind) == [pushClip] + Array(repeating: image, count: 9) + [popClip])
    }

    @Test func damageGrowsByTheShadowOfWhatChanged() throws {
        let root = makeLayer(frame: Rect(x: 0, y: 0, width: 200, height: 100))
        let l = try box(Rect(x: 20, y: 20, width: 20, height: 20), in: root)
        try l.set(LayerProperties.shadowOpacity, 1)
        try l.set(LayerProperties.shadowRadius, 4)
        try l.set(LayerProperties.shadowOffset, Size(width: 10, height: 0))
        let child = try box(Rect(x: 0, y: 0, width: 5, height: 5), in: l)
        var tracker = DamageTracker()
        func damage() -> lk_dl_box {
            var builder = DisplayListBuilder()
            builder.build(root: root)
            return tracker.damage(ops: builder.opsPointer, count: builder.count, images: builder.currentImages,
                                  width: 200, height: 100)
        }
        _ = damage()
        try child.set(LayerProperties.backgroundColor, Color(r: 0, g: 1, b: 0, a: 1))
        let d = damage()
        // the child (20...25) and its shadow (30...35) grown by 3 sigma + 2 and the margin
        #expect(d.x <= 20 - 1 && d.x + d.width >= 35 + 14 + 1)
        #expect(d.y <= 20 - 15 && d.y + d.height >= 25 + 15)
        try l.set(LayerProperties.shadowRadius, 6)   // a group's shadow changed: all it covers
        let g = damage()
        // the group (20...40) and its shadow (30...50) grown by 3 x 6 + 2
        #expect(g.x <= 10 && g.x + g.width >= 70)
        #expect(g.y <= 0 && g.y + g.height >= 60)
    }
}
