import CLayerKit
import Testing
@testable import LayerKitCore

/// The emitter layer on the render side (S7.4): the ops it adds and the
/// damage they cause.
@Suite struct EmitterLayerTests {
    /// An emitter layer over 200x100 with one cell: 2 particles a second
    /// from (20, 50) along +x at 10 pt/s, living `lifetime` s, 4x4 contents
    /// tinted red. Its simulation starts at the returned media time.
    private func scene(lifetime: Double = 100) throws -> (Layer, Double) {
        let (root, emitter, start) = try emitterLayer(width: 200)
        let cell = EmitterCell()
        cell.attributes.birthRate = 2
        cell.attributes.lifetime = lifetime
        cell.attributes.velocity = 10
        cell.attributes.color = Color(r: 1, g: 0, b: 0, a: 1)
        cell.contents = whiteImage()
        try emitter.setEmitterCells([cell])
        try root.addSublayer(emitter)
        ModelLock.shared.withLock { Transaction.flush() }
        return (root, start)
    }

    /// An emitter layer over width x 100 in a root of the same size,
    /// emitting from (20, 50) from the returned media time on.
    private func emitterLayer(width: Double) throws -> (root: Layer, emitter: Layer, start: Double) {
        let root = makeLayer(frame: Rect(x: 0, y: 0, width: width, height: 100))
        let emitter = Layer(layerKind: .emitter)
        try emitter.setFrame(Rect(x: 0, y: 0, width: width, height: 100))
        let start = mediaTime() + 100
        try emitter.set(LayerProperties.beginTime, start)
        try emitter.set(EmitterProperties.emitterPosition, Point(x: 20, y: 50))
        return (root, emitter, start)
    }

    /// 4x4 white contents.
    private func whiteImage() -> Image {
        let pixels = [UInt8](repeating: 255, count: 4 * 4 * 4)
        return try! pixels.withUnsafeBytes { try Image(width: 4, height: 4, stride: 16, format: .rgba8, pixels: $0.baseAddress!) }
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

    /// S7.4: each particle draws its own cell's contents; a cell without
    /// contents draws nothing; cells sharing an image name it once per
    /// change in the list's images, which keep every image an op names.
    /// Cells A and C show image X, D image Y, B nothing, with velocities
    /// 10, 20, 40 and 80 pt/s, so an op's cell is told by its x.
    @Test func particlesDrawTheirCellsContentsS7_4() throws {
        let (root, emitter, start) = try emitterLayer(width: 400)
        let x = whiteImage(), y = whiteImage()
        let contents: [Image?] = [x, nil, x, y]
        let velocities: [Double] = [10, 20, 40, 80]
        let cells = contents.enumerated().map { i, image -> EmitterCell in
            let cell = EmitterCell()
            cell.attributes.birthRate = 2
            cell.attributes.lifetime = 100
            cell.attributes.velocity = velocities[i]
            cell.contents = image
            return cell
        }
        try emitter.setEmitterCells(cells)
        try root.addSublayer(emitter)
        ModelLock.shared.withLock { Transaction.flush() }

        var builder = DisplayListBuilder()
        builder.buildCommitted(root: root, at: start + 1.25)
        // births at 0.5 and 1.0 s in each cell: ages 0.75 and 0.25
        #expect(builder.count == 6)
        var drawn = [0, 0, 0, 0]
        for i in 0..<builder.count {
            let op = builder.op(i)
            let along = op.transform.12 - 20
            let cell = [0.75, 0.25].lazy.compactMap { age in
                velocities.firstIndex { abs($0 * age - along) < 1e-9 }
            }.first
            guard let cell else {
                Issue.record("op \(i) at x \(op.transform.12) is no cell's")
                continue
            }
            drawn[cell] += 1
            #expect(op.image == UnsafePointer(contents[cell]?.descriptor), "op \(i) of cell \(cell)")
        }
        #expect(drawn == [2, 0, 2, 2])
        let listed = builder.currentImages
        #expect(listed.allSatisfy { $0 === x || $0 === y })
        #expect(listed.contains { $0 === x } && listed.contains { $0 === y })
        for (a, b) in zip(listed, listed.dropFirst()) { #expect(a !== b) }
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

    /// S7.4 damage over frames whose particle run changes: the run's box
    /// from the frame before is the one that frame worked out (kept, not
    /// measured again from its ops), and a frame in between whose run did
    /// not change keeps none. Particles live 0.8 s here (born at 0.5, 1.0,
    /// 1.5 s), so the box before can reach past the box now.
    @Test func particleDamageFromTheBoxKeptOfTheFrameBeforeS7_4() throws {
        let (root, start) = try scene(lifetime: 0.8)
        var builder = DisplayListBuilder()
        func frames(_ times: [Double]) -> [lk_dl_box] {
            var tracker = DamageTracker()
            return times.map { t in
                builder.buildCommitted(root: root, at: start + t)
                return tracker.damage(ops: builder.opsPointer, count: builder.count, images: builder.currentImages,
                                      width: 200, height: 100, runs: builder.variableRuns)
            }
        }
        // 0.95: x 24.5; 1.05: 25.5 and 20.5 (18.5...27.5, the run changed: this box kept);
        // 1.35: the first died at 1.3, 23.5 (21.5...25.5); before, kept: 18.5...27.5
        let kept = frames([0.95, 1.05, 1.35])
        #expect(kept[1].x == 17 && kept[1].width == 12 && kept[1].y == 47 && kept[1].height == 6)
        #expect(kept[2].x == 17 && kept[2].width == 12 && kept[2].y == 47 && kept[2].height == 6)
        // The same with 1.25 in between: 27.5 and 22.5, as many ops as at 1.05, compared op by op
        // (18.5...29.5), no box kept; at 1.35 the box before is measured from 1.25's ops, 20.5...29.5
        let measured = frames([0.95, 1.05, 1.25, 1.35])
        #expect(measured[2].x == 17 && measured[2].width == 14)
        #expect(measured[3].x == 19 && measured[3].width == 12 && measured[3].y == 47 && measured[3].height == 6)
    }
}
