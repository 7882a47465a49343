import Testing
@testable import LayerKitCore

/// The pure parts of the tiled layer (S7.8): the level of detail for a
/// scale, the visible part of a layer under a map and a clip; and the
/// transform layer's depth order (S6.3, S7.6) on a display list.
@Suite struct SpaceLayerTests {
    private func tiled(levels: Double, bias: Double) -> TiledState {
        var t = TiledState()
        t.levelsOfDetail = levels
        t.levelsOfDetailBias = bias
        return t
    }

    private let big = Size(width: 100_000, height: 100_000)

    @Test func levelOfDetailFollowsTheScaleWithinTheLevels() {
        let one = tiled(levels: 1, bias: 0)
        #expect(TilePlan.level(stretch: 0.1, contentsScale: 1, tiled: one, size: big) == 0)
        #expect(TilePlan.level(stretch: 7, contentsScale: 1, tiled: one, size: big) == 0)
        let five = tiled(levels: 5, bias: 2)      // 4x, 2x, 1x, 1/2x, 1/4x
        #expect(TilePlan.level(stretch: 1, contentsScale: 1, tiled: five, size: big) == 0)
        #expect(TilePlan.level(stretch: 1.0000000001, contentsScale: 1, tiled: five, size: big) == 0)
        #expect(TilePlan.level(stretch: 1.2, contentsScale: 1, tiled: five, size: big) == 1)
        #expect(TilePlan.level(stretch: 0.3, contentsScale: 1, tiled: five, size: big) == -1)
        #expect(TilePlan.level(stretch: 0.01, contentsScale: 1, tiled: five, size: big) == -2)
        #expect(TilePlan.level(stretch: 100, contentsScale: 1, tiled: five, size: big) == 2)
        // contentsScale 2 already gives two pixels per point
        #expect(TilePlan.level(stretch: 2, contentsScale: 2, tiled: five, size: big) == 0)
    }

    /// CATiledLayer.levelsOfDetail: levels past the one whose picture has a
    /// pixel each way are not used (a 100-point layer's coarsest is 1/64).
    @Test func theCoarsestLevelKeepsAPixelEachWayS7_8() {
        let twenty = tiled(levels: 20, bias: 0)
        let square = Size(width: 100, height: 100)
        #expect(TilePlan.level(stretch: 0.001, contentsScale: 1, tiled: twenty, size: square) == -6)
        #expect(TilePlan.level(stretch: 0.01, contentsScale: 1, tiled: twenty, size: square) == -6)
        #expect(TilePlan.level(stretch: 0.1, contentsScale: 1, tiled: twenty, size: square) == -3)
        // the narrow side counts, and contentsScale gives more pixels
        #expect(TilePlan.level(stretch: 0.001, contentsScale: 1, tiled: twenty, size: Size(width: 1000, height: 8)) == -3)
        #expect(TilePlan.level(stretch: 0.001, contentsScale: 4, tiled: twenty, size: square) == -8)
        // a layer under a pixel wide is not clamped: the scale's own level
        #expect(TilePlan.level(stretch: 0.001, contentsScale: 1, tiled: twenty, size: Size(width: 0.5, height: 9)) == -9)
    }

    @Test func visiblePartMapsTheClipBackIntoTheLayer() {
        let bounds = Rect(x: 0, y: 0, width: 1000, height: 1000)
        let moved = Transform3D.translation(-300, -200, 0)
        let clip = ScreenBox(x0: 0, y0: 0, x1: 100, y1: 50)
        #expect(DisplayListBuilder.visiblePart(of: bounds, world: moved, clip: clip)
                == Rect(x: 300, y: 200, width: 100, height: 50))
        let halved = Transform3D.scale(0.5, 0.5, 1)
        #expect(DisplayListBuilder.visiblePart(of: bounds, world: halved, clip: clip)
                == Rect(x: 0, y: 0, width: 200, height: 100))
        let away = Transform3D.translation(5000, 0, 0)
        #expect(DisplayListBuilder.visiblePart(of: bounds, world: away, clip: clip) == nil)
        #expect(DisplayListBuilder.visiblePart(of: bounds, world: .identity, clip: .unbounded) == bounds)
    }

    @Test func transformLayerDrawsItsSublayersFarthestFirst() throws {
        // Three cards added near, far, middle (zPosition 50, -50, 0) to a
        // transform layer: drawn far, middle, near. Under a plain layer the
        // same zPositions order them too (S1.3), so the cards are pushed in
        // depth by their transforms instead, which a plain layer flattens.
        func list(_ space: Bool) throws -> [Double] {
            let root = Layer(layerKind: space ? .transform : .plain)
            try root.set(LayerProperties.bounds, Rect(x: 0, y: 0, width: 100, height: 100))
            for z in [50.0, -50, 0] {
                let card = Layer()
                try card.set(LayerProperties.bounds, Rect(x: 0, y: 0, width: 10 + z / 10 + 5, height: 10))
                try card.set(LayerProperties.transform, .translation(0, 0, z))
                try card.set(LayerProperties.backgroundColor, Color(r: 1, g: 0, b: 0, a: 1))
                try root.addSublayer(card)
            }
            var builder = DisplayListBuilder()
            builder.build(root: root)
            return (0..<builder.count).map { builder.op($0).rect.width }
        }
        #expect(try list(true) == [10, 15, 20])
        #expect(try list(false) == [20, 10, 15])
    }
}

@Suite struct SpaceAnimationTests {
    /// A transform layer (S7.6) turned by an animation, over a face that
    /// has none: the frame is animating, so the render loop keeps drawing.
    /// A transform layer inside another's space, or inside a preservesDepth
    /// replicator (S7.5), is never visited: its animation is read where the
    /// space is gathered, and must count there.
    @Test func animatedTransformLayerKeepsTheFrameAnimatingS7_6() throws {
        for container in ["root", "transform layer", "replicator"] {
            let root = makeLayer(frame: Rect(x: 0, y: 0, width: 200, height: 200))
            let space = Layer(layerKind: .transform)
            try space.setFrame(Rect(x: 50, y: 50, width: 100, height: 100))
            let face = makeLayer(frame: Rect(x: 0, y: 0, width: 100, height: 100))
            try face.set(LayerProperties.backgroundColor, Color(r: 1, g: 0, b: 0, a: 1))
            try space.addSublayer(face)
            switch container {
            case "transform layer":
                let outer = Layer(layerKind: .transform)
                try outer.setFrame(Rect(x: 0, y: 0, width: 200, height: 200))
                try outer.addSublayer(space)
                try root.addSublayer(outer)
            case "replicator":
                let replicator = Layer(layerKind: .replicator)
                try replicator.setFrame(Rect(x: 0, y: 0, width: 200, height: 200))
                try replicator.set(ReplicatorProperties.preservesDepth, true)
                try replicator.addSublayer(space)
                try root.addSublayer(replicator)
            default:
                try root.addSublayer(space)
            }
            let start = mediaTime() + 100
            let turn = Animation(kind: .basic, keyPath: "transform.rotation.y")
            (turn.fromValue, turn.toValue) = (.number(0), .number(3))
            turn.timing.beginTime = start
            turn.timing.duration = 10
            try space.addAnimation(turn, forKey: "turn")
            ModelLock.shared.withLock { Transaction.flush() }
            var builder = DisplayListBuilder()
            builder.buildCommitted(root: root, at: start + 1)
            let (count, during) = (builder.count, builder.animating)
            builder.buildCommitted(root: root, at: start + 20)
            let after = builder.animating
            #expect(count > 0, "in a \(container)")
            #expect(during, "in a \(container)")
            #expect(!after, "after the animation, in a \(container)")
        }
    }
}
