import CLayerKit
import Glibc
import Testing
@testable import LayerKitCore

/// What the display list says, without pixels (the recording-backend layer of tests).
private struct RecordedOp: Equatable {
    let kind: UInt32
    let rect: Rect
    let origin: Point   // where the rect's origin lands on the output
}

private func record(_ root: Layer) -> [RecordedOp] {
    var builder = DisplayListBuilder()
    builder.build(root: root)
    return (0..<builder.count).map { i in
        let op = builder.op(i)
        let t = withUnsafeBytes(of: op.transform) { Transform3D(Array($0.bindMemory(to: Double.self))) }
        let rect = Rect(x: op.rect.x, y: op.rect.y, width: op.rect.width, height: op.rect.height)
        return RecordedOp(kind: op.kind, rect: rect, origin: t.project(rect.origin) ?? Point(x: .nan, y: .nan))
    }
}

private let fill = LK_DL_OP_FILL.rawValue, image = LK_DL_OP_IMAGE.rawValue, border = LK_DL_OP_BORDER.rawValue
private let push = LK_DL_OP_PUSH_CLIP.rawValue, pop = LK_DL_OP_POP_CLIP.rawValue

@Suite struct DisplayListTests {
    @Test func orderIsBackgroundContentsSublayersClipBorderS6_1() throws {
        let root = makeLayer(frame: Rect(x: 10, y: 20, width: 100, height: 100))
        try root.set(LayerProperties.backgroundColor, Color(r: 1, g: 0, b: 0, a: 1))
        try root.set(LayerProperties.borderWidth, 2)
        try root.set(LayerProperties.masksToBounds, true)
        var pixel: UInt32 = 0xffff_ffff
        try root.set(LayerProperties.contents, try Image(width: 1, height: 1, stride: 4, format: .argb32Premultiplied, pixels: &pixel))
        let child = makeLayer(frame: Rect(x: 5, y: 5, width: 10, height: 10))
        try child.set(LayerProperties.backgroundColor, Color(r: 0, g: 1, b: 0, a: 1))
        try root.addSublayer(child)
        let ops = record(root)
        #expect(ops.map(\.kind) == [fill, push, image, fill, pop, border])
        #expect(near(ops[3].origin, Point(x: 15, y: 25)))
    }

    @Test func hiddenTransparentAndEmptyDrawNothing() throws {
        let root = makeLayer(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        try root.set(LayerProperties.backgroundColor, Color(r: 1, g: 0, b: 0, a: 1))
        let hidden = makeLayer(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        try hidden.set(LayerProperties.backgroundColor, Color(r: 0, g: 0, b: 1, a: 1))
        try hidden.set(LayerProperties.hidden, true)
        let clear = makeLayer(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        try clear.set(LayerProperties.backgroundColor, Color(r: 0, g: 0, b: 1, a: 1))
        try clear.set(LayerProperties.opacity, 0)
        try root.addSublayer(hidden); try root.addSublayer(clear)
        #expect(record(root).count == 1)
    }

    @Test func zPositionSortsSiblingsStablyS1_3() throws {
        let root = makeLayer(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let layers = (0..<3).map { i -> Layer in
            let l = makeLayer(frame: Rect(x: Double(i), y: 0, width: 10, height: 10))
            try! l.set(LayerProperties.backgroundColor, Color(r: 1, g: 1, b: 1, a: 1))
            return l
        }
        for l in layers { try root.addSublayer(l) }
        try layers[0].set(LayerProperties.zPosition, 5)
        #expect(record(root).map(\.origin.x) == [1, 2, 0])
    }

    @Test func backFacesOfSingleSidedLayersAreCulledS6_1() throws {
        let root = makeLayer(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let card = makeLayer(frame: Rect(x: 20, y: 20, width: 50, height: 50))
        try card.set(LayerProperties.backgroundColor, Color(r: 1, g: 1, b: 1, a: 1))
        try root.addSublayer(card)
        try card.set(LayerProperties.transform, .rotation(.pi, 0, 1, 0))
        #expect(record(root).count == 1)           // double-sided: drawn mirrored
        try card.set(LayerProperties.doubleSided, false)
        #expect(record(root).isEmpty)              // back face culled
        try card.set(LayerProperties.transform, .rotation(.pi / 3, 0, 1, 0))
        #expect(record(root).count == 1)
    }

    @Test func perspectiveComesFromTheSuperlayersSublayerTransformS6_3() throws {
        let root = makeLayer(frame: Rect(x: 0, y: 0, width: 200, height: 200))
        var perspective = Transform3D.identity
        perspective.m34 = -1.0 / 500
        try root.set(LayerProperties.sublayerTransform, perspective)
        let card = makeLayer(frame: Rect(x: 50, y: 50, width: 100, height: 100))
        try card.set(LayerProperties.backgroundColor, Color(r: 1, g: 1, b: 1, a: 1))
        try card.set(LayerProperties.transform, .rotation(.pi / 4, 0, 1, 0))
        try root.addSublayer(card)
        let op = record(root)[0]
        // Independent math: the card's left edge (x = -50 about its centre) turns about y
        // by 45°: x' = -50 cos45, z' = +50 sin45 in the layer, nearer the viewer at
        // z = 500, so it projects outward: x = 100 + x' / (1 - z'/500).
        let c = cos(Double.pi / 4), s = sin(Double.pi / 4)
        let w = 1 + (-50 * -s) * (-1.0 / 500) // row vector: z' = -x sin, w = 1 + z' * m34
        let expectedX = 100 + (-50 * c) / w
        let expectedY = 100 + (-50) / w
        #expect(near(op.origin, Point(x: expectedX, y: expectedY), 1e-9))
    }

    @Test func contentsGravityPlacesTheImage() {
        let b = Rect(x: 0, y: 0, width: 200, height: 100)
        let aspect = ContentsPlacement.place(imageWidth: 50, imageHeight: 50, in: b, contentsRect: .unit,
                                             gravity: .resizeAspect, scale: 1)!
        #expect(aspect.destination == Rect(x: 50, y: 0, width: 100, height: 100))
        let fill = ContentsPlacement.place(imageWidth: 50, imageHeight: 50, in: b, contentsRect: .unit,
                                           gravity: .resizeAspectFill, scale: 1)!
        #expect(fill.destination == Rect(x: 0, y: -50, width: 200, height: 200))
        let topRight = ContentsPlacement.place(imageWidth: 40, imageHeight: 20, in: b, contentsRect: .unit,
                                               gravity: .topRight, scale: 2)!
        #expect(topRight.destination == Rect(x: 180, y: 0, width: 20, height: 10))
        let part = ContentsPlacement.place(imageWidth: 40, imageHeight: 20, in: b,
                                           contentsRect: Rect(x: 0.5, y: 0, width: 0.5, height: 1),
                                           gravity: .center, scale: 1)!
        #expect(part.source == Rect(x: 20, y: 0, width: 20, height: 20))
        #expect(part.destination == Rect(x: 90, y: 40, width: 20, height: 20))
    }
}

@Suite struct BoundaryTests {
    @Test func pluginLoaderSaysWhereItLookedS8_2() {
        setenv("LAYERKIT_PLUGIN_PATH", "/nonexistent/a:/nonexistent/b", 1)
        defer { unsetenv("LAYERKIT_PLUGIN_PATH") }
        do {
            _ = try PluginLoader.load("nosuch")
            Issue.record("loaded a plugin that does not exist")
        } catch {
            #expect(error.status == .notFound)
            #expect(error.message.contains("liblayerkit-nosuch.so") && error.message.contains("/nonexistent/a"))
        }
        #expect(throws: LayerKitError.self) { try PluginLoader.load("../evil") }
    }

    @Test func handlesCountTheProgramsReferences() throws {
        let handle = HandleRegistry.shared.passRetained(Layer())
        #expect(HandleRegistry.shared.object(at: handle) is Layer)
        try HandleRegistry.shared.release(handle)
        #expect(HandleRegistry.shared.object(at: handle) == nil)
        #expect(throws: LayerKitError.self) { try HandleRegistry.shared.release(handle) }
        // A layer held by its superlayer cannot be over-released through its handle.
        let parent = Layer(), child = Layer()
        try parent.addSublayer(child)
        #expect(throws: LayerKitError.self) { try HandleRegistry.shared.release(child.handle) }
        #expect(child.superlayer === parent)
    }

    @Test func pixelsRoundTripThroughPremultiplication() {
        for a in stride(from: 0, through: 255, by: 15) {
            for c in stride(from: 0, through: 255, by: 17) {
                let word = PixelConversion.premultipliedWord(r: UInt8(c), g: 0, b: 255, a: UInt8(a))
                let (r, _, b, alpha) = PixelConversion.straightBytes(word)
                #expect(alpha == UInt8(a))
                if a > 0 { #expect(abs(Int(r) - c) <= 255 / max(a, 1) + 1 && b == 255) }
            }
        }
    }

    @Test func pngRoundTrip() throws {
        let rgba: [UInt8] = [255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 0, 10, 20, 30, 40]
        let image = try rgba.withUnsafeBytes { try Image(width: 2, height: 2, stride: 8, format: .rgba8, pixels: $0.baseAddress!) }
        let file = "/tmp/layerkit-coretest-\(getpid()).png"
        defer { unlink(file) }
        try image.writePNG(to: file)
        let back = try Image(pngFile: file)
        #expect(back.width == 2 && back.height == 2)
        var out = [UInt8](repeating: 0, count: 16)
        out.withUnsafeMutableBytes { back.readRGBA(into: $0.baseAddress!, stride: 8) }
        #expect(Array(out[0..<8]) == [255, 0, 0, 255, 0, 255, 0, 128])
        #expect(out[11] == 0 && out[15] == 40)
        #expect(throws: LayerKitError.self) { try Image(pngFile: "/nonexistent.png") }
    }
}
