import CLayerKit
import Testing
@testable import LayerKitCore

@Suite struct DamageTests {
    private func damage(_ tracker: inout DamageTracker, _ root: Layer) -> lk_dl_box {
        var builder = DisplayListBuilder()
        builder.build(root: root)
        return tracker.damage(ops: builder.opsPointer, count: builder.count, images: builder.currentImages,
                              width: 200, height: 100)
    }

    @Test func onlyWhatChangedIsRedrawn() throws {
        let root = makeLayer(frame: Rect(x: 0, y: 0, width: 200, height: 100))
        try root.set(LayerProperties.backgroundColor, Color(r: 0, g: 0, b: 0, a: 1))
        let square = makeLayer(frame: Rect(x: 10, y: 10, width: 10, height: 10))
        try square.set(LayerProperties.backgroundColor, Color(r: 1, g: 0, b: 0, a: 1))
        try root.addSublayer(square)
        var tracker = DamageTracker()
        let first = damage(&tracker, root)
        #expect(first.x == 0 && first.y == 0 && first.width == 200 && first.height == 100) // no previous frame
        let same = damage(&tracker, root)
        #expect(same.width == 0 && same.height == 0)                                     // nothing changed
        try square.setFrame(Rect(x: 50, y: 10, width: 10, height: 10))
        let moved = damage(&tracker, root)
        // old (10...20) and new (50...60), one pixel of margin
        #expect(moved.x == 9 && moved.y == 9 && moved.width == 52 && moved.height == 12)
        try square.set(LayerProperties.hidden, true)
        let structure = damage(&tracker, root)
        #expect(structure.width == 200 && structure.height == 100)                       // an op went away
    }
}
