import CLayerKit
import Testing
@testable import LayerKitCore

/// The emitter layer on the render side (S7.4): the ops it adds and the
/// damage they cause.
@Suite struct EmitterLayerTests {
    /// An emitter layer over 200x100 with one cell: 2 particles a second
    /// from (20, 50) along +x at 10 pt/s, 4x4 contents tinted red. Its
    /// simulation starts at the returned media time.
    private func scene() throws -> (Layer, Double) {
        let root = makeLayer(frame: Rect(x: 0, y: 0, width: 200, height: 100))
        let emitter = Layer(layerKind: .emitter)
        try emitter.setFrame(Rect(x: 0, y: 0, width: 200, height: 100))
        let start = mediaTime() + 100
        try emitter.set(LayerProperties.beginTime, start)
        try emitter.set(EmitterProperties.emitterPosition, Point(x: 20, y: 50))
        let pixels = [UInt8](repeating: 255, count: 4 * 4 * 4)
        let cell = EmitterCell()
        cell.attributes.birthRate = 2
        cell.attributes.lifetime = 100
        cell.attributes.velocity = 10
        cell.attributes.color = Color(r: 1, g: 0, b: 0, a: 1)
        cell.contents = pixels.withUnsafeBytes { Image(width: 4, height: 4, stride: 16, format: .rgba8, pixels: $0.baseAddress!) }
        try emitter.setEmitterCells([cell])
        try root.addSublayer(emitter)
        ModelLock.shared.withLock { Transaction.flush() }
        return (root, start)
    }

    @Test func particlesAreTintedImageOpsInOneRunS7_4() throws {
        let (root, start) = try scene()
        var builder = DisplayListBuilder()
        builder.buildCommitted(root: root, at: start + 1.25)
        // births at 0.5 and 1.0 s: x = 20 + 10 x age
        #expect(builder.count == 2)
        #expect(builder.variableRuns == [0..<2])
        let op = builder.op(0)
        #expect(op.kind == LK_DL_OP_IMAGE.rawValue)
        #expect(op.flags & LK_DL_FLAG_TINT.rawValue != 0)
        #expect(op.tint.r == 1 && op.tint.g == 0 && op.tint.b == 0 && op.tint.a == 1)
        #expect(abs(op.transform.12 - 27.5) < 1e-9 && abs(op.transform.13 - 50) < 1e-9) // oldest first
        #expect(op.rect.x == -2 && op.rect.width == 4)
    }

    /// S7.4 damage: the particles' boxes before and after, not the whole
    /// output, although the number of ops changes every frame.
    @Test func particlesDamageOnlyWhereTheyAreS7_4() throws {
        let (root, start) = try scene()
        var builder = DisplayListBuilder()
        var tracker = DamageTracker()
        func frame(_ t: Double) -> lk_dl_box {
            builder.buildCommitted(root: root, at: start + t)
            return tracker.damage(ops: builder.opsPointer, count: builder.count, images: builder.currentImages,
                                  width: 200, height: 100, runs: builder.variableRuns)
        }
        let first = frame(0.75)
        #expect(first.width == 200 && first.height == 100)   // no previous frame
        let next = frame(1.25)                               // one particle more
        // before: x 22.5; now: 27.5 and 22.5; each 4 wide, one pixel of margin
        #expect(next.x == 19 && next.width == 12 && next.y == 47 && next.height == 6)
        let same = frame(1.25)
        #expect(same.width == 0 || (same.x == 19 && same.width == 12)) // the same particles again
    }
}
