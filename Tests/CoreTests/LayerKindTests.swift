import Testing
@testable import LayerKitCore

/// The kind mechanism (LayerKind.swift) and what the shape, text and
/// gradient rows add to key-value coding and interpolation (S7.1-S7.3).
@Suite struct LayerKindTests {
    @Test func plainLayersCarryOneWordForAllKinds() {
        let plain = Layer()
        #expect(plain.state.kindStorage == nil)
        #expect(plain.state.layerKind == .plain)
        // The kind's state lives out of line: one optional reference.
        #expect(MemoryLayout<KindStorage?>.size == 8)
    }

    @Test func kindStateIsCopiedOnWrite() throws {
        let shape = Layer(layerKind: .shape)
        let committed = shape.state            // as a commit copies it
        try shape.set(ShapeProperties.strokeEnd, 0.25)
        #expect(shape.state.shape.strokeEnd == 0.25)
        #expect(committed.shape.strokeEnd == 1) // the copy kept its own
        #expect(committed.kindStorage !== shape.state.kindStorage)
    }

    @Test func rowsOfAKindAreRefusedOnOtherKinds() {
        let plain = Layer()
        #expect(throws: LayerKitError.self) { try plain.set(ShapeProperties.lineWidth, 2) }
        do {
            _ = try plain.value(forKeyPath: "strokeEnd")
            Issue.record("a plain layer has no strokeEnd")
        } catch {
            #expect(error.message.contains("shape layer"))
        }
        let text = Layer(layerKind: .text)
        #expect((try? text.value(forKeyPath: "fontSize")) == .number(36))
        #expect((try? text.value(forKeyPath: "lineWidth")) == nil)
    }

    @Test func listElementsByKeyPath() throws {
        let g = Layer(layerKind: .gradient)
        try g.set(GradientProperties.colors, [Color(r: 1, g: 0, b: 0, a: 1), Color(r: 0, g: 0, b: 1, a: 1)])
        #expect(try g.value(forKeyPath: "colors.1") == .color(Color(r: 0, g: 0, b: 1, a: 1)))
        try g.setValue(.color(Color(r: 0, g: 1, b: 0, a: 1)), forKeyPath: "colors.0")
        #expect(g.state.gradient.colors[0] == Color(r: 0, g: 1, b: 0, a: 1))
        #expect(throws: LayerKitError.self) { try g.setValue(.number(1), forKeyPath: "colors.0") }
        #expect(throws: LayerKitError.self) { try g.value(forKeyPath: "colors.2") }
    }

    @Test func pathsWithTheSameElementsMorphS7_1() {
        var a = PathData(), b = PathData(), c = PathData()
        a.addRect(Rect(x: 0, y: 0, width: 10, height: 10))
        b.addRect(Rect(x: 10, y: 20, width: 30, height: 10))
        c.addEllipse(in: Rect(x: 0, y: 0, width: 10, height: 10))
        #expect(a.interpolated(to: b, 0.5)?.bounds == Rect(x: 5, y: 10, width: 20, height: 10))
        #expect(a.interpolated(to: c, 0.5) == nil)
        // Different elements switch half-way, like discrete values.
        let pa = Path(a), pc = Path(c)
        #expect(Interpolation.interpolate(.path(pa), .path(pc), 0.4) == .path(pa))
        #expect(Interpolation.interpolate(.path(pa), .path(pc), 0.6) == .path(pc))
    }

    @Test func listsInterpolateElementwiseWhenLengthsAgree() {
        let from = Value.list([.number(0), .number(1)]), to = Value.list([.number(1), .number(3)])
        #expect(Interpolation.interpolate(from, to, 0.5) == .list([.number(0.5), .number(2)]))
        let longer = Value.list([.number(0), .number(1), .number(2)])
        #expect(Interpolation.interpolate(from, longer, 0.4) == from)
        #expect(Interpolation.interpolate(from, longer, 0.5) == longer)
    }

    @Test func contentCacheKeyIsTheWholeKindState() {
        var s = LayerState()
        s.kindStorage = KindStorage(ShapeState())
        s.bounds = Rect(x: 0, y: 0, width: 10, height: 10)
        var count: UInt64 = 0
        var cache: ContentCache?
        func draw(scale: Double) {
            withUnsafePointer(to: s) { _ = ContentCache.content(for: $0, scale: scale, cache: &cache, rasterizations: &count) }
        }
        draw(scale: 1)
        draw(scale: 1)
        #expect(count == 1)
        s.shape.lineWidth = 2
        draw(scale: 1)
        #expect(count == 2)
        s.contentsScale = 2
        draw(scale: 2)
        #expect(count == 3)
        // the scale it is rasterized at is part of the key (a shape enlarged on screen)
        draw(scale: 4)
        #expect(count == 4)
        draw(scale: 4)
        #expect(count == 4)
    }
}
