import CLayerKit
import Testing
@testable import LayerKitCore

/// S7.4 preservesDepth on the display list: particles born through a
/// volume (a cuboid emitterDepth 100 deep) keep their z, so under the
/// superlayer's perspective (m34 = -1/200) each is scaled by 200 / (200 - z);
/// flattened, every one is drawn at scale 1. With backToFront they come
/// farthest (smallest) first.
@Suite struct PreservedDepthTests {
    private func scales(preservesDepth: Bool, mode: EmitterRenderMode) throws -> [Double] {
        let root = makeLayer(frame: Rect(x: 0, y: 0, width: 200, height: 200))
        var perspective = Transform3D.identity
        perspective.m34 = -1.0 / 200
        try root.set(LayerProperties.sublayerTransform, perspective)
        let emitter = Layer(layerKind: .emitter)
        try emitter.setFrame(Rect(x: 0, y: 0, width: 200, height: 200))
        let start = mediaTime() + 100
        try emitter.set(LayerProperties.beginTime, start)
        try emitter.set(EmitterProperties.emitterPosition, Point(x: 100, y: 100))
        try emitter.set(EmitterProperties.emitterShape, .cuboid)
        try emitter.set(EmitterProperties.emitterMode, .volume)
        try emitter.set(EmitterProperties.emitterSize, Size(width: 100, height: 100))
        try emitter.set(EmitterProperties.emitterDepth, 100)
        try emitter.set(EmitterProperties.renderMode, mode)
        try emitter.set(EmitterProperties.preservesDepth, preservesDepth)
        let pixels = [UInt8](repeating: 255, count: 4 * 4 * 4)
        let cell = EmitterCell()
        cell.attributes.birthRate = 40
        cell.attributes.lifetime = 100
        cell.contents = try pixels.withUnsafeBytes { try Image(width: 4, height: 4, stride: 16, format: .rgba8, pixels: $0.baseAddress!) }
        try emitter.setEmitterCells([cell])
        try root.addSublayer(emitter)
        ModelLock.shared.withLock { Transaction.flush() }
        var builder = DisplayListBuilder()
        builder.buildCommitted(root: root, at: start + 2)
        return (0..<builder.count).map { i in
            let t = builder.op(i).transform
            return (t.0 * t.0 + t.1 * t.1).squareRoot() / t.15
        }
    }

    @Test func volumeParticlesKeepTheirDepthS7_4() throws {
        let deep = try scales(preservesDepth: true, mode: .unordered)
        let flat = try scales(preservesDepth: false, mode: .unordered)
        #expect(deep.count > 60 && deep.count == flat.count)
        #expect(flat.allSatisfy { abs($0 - 1) < 1e-9 })
        // z in -50...50: scale in 0.8...1.33, spread over most of it
        #expect(deep.allSatisfy { $0 > 0.8 - 1e-9 && $0 < 4.0 / 3 + 1e-9 })
        #expect(deep.min()! < 0.9 && deep.max()! > 1.2)
        let sorted = try scales(preservesDepth: true, mode: .backToFront)
        #expect(sorted == sorted.sorted())
        #expect(deep != deep.sorted())
    }
}
