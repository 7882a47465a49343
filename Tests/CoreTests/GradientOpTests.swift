import CLayerKit
import Testing
@testable import LayerKitCore

/// Gradient layers become GRADIENT ops (ABI 3): their stops in the
/// builder's own storage, points in the layer's bounds, the layer's corner
/// radius; a changed colour damages the layer and nothing is rasterized.
@Suite struct GradientOpTests {
    private func gradientLayer(_ frame: Rect, colors: [Color]) throws -> Layer {
        let g = Layer(layerKind: .gradient)
        try g.setFrame(frame)
        try g.set(GradientProperties.colors, colors)
        return g
    }

    @Test func aGradientLayerIsOneGradientOpS7_3() throws {
        let root = makeLayer(frame: Rect(x: 0, y: 0, width: 200, height: 100))
        let g = try gradientLayer(Rect(x: 10, y: 20, width: 100, height: 50),
                                  colors: [Color(r: 1, g: 0, b: 0, a: 0.5), Color(r: 0, g: 0, b: 1, a: 1),
                                           Color(r: 0, g: 1, b: 0, a: 1)])
        try g.set(GradientProperties.type, .radial)
        try g.set(GradientProperties.startPoint, Point(x: 0.5, y: 0.5))
        try g.set(GradientProperties.endPoint, Point(x: 1, y: 0))
        try g.set(LayerProperties.cornerRadius, 8)
        try root.addSublayer(g)
        var builder = DisplayListBuilder()
        builder.build(root: root)
        #expect(builder.count == 1)
        let op = builder.op(0)
        #expect(op.kind == LK_DL_OP_GRADIENT.rawValue)
        #expect(op.gradient_kind == LK_DL_GRADIENT_RADIAL.rawValue)
        #expect(op.corner_radius == 8)
        #expect(op.rect.width == 100 && op.rect.height == 50)
        // points in the layer's own space (its bounds start at 0, 0)
        #expect(op.gradient_start_x == 50 && op.gradient_start_y == 25)
        #expect(op.gradient_end_x == 100 && op.gradient_end_y == 0)
        #expect(op.gradient_stop_count == 3)
        let stops = try #require(op.gradient_stops)
        // no locations: spread evenly; colours straight, not premultiplied
        #expect(stops[0].location == 0 && stops[1].location == 0.5 && stops[2].location == 1)
        #expect(stops[0].color.r == 1 && stops[0].color.a == 0.5)
        #expect(builder.rasterizations == 0)
    }

    /// A conic gradient layer is rasterized by the core, whose conic
    /// anti-aliases the seam where location 1 meets 0 (the ABI's conic op
    /// draws it hard): one IMAGE op, one rasterization.
    @Test func aConicGradientLayerIsRasterizedS7_3() throws {
        let root = makeLayer(frame: Rect(x: 0, y: 0, width: 200, height: 100))
        let g = try gradientLayer(Rect(x: 10, y: 20, width: 100, height: 50),
                                  colors: [Color(r: 1, g: 0, b: 0, a: 1), Color(r: 0, g: 0, b: 1, a: 1)])
        try g.set(GradientProperties.type, .conic)
        try root.addSublayer(g)
        var builder = DisplayListBuilder()
        builder.build(root: root)
        #expect(builder.count == 1)
        #expect(builder.op(0).kind == LK_DL_OP_IMAGE.rawValue)
        #expect(builder.rasterizations == 1)
    }

    @Test func stopsStayValidWhenTheirStorageGrows() throws {
        let root = makeLayer(frame: Rect(x: 0, y: 0, width: 200, height: 100))
        // 40 layers of 5 stops: more than the first allocation holds
        for i in 0..<40 {
            let colors = (0..<5).map { k in Color(r: Double(i) / 40, g: Double(k) / 5, b: 0, a: 1) }
            try root.addSublayer(try gradientLayer(Rect(x: Double(i), y: 0, width: 10, height: 10), colors: colors))
        }
        var builder = DisplayListBuilder()
        for _ in 0..<2 {   // the second build reuses the storage
            builder.build(root: root)
            #expect(builder.count == 40)
            for i in 0..<40 {
                let op = builder.op(i)
                let stops = try #require(op.gradient_stops)
                #expect(op.gradient_stop_count == 5)
                #expect(stops[0].color.r == Float(Double(i) / 40))
                #expect(stops[4].color.g == Float(0.8))
            }
        }
    }

    @Test func aChangedColourDamagesTheLayerOnly() throws {
        let root = makeLayer(frame: Rect(x: 0, y: 0, width: 200, height: 100))
        let g = try gradientLayer(Rect(x: 10, y: 10, width: 20, height: 20),
                                  colors: [Color(r: 1, g: 0, b: 0, a: 1), Color(r: 0, g: 0, b: 1, a: 1)])
        try root.addSublayer(g)
        var tracker = DamageTracker()
        var builder = DisplayListBuilder()
        func damage() -> lk_dl_box {
            builder.build(root: root)
            return tracker.damage(ops: builder.opsPointer, count: builder.count, images: builder.currentImages,
                                  width: 200, height: 100)
        }
        _ = damage()
        let same = damage()
        #expect(same.width == 0 && same.height == 0)
        try g.set(GradientProperties.colors, [Color(r: 1, g: 0, b: 0, a: 1), Color(r: 0, g: 1, b: 0, a: 1)])
        let recoloured = damage()
        #expect(recoloured.x == 9 && recoloured.y == 9 && recoloured.width == 22 && recoloured.height == 22)
        try g.set(GradientProperties.locations, [0, 0.5])
        let relocated = damage()
        #expect(relocated.width == 22 && relocated.height == 22)
        try g.set(GradientProperties.endPoint, Point(x: 1, y: 1))
        let moved = damage()
        #expect(moved.width == 22 && moved.height == 22)
    }

    /// Animated locations out of 0...1 or out of order are drawn as stops
    /// within 0...1, in order, with the colour the gradient has at 0 and 1
    /// (S7.3, S8.1: the backends refused the whole frame).
    @Test func locationsOutOfTheUnitRangeAreDrawnWithinItS7_3() throws {
        let r = Color(r: 1, g: 0, b: 0, a: 1), g = Color(r: 0, g: 1, b: 0, a: 1), b = Color(r: 0, g: 0, b: 1, a: 0)
        func stops(_ locations: [Double], _ colors: [Color] = [r, g, b]) -> [(location: Double, color: Color)]? {
            var state = GradientState()
            state.colors = colors
            state.locations = locations
            return state.stopsWithinUnitRange()
        }
        func same(_ got: [(location: Double, color: Color)]?, _ want: [(Double, Color)]) -> Bool {
            guard let got, got.count == want.count else { return false }
            func near(_ x: Color, _ y: Color) -> Bool {
                abs(x.r - y.r) < 1e-12 && abs(x.g - y.g) < 1e-12 && abs(x.b - y.b) < 1e-12 && abs(x.a - y.a) < 1e-12
            }
            return zip(got, want).allSatisfy { abs($0.location - $1.0) < 1e-12 && near($0.color, $1.1) }
        }
        #expect(stops([0, 0.5, 1]) == nil)          // in range and in order: as they are
        #expect(stops([0, 0.5]) == nil)             // not one a colour: spread evenly, as before
        // the shimmer's stops a quarter of the way: -0.5, 0, 0.5
        #expect(same(stops([-0.5, 0, 0.5]), [(0, g), (0, g), (0.5, b)]))
        // -1 and 2 around 0...1: the colours there interpolated (straight colour and alpha)
        #expect(same(stops([-1, 2], [r, b]), [(0, Color(r: 2.0 / 3, g: 0, b: 1.0 / 3, a: 2.0 / 3)),
                                                (1, Color(r: 1.0 / 3, g: 0, b: 2.0 / 3, a: 1.0 / 3))]))
        // out of order: taken in order of location (equal ones as given)
        #expect(same(stops([0.8, 0.5, 0.5]), [(0.5, g), (0.5, b), (0.8, r)]))
        // all below 0, all above 1: the nearest colour everywhere
        #expect(same(stops([-3, -2, -1]), [(0, b), (1, b)]))
        #expect(same(stops([1.5, 2, 3]), [(0, r), (1, r)]))
        // past 1 on the way: the colour at 1 ends it
        #expect(same(stops([0, 0.5, 1.5]), [(0, r), (0.5, g), (1, Color(r: 0, g: 0.5, b: 0.5, a: 0.5))]))
        #expect(same(stops([0, .nan, 1]), [(0, r), (0, g), (1, b)]))
    }
}
